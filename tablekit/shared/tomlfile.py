"""Strict TOML settings files: decode into msgspec structs, errors that name the file and field.

Both ends' config files are read this way (the hub's ``hub.toml``; the table unit's
``unit.toml`` has its own pin handling on top): an unknown field, a wrong type or a value a
struct's own check refuses stops the program with one line such as
``hub.toml: broker.port: must be 1 to 65535, got 0`` or
``hub.toml: broker.prot: unknown field; [broker] has host, port, …``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, TypeVar

import msgspec

T = TypeVar("T")

_FIELD_PREFIX = re.compile(r"^([A-Za-z_][A-Za-z0-9_]*(?:\[\d+\])?): ")
_UNKNOWN = re.compile(r"Object contains unknown field `(.+)`")


def decode_toml(
    text: str | bytes, kind: type[T], source: str, choices: Mapping[str, str] | None = None
) -> T:
    """``text`` decoded as ``kind``; ValueError whose message starts with ``source`` (the
    file's name) and names the field. ``choices``: what an enum field (``"a.b"``) takes,
    said when a value is not one of them."""
    try:
        return msgspec.toml.decode(text, type=kind)
    except msgspec.ValidationError as err:
        raise ValueError(f"{source}: {describe(str(err), kind, choices or {})}") from None
    except msgspec.DecodeError as err:
        raise ValueError(f"{source}: not valid TOML: {err}") from None


def describe(message: str, root: type[Any], choices: Mapping[str, str] | None = None) -> str:
    """msgspec's "<what> - at `$.a.b`" → "a.b: <what>", naming the field; an unknown
    field's message lists the fields its table has."""
    what, sep, where = message.rpartition(" - at `")
    if not sep:
        what, where = message, "$"
    path = where.rstrip("`").removeprefix("$").removeprefix(".")
    unknown = _UNKNOWN.fullmatch(what)
    if unknown is not None:
        field = f"{path}.{unknown.group(1)}" if path else unknown.group(1)
        return f"{field}: unknown field; {known_fields(root, path)}"
    if _FIELD_PREFIX.match(what) is not None and path:
        return f"{path}.{what}"  # a struct's own check, already prefixed with its field
    if not path:
        return what
    if what.startswith("Invalid enum value") and choices and path in choices:
        return f"{path}: {what[0].lower()}{what[1:]}; expected {choices[path]}"
    return f"{path}: {what[0].lower()}{what[1:]}"


def known_fields(root: type[Any], path: str) -> str:
    """What the table at ``path`` (``""``: the top) may hold, for an unknown field's message."""
    info: Any = msgspec.inspect.type_info(root)
    for part in path.split(".") if path else []:
        fields = {f.name: f.type for f in getattr(info, "fields", ())}
        info = fields.get(part)
        while isinstance(info, msgspec.inspect.UnionType):  # an optional section
            info = next((t for t in info.types if isinstance(t, msgspec.inspect.StructType)), None)
    if not isinstance(info, msgspec.inspect.StructType):
        return "not expected here"
    tables = [f.name for f in info.fields if _is_table(f.type)]
    plain = [f.name for f in info.fields if not _is_table(f.type)]
    where = f"[{path}] has" if path else "the file has"
    parts = []
    if plain:
        parts.append(", ".join(plain))
    if tables:
        parts.append("the sections " + ", ".join(f"[{name}]" for name in tables))
    return f"{where} " + "; ".join(parts)


def _is_table(info: Any) -> bool:
    if isinstance(info, msgspec.inspect.UnionType):
        return any(isinstance(t, msgspec.inspect.StructType) for t in info.types)
    return isinstance(info, msgspec.inspect.StructType)
