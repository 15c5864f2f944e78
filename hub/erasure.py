"""Erasing the players' personal data from stored records (pure: bytes in, bytes out).

The store is append-only except for this one rewrite after the event
(:meth:`hub.organizer.Organizer.erase_personal_data`): every stored payload that names a
player is rewritten, in one transaction, so that each player is named by an anonymous
label (their id) and has no club, no league number and no gender, while the ids — and so
every result, seating, sanction and standing — stay as they were. A payload is read as
plain JSON, whatever its kind (the organizer's records, the assignments sent to the units,
a unit's own events), so a kind of record added later that holds a player's details is
covered too, as long as it names them the kit's way:

* a player's details, ``{"id": …, "name": …, "surname": …, "club": …, "league_number":
  …, "gender": …}`` (a registration);
* a change of details, ``{"fact": "player-details-changed", "player_id": …, "name": …,
  "gender": …}``;
* a seat sent to a table, ``{"player": ID, "name": …}``;

and every free text (a reason, a note: the fields of :data:`FREE_TEXT`) has each
player's name, surname, club and league number cut out: the full name replaced by the
label, the others by :data:`CUT`. Other fields (kinds, tags, stage names, who acted) are
left as they are.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Final

import msgspec

from hub.tournament import Player

CUT: Final = "—"
"""What replaces a surname or a club inside a text."""

FREE_TEXT: Final = frozenset({"why", "reason", "note", "notes", "text", "refused"})
"""The fields whose text a person wrote freely: a player's name may be in it."""

_decoder = msgspec.json.Decoder()
_encoder = msgspec.json.Encoder()


@dataclass(frozen=True)
class Erasure:
    """What one erasure replaces: each player's label by id, and the texts to cut out of
    any other text (longest first, so a full name goes before its surname)."""

    labels: Mapping[str, str]
    texts: tuple[tuple[re.Pattern[str], str], ...]

    @classmethod
    def of(cls, players: Iterable[Player]) -> Erasure:
        """The erasure of ``players`` (every version of their details: as registered and
        as changed since)."""
        labels: dict[str, str] = {}
        replace: dict[str, str] = {}
        for player in players:
            labels[player.id] = player.id
            if player.name and player.name != player.id:
                replace[player.name] = player.id
            for text in (player.family_name, player.club or "", player.league_number):
                if len(text) >= 2 and text != player.id:
                    replace.setdefault(text, CUT)
        ordered = sorted(replace.items(), key=lambda item: -len(item[0]))
        texts = tuple(
            (re.compile(rf"(?<!\w){re.escape(text)}(?!\w)", re.IGNORECASE), by)
            for text, by in ordered
        )
        return cls(labels, texts)

    def text(self, text: str) -> str:
        for pattern, by in self.texts:
            text = pattern.sub(by, text)
        return text

    def payload(self, payload: bytes) -> bytes | None:
        """``payload`` with the players' details erased; None when it names none of them
        (or is not JSON: a payload the kit never wrote is left as it is)."""
        try:
            value = _decoder.decode(payload)
        except msgspec.DecodeError:
            return None
        erased = self._value(value)
        if erased == value:
            return None
        return _encoder.encode(erased)

    def _value(self, value: object, free: bool = False) -> object:
        if isinstance(value, str):
            return self.text(value) if free else value
        if isinstance(value, list):
            return [self._value(v, free) for v in value]
        if not isinstance(value, dict):
            return value
        out = {k: self._value(v, k in FREE_TEXT) for k, v in value.items()}
        label = self._label_of(value)
        if label is not None:
            out["name"] = label
            if "surname" in out:
                out["surname"] = ""
            if "club" in out:
                out["club"] = None
            if out.get("league_number"):
                out["league_number"] = ""
            if "gender" in out:
                out["gender"] = None
        return out

    def _label_of(self, value: dict[str, object]) -> str | None:
        """The label of the player whose details ``value`` holds, if it holds any."""
        if "name" not in value:
            return None
        for key in ("player_id", "id", "player"):
            pid = value.get(key)
            if isinstance(pid, str) and pid in self.labels:
                return self.labels[pid]
        return None
