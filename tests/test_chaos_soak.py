"""The chaos soak (bench/chaos_soak.py) shortened to about a minute: a few whole table
units playing a tournament (moves and typed results, an organizer closing and drawing the
rounds), every kind of fault once (broker killed and frozen, hub killed, a unit killed, a
unit replaced by a spare with a fresh journal, connections cut, reconnects refused, stalls,
latency), then 0 lost, 0 duplicated, the derived moves and the standings and results equal
to a fault-free replay, every fault recovered."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from pace import scaled

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))

import chaos_soak

pytestmark = [pytest.mark.mqtt, pytest.mark.slow]


def test_a_short_chaos_soak_loses_nothing(capsys: pytest.CaptureFixture[str]) -> None:
    faults = len(chaos_soak.FAULTS)
    args = ["--tables", "5", "--minutes", "4", "--faults", str(faults), "--baseline", "3"]
    args += ["--bare-events", "0", "--recovery-timeout", str(scaled(180))]
    status = chaos_soak.main([*args, "--longest", "2", "--gap", "0.5", "1.0", "--seed", "7"])
    out = capsys.readouterr().out
    print(out)
    assert "lost 0, duplicated 0" in out
    assert "equal to a fault-free replay of the stored events: True" in out
    same = re.search(
        r"results equal to a fault-free replay of the same moves and results: (\w+)"
        r" \((\d+) rounds, (\d+) results, (\d+) journal events never stored",
        out,
    )
    assert same is not None and same.group(1) == "True", out
    assert int(same.group(3)) > 0 and same.group(4) == "0"  # results typed and compared
    assert f"{faults} faults" in out
    for kind in chaos_soak.FAULTS:
        assert f"  {kind} " in out, kind
    assert "NOT recovered" not in out
    assert status == 0
