"""The event the demo plays and the organizer who plays it.

Its players (:data:`NAMES`), the preset's format and ruleset with the demo's shorter
clock, the officials' choices the demo makes (and prints), and the organizer's loop: each
round is closed once every result is in, and the next one drawn and started.
"""

from __future__ import annotations

import argparse
import logging
import threading
import time
from pathlib import Path

import msgspec

from hub.competition import LanguageChosen, new_event
from hub.demo.options import Length
from hub.demo.report import print_ranking, print_seating, print_standings
from hub.exports.notes import consolation_text, tie_decision_text
from hub.exports.words import stage_label
from hub.organizer import ConsentMissingError, Organizer
from hub.store import EventStore
from hub.tournament import (
    ConsolationError,
    EventPhase,
    Player,
    RoundSeated,
    TieHow,
    TournamentError,
    TournamentFormat,
    preset,
)
from hub.tournament.format_words import describe
from hub.tournament.presets import school
from tablekit.core.errors import KitError
from tablekit.core.rulesets import Ruleset, get_ruleset
from tablekit.shared.i18n import Words

log = logging.getLogger("hub.demo")

VENUE, EVENT = "demo-hall", "demo-cup"
NAMES = (
    "Anna Nowak", "Bartek Wiśniewski", "Celina Wójcik", "Darek Kowalczyk", "Ewa Kamińska",
    "Filip Lewandowski", "Grażyna Zielińska", "Henryk Szymański", "Iga Woźniak",
    "Jacek Dąbrowski", "Kasia Kozłowska", "Łukasz Jankowski", "Magda Mazur", "Norbert Kwiatkowski",
    "Ola Krawczyk", "Paweł Piotrowski", "Róża Grabowska", "Staszek Nowakowski", "Teresa Pawłowska",
    "Urszula Michalska", "Wojtek Nowicki", "Zosia Adamczyk", "Adam Dudek", "Beata Zając",
    "Cezary Wieczorek", "Dorota Jabłońska", "Emil Król", "Franciszka Majewska", "Gabriel Olszewski",
    "Halina Jaworska", "Igor Wróbel", "Janina Malinowska",
)


def demo_format(preset_name: str, players: int, length: Length) -> TournamentFormat:
    """The preset's format; a short demo plays the school preset's first rounds only.

    Raises a TournamentError for an unknown preset or a player count it cannot play.
    """
    fmt = preset(preset_name, players=players)
    if preset_name == "school" and length.school_rounds is not None:
        fmt = school(rounds=length.school_rounds)
        fmt.check_player_count(players)
    return fmt


def demo_ruleset(preset_name: str, players: int, move_seconds: float) -> Ruleset:
    """The preset's own ruleset (its first stage's; every preset plays one ruleset
    throughout) with the demo's shorter clock: scoring and display stay the preset's.

    Raises a TournamentError for an unknown preset or a player count it cannot play.
    """
    fmt = preset(preset_name, players=players)
    base = get_ruleset(fmt.stages[0].ruleset)
    return msgspec.structs.replace(
        base,
        name="demo",
        title=f"{base.title}, {move_seconds:g} s a move (demo)",
        move_seconds=move_seconds,
    )


def judge_orders_lots(org: Organizer, words: Words) -> None:
    """The demo's officials: players left for consolation games who cannot sit at tables
    of 3 or 4 are moved up as few as need be (the organizer's choice), and every tie at
    a cut is decided by a lot the judge orders; recorded and printed (at a real event
    they may choose otherwise)."""
    event = org.competition.event
    if event.phase is EventPhase.BETWEEN_ROUNDS:
        try:
            event.draw_next(0)
        except ConsolationError as err:
            promote = err.options[0] if err.options else 0
            record = org.decide_consolation(
                promote=promote, none=not promote, why="demo: the organizer's choice"
            )
            print(f"demo: {consolation_text(record, words)}", flush=True)
        except TournamentError:
            pass  # a tie at a cut: below
    for tie in org.competition.event.pending_ties():
        record = org.decide_tie(tie.scope, tie.players, TieHow.LOT, why="demo: the judge's lot")
        print(f"demo: {tie_decision_text(org.competition, record, words)}", flush=True)


def create_event(org: Organizer, args: argparse.Namespace, length: Length, words: Words) -> None:
    """Record the demo's event (the preset's format, the demo's ruleset), register and
    check in its players, and draw and start its first round."""
    rules = {"demo": demo_ruleset(args.preset, args.players, args.move_seconds)}
    created = new_event(
        "Rummikub demo cup",
        args.preset,
        at=time.time(),
        by=org.by,
        ruleset="demo",
        rulesets=rules,
        round_minutes=args.round_minutes,
    )
    if args.preset != "league":  # the automatic league scheme is fixed at the draw
        fmt = demo_format(args.preset, args.players, length)
        created = msgspec.structs.replace(created, format=fmt)
    # the demo's language is the event's: the tables and the hub screen speak it too
    chosen = LanguageChosen(at=created.at, by=org.by, language=words.language)
    org.record(created, chosen)
    about = describe(created.format).message(words.gettext) if created.format else args.preset
    count = words.ngettext("{n} player", "{n} players", args.players)
    print(f"demo: {about}; {count.format(n=args.players)}", flush=True)
    players = [Player(org.next_player_id(i), NAMES[i]) for i in range(args.players)]
    org.register(players, check_in=True)
    first_round(org, args.seed, words)


def draw_seed(org: Organizer, seed: int | None) -> int | None:
    """``seed`` (--seed) for the first round, the next numbers for the later ones (a seed
    that drew a round would seat the same players together again)."""
    if seed is None:
        return None
    return int(seed) + len(org.competition.event.stages_played)


def first_round(org: Organizer, seed: int | None, words: Words) -> None:
    """Draw and start the event's first round, and print its seating."""
    seated = org.draw(seed=draw_seed(org, seed))
    org.start_round()
    w = words
    tables = w.ngettext("{n} table", "{n} tables", len(seated.tables))
    # Translators: players seated together again who already met in an earlier round
    pairs = w.ngettext("{n} repeated pair", "{n} repeated pairs", seated.repeats)
    print(
        w.gettext("demo: {stage} drawn ({tables}, {pairs}) and started; the seating:").format(
            stage=stage_label(seated.stage, words),
            tables=tables.format(n=len(seated.tables)),
            pairs=pairs.format(n=seated.repeats),
        ),
        flush=True,
    )
    print_seating(org, seated.tables, words)


def direct(db: Path, seed: int | None, words: Words, stop: threading.Event) -> None:
    """The organizer: close each round once every result is in, then seat the next, until
    the event is finished or ``stop`` is set (every 2 s; run in a thread of its own)."""
    org = Organizer(EventStore(db), by="organizer (demo)")
    while not stop.wait(2.0):
        if not organize(org, seed, words):
            return


def organize(org: Organizer, seed: int | None, words: Words) -> bool:
    """One look of the demo's organizer: close the round once every result is in, then
    draw and start the next; False once the event is finished. What stops it (a person
    acting at the console meanwhile) is said in the event's language, and it goes on."""
    _ = words.gettext
    try:
        state = org.competition.event
        if state.phase is EventPhase.PLAYING and state.can_close():
            stage = state.current_stage.name if state.current_stage else ""
            org.close_round()
            print(_("demo: {stage} closed: every result is in").format(
                stage=stage_label(stage, words)), flush=True)
            judge_orders_lots(org, words)
            if org.competition.event.phase is EventPhase.FINISHED:
                print_ranking(org, words)
                return False
            print_standings(org, stage, words)
        if org.competition.event.phase is EventPhase.BETWEEN_ROUNDS:
            seated = draw_admitting(org, seed, words)
            org.start_round()
            print(_("demo: {stage} drawn and started; the new seating:").format(
                stage=stage_label(seated.stage, words)), flush=True)
            print_seating(org, seated.tables, words)
    except KitError as err:
        log.warning("demo organizer: %s", err)
        print(_("demo: the organizer waits: {error}").format(error=err.message(_)), flush=True)
    return True


def draw_admitting(org: Organizer, seed: int | None, words: Words) -> RoundSeated:
    """The next draw; a minor marked without a guardian's written consent meanwhile (at
    the console) is admitted as the demo organizer's decision, recorded and said."""
    try:
        return org.draw(seed=draw_seed(org, seed))
    except ConsentMissingError as err:
        print(words.gettext(
            "demo: marked minor without a guardian's written consent: {ids}; the demo's "
            "organizer admits them (the decision is recorded) and draws"
        ).format(ids=", ".join(err.missing)), flush=True)
        return org.draw(seed=draw_seed(org, seed), admit_minors=True)

