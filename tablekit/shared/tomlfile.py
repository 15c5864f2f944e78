"""Strict TOML settings files: decode into msgspec structs, errors that name the file and field.

Both ends' config files are read this way (the hub's ``hub.toml``; the table unit's
``unit.toml`` has its own pin handling on top): an unknown field, a wrong type or a value a
struct's own check refuses stops the program with one line such as
``hub.toml: broker.port: must be 1 to 65535, got 0`` or
``hub.toml: broker.prot: unknown field; [broker] has host, port, …``.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any, TypeVar

import msgspec

from tablekit.core.errors import KitError, Phrase, joined
from tablekit.core.rulesets import Ruleset, RulesetError, parse_rulesets
from tablekit.core.words import N_

T = TypeVar("T")

_FIELD_PREFIX = re.compile(r"^([A-Za-z_][A-Za-z0-9_]*(?:\[\d+\])?): ")
_UNKNOWN = re.compile(r"Object contains unknown field `(.+)`")
_EXPECTED = re.compile(r"Expected `(?P<expected>[^`]+)`, got `(?P<got>[^`]+)`")
_MISSING = re.compile(r"Object missing required field `(?P<field>[^`]+)`")


class SettingsFileError(KitError, ValueError):
    """A settings file that cannot be used: the message names the file and the field."""


def decode_toml(
    text: str | bytes, kind: type[T], source: str, choices: Mapping[str, str] | None = None
) -> T:
    """``text`` decoded as ``kind``; :class:`SettingsFileError` whose message starts with
    ``source`` (the file's name) and names the field. ``choices``: what an enum field
    (``"a.b"``) takes (words marked for the catalogs), said when a value is not one of
    them."""
    try:
        return msgspec.toml.decode(text, type=kind)
    except msgspec.ValidationError as err:
        raise SettingsFileError(
            N_("{source}: {problem}"), source=source, problem=problem(err, kind, choices or {})
        ) from None
    except msgspec.DecodeError as err:
        raise SettingsFileError(
            N_("{source}: not valid TOML: {error}"), source=source, error=err
        ) from None


def load_rulesets(path: str | Path) -> dict[str, Ruleset]:
    """An event's own rulesets from a TOML file, by name
    (:func:`tablekit.core.rulesets.parse_rulesets` checks them)."""
    source = str(path)
    try:
        with Path(path).open("rb") as fh:
            doc = tomllib.load(fh)
    except tomllib.TOMLDecodeError as err:
        raise RulesetError(
            N_("{source}: not valid TOML: {error}"), source=source, error=err
        ) from None
    return parse_rulesets(doc, source=source)


def problem(
    err: msgspec.ValidationError, root: type[Any], choices: Mapping[str, str] | None = None
) -> Phrase:
    """msgspec's "<what> - at `$.a.b`" → "a.b: <what>", naming the field, in words the
    catalogs translate: a struct's own check (a :class:`KitError` raised in its
    ``__post_init__``) as it was raised, an unknown field's message listing the fields its
    table has, msgspec's common messages (a wrong type, a missing field) as templates."""
    what, sep, where = str(err).rpartition(" - at `")
    if not sep:
        what, where = str(err), "$"
    path = where.rstrip("`").removeprefix("$").removeprefix(".")
    own = err.__cause__
    if isinstance(own, KitError):
        # a struct's own check, already prefixed with its field
        return Phrase("{path}.{error}", path=path, error=own) if path else Phrase(
            "{error}", error=own
        )
    if _FIELD_PREFIX.match(what) is not None and path:
        return Phrase("{path}.{what}", path=path, what=what)  # a check not in the catalogs
    unknown = _UNKNOWN.fullmatch(what)
    if unknown is not None:
        field = f"{path}.{unknown.group(1)}" if path else unknown.group(1)
        return Phrase(
            N_("{field}: unknown field; {known}"), field=field, known=known_fields(root, path)
        )
    if what.startswith("Invalid enum value") and choices and path in choices:
        return Phrase(
            N_("{path}: invalid enum value {value}; expected {choices}"),
            path=path, value=what.removeprefix("Invalid enum value "),
            choices=Phrase(choices[path]),
        )
    said = _msgspec_words(what)
    return Phrase("{path}: {what}", path=path, what=said) if path else said


def _msgspec_words(what: str) -> Phrase:
    """msgspec's words for what is wrong, as a template the catalogs translate where the
    kit knows the form (else msgspec's English, its first letter made small)."""
    expected = _EXPECTED.fullmatch(what)
    if expected is not None:
        return Phrase(
            N_("expected `{expected}`, got `{got}`"),
            expected=expected["expected"], got=expected["got"],
        )
    missing = _MISSING.fullmatch(what)
    if missing is not None:
        return Phrase(N_("object missing required field `{field}`"), field=missing["field"])
    return Phrase("{what}", what=what[:1].lower() + what[1:])


def known_fields(root: type[Any], path: str) -> Phrase:
    """What the table at ``path`` (``""``: the top) may hold, for an unknown field's message."""
    info: Any = msgspec.inspect.type_info(root)
    for part in path.split(".") if path else []:
        fields = {f.name: f.type for f in getattr(info, "fields", ())}
        info = fields.get(part)
        while isinstance(info, msgspec.inspect.UnionType):  # an optional section
            info = next((t for t in info.types if isinstance(t, msgspec.inspect.StructType)), None)
    if not isinstance(info, msgspec.inspect.StructType):
        return Phrase(N_("not expected here"))
    tables = [f.name for f in info.fields if _is_table(f.type)]
    plain = [f.name for f in info.fields if not _is_table(f.type)]
    parts: list[object] = []
    if plain:
        parts.append(", ".join(plain))
    if tables:
        sections = ", ".join(f"[{name}]" for name in tables)
        parts.append(Phrase(N_("the sections {sections}"), sections=sections))
    held = joined(parts, "; ")
    if path:
        return Phrase(N_("[{path}] has {fields}"), path=path, fields=held)
    return Phrase(N_("the file has {fields}"), fields=held)


def _is_table(info: Any) -> bool:
    if isinstance(info, msgspec.inspect.UnionType):
        return any(isinstance(t, msgspec.inspect.StructType) for t in info.types)
    return isinstance(info, msgspec.inspect.StructType)
