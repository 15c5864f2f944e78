"""The programs' entry points: each runs its main, and one installed without its role's
packages names the extra to install in one line (tests/test_installed.py installs the
wheel bare and with each role's extra)."""

from __future__ import annotations

import importlib
import tomllib
from pathlib import Path
from types import ModuleType

import pytest

from tablekit.shared import programs
from tablekit.shared.programs import PROGRAMS

ROOT = Path(__file__).resolve().parent.parent
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]


def test_every_console_script_runs_its_program_through_the_entry_points() -> None:
    scripts = PROJECT["scripts"]
    assert set(scripts) == set(PROGRAMS)
    for script, program in PROGRAMS.items():
        function = script.replace("-", "_")
        assert scripts[script] == f"tablekit.shared.programs:{function}"
        assert callable(getattr(programs, function))
        module, main = program.target.split(":")
        assert callable(getattr(importlib.import_module(module), main)), program.target
        assert program.extra in PROJECT["optional-dependencies"], program.extra


def missing_module(name: str) -> ModuleType:
    raise ModuleNotFoundError(f"No module named {name!r}", name=name)


def test_a_missing_package_names_the_extra_in_one_line(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(programs.importlib, "import_module",
                        lambda _: missing_module("weasyprint.text"))
    monkeypatch.setattr(programs.sys, "argv", ["rummikub", "export", "pdf"])
    monkeypatch.delenv("LANGUAGE", raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")
    with pytest.raises(SystemExit) as polish:
        programs.rummikub()
    assert str(polish.value.code) == (
        "rummikub: pakiet weasyprint nie jest zainstalowany; ten program potrzebuje "
        "rummikub-tablekit[hub]: pip install 'rummikub-tablekit[hub]'"
    )
    monkeypatch.setattr(programs.sys, "argv", ["rummikub-web", "--lang", "en"])
    monkeypatch.setattr(programs.importlib, "import_module",
                        lambda _: missing_module("starlette"))
    with pytest.raises(SystemExit) as english:
        programs.rummikub_web()
    assert str(english.value.code) == (
        "rummikub-web: the package starlette is not installed; this program needs "
        "rummikub-tablekit[web]: pip install 'rummikub-tablekit[web]'"
    )


def test_a_module_of_the_kit_missing_is_a_broken_install_and_keeps_its_traceback(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(programs.importlib, "import_module",
                        lambda _: missing_module("hub.screen.render"))
    with pytest.raises(ModuleNotFoundError, match=r"hub\.screen\.render"):
        programs.rummikub_screen()
