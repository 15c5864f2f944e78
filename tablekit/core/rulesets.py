"""Scoring and clock parameters of each tournament's rules (RULES.md §2, §3).

Every number that differs between the source documents lives in a :class:`Ruleset`;
the scoring code never hard-codes one. The built-in rulesets are named after the seed
documents ("000" … "004") with friendly aliases; events with their own numbers load
custom rulesets from TOML (:func:`parse_rulesets`; the file is read by
:func:`tablekit.shared.tomlfile.load_rulesets`)::

    [ruleset]                 # one ruleset ...
    name = "club"
    based_on = "002"          # start from a known ruleset, override some fields
    move_seconds = 45

    [rulesets.cup]            # ... or several, named by their table
    based_on = "league"
    joker_penalty = 30
"""

from __future__ import annotations

import enum
import itertools
import math
import re
from collections.abc import Mapping
from typing import Any, Final, TypeVar

import msgspec

from tablekit.core.errors import KitError
from tablekit.core.words import N_


class RulesetError(KitError, ValueError):
    """A ruleset is invalid or unknown; the message names the field or the name."""


class BigPointScheme(enum.StrEnum):
    """How a game's big points are awarded (RULES.md §3.4)."""

    WIN_ONLY = "win_only"  # winner(s) 1, everyone else 0
    PLACEMENT = "placement"  # points by the place in the game's small points


MAX_MOVE_SECONDS: Final = 600.0
MAX_NAME: Final = 40
"""Characters of a ruleset name: every assignment carries it (tablekit.core.messages's
``AssignedRules.ruleset`` is at most 40 characters)."""
MAX_TITLE: Final = 100
"""Characters of a ruleset title: the whole ruleset travels in every assignment, which
must stay well under the protocol's 4096-byte payload."""
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


class Ruleset(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The parameters one tournament plays and scores by.

    Validated on construction (and on msgspec decoding), so a ``Ruleset`` in hand is
    always usable.
    """

    name: str
    title: str
    move_seconds: float = 40.0
    joker_penalty: int = 50
    not_opened_penalty: int = 100
    could_have_opened_penalty: int = 200
    big_points: BigPointScheme = BigPointScheme.WIN_ONLY
    placement_points_4: tuple[int, int, int, int] = (4, 2, 1, 0)
    placement_points_3: tuple[int, int, int] = (4, 2, 0)

    def __post_init__(self) -> None:
        _validate(self)

    def placement_points(self, players: int) -> tuple[int, ...]:
        """Big points by place (1st first) at a table of ``players``."""
        if players == 4:
            return self.placement_points_4
        if players == 3:
            return self.placement_points_3
        raise RulesetError(
            N_("placement points: a table seats 3 or 4 players, got {count}"), count=players
        )


def _is_int(value: object) -> bool:
    # bool is an int subclass, but True is never a meaningful penalty.
    return isinstance(value, int) and not isinstance(value, bool)


def _name_problem(name: str) -> KitError | None:
    """What is wrong with a (non-empty) ruleset name, or None."""
    if len(name) > MAX_NAME:
        return KitError(
            N_("must be at most {most} characters, got {length} ({name!r})"),
            most=MAX_NAME, length=len(name), name=name,
        )
    if _CONTROL.search(name):
        return KitError(N_("must not contain control characters, got {got!r}"), got=name)
    return None


def _validate(rs: Ruleset) -> None:
    def fail(field: str, template: str, **values: object) -> RulesetError:
        return RulesetError(
            N_("ruleset {name!r}: {field} {problem}"),
            name=rs.name, field=field, problem=KitError(template, **values),
        )

    if not isinstance(rs.name, str) or not rs.name.strip():
        raise RulesetError(
            N_("ruleset: name must be a non-empty string, got {got!r}"), got=rs.name
        )
    problem = _name_problem(rs.name)
    if problem:
        raise RulesetError(N_("ruleset: name {problem}"), problem=problem)
    if not isinstance(rs.title, str):
        raise fail("title", N_("must be a string, got {got!r}"), got=rs.title)
    if len(rs.title) > MAX_TITLE:
        raise fail(
            "title", N_("must be at most {most} characters, got {length}"),
            most=MAX_TITLE, length=len(rs.title),
        )
    if _CONTROL.search(rs.title):
        raise fail("title", N_("must not contain control characters, got {got!r}"), got=rs.title)
    seconds = rs.move_seconds
    if (
        isinstance(seconds, bool)
        or not isinstance(seconds, int | float)
        or not math.isfinite(seconds)
        or not 0 < seconds <= MAX_MOVE_SECONDS
    ):
        raise fail(
            "move_seconds", N_("must be a number above 0 and at most 600, got {got!r}"), got=seconds
        )
    for field in ("joker_penalty", "not_opened_penalty", "could_have_opened_penalty"):
        value = getattr(rs, field)
        if not _is_int(value) or value < 0:
            raise fail(field, N_("must be an integer of at least 0, got {got!r}"), got=value)
    try:
        BigPointScheme(rs.big_points)
    except ValueError:
        known = ", ".join(s.value for s in BigPointScheme)
        raise fail(
            "big_points", N_("must be one of {known}, got {got!r}"), known=known, got=rs.big_points
        ) from None
    for field, length in (("placement_points_4", 4), ("placement_points_3", 3)):
        points = getattr(rs, field)
        if (
            not isinstance(points, tuple)
            or len(points) != length
            or not all(_is_int(p) and p >= 0 for p in points)
        ):
            raise fail(
                field, N_("must be {length} integers of at least 0, got {got!r}"),
                length=length, got=points,
            )
        if any(a < b for a, b in itertools.pairwise(points)):
            raise fail(field, N_("must not increase from 1st place down, got {got!r}"), got=points)


_WINTER = Ruleset(name="000", title="Winter tournament (Zimowy Turniej Rummikub)")
BUILTIN: Final[Mapping[str, Ruleset]] = {
    rs.name: rs
    for rs in (
        _WINTER,
        msgspec.structs.replace(_WINTER, name="001", title="Tournament game rules"),
        Ruleset(
            name="002",
            title="Championship (placement big points)",
            move_seconds=60.0,
            big_points=BigPointScheme.PLACEMENT,
        ),
        Ruleset(name="003", title="National league", joker_penalty=100),
        Ruleset(name="004", title="Inter-school contest"),
    )
}
ALIASES: Final[Mapping[str, str]] = {
    "winter": "000",
    "championship": "002",
    "league": "003",
    "school": "004",
}


def known_names(custom: Mapping[str, Ruleset] | None = None) -> list[str]:
    """Every name :func:`get_ruleset` accepts, built-in names first."""
    return [*BUILTIN, *ALIASES, *sorted(custom or {})]


def get_ruleset(name: str, custom: Mapping[str, Ruleset] | None = None) -> Ruleset:
    """The ruleset called ``name``: built-in name or alias (any case), or a custom one."""
    key = name.strip()
    if custom and key in custom:
        return custom[key]
    key = ALIASES.get(key.lower(), key)
    if key in BUILTIN:
        return BUILTIN[key]
    known = ", ".join(known_names(custom))
    raise RulesetError(
        N_("ruleset: unknown name {name!r}; known names: {known}"), name=name, known=known
    )


# Field name → (accepted TOML value types, the error message when it is of another type).
_TOML_FIELDS: Final[Mapping[str, tuple[tuple[type, ...], str]]] = {
    "title": ((str,), N_("{source}: {where}.{key} must be a string, got {got!r}")),
    "move_seconds": ((int, float), N_("{source}: {where}.{key} must be a number, got {got!r}")),
    "joker_penalty": ((int,), N_("{source}: {where}.{key} must be an integer, got {got!r}")),
    "not_opened_penalty": ((int,), N_("{source}: {where}.{key} must be an integer, got {got!r}")),
    "could_have_opened_penalty": (
        (int,), N_("{source}: {where}.{key} must be an integer, got {got!r}")
    ),
    "big_points": ((str,), N_("{source}: {where}.{key} must be a string, got {got!r}")),
    "placement_points_4": (
        (list,), N_("{source}: {where}.{key} must be an array of 4 integers, got {got!r}")
    ),
    "placement_points_3": (
        (list,), N_("{source}: {where}.{key} must be an array of 3 integers, got {got!r}")
    ),
}
RETIRED_KEYS: Final[Mapping[str, str]] = {
    "invert_small_display": N_(
        "{source}: {where}.{key} is retired: small points are shown one way everywhere, "
        "the winner plus (RULES.md §3.3); remove the key"
    ),
}
"""Keys older versions accepted, with what to do instead."""

T = TypeVar("T")


def decode_with_retired_keys(decoder: msgspec.json.Decoder[T], payload: bytes) -> T:
    """``payload`` decoded, written by an older version if need be: a ruleset anywhere in
    it (a stored event's custom rulesets, a unit's saved seating, an assignment) may carry
    keys that are retired (:data:`RETIRED_KEYS`); they are dropped, nothing they set still
    counts. Rulesets refuse unknown keys, so without this an older file would not load."""
    try:
        return decoder.decode(payload)
    except msgspec.ValidationError:
        if not any(key.encode() in payload for key in RETIRED_KEYS):
            raise
        older = _without_retired_keys(msgspec.json.decode(payload))
        return decoder.decode(msgspec.json.encode(older))


def _without_retired_keys(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _without_retired_keys(v) for k, v in value.items() if k not in RETIRED_KEYS}
    if isinstance(value, list):
        return [_without_retired_keys(v) for v in value]
    return value


def _fit(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters, ending in "…" when cut."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def parse_rulesets(doc: Mapping[str, Any], source: str = "<toml>") -> dict[str, Ruleset]:
    """Custom rulesets from a parsed TOML document (read from a file by
    :func:`tablekit.shared.tomlfile.load_rulesets`), by name.

    ``based_on`` may name a built-in ruleset, an alias or another ruleset of the same
    document. Custom names may not shadow built-in names or aliases.
    """
    tables: dict[str, tuple[str, Mapping[str, Any]]] = {}  # name -> (where, table)
    for key, value in doc.items():
        if key == "ruleset":
            if not isinstance(value, dict):
                raise RulesetError(N_("{source}: ruleset must be a table"), source=source)
            name = value.get("name")
            if not isinstance(name, str) or not name.strip():
                raise RulesetError(
                    N_("{source}: ruleset.name must be a non-empty string"), source=source
                )
            if name in tables:
                raise RulesetError(
                    N_("{source}: {where}: ruleset {name!r} is defined twice"),
                    source=source, where="ruleset", name=name,
                )
            tables[name] = ("ruleset", value)
        elif key == "rulesets":
            if not isinstance(value, dict):
                raise RulesetError(
                    N_("{source}: rulesets must be a table of tables"), source=source
                )
            for name, table in value.items():
                where = f"rulesets.{name}"
                if not isinstance(table, dict):
                    raise RulesetError(
                        N_("{source}: {where} must be a table"), source=source, where=where
                    )
                if "name" in table:
                    raise RulesetError(
                        N_("{source}: {where}.name: the name comes from the table name; "
                           "remove it"),
                        source=source, where=where,
                    )
                if name in tables:
                    raise RulesetError(
                        N_("{source}: {where}: ruleset {name!r} is defined twice"),
                        source=source, where=where, name=name,
                    )
                tables[name] = (where, table)
        else:
            raise RulesetError(
                N_("{source}: unknown top-level key {key!r}; expected [ruleset] or "
                   "[rulesets.NAME]"),
                source=source, key=key,
            )
    if not tables:
        raise RulesetError(N_("{source}: no [ruleset] or [rulesets.NAME] table"), source=source)
    for name, (where, _) in tables.items():
        problem = _name_problem(name)
        if problem:
            raise RulesetError(
                N_("{source}: {where}: name {problem}"), source=source, where=where, problem=problem
            )
        if name in BUILTIN or name.lower() in ALIASES:
            raise RulesetError(
                N_("{source}: {where}: name {name!r} is a built-in ruleset; choose another name"),
                source=source, where=where, name=name,
            )

    built: dict[str, Ruleset] = {}

    def build(name: str, chain: tuple[str, ...]) -> Ruleset:
        if name in built:
            return built[name]
        where, table = tables[name]
        base_name = table.get("based_on")
        fields: dict[str, Any] = {"name": name, "title": name}
        if base_name is not None:
            if not isinstance(base_name, str):
                raise RulesetError(
                    N_("{source}: {where}.based_on must be a string"), source=source, where=where
                )
            if base_name in chain:
                cycle = " -> ".join((*chain, base_name))
                raise RulesetError(
                    N_("{source}: {where}.based_on: circular ({cycle})"),
                    source=source, where=where, cycle=cycle,
                )
            if base_name in tables:
                base = build(base_name, (*chain, base_name))
            else:
                try:
                    base = get_ruleset(base_name)
                except RulesetError as exc:
                    raise RulesetError(
                        N_("{source}: {where}.based_on: {error}"),
                        source=source, where=where, error=exc,
                    ) from None
            fields.update(msgspec.structs.asdict(base))
            fields["name"] = name
            fields["title"] = _fit(f"{name} (based on {base.title})", MAX_TITLE)
        for key, raw in table.items():
            if key in ("name", "based_on"):
                continue
            if key in RETIRED_KEYS:
                raise RulesetError(RETIRED_KEYS[key], source=source, where=where, key=key)
            if key not in _TOML_FIELDS:
                known = ", ".join(["based_on", *_TOML_FIELDS])
                raise RulesetError(
                    N_("{source}: {where}: unknown key {key!r}; known keys: {known}"),
                    source=source, where=where, key=key, known=known,
                )
            types, wrong_type = _TOML_FIELDS[key]
            if isinstance(raw, bool) != (bool in types) or not isinstance(raw, types):
                raise RulesetError(wrong_type, source=source, where=where, key=key, got=raw)
            value: Any = raw
            if isinstance(value, list):
                value = tuple(value)
            if key == "move_seconds":
                value = float(value)
            elif key == "big_points":
                try:
                    value = BigPointScheme(value)
                except ValueError:
                    known = ", ".join(s.value for s in BigPointScheme)
                    raise RulesetError(
                        N_("{source}: {where}.big_points must be one of {known}, got {got!r}"),
                        source=source, where=where, known=known, got=value,
                    ) from None
            fields[key] = value
        try:
            ruleset = Ruleset(**fields)
        except RulesetError as exc:
            raise RulesetError(
                N_("{source}: {where}: {error}"), source=source, where=where, error=exc
            ) from None
        built[name] = ruleset
        return ruleset

    for name in tables:
        build(name, (name,))
    return built
