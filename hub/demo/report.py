"""What the demo prints about the event: standings, seatings, the final ranking, and
where to follow it from another terminal. Every line in the reader's language."""

from __future__ import annotations

import shutil
from collections.abc import Sequence
from pathlib import Path

from hub.exports.words import stage_label, title_label
from hub.organizer import Organizer
from hub.tournament import SeatedTable
from tablekit.core.errors import quoted
from tablekit.core.topics import Topics
from tablekit.shared.i18n import Words


def points(words: Words) -> tuple[str, str]:
    """The abbreviations of big and small points, as the standings print them."""
    # Translators: the rule books' duże punkty and małe punkty (docs/glossary.md)
    return (words.pgettext("abbreviation of big points", "BP"),
            words.pgettext("abbreviation of small points", "SP"))


def print_standings(org: Organizer, stage: str, words: Words) -> None:
    """The standings after ``stage``: place, name, points and games played."""
    state = org.competition.event
    w = words
    big, small = points(words)
    print(w.gettext("demo: standings after {stage}:").format(stage=stage_label(stage, words)),
          flush=True)
    for row in state.standings(stage).rows:
        name = state.players[row.player_id].name
        games = w.ngettext("{n} game", "{n} games", row.games).format(n=row.games)
        print(f"  {row.place:>3}. {name:<24} {big} {row.big:>2}  {small} {row.small:>+5}  "
              f"{games}", flush=True)


def print_seating(org: Organizer, tables: Sequence[SeatedTable], words: Words) -> None:
    """Who sits at each table, seat by seat."""
    players = org.competition.event.players
    for table in tables:
        names = ", ".join(
            f"{seat} {players[pid].name}"
            for seat, pid in zip("ABCD", table.players, strict=False)
        )
        line = words.gettext("table {number}: {players}")
        print("  " + line.format(number=table.number, players=names), flush=True)


def print_ranking(org: Organizer, words: Words) -> None:
    """The final ranking of a finished event."""
    state = org.competition.event
    big, small = points(words)
    print(words.gettext("demo: the event is finished. Final ranking:"), flush=True)
    for row in state.final_ranking():
        player = state.players[row.player_id]
        shown = row.shown_title
        said = title_label(shown, words, player.grammatical_gender) if shown else ""
        title = f"  ({said})" if said else ""
        name = player.name
        print(
            f"  {row.place:>3}. {name:<24} {big} {row.big:>2}  {small} {row.small:>+5}{title}"
        )


def follow_text(host: str, port: int, topics: Topics, workdir: Path, words: Words) -> str:
    """Where the demo publishes and the commands that follow it from another terminal."""
    _ = words.gettext
    db = workdir.resolve() / "hub.sqlite3"
    where = f"--broker {host}:{port} --venue {topics.venue} --event {topics.event}"
    clients = "" if shutil.which("mosquitto_sub") else "  (apt install mosquitto-clients)"
    commands = [
        (_("follow it live:"), f"mosquitto_sub -h {host} -p {port} -v -t '{topics.base}/#'"
                               f"{clients}"),
        (_("the hub screen:"), f"{kit_command('rummikub-screen')} {where}"),
        (_("round status:"), f"{kit_command('rummikub')} round status --db {db} {where}"
                             f" --lang {words.language}"),
    ]
    width = max(len(label) for label, _command in commands) + 2
    heading = _("demo: venue {venue}, event {event}: every message under {topic}").format(
        venue=quoted(topics.venue).message(_), event=quoted(topics.event).message(_),
        topic=f"{topics.base}/",
    )
    return "\n".join([heading, *(f"  {label:<{width}}{command}" for label, command in commands)])


def kit_command(program: str) -> str:
    """How to run one of the kit's programs from any folder: through the source tree's
    ``kit`` script when the demo runs from one, else the installed program itself."""
    kit = Path(__file__).resolve().parents[2] / "kit"
    return f"{kit} run {program}" if kit.is_file() else program
