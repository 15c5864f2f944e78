"""The league across towns (003): every venue's hub sends its events' records to a
central league service over a Mosquitto bridge; the central folds each tournament with
the hub's own code (:mod:`hub.competition`), keeps one season table and sends it, with
the seeds, back down to the venues. docs/league.md tells how it is set up and run.

Pure: :mod:`.identity` (who is who across tournaments), :mod:`.season` (the season
table, the seeds and the championship ticket), :mod:`.wire` (what flows between a hub
and the central, and on which topics). Shells: :mod:`.store` (the league store, SQLite),
the central's ingest :mod:`.service`, the bridge and the central broker's accounts
:mod:`.bridge`, the command ``rummikub-league`` :mod:`.cli`.
"""
