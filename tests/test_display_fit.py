"""Every word of the table display fits its box, in Polish and in English, at every size.

Every state the display shows (:func:`tablekit.samples.sample_views`: the game, the
table's questions, the hall check, the judge menu, every step of result entry) is drawn
at every layout size in both languages to ``artifacts/display/<lang>/`` (the same files
``python -m tablekit.display --png artifacts/display`` writes), and each text of the
scene is measured as the renderer draws it: inside its box, never cut with an ellipsis
(a player's name alone may be cut, where it is longer than its column, and never so that
two players at the table read the same), never squeezed below its size floor, and what a
player reads from the chair (names, hints, messages, result entry's error lines) never
below the layout's smallest legible size for the screen (``Layout.min_text``). The words
of all 22 table states are measured in the band as well, those the unit never shows too.
"""

from __future__ import annotations

import ast
import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import msgspec
import pygame
import pytest
from babel.messages.pofile import read_po

from tablekit.core.seats import Seat
from tablekit.core.status import SHORT_WORDS, WORDS, TableState
from tablekit.display import Renderer, colour_under, render_surface
from tablekit.layout.compose import band_panel, band_style, compose
from tablekit.layout.scene import AMBER, Panel, Text, layout_for
from tablekit.layout.text import short_names
from tablekit.samples import sample_views
from tablekit.shared.i18n import LANGUAGES, words
from tablekit.view import TableView

ROOT = Path(__file__).resolve().parents[1]
ARTIFACTS = ROOT / "artifacts" / "display"
NOW = 1000.0
SIZES = [(480, 320), (640, 400), (800, 480), (320, 480), (1024, 600)]
"""The panels the unit is built with (3.5" to 7"), one mounted upright, and a larger one."""
TIGHT_FLOOR = 16
"""A tight text (a big word, the seconds) is at least this many pixels high (or its box's
height, where that is less)."""
READ_FROM_THE_CHAIRS = frozenset({"seat", "footer", "message"})
"""The panels whose words a player reads from the chair (the names, the hints, what the
unit says), drawn at the layout's smallest legible size at least (``Layout.min_text``);
and the error lines of result entry (its hint's amber box)."""


@pytest.fixture(scope="module")
def renderer() -> Iterator[Renderer]:
    pygame.display.init()
    pygame.font.init()
    yield Renderer()
    pygame.display.quit()


def size_id(size: tuple[int, int]) -> str:
    return f"{size[0]}x{size[1]}"


def texts(panel: Panel) -> list[Text]:
    return [i for i in panel.items if isinstance(i, Text) and i.text]


def player_in(text: str, view: TableView) -> tuple[set[Seat], int] | None:
    """The players ``text`` may stand for: every seat whose name starts with what ``text``
    shows from where a name begins in it (a cut or shortened name: ``Anna K.``,
    ``Dariusz Lewa…``), and where that is."""
    core = text.rstrip("…").rstrip(".")
    for at in range(len(core)):
        if at and core[at - 1] != " ":
            continue
        part = core[at:]
        seats = {s for s, name in view.names.items() if name.startswith(part)}
        seats |= {s for s, short in short_names(view.names).items() if short.startswith(part)}
        if seats and len(part) >= 3:  # not a seat letter
            return seats, at
    return None


def read_from_the_chairs(panel: Panel, item: Text) -> bool:
    """A name, a hint or a message (or an error line of result entry)."""
    if panel.name == "entry-hint":
        return colour_under(panel, item.box) == AMBER
    return panel.name in READ_FROM_THE_CHAIRS and not item.tight


def problems_in(view: TableView, size: tuple[int, int], renderer: Renderer) -> list[str]:
    """Every text of the scene that does not fit, as the renderer draws it."""
    found = []
    lay = layout_for(*size)
    for panel in compose(view, NOW, lay):
        for item in texts(panel):
            font, shown = renderer.fitted(item)
            if read_from_the_chairs(panel, item) and font < lay.min_text:
                found.append(
                    f"{panel.name}: {item.text!r} drawn at {font}px, below {lay.min_text}px"
                )
            _, dest = renderer.place(item, panel.bg)
            where = f"{panel.name}: {item.text!r}"
            if not (item.box.w >= dest.w and item.box.h >= dest.h):
                found.append(f"{where} overflows its box")
            if shown != item.text:  # only in a player's name, where it is too long
                player = player_in(item.text, view)
                kept = len(shown.rstrip("…"))
                if player is None or kept <= player[1]:
                    found.append(f"{where} is cut: {shown!r}")
            seen = player_in(shown, view) if shown != item.text or "." in shown else None
            if seen is not None and len(seen[0]) > 1:  # a cut or short name, another's too
                found.append(f"{where} shown as {shown!r} reads as seats {sorted(seen[0])}")
            if item.tight and not item.template:  # as large as its box allows, and legible
                ink = renderer.text_surface(item, panel.bg).get_size()
                fills = ink[0] >= 0.85 * item.box.w or ink[1] >= 0.85 * item.box.h
                if not fills or ink[1] < min(TIGHT_FLOOR, item.box.h):
                    found.append(f"{where} squeezed to {ink[1]}px of {item.box.h}")
    return found


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("size", SIZES, ids=size_id)
def test_every_word_of_every_state_fits_its_box(
    size: tuple[int, int], language: str, renderer: Renderer
) -> None:
    w, h = size
    problems = {}
    for i, (name, view) in enumerate(sample_views(NOW, language).items()):
        surface = render_surface(view, NOW, size, renderer)
        path = ARTIFACTS / language / f"{w}x{h}-{i:02d}-{name}.png"
        path.parent.mkdir(parents=True, exist_ok=True)
        pygame.image.save(surface, str(path))
        found = problems_in(view, size, renderer)
        if found:
            problems[name] = found
    assert problems == {}
    print(f"\ndisplay PNGs: {ARTIFACTS}/{language}/{w}x{h}-*.png")


@pytest.mark.parametrize("size", SIZES, ids=size_id)
def test_the_name_under_the_seats_letter_is_whole(
    size: tuple[int, int], renderer: Renderer
) -> None:
    """The player's name under the seat's letter is drawn whole, a double surname too
    (broken after its hyphen, the tile above giving up room), at the legible size."""
    lay = layout_for(*size)
    for key in ("ready", "ready-chosen", "playing", "last-lap-final"):
        view = sample_views(NOW, "pl")[key]
        [seat] = [p for p in compose(view, NOW, lay) if p.name == "seat"]
        _label, letter, *name = texts(seat)
        drawn = [renderer.fitted(t)[1] for t in name]
        assert " ".join(drawn).replace("- ", "-") == view.name(Seat(letter.text)), (key, drawn)


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("size", SIZES, ids=size_id)
def test_the_word_of_every_table_state_fits_the_band(
    size: tuple[int, int], language: str, renderer: Renderer
) -> None:
    """All 22 states' words (and short words) in the band, also those only the hub shows,
    online (the band with the table's number) and offline (the band beside the marker)."""
    lay = layout_for(*size)
    view = sample_views(NOW, language)["playing"]
    w = words(language)
    too_long = []
    for state in TableState:
        for said in {w.gettext(WORDS[state]), w.gettext(SHORT_WORDS.get(state, WORDS[state]))}:
            style = replace(band_style(view, w), word=said)
            for box, online in ((lay.band, True), (lay.offline_split()[0], False)):
                band = band_panel(lay, view, w, style, box, with_table=online)
                lines = texts(band)[:-1] if online else texts(band)  # not the table's number
                shown = " ".join(renderer.fitted(t)[1] for t in lines)
                if shown != said:
                    too_long.append((state.value, said, shown, "online" if online else "offline"))
    assert too_long == []


LOOK_ALIKES: dict[Seat, str] = {
    Seat.A: "Anna Kowalska",
    Seat.B: "Anna Kowalczyk",
    Seat.C: "Dariusz Lewandowski-Grabowski",
    Seat.D: "Dariusz Lewandowski-Nowak",
}
"""Two first names twice, two long surnames alike up to their last part."""


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("size", SIZES, ids=size_id)
def test_players_whose_names_look_alike_never_read_the_same(
    size: tuple[int, int], language: str, renderer: Renderer
) -> None:
    problems = {}
    for name, view in sample_views(NOW, language).items():
        if not view.names:
            continue
        found = problems_in(replace(view, names=LOOK_ALIKES), size, renderer)
        if found:
            problems[name] = found
    assert problems == {}


SAYING = (
    "tablekit/controls.py",
    "tablekit/result_entry.py",
    "tablekit/unit.py",
    "tablekit/core/clock.py",
    "tablekit/core/scoring.py",
)
"""The modules whose messages the display shows on its message line (the controls and the
loop, a judge action the clock refuses) or in result entry's problem box (the entry, a
score that does not add up)."""


def _noted(module: str) -> set[str]:
    """The messages ``module`` marks with ``N_`` (the notes it leaves for the display), not
    the ones it translates at once (a command line's help and errors)."""
    tree = ast.parse((ROOT / module).read_text(encoding="utf-8"))
    return {
        node.args[0].value
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
        and node.func.id == "N_" and node.args and isinstance(node.args[0], ast.Constant)
        and isinstance(node.args[0].value, str)
    }


NOTING = ("tablekit/app.py",)
"""Modules that leave the display a note (``tablekit.app``: the events the hub refused,
after a restart) among words of their own."""


class _Sample(dict[str, object]):
    """A value for every field of a message: a seat letter, else a number of two digits."""

    def __missing__(self, key: str) -> object:
        return "C" if key.startswith("seat") else 12


def unit_messages(language: str) -> list[str]:
    """Every message the display can show, in ``language``, its values filled in."""
    with (ROOT / "tablekit" / "locale" / "tablekit.pot").open("rb") as file:
        template = read_po(file)
    w = words(language)
    noted = set().union(*(_noted(module) for module in NOTING))
    said = []
    for message in template:
        if not message.id:
            continue
        if not any(f in SAYING for f, _ in message.locations) and message.id not in noted:
            continue
        msgid = message.id if isinstance(message.id, str) else message.id[1]
        said.append(w.gettext(msgid).format_map(_Sample()))
    return said


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("size", SIZES, ids=size_id)
def test_every_message_fits_the_message_line_and_the_entry_box(
    size: tuple[int, int], language: str, renderer: Renderer
) -> None:
    views = sample_views(NOW, language)
    playing, typing = views["playing"], views["entry-tiles"]
    assert typing.entry is not None
    messages = unit_messages(language)
    assert len(messages) > 30
    problems = {}
    for said in messages:
        for view in (
            replace(playing, message=said),
            replace(typing, entry=msgspec.structs.replace(typing.entry, message=said)),
        ):
            found = problems_in(view, size, renderer)
            if found:
                problems[said] = found
    assert problems == {}


SAID = {
    "ready": (
        ["ZACZYNA", "B", "Bartłomiej Wiśniewski", "NASTĘPNY", "C  Celina Żak", "GRA 2"],
        ["STARTS", "B", "Bartłomiej Wiśniewski", "ON DECK", "C  Celina Żak", "GAME 2"],
    ),
    "time": (["CZAS MINĄŁ — MIEJSCE C Celina Żak"], ["TIME — SEAT C Celina Żak"]),
    "last-lap": (["OSTATNIA KOLEJKA — ZOSTAŁY 3 RUCHY"], ["LAST LAP — 3 MOVES LEFT"]),
    "game-over": (["KONIEC GRY", "GRA 2 · 57 RUCHÓW"], ["GAME OVER", "GAME 2 · 57 MOVES"]),
    "ask-empty-rack": (["PUSTA TABLICZKA?", "tak, koniec gry"], ["EMPTY RACK?", "yes, game over"]),
    "judge-menu": (
        ["MENU SĘDZIEGO", "Cofnij ostatnie naciśnięcie"], ["JUDGE MENU", "Undo last pass"]
    ),
    "check-fault": (
        ["TEST SALI: USTERKA", "STOLIK 7", "Usterka: diody — wezwij organizatora"],
        ["HALL CHECK: FAULT", "TABLE 7", "Fault: lights — call the technician"],
    ),
    "entry-confirm": (
        ["GRACZ", "SUMA", "MP", "DP", "MIEJSCE", "BEZ WYŁOŻENIA", "+190", "1."],
        ["PLAYER", "RACK", "SMALL", "BIG", "PLACE", "NEVER OPENED", "+190", "1st"],
    ),
    "entry-confirmed": (
        ["WYNIK ZATWIERDZONY", "Zatwierdzony przez stolik"],
        ["RESULT CONFIRMED", "Confirmed by the table"],
    ),
    "message": (
        ["Nie ma czego cofnąć — to pierwszy ruch gry"],
        ["undo pass: there is no pass to undo in this game"],
    ),
}
"""Words each screen draws, in Polish and in English (a line wrapped in two is read as one)."""


@pytest.mark.parametrize("name", sorted(SAID))
def test_the_screens_say_their_words_in_each_language(name: str) -> None:
    for language, wanted in zip(("pl", "en"), SAID[name], strict=True):
        scene = compose(sample_views(NOW, language)[name], NOW, layout_for(800, 480))
        drawn = [" ".join(t.text for t in texts(panel)) for panel in scene]
        missing = [word for word in wanted if not any(word in line for line in drawn)]
        assert missing == [], (language, drawn)
