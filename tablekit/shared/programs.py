"""The kit's programs as installed: each entry point loads its program when it is run, so
one installed without its role's packages says in one line which to install.

``pip install rummikub-tablekit`` installs every program but only what every role needs
(paho-mqtt, msgspec); a role's packages come with its extra (``rummikub-tablekit[hub]``
…, pyproject.toml). A program that meets a package of another distribution missing, as
it starts or later (a printout's WeasyPrint, the screen's pygame), ends with one line
naming the extra that brings it, in the language its command line asks for, instead of a
traceback. A module of the kit itself missing is a broken install and keeps its traceback.
"""

from __future__ import annotations

import importlib
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final, NoReturn

from tablekit.core.words import N_
from tablekit.shared import i18n

DISTRIBUTION: Final = "rummikub-tablekit"
KIT_PACKAGES: Final = ("tablekit", "hub")


@dataclass(frozen=True)
class Program:
    target: str
    """``module:function`` of its main."""
    extra: str
    """The extra that brings its packages."""


PROGRAMS: Final[dict[str, Program]] = {
    "tablekit-unit": Program("tablekit.app:unit_main", "unit"),
    "tablekit-sim": Program("tablekit.app:sim_main", "unit"),
    "rummikub-hub": Program("hub.serve:main", "hub"),
    "rummikub": Program("hub.cli:main", "hub"),
    "rummikub-demo": Program("hub.demo:main", "demo"),
    "rummikub-rehearsal": Program("hub.demo.rehearsal:main", "demo"),
    "rummikub-screen": Program("hub.screen:main", "hub"),
    "rummikub-web": Program("hub.web.serve:main", "web"),
    "rummikub-league": Program("hub.league.cli:main", "league"),
}
"""Every console script (pyproject.toml's ``[project.scripts]`` name this module's
functions), the main it runs and the extra its role installs."""

MISSING: Final = N_(
    "{program}: the package {module} is not installed; this program needs {requirement}: "
    "pip install '{requirement}'"
)


def run(name: str) -> object:
    """Run program ``name``: its main's result, or one line naming its extra when a
    package it needs is missing."""
    program = PROGRAMS[name]
    module, function = program.target.split(":")
    try:
        main: Callable[[], object] = getattr(importlib.import_module(module), function)
        return main()
    except ModuleNotFoundError as err:
        top = (err.name or "").split(".")[0]
        if not top or top in KIT_PACKAGES:
            raise
        missing(name, program.extra, top)


def missing(name: str, extra: str, module: str) -> NoReturn:
    """End program ``name`` with the one line that names ``extra``."""
    said = i18n.words(i18n.asked_language(sys.argv[1:], os.environ)).gettext(MISSING)
    sys.exit(said.format(program=name, module=module,
                         requirement=f"{DISTRIBUTION}[{extra}]"))


def tablekit_unit() -> object:
    return run("tablekit-unit")


def tablekit_sim() -> object:
    return run("tablekit-sim")


def rummikub_hub() -> object:
    return run("rummikub-hub")


def rummikub() -> object:
    return run("rummikub")


def rummikub_demo() -> object:
    return run("rummikub-demo")


def rummikub_rehearsal() -> object:
    return run("rummikub-rehearsal")


def rummikub_screen() -> object:
    return run("rummikub-screen")


def rummikub_web() -> object:
    return run("rummikub-web")


def rummikub_league() -> object:
    return run("rummikub-league")
