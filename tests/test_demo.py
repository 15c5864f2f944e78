"""The README's main command, headless: a tournament played by simulated tables."""

from __future__ import annotations

import os
import random
import re
import shlex
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import msgspec
import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion
from running import Running, processes_naming, session_left
from test_cli_support import play_round
from web_console import school_hall

from hub.broker import free_port, wait_for_port
from hub.demo.event import demo_format, demo_ruleset, organize
from hub.demo.options import FULL, SHORT, build_parser, fill_length
from hub.demo.report import follow_text
from hub.demo.run import Demo
from hub.organizer import Organizer
from hub.store import EventStore
from hub.web.accounts import read_accounts, verify_password
from tablekit.core.rulesets import BUILTIN, BigPointScheme
from tablekit.core.topics import Topics
from tablekit.shared.commandline import speaking
from tablekit.shared.i18n import asked_language, words

LANGUAGE_VARIABLES = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")


@pytest.mark.parametrize("broker", ["mosquitto", "embedded"])
def test_demo_plays_on_every_table_and_draws_the_hub_screen(tmp_path: Path, broker: str) -> None:
    # Nothing names a language: the demo speaks Polish.
    env = {k: v for k, v in os.environ.items() if k not in LANGUAGE_VARIABLES}
    proc = subprocess.run(
        [sys.executable, "-c", "from hub.demo import main; raise SystemExit(main())",
         "--headless", "--broker", broker, "--players", "10", "--pace", "0.05",
         "--move-seconds", "4", "--round-minutes", "1", "--duration", "15", "--every", "3",
         "--png-every", "5", "--seed", "3", "--dir", str(tmp_path)],
        capture_output=True, text=True, timeout=120, check=False,
        env={**env, "SDL_VIDEODRIVER": "dummy"},
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    out = proc.stdout
    assert "Traceback" not in proc.stderr, proc.stderr
    assert "demo: runda 1: rozlosowano (3 stoliki, 0 powtórzonych par) i rozpoczęto" \
        in out
    assert "; 10 graczy\n" in out and "stan sali:" in out
    assert "  stolik 1: A " in out  # the seating
    for table in (1, 2, 3):  # 10 players: tables of 4, 3 and 3
        assert f"stolik  {table} gra 1/2" in out  # the rule books' word (gra)
    walls = sorted(p.name for p in (tmp_path / "screen").glob("*-wall-1.png"))
    assert walls[:2] == ["0001-wall-1.png", "0002-wall-1.png"]  # numbered, not overwritten
    assert (tmp_path / "screen" / walls[-1]).stat().st_size > 10_000
    store = EventStore(tmp_path / "hub.sqlite3")
    passes = Counter(e.table for e in store.events(kind="move_passed"))
    assert set(passes) == {1, 2, 3} and min(passes.values()) >= 3
    assert store.integrity_check() == "ok"


def brokers_in(workdir: Path) -> list[int]:
    """Pids of the Mosquitto processes whose command line names ``workdir``."""
    return processes_naming(workdir, "mosquitto")


def test_an_event_that_cannot_start_is_refused_in_one_line_and_leaves_no_broker(
    tmp_path: Path,
) -> None:
    proc = subprocess.run(
        [sys.executable, "-c", "from hub.demo import main; raise SystemExit(main())",
         "--headless", "--broker", "mosquitto", "--preset", "championship", "--dir",
         str(tmp_path)],
        capture_output=True, text=True, timeout=60, check=False,
        env={**os.environ, "SDL_VIDEODRIVER": "dummy", "LANGUAGE": "pl"},
    )
    left = brokers_in(tmp_path)
    for pid in left:  # only the broker this demo started, so later tests are not disturbed
        os.kill(pid, signal.SIGTERM)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert proc.stderr == (
        "rummikub-demo: format „Mistrzostwa: eliminacje, półfinał (8 graczy), finał (4 graczy)”: "
        "liczba graczy 14, a potrzeba 16–36\n"
    )
    assert left == []


@pytest.mark.parametrize("broker", ["mosquitto", "embedded"])
def test_a_demo_failing_half_way_stops_what_it_started(
    tmp_path: Path, broker: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    args = build_parser().parse_args(
        ["--broker", broker, "--players", "10", "--seed", "1", "--dir", str(tmp_path)]
    )
    demo = Demo(args)
    started: list[int] = []
    start_table = Demo._start_table

    def one_table_then_fail(self: Demo, number: int) -> None:
        if started:
            raise OSError("table 2: no room for its journal")
        start_table(self, number)
        started.append(number)

    monkeypatch.setattr(Demo, "_start_table", one_table_then_fail)
    with pytest.raises(OSError, match="table 2"):
        demo.start()
    assert started == [1]  # the broker, the hub and table 1 were running
    assert demo.broker is not None and not demo.broker.running
    assert not wait_for_port(demo.host, demo.port, 0.5)
    assert brokers_in(tmp_path) == []
    assert not any(thread.is_alive() for thread in demo.tables.threads)
    assert demo.director is None


@pytest.mark.parametrize(
    ("preset", "players", "base"),
    [("championship", 16, "002"), ("league", 14, "003"), ("school", 14, "004"),
     ("winter", 14, "000")],
)
def test_the_demo_plays_the_presets_own_ruleset_with_its_clock(
    preset: str, players: int, base: str
) -> None:
    rules = demo_ruleset(preset, players, 20.0)
    builtin = BUILTIN[base]
    assert rules.name == "demo" and rules.move_seconds == 20.0
    assert rules.title == f"{builtin.title}, 20 s a move (demo)"
    same = msgspec.structs.replace(
        rules, name=builtin.name, title=builtin.title, move_seconds=builtin.move_seconds
    )
    assert same == builtin


def test_the_demo_championship_scores_and_shows_points_the_002_way(tmp_path: Path) -> None:
    args = build_parser().parse_args(
        ["--preset", "championship", "--players", "16", "--seed", "1", "--dir", str(tmp_path)]
    )
    demo = Demo(args)
    demo.organizer = Organizer(EventStore(tmp_path / "hub.sqlite3"), by="demo")
    demo._create_event()
    competition = demo.organizer.competition
    stage = competition.open_stage()
    assert stage is not None
    rules = competition.ruleset(stage)
    assert (rules.name, rules.big_points) == ("demo", BigPointScheme.PLACEMENT)
    assert rules.placement_points_4 == (4, 2, 1, 0)
    assert rules.move_seconds == args.move_seconds
    assert len(competition.tables()) == 4


DEMO = [sys.executable, "-c", "from hub.demo import main; raise SystemExit(main())"]


@pytest.mark.parametrize(
    ("mode", "how"),
    [
        ("headless", "timeout"),  # `timeout` signals the whole group: the broker dies too
        ("headless", "SIGTERM"),
        ("headless", "SIGINT"),
        ("headless", "Ctrl-C"),  # the terminal signals the whole foreground group
        ("window", "SIGTERM"),
    ],
)
def test_the_demo_stops_on_sigterm_and_sigint_within_seconds_leaving_nothing(
    tmp_path: Path, mode: str, how: str, xvfb: Callable[[int, int], str]
) -> None:
    env = {**os.environ}
    if mode == "window":
        env["DISPLAY"] = xvfb(1280, 720)
        env.pop("SDL_VIDEODRIVER", None)
        env.pop("WAYLAND_DISPLAY", None)
    else:
        env["SDL_VIDEODRIVER"] = "dummy"
    demo = Running(
        [*DEMO, f"--{mode}", "--broker", "mosquitto", "--players", "10", "--pace", "0.05",
         "--every", "1", "--seed", "3", "--dir", str(tmp_path), "--lang", "pl"],
        env,
    )
    demo.wait_for("runda 1: rozlosowano", 60)
    if mode == "headless":
        demo.wait_for("stan sali:", 30)
    else:
        time.sleep(3)  # the hub screen's window is up and polling
    assert brokers_in(tmp_path), demo.output
    if how == "timeout":
        os.killpg(demo.proc.pid, signal.SIGTERM)
    elif how == "Ctrl-C":
        os.killpg(demo.proc.pid, signal.SIGINT)
    else:
        demo.proc.send_signal(getattr(signal, how))
    took = demo.stopped_within(15)
    assert took is not None, f"still running 15 s after {how}:\n{demo.output}"
    assert demo.proc.returncode == 0, demo.output
    name = {"timeout": "SIGTERM", "Ctrl-C": "SIGINT"}.get(how, how)
    assert f"demo: zatrzymywanie ({name})" in demo.output and "demo: zatrzymane" in demo.output
    assert "Traceback" not in demo.output, demo.output
    # A deliberate stop is no lost connection: the tables and the hub leave the broker
    # before it stops.
    for lost in ("offline", "lost the broker"):
        assert lost not in demo.output, demo.output
    assert brokers_in(tmp_path) == []
    assert session_left(demo.proc.pid) == []


def test_the_default_is_a_short_event_and_full_length_is_an_option() -> None:
    short = build_parser().parse_args([])
    assert fill_length(short) is SHORT
    assert (short.pace, short.move_seconds, short.round_minutes) == (0.1, 15.0, 3.0)
    fmt = demo_format("school", 14, SHORT)
    assert [(s.name, s.games) for s in fmt.stages] == [("round-1", 2), ("round-2", 2)]
    full = build_parser().parse_args(["--full"])
    assert fill_length(full) is FULL
    assert (full.pace, full.move_seconds, full.round_minutes) == (0.25, 20.0, 8.0)
    assert len(demo_format("school", 14, FULL).stages) == 4
    own = build_parser().parse_args(["--full", "--pace", "0.5"])
    fill_length(own)
    assert (own.pace, own.move_seconds) == (0.5, 20.0)


def followed(command: str, seconds: float) -> list[str]:
    """Topics of the messages the printed ``mosquitto_sub`` command would show (the
    same subscription, made with paho: the test machine may lack mosquitto-clients)."""
    words = shlex.split(command)
    host, port, topic = (words[words.index(flag) + 1] for flag in ("-h", "-p", "-t"))
    seen: list[str] = []
    client = mqtt.Client(CallbackAPIVersion.VERSION2)
    client.on_connect = lambda c, *_: c.subscribe(topic)
    client.on_message = lambda c, u, msg: seen.append(msg.topic)
    client.connect(host, int(port))
    client.loop_start()
    time.sleep(seconds)
    client.loop_stop()
    client.disconnect()
    return seen


def test_the_short_demo_plays_a_whole_event_on_the_given_port_and_says_how_to_follow_it(
    tmp_path: Path,
) -> None:
    port, web_port = free_port(), free_port()
    demo = Running(
        [*DEMO, "--headless", "--broker", "mosquitto", "--port", str(port),
         "--pace", "0.02", "--move-seconds", "4", "--every", "1", "--png-every", "4",
         "--seed", "5", "--dir", str(tmp_path), "--lang", "en", "--web-port", str(web_port)],
        {**os.environ, "SDL_VIDEODRIVER": "dummy"},
    )
    demo.wait_for("demo: web console", 60)
    web = f"http://127.0.0.1:{web_port}/"
    assert f"demo: web console {web} (find your table, the standings, every table live)" \
        in demo.output
    demo.wait_for("demo: sign in there as organizer", 10)
    login = re.search(r"as organizer \(password ([a-z0-9-]+)\) or as judge-1 \(password "
                      r"([a-z0-9-]+)\): accounts of this demo only", demo.output)
    assert login is not None, demo.output
    accounts = read_accounts(tmp_path / "web-accounts.toml")
    assert verify_password(login.group(1), accounts["organizer"].hash)
    assert verify_password(login.group(2), accounts["judge-1"].hash)
    with urllib.request.urlopen(f"{web}standings", timeout=10) as page:
        standings = page.read().decode()
    assert '<html lang="en">' in standings and "Standings" in standings  # the event's language
    demo.wait_for("round status:", 60)
    out = demo.output
    assert f"broker Mosquitto on 127.0.0.1:{port}" in out
    assert "venue 'demo-hall', event 'demo-cup': every message under " \
        "rummikub/v1/demo-hall/demo-cup/" in out
    follow = next(line for line in out.splitlines() if "follow it live:" in line)
    command = follow.split("follow it live:", 1)[1].split("  (apt", 1)[0].strip()
    assert command.startswith(f"mosquitto_sub -h 127.0.0.1 -p {port} ")
    topics = followed(command, 2.0)
    assert "rummikub/v1/demo-hall/demo-cup/hub/round" in topics
    assert any(t.endswith("/table/1/state") for t in topics)
    screen = next(line for line in out.splitlines() if "the hub screen:" in line)
    assert f"rummikub-screen --broker 127.0.0.1:{port} --venue demo-hall --event demo-cup" \
        in screen
    status = next(line for line in out.splitlines() if "round status:" in line)
    command = shlex.split(status.split("round status:", 1)[1])
    assert command[0].startswith("/"), status  # runs from any folder
    if Path(command[0]).name == "kit":  # the source tree's script: its venv's program
        command = [str(Path(sys.executable).with_name(command[2])), *command[3:]]
    shown = subprocess.run(command, capture_output=True, text=True, timeout=60,
                           cwd=tmp_path, check=False)
    assert shown.returncode == 0, shown.stdout + shown.stderr
    assert "round-1" in shown.stdout and "table" in shown.stdout.lower(), shown.stdout
    demo.wait_for("Final ranking", 300)
    assert demo.stopped_within(60) is not None and demo.proc.returncode == 0, demo.output
    out = demo.output
    steps = ["Inter-school contest (004): 2 rounds × 2 games", "; 14 players\n",
             "round-1 drawn (4 tables, 0 repeated pairs) and started", "round-1 closed",
             "standings after round-1:", "round-2 drawn and started; the new seating:",
             "round-2 closed", "the event is finished. Final ranking:", "demo: stopped"]
    at = [out.find(step) for step in steps]
    assert -1 not in at and at == sorted(at), out
    standings = out[out.find("standings after round-1:"):out.find("round-2 drawn")]
    assert re.search(r"^ +1\. .+ BP +\d+  SP +[+-]?\d+  2 games$", standings, re.M), standings
    competition = Organizer(EventStore(tmp_path / "hub.sqlite3"), by="test").competition
    assert competition.language == "en"  # --lang is the event's: the tables speak it too
    tables = {t.number for t in competition.event.seating("round-1")}
    typed = {key: versions[-1].record.unit for key, versions in competition.results.items()}
    expected = {(stage, t, g) for stage in ("round-1", "round-2") for t in tables
                for g in (1, 2)}
    assert set(typed) == expected and all(typed.values())  # every result typed at a table
    sets = sorted({p.name[:4] for p in (tmp_path / "screen").glob("*.png")})
    assert len(sets) >= 3 and sets[0] == "0001"
    assert (tmp_path / "screen" / f"{sets[-1]}-standings-1.png").is_file()
    assert brokers_in(tmp_path) == []


def test_the_commands_to_follow_the_demo_line_up_in_either_language(tmp_path: Path) -> None:
    topics = Topics("demo-hall", "demo-cup")
    for lang, labels in (("pl", ("podgląd na żywo:", "ekran sali:", "stan rundy:")),
                         ("en", ("follow it live:", "the hub screen:", "round status:"))):
        heading, *lines = follow_text("127.0.0.1", 1883, topics, tmp_path, words(lang)).split("\n")
        assert heading.startswith(("demo: sala „demo-hall”, turniej „demo-cup”",
                                   "demo: venue 'demo-hall', event 'demo-cup'"))
        assert [line.split(":")[0].strip() + ":" for line in lines] == list(labels)
        starts = {len(line) - len(line.split(":", 1)[1].lstrip()) for line in lines}
        assert len(starts) == 1, lines  # every command starts in the same column


def test_a_port_in_use_is_refused_in_one_line(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        proc = subprocess.run(
            [*DEMO, "--headless", "--broker", "mosquitto", "--port", str(port), "--dir",
             str(tmp_path)],
            capture_output=True, text=True, timeout=60, check=False,
            env={**os.environ, "SDL_VIDEODRIVER": "dummy"},
        )
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert proc.stderr.startswith("rummikub-demo: ") and str(port) in proc.stderr, proc.stderr
    assert len(proc.stderr.splitlines()) == 1 and brokers_in(tmp_path) == []


def test_the_options_are_explained_in_the_chosen_language(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with speaking(words("pl")):  # as the demo builds it: argparse's own words in Polish
        polish = build_parser(words("pl")).format_help()
    assert polish.startswith("użycie: rummikub-demo [-h]"), polish
    assert "\nopcje:\n" in polish and "pokaż tę pomoc i zakończ" in polish
    assert "cały turniej w pełnym tempie" in polish and "20 s na ruch" in polish
    english = build_parser(words("en")).format_help()
    assert english.startswith("usage: rummikub-demo [-h]") and "\noptions:\n" in english
    assert "the whole event at the full-length pace" in english
    with pytest.raises(SystemExit), speaking(words("pl")):
        build_parser(words("pl")).parse_args(["--port", "x"])
    assert "błąd: argument --port: oczekiwano portu 1–65535, podano „x”" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        build_parser(words("pl")).parse_args(["--lang", "de"])
    assert "no language 'de': the kit speaks Polish (pl), English (en)" in capsys.readouterr().err


def test_the_language_is_known_before_the_options_are_read() -> None:
    assert asked_language(["--lang", "en"], {}) == "en"
    assert asked_language(["--players", "8", "--lang=pl"], {"LANG": "en_GB.UTF-8"}) == "pl"
    assert asked_language([], {"LANG": "en_US.UTF-8"}) == "en"
    assert asked_language([], {}) == "pl"
    assert asked_language(["--lang", "de"], {}) == "pl"  # the parser then refuses "de"
    assert build_parser(words("en")).parse_args([]).lang == "en"


def test_the_demo_organizer_goes_on_when_a_minor_without_consent_is_marked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A person marks a pupil minor (no consent) at the console while the demo plays: its
    organizer says so in the event's language, admits them as its decision and draws."""
    c = school_hall(tmp_path / "event.sqlite3")
    play_round(c, random.Random(1))
    c.ok("players", "minor", "P003")
    org = Organizer(EventStore(c.db), by="organizer (demo)")
    try:
        assert organize(org, 5, words("pl")) is True
        comp = org.competition
    finally:
        org.store.close()
    said = capsys.readouterr().out
    assert "niepełnoletni bez pisemnej zgody opiekuna: P003; organizator demo dopuszcza" in said
    assert "demo: klasyfikacja po etapie „runda 1”:" in said  # the stage as people name it
    assert len(comp.event.stages_played) == 2 and "P003" in comp.admitted
    assert "round-2" in comp.started
