"""The kit as a Pi installs it: a non-editable wheel in a fresh venv, run from elsewhere.

The wheel is built from the source, its dependencies come from a local wheelhouse
(tests/wheelhouse.py: no registry), and every check runs with its working directory
outside the source tree, so nothing can be imported from the checkout: only what the
wheel carries (modules, the ring board's framing, the fonts) is there.
"""

from __future__ import annotations

import configparser
import json
import os
import shutil
import subprocess
import sys
import time
import tomllib
import urllib.error
import urllib.request
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pygame
import pytest
from pace import scaled
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from wheelhouse import build_kit_wheel, clean_env, closure, repack, wheel_requirements

from hub.broker import free_port
from hub.wheelhouse import kit_wheel, pack_deploy, write_index
from tablekit.display import render_all
from tablekit.shared.programs import PROGRAMS

pytestmark = pytest.mark.slow  # builds and installs the wheel into fresh venvs

ROOT = Path(__file__).resolve().parent.parent
DEMO_BROKER = {"amqtt", "pydantic", "typer", "rich", "argon2-cffi", "psutil", "websockets",
               "pyyaml", "transitions"}
"""amqtt and what it pulls in: the demo's embedded broker, never needed on a Pi."""

IMPORT_ALL = """
import importlib, json, pkgutil, sys
found = {}
for top in sys.argv[1:]:
    package = importlib.import_module(top)
    names = [top] + [m.name for m in pkgutil.walk_packages(package.__path__, top + ".")]
    for name in names:
        found[name] = importlib.import_module(name).__file__
json.dump(found, sys.stdout)
"""
"""Imports every module of the installed packages named on its command line; prints
{module: file}."""

SPEAKS = """
from tablekit.shared.i18n import catalog_path, words
import sys
for lang in ("pl", "en"):
    assert catalog_path(lang).is_relative_to(sys.prefix), catalog_path(lang)
    w = words(lang)
    print(", ".join(w.ngettext(one, more, n).format(n=n) for one, more, n in (
        ("{n} table", "{n} tables", 5), ("{n} game", "{n} games", 2),
        ("{n} player", "{n} players", 1))))
"""
"""Prints a few counted words from the installed catalogs, Polish then English."""


@dataclass(frozen=True)
class House:
    wheel: Path
    wheels: Path
    requirements: list[Requirement]
    scripts: dict[str, str]


@dataclass(frozen=True)
class Installed:
    venv: Path
    cwd: Path
    env: dict[str, str]

    def run(self, *args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            list(args), cwd=self.cwd, env=self.env, capture_output=True, text=True,
            timeout=timeout, check=False,
        )

    def python(self, *args: str) -> subprocess.CompletedProcess[str]:
        return self.run(str(self.venv / "bin/python"), *args)


def source_modules(*packages: str) -> set[str]:
    modules = set()
    for package in packages:
        for path in (ROOT / package).rglob("*.py"):
            parts = path.relative_to(ROOT).with_suffix("").parts
            modules.add(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return modules


@pytest.fixture(scope="module")
def house(tmp_path_factory: pytest.TempPathFactory) -> House:
    """The kit's wheel and a wheelhouse of every installed dependency of the demo and
    league extras."""
    work = tmp_path_factory.mktemp("wheel")
    wheels = work / "wheels"
    wheels.mkdir()
    wheel = build_kit_wheel(ROOT, work, wheels)
    requirements = wheel_requirements(wheel)
    for name in sorted(closure(requirements, ["demo", "league"])):
        repack(name, wheels)
    with zipfile.ZipFile(wheel) as whl:
        (entry,) = [n for n in whl.namelist() if n.endswith(".dist-info/entry_points.txt")]
        points = configparser.ConfigParser()
        points.read_string(whl.read(entry).decode())
    return House(wheel, wheels, requirements, dict(points["console_scripts"]))


def install(house: House, tmp: Path, extras: str) -> Installed:
    """A fresh venv (no system site-packages) with the wheel and ``extras``, offline."""
    venv = tmp / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    env = clean_env(os.environ)
    env["SDL_VIDEODRIVER"] = "dummy"
    env["SDL_AUDIODRIVER"] = "dummy"
    env["PYGAME_HIDE_SUPPORT_PROMPT"] = "1"
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        env.pop(name, None)
    env["LANG"] = "C.UTF-8"  # names no language: the kit's own default, Polish
    done = subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(venv / "bin/python"), "install",
         "--quiet", "--no-index", "--find-links", str(house.wheels),
         f"{house.wheel}[{extras}]" if extras else str(house.wheel)],
        env=env, capture_output=True, text=True, check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    cwd = tmp / "elsewhere"
    cwd.mkdir()
    return Installed(venv, cwd, env)


def installed_names(kit: Installed) -> set[str]:
    """The distributions in the venv (it has no pip of its own: the suite's pip installs)."""
    listing = kit.python(
        "-c",
        "import json, importlib.metadata as m; "
        "print(json.dumps([d.metadata['Name'] for d in m.distributions()]))",
    )
    assert listing.returncode == 0, listing.stderr
    return {canonicalize_name(name) for name in json.loads(listing.stdout)}


def imports_everything(kit: Installed, packages: tuple[str, ...]) -> dict[str, str]:
    done = kit.python("-c", IMPORT_ALL, *packages)
    assert done.returncode == 0, done.stderr
    found: dict[str, str] = json.loads(done.stdout)
    assert set(found) == source_modules(*packages), "modules missing from the wheel"
    site = str(kit.venv)
    outside = {name: path for name, path in found.items() if not path.startswith(site)}
    assert outside == {}, "imported from outside the installed venv"
    return found


def png_pixels(path: Path) -> tuple[tuple[int, int], bytes]:
    image = pygame.image.load(str(path))
    return image.get_size(), pygame.image.tobytes(image, "RGB")


def serves_the_web_console(kit: Installed, tmp_path: Path) -> None:
    """The installed ``rummikub-web`` answers a phone: its templates, style sheet, script
    and the Polish catalog came with the wheel."""
    port = free_port()
    web = subprocess.Popen(
        [str(kit.venv / "bin/rummikub-web"), "--db", str(tmp_path / "event.sqlite3"),
         "--port", str(port), "--no-broker"],
        cwd=kit.cwd, env=kit.env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            assert web.poll() is None, web.communicate()[0]
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as page:
                    home = page.read().decode()
                break
            except OSError:
                assert time.monotonic() < deadline, "rummikub-web did not answer"
                time.sleep(0.2)
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/static/live.js", timeout=5) as f:
            script = f.read().decode()
    finally:
        web.terminate()
        web.wait(30)
    assert '<html lang="pl">' in home and "Znajdź swój stolik" in home
    assert "Turniej nie został jeszcze utworzony." in home
    assert "EventSource" in script


def test_the_wheel_lists_every_console_script(house: House) -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert house.scripts == project["scripts"]


def test_a_units_install_leaves_out_the_demo_broker(house: House) -> None:
    unit = closure(house.requirements, ["unit"])
    demo = closure(house.requirements, ["demo"])
    assert {"gpiozero", "pygame-ce", "pyserial", "paho-mqtt", "msgspec"} <= unit
    assert unit & DEMO_BROKER == set()
    assert demo >= DEMO_BROKER  # the demo still gets the embedded broker
    assert closure(house.requirements, ["hub"]) & (DEMO_BROKER | {"gpiozero", "pyserial"}) == set()


@pytest.fixture(scope="module")
def unit_kit(house: House, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Installed]:
    yield install(house, tmp_path_factory.mktemp("unit"), "unit")


def test_a_table_unit_installed_from_the_wheel(unit_kit: Installed, tmp_path: Path) -> None:
    names = installed_names(unit_kit)
    assert "rummikub-tablekit" in names and names & DEMO_BROKER == set()
    found = imports_everything(unit_kit, ("tablekit",))
    assert "tablekit.ringboard" in found and "tablekit.ringproto" in found
    for script in ("tablekit-unit", "tablekit-sim"):
        done = unit_kit.run(str(unit_kit.venv / "bin" / script), "--help", "--lang", "en")
        assert done.returncode == 0 and "usage:" in done.stdout, (script, done.stderr)
        done = unit_kit.run(str(unit_kit.venv / "bin" / script), "--help", "--lang", "pl")
        assert done.returncode == 0 and "użycie:" in done.stdout, (script, done.stderr)

    # The compiled catalogs came with the wheel: the unit speaks Polish, and English.
    done = unit_kit.python("-c", SPEAKS)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["5 stolików, 2 gry, 1 gracz", "5 tables, 2 games, 1 player"]

    out = tmp_path / "display"
    done = unit_kit.python("-m", "tablekit.display", "--png", str(out), "--size", "480x320",
                           "--state", "playing")
    assert done.returncode == 0, done.stderr
    pngs = sorted(out.glob("*/*.png"))
    assert [p.parent.name for p in pngs] == ["en", "pl"]  # both languages came with the wheel
    # The same pictures as the source tree draws here: the same fonts, layout and words.
    mine = sorted(render_all(tmp_path / "here", [(480, 320)], ["playing"]))
    assert [png_pixels(p) for p in pngs] == [png_pixels(p) for p in mine]


def extras_of(extra: str) -> set[str]:
    """``extra`` and the kit's extras it installs with it (pyproject.toml)."""
    optional = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"][
        "optional-dependencies"
    ]
    found = {extra} if extra else set()
    for requirement in optional.get(extra, []):
        parsed = Requirement(requirement)
        if canonicalize_name(parsed.name) == "rummikub-tablekit":
            for inner in parsed.extras:
                found |= extras_of(inner)
    return found


NEEDS_ITS_PACKAGES = {
    "tablekit-unit": (("--no-display",), "gpiozero"),
    "tablekit-sim": (("--window",), "pygame"),
    "rummikub-screen": (("--demo", "1", "--png", "screen", "--size", "640x360"), "pygame"),
}
"""What makes a program whose help needs nothing of its role load its role's packages,
and the package it then loads first (when that one is there, the program runs: a window,
the GPIO); the others need their packages for their help already."""


@pytest.mark.parametrize("extras", ["", "unit", "hub", "league"])
def test_each_program_runs_or_names_the_extra_it_needs(
    house: House, tmp_path: Path, extras: str
) -> None:
    """A bare ``pip install rummikub-tablekit`` and each role's: every program either
    works or says in one line, in Polish, which extra to install — never a traceback. A
    program of another role may find what it needs among this role's packages (the
    league's bring what ``rummikub-hub`` needs); a bare install has none of any."""
    kit = install(house, tmp_path, extras)
    installed = extras_of(extras)
    for script, program in PROGRAMS.items():
        path = str(kit.venv / "bin" / script)
        if program.extra in installed:
            done = kit.run(path, "--help")
            assert done.returncode == 0 and done.stdout.startswith("użycie:"), (
                script, done.stderr,
            )
            continue
        args, package = NEEDS_ITS_PACKAGES.get(script, (("--help",), ""))
        if package and kit.python("-c", f"import {package}").returncode == 0:
            args = ("--help",)  # it would run: its help shows it starts
        done = kit.run(path, *args)
        assert "Traceback" not in done.stderr, (script, done.stderr)
        if done.returncode == 0 and extras:
            continue
        lines = done.stderr.splitlines()
        assert done.returncode == 1 and len(lines) == 1, (script, done.stderr)
        wanted = f"rummikub-tablekit[{program.extra}]"
        assert lines[0].startswith(f"{script}: ") and f"pip install '{wanted}'" in lines[0]
        assert "nie jest zainstalowany" in lines[0], lines[0]


def test_the_whole_kit_installed_from_the_wheel(house: House, tmp_path: Path) -> None:
    kit = install(house, tmp_path, "unit,hub,demo,league")
    assert installed_names(kit) >= DEMO_BROKER
    imports_everything(kit, ("tablekit", "hub"))
    for script in house.scripts:
        done = kit.run(str(kit.venv / "bin" / script), "--help")
        polish = done.stdout.startswith("użycie:")  # every program's help from the catalogs
        assert done.returncode == 0 and polish, (script, done.stderr)

    serves_the_web_console(kit, tmp_path)

    out = tmp_path / "screen"
    done = kit.run(str(kit.venv / "bin/rummikub-screen"), "--demo", "12", "--size", "960x540",
                   "--png", str(out))
    assert done.returncode == 0, done.stderr
    wall = next(out.rglob("wall-1.png"))
    size, pixels = png_pixels(wall)
    assert size == (960, 540)
    assert len(set(zip(pixels[0::3], pixels[1::3], pixels[2::3], strict=True))) > 20


def served_index(folder: Path, port: int) -> subprocess.Popen[str]:
    """The hall's package index served as rummikub-wheelhouse.service serves it (its own
    ExecStart, on a loopback port)."""
    unit = configparser.ConfigParser(strict=False, interpolation=None)
    unit.read(ROOT / "deploy/systemd/rummikub-wheelhouse.service")
    command = unit["Service"]["ExecStart"].split()
    assert command[:3] == ["/usr/bin/python3", "-m", "http.server"], command
    command[3] = str(port)
    command[command.index("--bind") + 1] = "127.0.0.1"
    command[command.index("--directory") + 1] = str(folder)
    return subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            text=True)


def index_pip(env: dict[str, str], index: str, *args: str) -> subprocess.CompletedProcess[str]:
    """pip with the hub's index as its only source, as a table's first boot runs it."""
    return subprocess.run(
        [sys.executable, "-m", "pip", *args, "--index-url", index],
        env=env, capture_output=True, text=True, check=False,
    )


@contextmanager
def hall_index(house: House, folder: Path, wait_until: Any) -> Iterator[str]:
    """``folder`` made a wheelhouse of the house's wheels, served as the hub serves it:
    the index's URL."""
    (folder / "wheels").mkdir(parents=True)
    for wheel in house.wheels.glob("*.whl"):
        (folder / "wheels" / wheel.name).write_bytes(wheel.read_bytes())
    pack_deploy(ROOT, folder)
    write_index(folder)
    port = free_port()
    server = served_index(folder, port)
    index = f"http://127.0.0.1:{port}/simple/"
    try:
        wait_until(lambda: _answers(index), 30, "the hall's package index")
        yield index
    finally:
        server.terminate()
        server.wait(30)


def test_a_table_installs_the_kit_from_the_hubs_index_alone(
    house: House, tmp_path: Path, wait_until: Any
) -> None:
    folder = tmp_path / "wheelhouse"
    with hall_index(house, folder, wait_until) as index:
        assert {"rummikub-tablekit", "paho-mqtt"} <= set(write_index(folder))
        venv = tmp_path / "venv"
        subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
        env = clean_env(os.environ)
        done = index_pip(env, index, "--python", str(venv / "bin/python"), "install",
                         "--quiet", "rummikub-tablekit[unit]")
        assert done.returncode == 0, done.stdout + done.stderr
        help_text = subprocess.run(
            [str(venv / "bin/tablekit-unit"), "--help"], env=env, cwd=tmp_path,
            capture_output=True, text=True, check=False,
        )
        assert help_text.returncode == 0 and "tablekit-unit" in help_text.stdout
        # Read-only: nothing can be sent to it.
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(urllib.request.Request(index, data=b"x", method="POST"))
        assert refused.value.code == 501
        # A wheel changed after the index was written is refused by its hash.
        (kit,) = (folder / "wheels").glob("rummikub_tablekit-*.whl")
        kit.write_bytes(kit.read_bytes() + b"\0")
        tampered = index_pip(env, index, "download", "--no-deps", "--dest",
                             str(tmp_path / "got"), "rummikub-tablekit")
        assert tampered.returncode != 0 and "HASH" in tampered.stdout + tampered.stderr


def update_kit(prefix: Path, index: str) -> subprocess.CompletedProcess[str]:
    """deploy/update-kit.sh as a table runs it, "coming up" meaning that the table's
    program starts (on a Pi: its service restarts and says it is ready)."""
    check = f"{prefix}/venv/bin/tablekit-unit --help >/dev/null"
    # A cache of its own: an index page pip kept from the last run is not the new one.
    env = clean_env(os.environ) | {"XDG_CACHE_HOME": str(prefix.parent / f"cache-{time.time_ns()}")}
    return subprocess.run(
        [str(ROOT / "deploy/update-kit.sh"), "--index", index, "--prefix", str(prefix),
         "--check", check],
        env=env, capture_output=True, text=True, check=False, timeout=scaled(600),
    )


def running_version(prefix: Path) -> str:
    done = subprocess.run(
        [str(prefix / "venv/bin/python"), "-I", "-c",
         "import importlib.metadata as m; print(m.version('rummikub-tablekit'))"],
        capture_output=True, text=True, check=True,
    )
    return done.stdout.strip()


def test_an_update_switches_at_once_and_a_broken_one_goes_back(
    house: House, tmp_path: Path, wait_until: Any
) -> None:
    folder, prefix = tmp_path / "wheelhouse", tmp_path / "opt"
    with hall_index(house, folder, wait_until) as index:
        first = update_kit(prefix, index)
        assert first.returncode == 0, first.stdout + first.stderr
        assert running_version(prefix) == "0.1.0" and (prefix / "venv").is_symlink()
        old = (prefix / "venv").resolve()

        kit_version_wheel(tmp_path, "0.1.1", folder / "wheels", broken=True)
        write_index(folder)
        broken = update_kit(prefix, index)
        assert broken.returncode == 3, broken.stdout + broken.stderr
        assert "0.1.1 did not come up; back on 0.1.0" in broken.stdout
        assert (prefix / "venv").resolve() == old and running_version(prefix) == "0.1.0"
        assert list((prefix / "venvs").iterdir()) == [old]

        kit_version_wheel(tmp_path, "0.1.2", folder / "wheels")
        write_index(folder)
        good = update_kit(prefix, index)
        assert good.returncode == 0, good.stdout + good.stderr
        assert running_version(prefix) == "0.1.2" and "was 0.1.0" in good.stdout
        kept = sorted(p.name for p in (prefix / "venvs").iterdir())
        assert len(kept) == 2 and old.name in kept  # the one left, for a switch back


def _answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=5) as page:
            return b"rummikub-tablekit" in page.read()
    except OSError:
        return False


def kit_version_wheel(tmp: Path, version: str, out: Path, *, broken: bool = False) -> Path:
    """The kit's wheel as ``version`` (a copy of the source); ``broken``: its table
    program cannot start."""
    source = tmp / f"source-{version}"
    source.mkdir()
    for name in ("tablekit", "hub"):
        (source / name).symlink_to(ROOT / name)
    (source / "README.md").symlink_to(ROOT / "README.md")
    project = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    project = project.replace('version = "0.1.0"', f'version = "{version}"', 1)
    (source / "pyproject.toml").write_text(project)
    wheel = kit_wheel(source, tmp / f"work-{version}", tmp / f"built-{version}",
                      env=clean_env(os.environ))
    if broken:
        repacked = out / wheel.name
        with zipfile.ZipFile(wheel) as whole, zipfile.ZipFile(repacked, "w") as bad:
            for item in whole.infolist():
                data = whole.read(item)
                if item.filename == "tablekit/app.py":
                    data = b'raise RuntimeError("this kit is broken")\n' + data
                bad.writestr(item, data)
        return repacked
    return Path(shutil.copy(wheel, out))
