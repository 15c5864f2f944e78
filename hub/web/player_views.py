"""What a player's own page shows, as plain values (pure: no I/O, no words).

The player's games round by round — table, seat, opponents, each game's result as the
hub scored it (its latest version, after any correction) — their place in the standings
as the command line computes them, and their time use from the moves their tables'
units journalled (:mod:`hub.time_use`). The shell reads the tables' events from the store;
nothing here decides a rule of its own.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from hub.competition import Competition
from hub.exports.lists import SeatLine, seat_lines
from hub.time_use import DrawnStage, GameKey, Move, TimeUse, time_use
from hub.tournament import Player
from hub.web.views import StandingLine, StandingsView, standings_view
from tablekit.core.scoring import SeatScore
from tablekit.shared.i18n import Words


@dataclass(frozen=True)
class PlayedGame:
    game: int
    score: SeatScore | None
    """The player's score as the hub has it now; None: no result yet."""
    corrected: bool
    """The result was corrected after it was first recorded."""
    time: TimeUse


@dataclass(frozen=True)
class PlayedRound:
    """One stage the player was seated in."""

    stage: str
    round: int
    seat: SeatLine
    opponents: tuple[SeatLine, ...]
    games: tuple[PlayedGame, ...]

    @property
    def time(self) -> TimeUse:
        return sum((g.time for g in self.games), TimeUse())

    @property
    def big(self) -> int:
        return sum(g.score.big for g in self.games if g.score is not None)


@dataclass(frozen=True)
class PlayerPage:
    player: Player
    withdrawn: bool
    rounds: tuple[PlayedRound, ...]
    """Newest first (the round in play at the top)."""
    standing: StandingLine | None
    """The player's line in the standings of :attr:`standings`' stage: the latest drawn,
    or the last the player played in (one left out by a cut)."""
    standings: StandingsView | None
    live_table: int | None
    """The table the player sits at in the round being played (its live card)."""

    @property
    def time(self) -> TimeUse:
        return sum((r.time for r in self.rounds), TimeUse())


class NoPlayerPageError(LookupError):
    """No player has that id (the page answers 404)."""


def drawn_stages(comp: Competition) -> tuple[DrawnStage, ...]:
    """Every drawn stage with its round number and when it was seated."""
    return tuple(
        DrawnStage(stage, comp.round_number(stage), comp.drawn_at.get(stage, 0.0))
        for stage in comp.event.stages_played
    )


def player_tables(comp: Competition, player_id: str) -> dict[str, int]:
    """The table the player sat at in each drawn stage."""
    return {
        stage: seated.number
        for stage in comp.event.stages_played
        for seated in comp.event.seating(stage)
        if player_id in seated.players
    }


def _line_of(view: StandingsView | None, player_id: str) -> StandingLine | None:
    if view is None:
        return None
    return next((line for line in view.lines if line.player.id == player_id), None)


def player_page(
    comp: Competition, player_id: str, moves: Mapping[GameKey, Mapping[int, Move]],
    words: Words,
) -> PlayerPage:
    """The page of ``player_id``, its words in ``words``' language; ``moves`` are the
    games' moves of the tables the player sat at (:func:`hub.time_use.played_moves`)."""
    event = comp.event
    player = event.players.get(player_id)
    if player is None:
        raise NoPlayerPageError(player_id)
    rounds = []
    for stage in event.stages_played:
        lines = seat_lines(comp, stage)
        mine = [line for line in lines if line.player_id == player_id]
        if not mine:
            continue
        (seat,) = mine
        table = seat.table.number
        opponents = tuple(
            line for line in lines if line.table.number == table and line.player_id != player_id
        )
        games = []
        count = comp.format.stages[comp.format.stage_index(stage)].games
        for game in range(1, count + 1):
            versions = comp.history(stage, table, game)
            score = versions[-1].score.for_seat(seat.seat) if versions else None
            played = moves.get((stage, table, game), {})
            games.append(
                PlayedGame(game, score, len(versions) > 1, time_use(played.values(), seat.seat))
            )
        rounds.append(PlayedRound(stage, comp.round_number(stage), seat, opponents,
                                  tuple(games)))
    view = standings_view(comp, words)
    standing = _line_of(view, player_id)
    if standing is None and rounds:  # not in the latest stage (a cut): their last one
        view = standings_view(comp, words, rounds[-1].stage)
        standing = _line_of(view, player_id)
    open_stage = comp.open_stage()
    live_table = None
    if open_stage is not None and rounds and rounds[-1].stage == open_stage.name:
        live_table = rounds[-1].seat.table.number
    return PlayerPage(player, player_id in event.withdrawn, tuple(reversed(rounds)), standing,
                      view, live_table)
