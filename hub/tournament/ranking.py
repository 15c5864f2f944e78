"""Final ranking: blocks of ranked players put one under another, with titles."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

import msgspec

from hub.tournament.formats import Title
from hub.tournament.standings import Standings
from tablekit.core.words import N_

UNDECIDED_TITLE: Final = N_("tie — the head judge decides")
"""What a ranking shows in place of a title while players share a place whose places carry
different titles or league points and the head judge has not decided (RULES.md §4)."""


class RankingRow(msgspec.Struct, frozen=True):
    """A final place. ``stage`` is the last stage the player played; ``big``/``small``/
    ``games`` are the totals that ranked them inside that stage. ``undecided``: the place
    is shared at a cut the head judge has not decided (no title then)."""

    place: int
    player_id: str
    stage: str
    big: int
    small: int
    games: int
    title: str | None = None
    undecided: bool = False

    @property
    def shown_title(self) -> str | None:
        """The title as every ranking shows it: the place's, :data:`UNDECIDED_TITLE`
        while undecided, None for none (a word of the catalogs, or the format's own)."""
        return UNDECIDED_TITLE if self.undecided else self.title


def stack_blocks(
    blocks: Iterable[tuple[str, Standings]], titles: Sequence[Title] = ()
) -> tuple[RankingRow, ...]:
    """Stack stage rankings (best stage first); a player already placed is skipped.

    Inside a block players keep shared places; a block never shares a place with the
    block above it.
    """
    rows: list[RankingRow] = []
    placed: set[str] = set()
    for stage, standings in blocks:
        block = [r for r in standings.rows if r.player_id not in placed]
        offset = len(rows)
        for i, r in enumerate(block):
            place = rows[-1].place if i and block[i - 1].place == r.place else offset + i + 1
            rows.append(RankingRow(place, r.player_id, stage, r.big, r.small, r.games))
            placed.add(r.player_id)
    return tuple(msgspec.structs.replace(row, title=title_for(row.place, titles)) for row in rows)


def title_for(place: int, titles: Sequence[Title]) -> str | None:
    for title in titles:
        if title.first <= place <= title.last:
            return title.name
    return None
