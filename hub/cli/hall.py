"""``rummikub hall``: the hall's Raspberry Pis. ``hall cards`` writes every table's and the
hub's SD card files (:mod:`hub.cards`) with the venue's credentials bundle beside them."""

from __future__ import annotations

import argparse
import getpass
import sys
from pathlib import Path

from hub.cards import CardSettings, hub_card, table_cards, units_of, write_cards
from hub.cli.common import CliError, Ctx
from hub.credentials import renew_bundle
from tablekit.core.topics import TopicNameError, Topics
from tablekit.core.words import N_


def wifi_password(ctx: Ctx) -> str:
    """Asked without echo at a terminal, else the first line of the standard input (a
    password on the command line would stay in the shell's history)."""
    if sys.stdin.isatty():
        return getpass.getpass(ctx.words.gettext("The Wi-Fi password (empty: an open network): "))
    return sys.stdin.readline().rstrip("\r\n")


def ssh_key(path: Path | None) -> str:
    if path is None:
        return ""
    text = path.read_text(encoding="utf-8").strip()
    if "PRIVATE KEY" in text:
        raise CliError(
            N_("{file} is a private key: give the public one ({file}.pub)"), file=path
        )
    return text


def cmd_hall_cards(ctx: Ctx, args: argparse.Namespace) -> int:
    _ = ctx.words.gettext
    wheelhouse: Path = args.wheelhouse
    if not (wheelhouse / "simple" / "index.html").is_file():
        raise CliError(
            N_("{folder}: no package index in it; make it with ./kit wheelhouse (with "
               "internet), then give it with --wheelhouse"),
            folder=wheelhouse,
        )
    try:
        topics = Topics(args.venue, args.event)
    except TopicNameError as err:
        raise CliError(err.template, **err.values) from None
    settings = CardSettings(
        wifi_ssid=args.wifi, wifi_password=wifi_password(ctx), wifi_country=args.wifi_country,
        user=args.user, ssh_key=ssh_key(args.ssh_key), hub_host=args.host,
    )
    out: Path = args.out
    bundle = renew_bundle(out / "bundle", topics, args.tables, host=args.host)
    files = table_cards(units_of(bundle.files), settings) | hub_card(bundle.files, settings)
    write_cards(files, out / "cards", wheelhouse)
    ctx.print(
        _("{out}: the cards of the hub and of {tables} tables, each in a folder of its own")
        .format(out=out / "cards", tables=args.tables),
        _("  copy a folder's contents onto the boot partition of a card written with "
          "Raspberry Pi OS Lite (64-bit), put the card in the Pi and switch it on;"),
        _("  the hub first, then the tables: each installs the kit from the hub and appears "
          "on the hall check"),
        _("  {bundle}: every secret (accounts.tsv); keep it, and give the same folder "
          "again for more tables").format(bundle=out / "bundle"),
    )
    return 0
