"""Pure tournament core of the hub: players, seating, standings, formats, league, progress.

No I/O here: the hub stores :mod:`hub.tournament.facts` and rebuilds the state from
them. Module map — one concept per module:

* :mod:`.players` — :class:`Player` and registration-list helpers
* :mod:`.standings` — BP/SP totals and standings with shared places (RULES.md §3.5)
* :mod:`.seating` — seating methods and :class:`Seating` (RULES.md §4)
* :mod:`.draw` — random draw avoiding repeated table-mates
* :mod:`.cuts` — ties at a cut: the judge's decision, recorded
* :mod:`.formats` — formats as data (stages, groups, selectors, rank rules)
* :mod:`.presets` — winter (000), school (004), championship (002), league (003)
* :mod:`.ranking` — final ranking rows and titles
* :mod:`.league` — league tournament points and the season table
* :mod:`.facts` — the facts an event is folded from, and their JSON
* :mod:`.state` — what an event state holds, and the plain questions about it
* :mod:`.state_rankings` — its standings, final ranking and league points
* :mod:`.state_draws` — drawing its next stage; ties at a cut, consolation seating
* :mod:`.progress` — :class:`EventState`, the fold: each fact checked, then applied

Given name and surname and the one order of every list of people are
:mod:`tablekit.core.names`.
"""

from hub.tournament.cuts import (
    OVERALL_SCOPE,
    RANKING_SCOPE,
    Tie,
    TieAtCutError,
    TieDecided,
    TieHow,
    lot_order,
    split_scope,
    table_scope,
)
from hub.tournament.draw import draw_avoiding_repeats, met_pairs
from hub.tournament.errors import (
    DuplicatePlayerError,
    FormatError,
    LeagueNumberError,
    MissingResultsError,
    PlayerCountError,
    PlayerNameError,
    PlayerStatusError,
    ResultError,
    RoundStateError,
    SeatingMismatchError,
    TournamentError,
    UnknownPlayerError,
)
from hub.tournament.facts import (
    ConsolationDecided,
    Fact,
    GameRecorded,
    PlayerCheckedIn,
    PlayerDetailsChanged,
    PlayerLateArrived,
    PlayerRegistered,
    PlayerSanctioned,
    PlayerScore,
    PlayerWithdrawn,
    RoundClosed,
    RoundSeated,
    RoundUndone,
    SanctionKind,
    SanctionLifted,
    SeatedTable,
    SeedsDeclared,
    check_in_all,
    decode_fact,
    encode_fact,
)
from hub.tournament.formats import (
    Everyone,
    Group,
    RankRule,
    Rest,
    Selector,
    Stage,
    TablePlaces,
    Title,
    TopAcrossTables,
    TopOverall,
    TournamentFormat,
)
from hub.tournament.league import (
    SeasonRow,
    award_points,
    season_seeds,
    season_table,
    seed_tables,
    seeding_statement,
    tournament_points,
)
from hub.tournament.players import (
    Player,
    by_rating,
    index_players,
    league_number,
    player_order,
    ties_by_name,
)
from hub.tournament.presets import PRESET_NAMES, league_scheme_for, preset, preset_name
from hub.tournament.progress import EventState, replay_draws, seat_next
from hub.tournament.ranking import RankingRow
from hub.tournament.seating import (
    Seating,
    SeatingMethod,
    TablePlacing,
    by_standings,
    by_table_placement,
    league_seeded,
    random_draw,
    seeded_snake,
    table_sizes,
    three_tables_needed,
)
from hub.tournament.standings import (
    GameScores,
    StandingRow,
    Standings,
    compute_standings,
)
from hub.tournament.state import EventPhase, MissingGame
from hub.tournament.state_draws import ConsolationError
from tablekit.core.names import collation_key, name_order, split_name

__all__ = [
    "OVERALL_SCOPE",
    "PRESET_NAMES",
    "RANKING_SCOPE",
    "ConsolationDecided",
    "ConsolationError",
    "DuplicatePlayerError",
    "EventPhase",
    "EventState",
    "Everyone",
    "Fact",
    "FormatError",
    "GameRecorded",
    "GameScores",
    "Group",
    "LeagueNumberError",
    "MissingGame",
    "MissingResultsError",
    "Player",
    "PlayerCheckedIn",
    "PlayerCountError",
    "PlayerDetailsChanged",
    "PlayerLateArrived",
    "PlayerNameError",
    "PlayerRegistered",
    "PlayerSanctioned",
    "PlayerScore",
    "PlayerStatusError",
    "PlayerWithdrawn",
    "RankRule",
    "RankingRow",
    "Rest",
    "ResultError",
    "RoundClosed",
    "RoundSeated",
    "RoundStateError",
    "RoundUndone",
    "SanctionKind",
    "SanctionLifted",
    "SeasonRow",
    "SeatedTable",
    "Seating",
    "SeatingMethod",
    "SeatingMismatchError",
    "SeedsDeclared",
    "Selector",
    "Stage",
    "StandingRow",
    "Standings",
    "TablePlaces",
    "TablePlacing",
    "Tie",
    "TieAtCutError",
    "TieDecided",
    "TieHow",
    "Title",
    "TopAcrossTables",
    "TopOverall",
    "TournamentError",
    "TournamentFormat",
    "UnknownPlayerError",
    "award_points",
    "by_rating",
    "by_standings",
    "by_table_placement",
    "check_in_all",
    "collation_key",
    "compute_standings",
    "decode_fact",
    "draw_avoiding_repeats",
    "encode_fact",
    "index_players",
    "league_number",
    "league_scheme_for",
    "league_seeded",
    "lot_order",
    "met_pairs",
    "name_order",
    "player_order",
    "preset",
    "preset_name",
    "random_draw",
    "replay_draws",
    "season_seeds",
    "season_table",
    "seat_next",
    "seed_tables",
    "seeded_snake",
    "seeding_statement",
    "split_name",
    "split_scope",
    "table_scope",
    "table_sizes",
    "three_tables_needed",
    "ties_by_name",
    "tournament_points",
]
