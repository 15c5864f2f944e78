"""Named rulesets, ruleset validation and custom rulesets from TOML."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import msgspec
import pytest

from hub.organizer import Organizer
from hub.store import EventStore
from hub.tournament import Player
from tablekit.core.codec import decode, encode
from tablekit.core.messages import MAX_PAYLOAD, Assignment
from tablekit.core.rulesets import (
    ALIASES,
    BUILTIN,
    MAX_NAME,
    MAX_TITLE,
    BigPointScheme,
    Ruleset,
    RulesetError,
    get_ruleset,
    known_names,
)
from tablekit.shared.tomlfile import load_rulesets

WIN, PLACE = BigPointScheme.WIN_ONLY, BigPointScheme.PLACEMENT


# name: (move_seconds, joker, not opened, could have opened, scheme)
EXPECTED = {
    "000": (40.0, 50, 100, 200, WIN),
    "001": (40.0, 50, 100, 200, WIN),
    "002": (60.0, 50, 100, 200, PLACE),
    "003": (40.0, 100, 100, 200, WIN),
    "004": (40.0, 50, 100, 200, WIN),
}


@pytest.mark.parametrize("name", list(EXPECTED))
def test_builtin_rulesets_follow_the_documents(name: str) -> None:
    rs = get_ruleset(name)
    assert rs.name == name
    assert rs.title
    got = (rs.move_seconds, rs.joker_penalty, rs.not_opened_penalty,
           rs.could_have_opened_penalty, rs.big_points)
    assert got == EXPECTED[name]
    assert rs.placement_points_4 == (4, 2, 1, 0)
    assert rs.placement_points_3 == (4, 2, 0)


def test_builtin_names() -> None:
    assert list(BUILTIN) == list(EXPECTED)


@pytest.mark.parametrize(
    ("alias", "name"),
    [("winter", "000"), ("championship", "002"), ("league", "003"), ("school", "004"),
     ("  League ", "003"), ("WINTER", "000")],
)
def test_aliases(alias: str, name: str) -> None:
    assert get_ruleset(alias) is BUILTIN[name]


def test_unknown_name_lists_the_known_names() -> None:
    message = ("ruleset: unknown name 'summer'; known names: 000, 001, 002, 003, 004, "
               "winter, championship, league, school")
    with pytest.raises(RulesetError, match=f"^{re.escape(message)}$"):
        get_ruleset("summer")


def test_custom_rulesets_are_found_by_name() -> None:
    club = Ruleset(name="club", title="Club night", move_seconds=30)
    assert get_ruleset("club", {"club": club}) is club
    assert get_ruleset("league", {"club": club}) is BUILTIN["003"]
    assert known_names({"club": club})[-1] == "club"
    with pytest.raises(RulesetError, match=r"known names: .*school, club$"):
        get_ruleset("cub", {"club": club})


def test_placement_points_by_table_size() -> None:
    rs = get_ruleset("002")
    assert rs.placement_points(4) == (4, 2, 1, 0)
    assert rs.placement_points(3) == (4, 2, 0)
    message = r"^placement points: a table seats 3 or 4 players, got 5$"
    with pytest.raises(RulesetError, match=message):
        rs.placement_points(5)


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("move_seconds", 0, "move_seconds must be a number above 0 and at most 600, got 0"),
        ("move_seconds", -5.0, "move_seconds must be a number above 0 and at most 600, got -5.0"),
        ("move_seconds", 600.5,
         "move_seconds must be a number above 0 and at most 600, got 600.5"),
        ("move_seconds", float("nan"),
         "move_seconds must be a number above 0 and at most 600, got nan"),
        ("move_seconds", True, "move_seconds must be a number above 0 and at most 600, got True"),
        ("joker_penalty", -1, "joker_penalty must be an integer of at least 0, got -1"),
        ("not_opened_penalty", 1.5,
         "not_opened_penalty must be an integer of at least 0, got 1.5"),
        ("could_have_opened_penalty", -200,
         "could_have_opened_penalty must be an integer of at least 0, got -200"),
        ("big_points", "most", "big_points must be one of win_only, placement, got 'most'"),
        ("placement_points_4", (4, 2, 1),
         "placement_points_4 must be 4 integers of at least 0, got (4, 2, 1)"),
        ("placement_points_4", (4, 2, -1, 0),
         "placement_points_4 must be 4 integers of at least 0, got (4, 2, -1, 0)"),
        ("placement_points_4", (4, 1, 2, 0),
         "placement_points_4 must not increase from 1st place down, got (4, 1, 2, 0)"),
        ("placement_points_3", (0, 2, 4),
         "placement_points_3 must not increase from 1st place down, got (0, 2, 4)"),
        ("placement_points_3", [4, 2, 0],
         "placement_points_3 must be 3 integers of at least 0, got [4, 2, 0]"),
        ("title", 5, "title must be a string, got 5"),
    ],
)
def test_ruleset_validation_names_the_field(field: str, value: Any, message: str) -> None:
    with pytest.raises(RulesetError, match="^" + re.escape(f"ruleset 'x': {message}") + "$"):
        Ruleset(**{"name": "x", "title": "t", field: value})


def test_ruleset_needs_a_name() -> None:
    with pytest.raises(RulesetError, match=r"^ruleset: name must be a non-empty string, got ' '$"):
        Ruleset(name=" ", title="t")


def test_ruleset_limits_are_inclusive() -> None:
    rs = Ruleset(name="x", title="t", move_seconds=600, joker_penalty=0,
                 placement_points_4=(1, 1, 1, 1))
    assert rs.move_seconds == 600


def test_ruleset_travels_as_msgspec_json_and_is_validated_on_decode() -> None:
    rs = get_ruleset("002")
    assert msgspec.json.decode(msgspec.json.encode(rs), type=Ruleset) == rs
    with pytest.raises(msgspec.ValidationError, match="joker_penalty must be an integer"):
        msgspec.json.decode(b'{"name": "x", "title": "t", "joker_penalty": -1}', type=Ruleset)
    with pytest.raises(msgspec.ValidationError, match="unknown field `jokers`"):
        msgspec.json.decode(b'{"name": "x", "title": "t", "jokers": 1}', type=Ruleset)


# --- TOML ---------------------------------------------------------------------------


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "rules.toml"
    path.write_text(text, encoding="utf-8")
    return path


def toml_fails(tmp_path: Path, text: str, message: str) -> None:
    path = write(tmp_path, text)
    with pytest.raises(RulesetError, match=f"^{re.escape(f'{path}: {message}')}$"):
        load_rulesets(path)


def test_single_ruleset_table(tmp_path: Path) -> None:
    path = write(tmp_path, """
[ruleset]
name = "club"
title = "Club night"
move_seconds = 45
joker_penalty = 30
big_points = "placement"
placement_points_4 = [3, 2, 1, 0]
""")
    (club,) = load_rulesets(path).values()
    assert club == Ruleset(
        name="club", title="Club night", move_seconds=45.0, joker_penalty=30,
        big_points=PLACE, placement_points_4=(3, 2, 1, 0),
    )
    assert isinstance(club.move_seconds, float)
    assert club.big_points is PLACE


def test_several_rulesets_based_on_others(tmp_path: Path) -> None:
    path = write(tmp_path, """
[rulesets.cup]
based_on = "final"
joker_penalty = 25

[rulesets.final]
based_on = "championship"
move_seconds = 90.5

[rulesets.plain]
""")
    found = load_rulesets(path)
    assert set(found) == {"cup", "final", "plain"}
    final = found["final"]
    assert (final.move_seconds, final.big_points) == (90.5, PLACE)
    assert final.title == "final (based on Championship (placement big points))"
    cup = found["cup"]
    assert (cup.move_seconds, cup.joker_penalty, cup.big_points) == (90.5, 25, PLACE)
    assert found["plain"] == Ruleset(name="plain", title="plain")
    assert get_ruleset("cup", found) is cup


def test_ruleset_and_rulesets_together(tmp_path: Path) -> None:
    path = write(tmp_path, """
[ruleset]
name = "one"
based_on = "003"

[rulesets.two]
""")
    found = load_rulesets(path)
    assert found["one"].joker_penalty == 100
    assert found["two"].joker_penalty == 50


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('[rulesets.club]\njoker = 5\n',
         "rulesets.club: unknown key 'joker'; known keys: based_on, title, move_seconds, "
         "joker_penalty, not_opened_penalty, could_have_opened_penalty, big_points, "
         "placement_points_4, placement_points_3"),
        ('[rulesets.club]\njoker_penalty = "50"\n',
         "rulesets.club.joker_penalty must be an integer, got '50'"),
        ('[rulesets.club]\njoker_penalty = true\n',
         "rulesets.club.joker_penalty must be an integer, got True"),
        ('[rulesets.club]\nmove_seconds = false\n',
         "rulesets.club.move_seconds must be a number, got False"),
        ('[rulesets.club]\ninvert_small_display = true\n',
         "rulesets.club.invert_small_display is retired: small points are shown one way "
         "everywhere, the winner plus (RULES.md §3.3); remove the key"),
        ('[rulesets.club]\nplacement_points_3 = 4\n',
         "rulesets.club.placement_points_3 must be an array of 3 integers, got 4"),
        ('[rulesets.club]\nbig_points = "all"\n',
         "rulesets.club.big_points must be one of win_only, placement, got 'all'"),
        ('[rulesets.club]\njoker_penalty = -5\n',
         "rulesets.club: ruleset 'club': joker_penalty must be an integer of at least 0, "
         "got -5"),
        ('[rulesets.club]\nplacement_points_3 = [4, 2]\n',
         "rulesets.club: ruleset 'club': placement_points_3 must be 3 integers of at least 0, "
         "got (4, 2)"),
        ('[rulesets.club]\nbased_on = "summer"\n',
         "rulesets.club.based_on: ruleset: unknown name 'summer'; known names: 000, 001, 002, "
         "003, 004, winter, championship, league, school"),
        ('[rulesets.club]\nbased_on = 2\n', "rulesets.club.based_on must be a string"),
        ('[rulesets.a]\nbased_on = "b"\n[rulesets.b]\nbased_on = "a"\n',
         "rulesets.b.based_on: circular (a -> b -> a)"),
        ('[rulesets.a]\nbased_on = "a"\n', "rulesets.a.based_on: circular (a -> a)"),
        ('[rulesets.club]\nname = "club"\n',
         "rulesets.club.name: the name comes from the table name; remove it"),
        ('[rulesets.League]\n', "rulesets.League: name 'League' is a built-in ruleset; "
         "choose another name"),
        ('[ruleset]\nname = "002"\n', "ruleset: name '002' is a built-in ruleset; "
         "choose another name"),
        ('[ruleset]\nname = "x"\n[rulesets.x]\n', "rulesets.x: ruleset 'x' is defined twice"),
        ('[ruleset]\ntitle = "x"\n', "ruleset.name must be a non-empty string"),
        ('ruleset = 3\n', "ruleset must be a table"),
        ('rulesets = 3\n', "rulesets must be a table of tables"),
        ('rulesets.club = 3\n', "rulesets.club must be a table"),
        ('[rules]\n', "unknown top-level key 'rules'; expected [ruleset] or [rulesets.NAME]"),
        ('', "no [ruleset] or [rulesets.NAME] table"),
    ],
)
def test_toml_errors_name_the_key(tmp_path: Path, text: str, message: str) -> None:
    toml_fails(tmp_path, text, message)


def test_invalid_toml(tmp_path: Path) -> None:
    path = write(tmp_path, "[ruleset\n")
    with pytest.raises(RulesetError, match=f"^{re.escape(str(path))}: not valid TOML: "):
        load_rulesets(path)


def test_aliases_point_at_builtins() -> None:
    assert set(ALIASES.values()) <= set(BUILTIN)


# --- names and titles fit every assignment -------------------------------------------


def test_a_ruleset_name_longer_than_40_characters_is_refused(tmp_path: Path) -> None:
    name = "Mistrzostwa Polski 2025 zasady klubowe 4"  # 40 characters
    assert load_rulesets(write(tmp_path, f'[ruleset]\nname = "{name}"\n'))[name].name == name
    toml_fails(
        tmp_path,
        f'[ruleset]\nname = "{name}5"\nbased_on = "002"\n',
        f"ruleset: name must be at most 40 characters, got 41 ('{name}5')",
    )
    toml_fails(
        tmp_path,
        f'[rulesets."{name}5"]\n',
        f"rulesets.{name}5: name must be at most 40 characters, got 41 ('{name}5')",
    )


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"name": "x" * 41, "title": "t"},
         f"ruleset: name must be at most 40 characters, got 41 ('{'x' * 41}')"),
        ({"name": "a\nb", "title": "t"},
         "ruleset: name must not contain control characters, got 'a\\nb'"),
        ({"name": "x", "title": "t" * 101},
         "ruleset 'x': title must be at most 100 characters, got 101"),
        ({"name": "x", "title": "a\tb"},
         "ruleset 'x': title must not contain control characters, got 'a\\tb'"),
    ],
)
def test_ruleset_name_and_title_are_bounded(fields: dict[str, str], message: str) -> None:
    with pytest.raises(RulesetError, match="^" + re.escape(message) + "$"):
        Ruleset(**fields)


def test_a_title_too_long_in_toml_is_refused(tmp_path: Path) -> None:
    toml_fails(
        tmp_path,
        f'[rulesets.club]\ntitle = "{"t" * 101}"\n',
        "rulesets.club: ruleset 'club': title must be at most 100 characters, got 101",
    )


def test_a_derived_title_is_cut_to_fit(tmp_path: Path) -> None:
    long_title = "T" * MAX_TITLE
    found = load_rulesets(write(tmp_path, f"""
[rulesets.base]
title = "{long_title}"

[rulesets.club]
based_on = "base"
"""))
    title = found["club"].title
    assert len(title) == MAX_TITLE
    assert title.startswith("club (based on TTT") and title.endswith("T…")


def test_the_longest_ruleset_travels_in_every_assignment(tmp_path: Path) -> None:
    """The largest name and title (4-byte characters) in an assignment with four
    long-named players stays well under the payload limit, and the units accept it."""
    name = "𝕽" * MAX_NAME
    rules = load_rulesets(write(tmp_path, f"""
[rulesets."{name}"]
based_on = "002"
title = "{"𝕿" * MAX_TITLE}"
"""))
    org = Organizer(EventStore(tmp_path / "hub.sqlite3"), by="org")
    org.create_event("Cup", "championship", ruleset=name, rulesets=rules)
    org.register(
        [Player(f"{'P' * 37}{i:03d}", "𝕹" * 60) for i in range(16)], check_in=True
    )
    org.draw(seed=1)
    assignments = org.competition.assignments()
    assert len(assignments) == 4
    for assignment in assignments:
        assert assignment.rules.ruleset == name
        assert assignment.rules.scoring == rules[name]
        payload = encode(assignment)
        assert len(payload) < MAX_PAYLOAD * 3 // 4, len(payload)
        assert decode(Assignment, payload) == assignment
