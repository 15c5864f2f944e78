"""The whole table unit process: peak RSS and CPU while a game is played.

Runs the real ``tablekit-unit`` (the program a table's Pi runs) on gpiozero's mock
pins with SDL's dummy video driver, with simulated players pressing the buttons, for
``--seconds``; reads the process's peak RSS (VmHWM) and CPU time from /proc. Baseline in
the same run: a bare Python interpreter that imports nothing of the kit.

    python bench/bench_unit_process.py [--seconds 30]
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

TICKS = os.sysconf("SC_CLK_TCK")


def peak_rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmHWM in /proc status")


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS  # utime + stime


def measure(argv: list[str], env: dict[str, str], seconds: float) -> tuple[float, float]:
    """(peak RSS MiB, CPU seconds per minute) of a process running ``seconds``."""
    proc = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(3.0)  # imports and start-up are not the steady state
    start = cpu_seconds(proc.pid)
    time.sleep(seconds)
    cpu = (cpu_seconds(proc.pid) - start) / seconds * 60
    rss = peak_rss_mib(proc.pid)
    proc.send_signal(signal.SIGTERM)
    proc.wait(20)
    return rss, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=30.0)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        config = Path(tmp) / "unit.toml"
        config.write_text("[unit]\ntable = 1\n[display]\nwidth = 480\nheight = 320\n")
        env = {
            **os.environ,
            "GPIOZERO_PIN_FACTORY": "mock",
            "GPIOZERO_MOCK_PIN_CLASS": "mockpwmpin",
            "SDL_VIDEODRIVER": "dummy",
            "SDL_AUDIODRIVER": "dummy",
        }
        unit = [
            sys.executable, "-c", "from tablekit.app import unit_main; unit_main()",
            "--config", str(config), "--journal", str(Path(tmp) / "journal.sqlite3"),
            "--bot", "--pace", "0.25", "--seed", "1",
        ]
        bare = [sys.executable, "-c", "import time; time.sleep(3600)"]
        unit_rss, unit_cpu = measure(unit, env, args.seconds)
        bare_rss, bare_cpu = measure(bare, env, args.seconds)
    print(f"tablekit-unit (mock pins, 480x320 dummy display, bot players), {args.seconds:g} s")
    print(f"  unit process:   peak RSS {unit_rss:6.1f} MiB   CPU {unit_cpu:6.2f} s per minute")
    print(f"  bare python:    peak RSS {bare_rss:6.1f} MiB   CPU {bare_cpu:6.2f} s per minute")


if __name__ == "__main__":
    main()
