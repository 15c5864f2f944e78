"""The organizer's event and players pages (an organizer's login): create the event from
a preset and see its settings, the privacy setting, erasing the personal data after the
event; the players — upload the spreadsheet file, add one, rename, check in many at once,
late arrivals, withdrawals, minors and a guardian's written consent.

Every action calls the same :class:`~hub.organizer.Organizer` function the command line
calls (:mod:`hub.cli.event`, :mod:`hub.cli.players`), on the same event store, opened as
the command line opens it with the signed-in organizer's name as who acted: no rule is
implemented twice. A refused action shows the kit's error next to the field it concerns,
the form as it was typed, and nothing reaches the store; a change redirects to its page
(POST, then GET) saying what it did.
"""

from __future__ import annotations

import secrets
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Final, TypeVar

from starlette.concurrency import run_in_threadpool
from starlette.datastructures import FormData, UploadFile
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import BaseRoute, Route

from hub.competition import Competition, NameShown
from hub.exports.lists import change_details, status_of
from hub.exports.words import phase_label, status_word
from hub.organizer import ConsentMissingError, Organizer, PlayerEntryError
from hub.players_csv import (
    MAX_FILE_BYTES,
    PlayersCsvError,
    RowProblem,
    new_players,
    parse_players_csv,
    rating_of,
    too_large,
)
from hub.players_report import (
    added_line,
    change_lines,
    import_lines,
    late_line,
    minor_line,
    minors_of,
    withdrawn_line,
)
from hub.privacy import NAME_SHOWN_WORDS
from hub.store import EventStore
from hub.tournament import PRESET_NAMES, player_order, preset
from hub.tournament.format_words import describe
from hub.web.auth import posted_form, signed_in
from hub.web.organizer import organizer_page, the_event
from hub.web.pages import PageError, Pages, link
from tablekit.core.errors import KitError
from tablekit.core.gender import LETTERS, Gender
from tablekit.shared.i18n import LANGUAGES, Words

T = TypeVar("T")

FLASHES: Final = 256
"""Confirmations kept for the page a change redirects to (the oldest go first)."""
ENCODINGS: Final = ("", "utf-8", "cp1250", "iso8859-2", "utf-16")
"""The players file's encodings the upload form offers ("": detected)."""


@dataclass
class Form:
    """A form as typed, and what is wrong with it: ``errors`` by field ("" for the form
    as a whole)."""

    values: Mapping[str, str] = field(default_factory=dict)
    errors: dict[str, str] = field(default_factory=dict)
    rows: Sequence[RowProblem] = ()
    """The players file's rows that are wrong, each with its error."""
    admit: Sequence[str] = ()
    """Minors the organizer may admit without a recorded consent (the kit asks)."""

    def __bool__(self) -> bool:
        return bool(self.errors or self.rows)


class FormError(Exception):
    """An action the kit refused: the form shown again with the error at its field."""

    def __init__(self, form: Form) -> None:
        super().__init__(form.errors)
        self.form = form


def refused(
    values: Mapping[str, str],
    *,
    rows: Sequence[RowProblem] = (),
    admit: Sequence[str] = (),
    **errors: str,
) -> FormError:
    """The form as typed shown again, with ``errors`` by field (and the wrong rows of a
    players file, or the minors the organizer may admit)."""
    return FormError(Form(values, dict(errors), rows, admit))


def refused_at(values: Mapping[str, str], field: str, message: str) -> FormError:
    """The form as typed shown again, ``message`` beside ``field``."""
    return FormError(Form(values, {field: message}))


def _text(form: FormData, name: str) -> str:
    value = form.get(name, "")
    return value if isinstance(value, str) else ""


def _gender(values: Mapping[str, str], w: Words) -> Gender | None:
    """The gender chosen in a form (its select's values: "", f, m, n); "" is none given."""
    chosen = values["gender"]
    if not chosen:
        return None
    try:
        return Gender(chosen)
    except ValueError:
        raise refused(values, gender=w.gettext("Choose one.")) from None


class PlayersArea:
    """The pages of this area over the console's :class:`~hub.web.pages.Pages`."""

    def __init__(self, pages: Pages) -> None:
        self.pages = pages
        self._flashes: OrderedDict[str, tuple[str, ...]] = OrderedDict()

    # -- what every action shares -----------------------------------------------------------

    def organizer(self, request: Request) -> Organizer:
        """The event store opened as the command line opens it, with the signed-in
        organizer as who acts (the record says who)."""
        user = signed_in(request)
        by = user.signature if user is not None else ""
        return Organizer(EventStore(self.pages.console.reader.db), by=by)

    async def act(self, request: Request, action: Callable[[Organizer], T]) -> T:
        """``action`` on the event store in a worker thread (SQLite blocks), closed after."""

        def run() -> T:
            org = self.organizer(request)
            try:
                return action(org)
            finally:
                org.store.close()

        return await run_in_threadpool(run)

    def done(self, request: Request, path: str, *lines: str) -> Response:
        """Redirect to ``path`` (POST, then GET), which shows ``lines``: what was done."""
        token = secrets.token_urlsafe(9)
        self._flashes[token] = lines
        while len(self._flashes) > FLASHES:
            self._flashes.popitem(last=False)
        url = link(self.pages.language(request), _event_language(self.pages))(path, done=token)
        return RedirectResponse(url, status_code=303)

    def flash(self, request: Request) -> tuple[str, ...]:
        return self._flashes.get(request.query_params.get("done", ""), ())

    def competition(self) -> Competition | None:
        comp = self.pages.console.reader.competition()
        return None if comp is None or comp.created is None else comp

    def event(self, request: Request) -> Competition:
        """The event, which the players' pages need (404 before it is created)."""
        return the_event(self.pages, request)

    # -- the event --------------------------------------------------------------------------

    def event_page(self, request: Request, form: Form | None = None, status: int = 200) -> Response:
        w = self.pages.words(request)
        comp = self.competition()
        return self.pages.render(
            request, "players_event.html", status,
            form=form or Form(), flash=self.flash(request),
            presets=preset_choices(w), languages=LANGUAGES, settings=_settings(comp, w),
            privacy_words={k: w.gettext(v) for k, v in NAME_SHOWN_WORDS.items()},
            shown=None if comp is None else comp.names_shown,
        )

    async def create_event(self, request: Request) -> Response:
        form = await posted_form(request)
        w = self.pages.words(request)
        values = {k: _text(form, k) for k in ("name", "preset", "language", "privacy", "minutes")}
        typed = Form(values)
        if values["preset"] not in PRESET_NAMES:
            typed.errors["preset"] = w.gettext("Choose one of the presets.")
        minutes: float | None = None
        if values["minutes"].strip():
            try:
                minutes = float(values["minutes"].replace(",", "."))
            except ValueError:
                typed.errors["minutes"] = w.gettext("A round's time is a number of minutes.")
        if typed:
            return self.event_page(request, typed, 400)

        def create(org: Organizer) -> str:
            if org.competition.created is not None:
                raise refused(values, name=w.gettext("The event already exists."))
            try:
                org.create_event(
                    values["name"], values["preset"], round_minutes=minutes,
                    language=values["language"] or "pl",
                    privacy=NameShown(values["privacy"] or NameShown.FULL),
                )
            except (KitError, ValueError) as err:
                where = "minutes" if "round's time" in str(err) else "name"
                raise refused_at(values, where, _said(err, w)) from None
            created = org.competition.created
            return created.name if created is not None else ""

        try:
            name = await self.act(request, create)
        except FormError as refusal:
            return self.event_page(request, refusal.form, 400)
        return self.done(request, "/organizer/event",
                         w.gettext("Created the event {name}").format(name=name))

    async def privacy(self, request: Request) -> Response:
        form = await posted_form(request)
        w = self.pages.words(request)
        self.event(request)
        values = {"names": _text(form, "names"), "why": _text(form, "why")}
        try:
            names = NameShown(values["names"])
        except ValueError:
            return self.event_page(
                request, Form(values, {"names": w.gettext("Choose how names are shown.")}), 400
            )
        chosen = await self.act(request, lambda org: org.choose_privacy(names, why=values["why"]))
        return self.done(request, "/organizer/event", w.gettext(
            "Names on public pages: {setting}; the public pages, the hub screen and the exports "
            "for publication show them so from now on").format(
                setting=w.gettext(NAME_SHOWN_WORDS[chosen.names])))

    async def erase(self, request: Request) -> Response:
        form = await posted_form(request)
        w = self.pages.words(request)
        self.event(request)
        typed = _text(form, "confirm")
        values = {"confirm": typed}

        def erase(org: Organizer) -> list[str]:
            try:
                done = org.erase_personal_data(confirm=typed)
            except KitError as err:
                raise refused(values, confirm=err.message(w.gettext)) from None
            lines = [w.ngettext(
                "Personal data of {n} player erased: every name and club is the player's id "
                "now, results and standings stay ({rewritten} stored records rewritten)",
                "Personal data of {n} players erased: every name and club is the player's id "
                "now, results and standings stay ({rewritten} stored records rewritten)",
                done.record.players).format(n=done.record.players, rewritten=done.rewritten)]
            if done.compacted:
                lines.append(
                    w.gettext("The event file was copied anew: no page of it keeps a name")
                )
            else:
                lines.append(w.gettext(
                    "Another program (the hub) was reading the event file: erase again once it "
                    "has stopped to copy the file anew"))
            lines.append(w.gettext(
                "Files made before (exports, archives, backup copies on other disks) still "
                "hold the names: delete them"))
            return lines

        try:
            lines = await self.act(request, erase)
        except FormError as refusal:
            return self.event_page(request, refusal.form, 400)
        return self.done(request, "/organizer/event", *lines)

    # -- the players ------------------------------------------------------------------------

    def players_page(
        self, request: Request, form: Form | None = None, status: int = 200, which: str = ""
    ) -> Response:
        comp = self.competition()
        if comp is None:  # nobody to list before the event exists: its page creates it
            url = link(self.pages.language(request), _event_language(self.pages))
            return RedirectResponse(url("/organizer/event"), status_code=303)
        event = comp.event
        w = self.pages.words(request)
        players = sorted(event.players.values(), key=player_order)
        return self.pages.render(
            request, "players_list.html", status,
            form=form or Form(), which=which, flash=self.flash(request), players=players,
            status_of={p.id: status_of(event, p.id) for p in players},
            status_word=lambda p: status_word(status_of(event, p.id), w, p.grammatical_gender),
            gender_letter=lambda p: w.pgettext(*LETTERS[p.grammatical_gender]), empty=Form(),
            row_message=lambda row: row.error.message(w.gettext),
            drawn=bool(event.stages_played), present=len(event.present),
            encodings=ENCODINGS, most=MAX_FILE_BYTES // 1000,
        )

    async def upload(self, request: Request) -> Response:
        form = await posted_form(request)
        w = self.pages.words(request)
        self.event(request)
        upload = form.get("file")
        encoding = _text(form, "encoding")
        check_in = _text(form, "check_in") == "on"
        values = {"encoding": encoding, "check_in": "on" if check_in else ""}
        if not isinstance(upload, UploadFile) or not upload.filename:
            return self.players_page(request, Form(values, {"file": w.gettext(
                "Choose the players' file (CSV) to upload.")}), 400, "upload")
        source = upload.filename
        if upload.size is not None and upload.size > MAX_FILE_BYTES:  # said with its size
            return self.players_page(request, Form(values, {"file": too_large(
                source, upload.size).message(w.gettext)}), 400, "upload")
        data = await upload.read(MAX_FILE_BYTES + 1)

        def register(org: Organizer) -> list[str]:
            try:
                parsed = parse_players_csv(data, source, encoding or None)
                players = new_players(parsed.players, org.competition.event.players,
                                      org.next_player_id, source)
                late = org.register(players, check_in=check_in,
                                    minors=minors_of(parsed, players))
            except PlayersCsvError as err:
                if err.rows:
                    raise refused(values, rows=err.rows) from None
                raise refused(values, file=err.message(w.gettext)) from None
            except KitError as err:
                raise refused(values, file=err.message(w.gettext)) from None
            read_as = (
                w.gettext("Read as {encoding} (as chosen)") if encoding
                else w.gettext("Read as {encoding} (detected; choose the encoding to read it "
                               "otherwise)")
            ).format(encoding=w.gettext(parsed.encoding_label))
            return import_lines(w, parsed, players, source=source, late=late,
                                check_in=check_in, encoding_line=read_as)

        try:
            lines = await self.act(request, register)
        except FormError as refusal:
            return self.players_page(request, refusal.form, 400, "upload")
        return self.done(request, "/organizer/players", *lines)

    async def add(self, request: Request) -> Response:
        form = await posted_form(request)
        w = self.pages.words(request)
        self.event(request)
        names = ("name", "surname", "club", "league_number", "rating", "gender", "check_in")
        values = {k: _text(form, k) for k in names}
        typed = Form(values)
        try:
            rating = rating_of(values["rating"])
        except (KitError, ValueError) as err:
            typed.errors["rating"] = _said(err, w)
            return self.players_page(request, typed, 400, "add")
        try:
            gender = _gender(values, w)
        except FormError as refusal:
            return self.players_page(request, refusal.form, 400, "add")

        def add(org: Organizer) -> str:
            try:
                player, late = org.add_player(
                    values["name"], surname=values["surname"], club=values["club"] or None,
                    rating=rating, league_number=values["league_number"], gender=gender,
                    check_in=values["check_in"] == "on",
                )
            except PlayerEntryError as err:
                raise refused_at(values, err.field, err.message(w.gettext)) from None
            except KitError as err:
                raise refused(values, name=err.message(w.gettext)) from None
            return added_line(w, player, late, values["check_in"] == "on")

        try:
            line = await self.act(request, add)
        except FormError as refusal:
            return self.players_page(request, refusal.form, 400, "add")
        return self.done(request, "/organizer/players", line)

    async def arrive(self, request: Request) -> Response:
        """Check in the players ticked (before the first draw), or record them as late
        arrivals (after it), in one commit."""
        form = await posted_form(request)
        w = self.pages.words(request)
        comp = self.event(request)
        registered = [pid for pid in sorted(comp.event.players)
                      if status_of(comp.event, pid) == "registered"]
        ticked_ids = {v for v in form.getlist("player") if isinstance(v, str)}
        everyone = _text(form, "which") == "all"
        ids = registered if everyone else [p for p in registered if p in ticked_ids]
        admit = _text(form, "admit") == "on"
        if not ids:
            return self.players_page(request, Form({}, {"arrive": w.gettext(
                "Tick the players who are here.")}), 400, "arrive")
        drawn = bool(comp.event.stages_played)
        ticked = {"player": ",".join(ids)}

        def arrive(org: Organizer) -> list[str]:
            missing = org.competition.without_consent(ids) if admit else []
            try:
                if drawn:
                    org.late_arrivals(ids, admit_minors=admit)
                else:
                    org.check_in(ids, admit_minors=admit)
            except ConsentMissingError as err:
                raise refused(ticked, admit=err.missing, arrive=err.message(w.gettext)) from None
            except KitError as err:
                raise refused(ticked, arrive=err.message(w.gettext)) from None
            present = len(org.competition.event.present)
            lines = [
                w.gettext("Recorded as late arrivals: {ids}; they play from the next draw "
                          "for everyone present").format(ids=", ".join(ids))
                if drawn else
                w.gettext("Checked in {n}: {ids}; {present} present").format(
                    n=len(ids), ids=", ".join(ids), present=present)
            ]
            if missing:
                lines.append(w.gettext(
                    "Admitted without a guardian's written consent recorded (the organizer's "
                    "decision, recorded): {ids}").format(ids=", ".join(missing)))
            return lines

        try:
            lines = await self.act(request, arrive)
        except FormError as refusal:
            return self.players_page(request, refusal.form, 400, "arrive")
        return self.done(request, "/organizer/players", *lines)

    async def minors(self, request: Request) -> Response:
        """Record for every ticked player whether they are minors and whether a guardian's
        written consent is received (003 §8), in one commit."""
        form = await posted_form(request)
        w = self.pages.words(request)
        self.event(request)
        ids = [v for v in form.getlist("player") if isinstance(v, str)]
        choice = _text(form, "minor")
        values = {"player": ",".join(ids), "minor": choice}
        if not ids:
            return self.players_page(request, Form(values, {"minors": w.gettext(
                "Tick the players first.")}), 400, "minors")
        if choice not in ("adult", "minor", "consent"):
            return self.players_page(request, Form(values, {"minors": w.gettext(
                "Choose one.")}), 400, "minors")

        def record(org: Organizer) -> list[str]:
            try:
                org.record_minor(ids, minor=choice != "adult", consent=choice == "consent")
            except KitError as err:
                raise refused(values, minors=err.message(w.gettext)) from None
            return [minor_line(w, ids, adult=choice == "adult", consent=choice == "consent")]

        try:
            lines = await self.act(request, record)
        except FormError as refusal:
            return self.players_page(request, refusal.form, 400, "minors")
        return self.done(request, "/organizer/players", *lines)

    # -- one player -------------------------------------------------------------------------

    def player_page(
        self, request: Request, form: Form | None = None, status: int = 200, which: str = ""
    ) -> Response:
        comp = self.event(request)
        pid = request.path_params["pid"]
        player = comp.event.players.get(pid)
        if player is None:
            w = self.pages.words(request)
            raise PageError(404, w.gettext("No player {id} is registered.").format(id=pid))
        minor = comp.minors.get(pid)
        w = self.pages.words(request)
        return self.pages.render(
            request, "players_player.html", status,
            form=form or Form(), which=which, flash=self.flash(request), player=player,
            state=status_of(comp.event, pid), drawn=bool(comp.event.stages_played),
            status_word=lambda p: status_word(status_of(comp.event, p.id), w,
                                              p.grammatical_gender),
            change_text=lambda c: " → ".join(change_details(c.before, c.after, w)),
            empty=Form(),
            minor="consent" if minor and minor.minor and minor.consent
            else "minor" if minor and minor.minor else "adult",
            changes=comp.changes_of(pid),
        )

    async def player_action(self, request: Request) -> Response:
        form = await posted_form(request)
        w = self.pages.words(request)
        comp = self.event(request)
        pid = request.path_params["pid"]
        action = request.path_params["action"]
        if pid not in comp.event.players:
            raise PageError(404, w.gettext("No player {id} is registered.").format(id=pid))
        fields = ("name", "surname", "club", "league_number", "gender", "why", "reason",
                  "minor", "admit")
        values = {k: _text(form, k) for k in fields}
        handlers: dict[str, Callable[[Organizer], list[str]]] = {
            "rename": lambda org: self._rename(org, pid, values, w),
            "late": lambda org: self._late(org, pid, values, w),
            "withdraw": lambda org: self._withdraw(org, pid, values, w),
            "minor": lambda org: self._minor(org, pid, values, w),
        }
        handler = handlers.get(action)
        if handler is None:
            raise PageError(404, w.gettext("No such action."))
        try:
            lines = await self.act(request, handler)
        except FormError as refusal:
            return self.player_page(request, refusal.form, 400, action)
        return self.done(request, f"/organizer/players/{pid}", *lines)


    def _rename(self, org: Organizer, pid: str, values: Mapping[str, str], w: Words) -> list[str]:
        old = org.competition.event.players[pid]
        club = values["club"].strip()
        gender = _gender(values, w)
        try:
            change = org.change_player(
                pid, why=values["why"], name=values["name"], surname=values["surname"],
                club=club or None, clear_club=not club and old.club is not None,
                league_number=values["league_number"], gender=gender,
            )
        except PlayerEntryError as err:
            raise refused_at(values, err.field, err.message(w.gettext)) from None
        except KitError as err:
            field = "why" if not values["why"].strip() else "name"
            raise refused_at(values, field, err.message(w.gettext)) from None
        return change_lines(w, change)

    def _late(self, org: Organizer, pid: str, values: Mapping[str, str], w: Words) -> list[str]:
        admit = values["admit"] == "on"
        try:
            if org.competition.event.stages_played:
                org.late_arrivals([pid], admit_minors=admit)
                return [late_line(w, org.competition.event.players[pid])]
            org.check_in([pid], admit_minors=admit)
        except ConsentMissingError as err:
            raise refused(values, admit=err.missing, late=err.message(w.gettext)) from None
        except KitError as err:
            raise refused(values, late=err.message(w.gettext)) from None
        return [w.gettext("Checked in {n}: {ids}; {present} present").format(
            n=1, ids=pid, present=len(org.competition.event.present))]

    def _withdraw(self, org: Organizer, pid: str, values: Mapping[str, str], w: Words) -> list[str]:
        reason = values["reason"].strip()
        try:
            org.withdraw(pid, reason)
        except KitError as err:
            raise refused(values, reason=err.message(w.gettext)) from None
        return [withdrawn_line(w, org.competition.event.players[pid], reason)]

    def _minor(self, org: Organizer, pid: str, values: Mapping[str, str], w: Words) -> list[str]:
        choice = values["minor"]
        if choice not in ("adult", "minor", "consent"):
            raise refused(values, minor=w.gettext("Choose one."))
        try:
            org.record_minor([pid], minor=choice != "adult", consent=choice == "consent",
                             why=values["why"])
        except KitError as err:
            raise refused(values, minor=err.message(w.gettext)) from None
        return [minor_line(w, [pid], adult=choice == "adult", consent=choice == "consent")]


def routes(pages: Pages) -> list[BaseRoute]:
    area = PlayersArea(pages)
    return [
        Route("/organizer/event", organizer_page(pages, area.event_page), methods=["GET"]),
        Route("/organizer/event", organizer_page(pages, area.create_event), methods=["POST"]),
        Route("/organizer/event/privacy", organizer_page(pages, area.privacy), methods=["POST"]),
        Route("/organizer/event/erase", organizer_page(pages, area.erase), methods=["POST"]),
        Route("/organizer/players", organizer_page(pages, area.players_page), methods=["GET"]),
        Route("/organizer/players/upload", organizer_page(pages, area.upload),
              methods=["POST"]),
        Route("/organizer/players/add", organizer_page(pages, area.add), methods=["POST"]),
        Route("/organizer/players/minors", organizer_page(pages, area.minors), methods=["POST"]),
        Route("/organizer/players/arrive", organizer_page(pages, area.arrive),
              methods=["POST"]),
        Route("/organizer/players/{pid}", organizer_page(pages, area.player_page),
              methods=["GET"]),
        Route("/organizer/players/{pid}/{action}", organizer_page(pages, area.player_action),
              methods=["POST"]),
    ]


# --- words ---------------------------------------------------------------------------------


def preset_choices(w: Words) -> list[tuple[str, str]]:
    """Every preset with its description in the reader's language (its name, which the
    command line's --preset takes, is the form's value)."""
    out = []
    for name in PRESET_NAMES:
        if name == "league":
            label = w.gettext("League tournament (003): its scheme chosen at the first draw "
                              "by the number of players present")
        else:
            label = describe(preset(name)).message(w.gettext)
        out.append((name, label))
    return out


def _settings(comp: Competition | None, w: Words) -> list[tuple[str, str]] | None:
    """The event's settings as label and value, in the reader's language (None: no event)."""
    if comp is None or comp.created is None:
        return None
    _ = w.gettext
    created, event = comp.created, comp.event
    minutes = created.round_minutes
    minors = [pid for pid in event.players if comp.is_minor(pid)]
    return [
        (_("Name"), created.name),
        (_("Format"), describe(event.format).message(_) if comp.fixed else _(
            "league scheme chosen at the first draw by the players present")),
        (_("Language"), _("Polish (pl)") if comp.language == "pl" else _("English (en)")),
        (_("Names on public pages"), _(NAME_SHOWN_WORDS[comp.names_shown])),
        (_("Round time"), _("{minutes} min").format(minutes=f"{minutes:g}") if minutes
         else _("no limit")),
        (_("Players"), _("{registered} registered, {present} present, {withdrawn} withdrawn")
         .format(registered=len(event.players), present=len(event.present),
                 withdrawn=len(event.withdrawn))),
        (_("Minors"), _("{minors}, a guardian's written consent recorded for {consent}").format(
            minors=len(minors), consent=sum(1 for pid in minors if comp.minors[pid].consent))),
        (_("Phase"), phase_label(event.phase, w)),
    ]


def _said(err: Exception, w: Words) -> str:
    return err.message(w.gettext) if isinstance(err, KitError) else str(err)


def _event_language(pages: Pages) -> str:
    comp = pages.console.reader.competition()
    return "pl" if comp is None else comp.language
