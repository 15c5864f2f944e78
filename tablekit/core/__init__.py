"""The kit's pure core: what a table unit and the hub agree on.

Seats, the move clock and its events, rulesets and scoring, the wire protocol with the
result submission, the rack notation, the Polish name order, the table-status model and
the kit's root error. Nothing here does I/O
(no paho, pygame, gpiozero, serial, sqlite3 or socket: an import-linter contract run by
``./kit test`` enforces it), so both ends and the tests use it with injected time.
"""
