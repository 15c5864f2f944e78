"""Polish that reads right: words that fit any player, a duration that never reads as a
time of day, the printed minus sign, one word for the buzzer."""

from __future__ import annotations

import re
from pathlib import Path

import catalogs

from hub.exports.grid import Grid
from hub.exports.pages import grid_html
from tablekit.controls import JudgeAction, action_words
from tablekit.core.status import TableState, duration_text, lasting_text
from tablekit.layout.compose import compose
from tablekit.layout.scene import layout_for
from tablekit.samples import sample_views
from tablekit.shared.i18n import words

PL, EN = words("pl"), words("en")
NOW = 1_760_000_000.0

GENDERED = re.compile(
    r"\b(?<!ktoś )(?<!nikt nie )(mógł|zapowiedział|wyłożył|wykonał|nie zrobił)\b", re.I
)
"""A player's deed in the masculine past tense (*mógł się wyłożyć*): the kit says it with a
noun or of *ktoś* / *nikt*, which fit any player."""


def test_no_polish_message_says_a_players_deed_in_the_masculine() -> None:
    catalog = catalogs.read(catalogs.po_path("pl"))
    found = []
    for m in catalog:
        forms = m.string if isinstance(m.string, tuple) else (m.string,)
        found += [(m.id, f) for f in forms if m.id and GENDERED.search(f)]
    assert found == []


def test_the_judge_menu_names_the_openings_with_the_rule_books_nouns() -> None:
    said = {a: PL.gettext(action_words(a)) for a in JudgeAction}
    assert said[JudgeAction.COULD_HAVE_OPENED] == "Możliwe wyłożenie: kara"
    assert said[JudgeAction.WAIVE_PENALTY] == "Zapowiedź wyłożenia: bez kary"
    assert said[JudgeAction.SWITCH_ENDING] == "Zmień: pusta tabliczka / pusty bank"
    english = EN.gettext(action_words(JudgeAction.COULD_HAVE_OPENED))
    assert english == "This seat could have opened: penalty"
    assert PL.pgettext("CSV value", "could_have_opened") == "niewykorzystana możliwość wyłożenia"
    assert PL.pgettext("CSV value", "waived") == "zapowiedź wyłożenia"
    assert PL.gettext("went out") == "ktoś wyłożył wszystkie kostki"


def test_how_long_reads_as_a_duration_in_both_languages() -> None:
    assert [duration_text(s) for s in (0, 42.9, 60, 135, 3599, 3605, 7320)] == [
        "0 s", "42 s", "1 min", "2 min 15 s", "59 min 59 s", "1 h 0 min", "2 h 2 min",
    ]
    offline = lasting_text(TableState.OFFLINE, duration_text(135, PL), PL)
    assert offline == "BRAK POŁĄCZENIA od 2 min 15 s"
    assert not re.search(r"\d:\d\d", offline)  # not like 2:15, a time of day after "od"
    assert lasting_text(TableState.OFFLINE, duration_text(135)) == "OFFLINE for 2 min 15 s"
    assert [duration_text(s, PL, short=True) for s in (42, 135, 3605)] == ["42 s", "2 min", "1 h"]


def test_printed_small_points_have_the_real_minus_sign() -> None:
    grid = Grid(
        "Standings", ("Place", "Name", "SP"),
        [("1", "Anna-Maria Nowak", "+12"), ("2", "Jan Kowalski-Nowak", "-45"),
         ("3", "Ewa", "0")],
        numeric=frozenset({0, 2}),
    )
    printed = grid_html(grid)
    assert ">−45<" in printed
    assert ">-45<" not in printed and ">+12<" in printed and ">0<" in printed
    assert "Jan Kowalski-Nowak" in printed and "Anna-Maria Nowak" in printed  # names keep it
    assert grid.rows[1][2] == "-45"  # the CSV files keep the hyphen a spreadsheet reads


def test_the_hall_check_says_buzzer_as_the_glossary_does() -> None:
    glossary = (Path(__file__).resolve().parent.parent / "docs" / "glossary.md").read_text()
    assert "| buzzer, quiet mode | brzęczyk, tryb cichy |" in glossary
    ask = PL.gettext("Do you hear a beep every second? Pass button: yes · judge key: no")
    assert "brzęczyk" in ask and "sygnał" not in ask
    assert PL.gettext("beep") == "brzęcz."  # the step's short name on a narrow screen
    view = sample_views(NOW, "pl")["check-keypad"]  # the buzzer's step is done by then
    scene = compose(view, NOW, layout_for(320, 480))
    drawn = [t.text for p in scene for t in getattr(p, "items", ()) if hasattr(t, "text")]
    assert "brzęcz." in drawn and "sygnał" not in drawn
