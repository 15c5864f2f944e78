"""Pure tournament core of the hub: players, seating, standings, formats, league, progress.

No I/O here: the hub stores :mod:`hub.tournament.progress` facts and rebuilds the state
from them. Module map — one concept per module:

* :mod:`.players` — :class:`Player` and registration-list helpers
* :mod:`.names` — given name and surname; the Polish alphabetical order of every list
* :mod:`.standings` — BP/SP totals and standings with shared places (RULES.md §3.5)
* :mod:`.seating` — seating methods and :class:`Seating` (RULES.md §4)
* :mod:`.draw` — random draw avoiding repeated table-mates
* :mod:`.cuts` — ties at a cut: the judge's decision, recorded
* :mod:`.formats` — formats as data (stages, groups, selectors, rank rules)
* :mod:`.presets` — winter (000), school (004), championship (002), league (003)
* :mod:`.ranking` — final ranking rows and titles
* :mod:`.league` — league tournament points and the season table
* :mod:`.progress` — facts and :class:`EventState`, the fold over them
"""

from hub.tournament.cuts import (
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
from hub.tournament.formats import (
    Everyone,
    Group,
    RankRule,
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
from hub.tournament.names import collation_key, name_order, split_name
from hub.tournament.players import Player, by_rating, index_players, player_order, ties_by_name
from hub.tournament.presets import PRESET_NAMES, league_scheme_for, preset
from hub.tournament.progress import (
    EventState,
    Fact,
    GameRecorded,
    MissingGame,
    Phase,
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
    replay_draws,
    seat_next,
)
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

__all__ = [
    "PRESET_NAMES",
    "RANKING_SCOPE",
    "DuplicatePlayerError",
    "EventState",
    "Everyone",
    "Fact",
    "FormatError",
    "GameRecorded",
    "GameScores",
    "Group",
    "MissingGame",
    "MissingResultsError",
    "Phase",
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
    "league_scheme_for",
    "league_seeded",
    "lot_order",
    "met_pairs",
    "name_order",
    "player_order",
    "preset",
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
