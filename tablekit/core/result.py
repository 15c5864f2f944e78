"""The table's confirmed result as it travels: journalled by the unit, scored by the hub."""

from __future__ import annotations

import msgspec

from tablekit.core.fields import GameNo, MoveNo, RoundNo
from tablekit.core.scoring import GameReport


class ResultSubmitted(
    msgspec.Struct,
    frozen=True,
    tag="result_submitted",
    tag_field="type",
    forbid_unknown_fields=True,
):
    """The table's confirmed result, journalled and sent to the hub like a clock event.

    The hub scores ``report`` itself (it never trusts points computed by a unit) and
    answers with a result ack naming ``game``.
    """

    game: GameNo
    move: MoveNo
    """Moves played in the game (for the record)."""
    report: GameReport
    judge_override: bool = False
    """True: the judge accepted the shown score on the players' behalf (not every seat
    confirmed it); false: every seat confirmed it."""
    round: RoundNo = 0
    """The hub's round the game belongs to (from its assignment; 0: none). A result
    delivered late, after the hub moved on, is refused instead of landing in another round."""
