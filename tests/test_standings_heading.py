"""Standings headings name a round still in play (CLI, CSV, HTML), the hub screen's rule."""

from __future__ import annotations

import csv
import io
import random
from pathlib import Path

from test_cli_support import checked_in, play_round


def test_a_round_in_play_is_not_called_after(tmp_path: Path) -> None:
    c = checked_in(tmp_path, "school", 8)
    rng = random.Random(7)
    c.ok("round", "draw", "--seed", "1")
    c.ok("round", "start")
    tables = sorted({m.table for m in c.competition().event.missing_results()})
    play_round(c, rng, skip={(tables[0], 2)})  # one table has one game to go
    done = f"{len(tables) - 1} of {len(tables)} tables done"

    out = c.ok("standings")
    assert f"Standings — round-1 in play, {done}" in out
    assert "Standings after round-1" not in out
    assert "last closed round" not in out  # there is none yet
    assert "(in play)" in c.ok("standings", "--table", str(tables[0]))
    c.ok("export", "html", str(tmp_path / "html"))
    page = (tmp_path / "html" / "standings.html").read_text(encoding="utf-8")
    assert f"round-1 in play, {done}" in page and "after round-1" not in page
    c.ok("export", "csv", str(tmp_path / "csv"))
    text = (tmp_path / "csv" / "standings.csv").read_text(encoding="utf-8-sig")
    rows = list(csv.DictReader(io.StringIO(text)))
    assert {r["round_state"] for r in rows} == {f"in play: {done}"}

    play_round(c, rng)
    c.ok("round", "close")
    assert "Standings after round-1" in c.ok("standings")
    c.ok("round", "draw", "--seed", "2")
    out = c.ok("standings")
    assert f"Standings — round-2 in play, 0 of {len(tables)} tables done" in out
    assert "The last closed round: rummikub standings --stage 1" in out
    after = c.ok("standings", "--stage", "round-1")
    assert "Standings after round-1" in after and "last closed round" not in after
    c.ok("export", "csv", str(tmp_path / "csv"))
    text = (tmp_path / "csv" / "standings.csv").read_text(encoding="utf-8-sig")
    states = {(r["stage"], r["round_state"]) for r in csv.DictReader(io.StringIO(text))}
    assert states == {
        ("round-1", "closed"),
        ("round-2", f"in play: 0 of {len(tables)} tables done"),
    }
