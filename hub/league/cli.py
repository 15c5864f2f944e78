"""``rummikub-league``: the central league service and its broker files.

::

    rummikub-league venues --league liga --host central.example.org --venue krakow \\
        --venue gdansk --out DIR        # the central broker's files, each venue's bridge
    rummikub-league serve --league liga --db league.sqlite3 --broker 127.0.0.1:1883 \\
        --username league --password-file FILE [--ticket-holder NUMBER …] \\
        [--web HOST:PORT --accounts central/web-accounts.toml] [--site DIR]
    rummikub-league site --league liga --db league.sqlite3 --out DIR   # the static site
    rummikub-league identities --db league.sqlite3 [--out FILE]   # open questions, answers

docs/league.md says how a league is set up with it.
"""

from __future__ import annotations

import argparse
import logging
import signal
import sys
import threading
from collections.abc import Sequence
from pathlib import Path

import uvicorn

from hub.config import HubConfigError, parse_broker
from hub.credentials import CredentialsError, read_known, write_bundle
from hub.league.bridge import CentralBroker, league_accounts, league_bundle
from hub.league.central import Central
from hub.league.identity import decisions_json
from hub.league.service import LeagueService
from hub.league.site import write_site
from hub.league.web import CentralSite, make_central_app
from hub.web.accounts import read_accounts
from hub.web.sessions import Gate
from tablekit.core.errors import KitError
from tablekit.shared.broker import BrokerSettings
from tablekit.shared.commandline import lang_option, parse_in_language, refused
from tablekit.shared.i18n import Words

PROG = "rummikub-league"


def build_parser(w: Words) -> argparse.ArgumentParser:
    _ = w.gettext
    parser = argparse.ArgumentParser(prog=PROG, description=_("The central league service."))
    sub = parser.add_subparsers(dest="command", required=True, metavar=_("COMMAND"))
    venues = sub.add_parser("venues", help=_("the central broker's files and each venue's bridge"))
    lang_option(venues, w)
    venues.add_argument("--league", required=True, help=_("topic level: the league"))
    venues.add_argument("--host", required=True, help=_("the central as the venues reach it"))
    venues.add_argument("--venue", action="append", required=True, help=_("a venue (repeat it)"))
    venues.add_argument("--out", type=Path, required=True, help=_("bundle directory"))
    serve = sub.add_parser("serve", help=_("run the central league service"))
    lang_option(serve, w)
    serve.add_argument("--league", required=True, help=_("topic level: the league"))
    serve.add_argument("--db", type=Path, required=True, help=_("the league store"))
    serve.add_argument("--broker", default="127.0.0.1:1883", metavar="HOST:PORT",
                       help=_("the central broker's loopback listener"))
    serve.add_argument("--username", default="league", help=_("broker account"))
    serve.add_argument("--password-file", help=_("file holding the account's password"))
    serve.add_argument("--ticket-holder", action="append", default=[], metavar="NUMBER",
                       help=_("a league number that holds a Polish championship ticket "
                              "already (repeat it)"))
    serve.add_argument("--title", default="",
                       help=_("the league's name on its pages, e.g. 'Liga Rummikub 2026'"))
    serve.add_argument("--web", metavar="HOST:PORT",
                       help=_("serve the league's pages there (results, the season table; "
                              "the organizer's and partners' sign-in)"))
    serve.add_argument("--accounts", type=Path,
                       help=_("the pages' accounts (the bundle's central/web-accounts.toml)"))
    serve.add_argument("--site", type=Path, metavar="DIR",
                       help=_("write the public pages as a static site there, anew on every "
                              "change"))
    site = sub.add_parser("site", help=_("write the public pages as a static site"))
    lang_option(site, w)
    site.add_argument("--league", required=True, help=_("topic level: the league"))
    site.add_argument("--db", type=Path, required=True, help=_("the league store"))
    site.add_argument("--out", type=Path, required=True, help=_("the site's folder"))
    site.add_argument("--title", default="",
                      help=_("the league's name on its pages, e.g. 'Liga Rummikub 2026'"))
    site.add_argument("--ticket-holder", action="append", default=[], metavar="NUMBER",
                      help=_("a league number that holds a Polish championship ticket "
                             "already (repeat it)"))
    ids = sub.add_parser("identities", help=_("the open name questions, and the answers file"))
    lang_option(ids, w)
    ids.add_argument("--db", type=Path, required=True, help=_("the league store"))
    ids.add_argument("--out", type=Path, help=_("write the answers for season table "
                                               "--identities"))
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    w, _, args = parse_in_language(list(sys.argv[1:] if argv is None else argv), build_parser)
    logging.basicConfig(
        level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    try:
        if args.command == "venues":
            return _venues(args, w)
        if args.command == "identities":
            return _identities(args, w)
        if args.command == "site":
            central = Central(args.league, args.db, ticket_holders=args.ticket_holder,
                              title=args.title)
            written = write_site(central, args.out)
            print(w.ngettext("{out}: {n} file", "{out}: {n} files", written).format(
                out=args.out, n=written))
            return 0
        return _serve(args)
    except (KitError, OSError) as err:
        return refused(PROG, err, w)


def _venues(args: argparse.Namespace, w: Words) -> int:
    known = read_known(args.out / "accounts.tsv")
    accounts = league_accounts(args.venue, known)
    web = args.out / "central/web-accounts.toml"
    hashes = {a.name: a.hash for a in read_accounts(web).values()} if web.is_file() else {}
    bundle = league_bundle(args.league, args.venue, accounts, host=args.host,
                           broker=CentralBroker(), web_hashes=hashes)
    written = write_bundle(bundle, args.out)
    print(w.ngettext("{out}: {n} file", "{out}: {n} files", len(written)).format(
        out=args.out, n=len(written)))
    return 0


def _identities(args: argparse.Namespace, w: Words) -> int:
    central = Central("", args.db)
    season = central.season()
    for q in season.identities.questions:
        print(w.gettext("{entry} {name}: the same as {candidates}?").format(
            entry=q.entry.ref, name=q.entry.name,
            candidates=", ".join(f"{c.ref} {c.name}" for c in q.candidates)))
    if args.out is not None:
        args.out.write_bytes(decisions_json(central.store.decisions()))
    return 0


def _serve(args: argparse.Namespace) -> int:
    try:
        host, port = parse_broker(args.broker)
    except HubConfigError as err:
        raise CredentialsError(err.template, **err.values) from None
    broker = BrokerSettings(host=host, port=port, username=args.username,
                            password_file=args.password_file)
    central = Central(args.league, args.db, ticket_holders=args.ticket_holder,
                      title=args.title)
    site_dir: Path | None = args.site

    def changed() -> None:
        if site_dir is not None:
            write_site(central, site_dir)

    service = LeagueService(broker, central, changed=changed)
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    signal.signal(signal.SIGINT, lambda *_: stop.set())
    service.start()
    server = None
    if args.web:
        web_host, web_port = parse_broker(args.web)
        app = make_central_app(CentralSite(central, Gate(args.accounts), service.republish))
        server = uvicorn.Server(uvicorn.Config(app, host=web_host, port=web_port,
                                               log_level="warning",
                                               timeout_graceful_shutdown=2))
        threading.Thread(target=server.run, name="league-web", daemon=True).start()
    try:
        stop.wait()
    finally:
        if server is not None:
            server.should_exit = True
        service.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
