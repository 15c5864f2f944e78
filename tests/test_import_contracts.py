"""The import contracts (pyproject.toml, [tool.importlinter]) catch what they forbid.

Each forbidden import below is added to a scratch copy of the kit's two packages and
``lint-imports`` runs on it: it must fail and name that import. A contract that lets one
through (a pure module importing a clock, the exports reading the store, the web console
importing the command line) fails here, not in a review. A stale ignored import (the code
it excused is gone) is an error too; and every module of the kit has a place in the
layers, so a new one cannot slip between them.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")

# (the module, what is added to it: `import` this)
FORBIDDEN: list[tuple[str, str]] = [
    # A pure module reaching an I/O library or a clock, directly or through a shell.
    ("tablekit.core.scoring", "urllib.request"),
    ("tablekit.core.clock", "time"),
    ("tablekit.core.rulesets", "os"),
    ("tablekit.core.rulesets", "tomllib"),
    ("tablekit.core.codec", "threading"),
    ("tablekit.layout.scene", "pygame"),
    ("tablekit.signals", "asyncio"),
    ("hub.web.views", "sqlite3"),
    ("hub.tournament.standings", "pathlib"),
    ("hub.hall", "paho.mqtt.client"),
    ("hub.exports.standings", "hub.store"),
    ("hub.league.identity", "hub.league.store"),
    ("hub.live", "tablekit.shared.broker"),
    # A lower layer importing a higher one, or one sibling another.
    ("hub.competition", "hub.web.app"),
    ("hub.web.public", "hub.cli.common"),
    ("hub.cli.status", "hub.screen.render"),
    ("hub.exports.grid", "hub.organizer"),
    ("hub.store", "hub.organizer"),
    ("hub.organizer", "tablekit.unit"),
    ("hub.tournament.seating", "tablekit.shared.i18n"),
    ("tablekit.shared.broker", "tablekit.link"),
    ("tablekit.core.names", "tablekit.shared.i18n"),
    ("tablekit.unit", "hub.store"),
    ("hub.exports.grid", "hub.exports.files"),
    ("hub.cli.common", "hub.cli.parser"),
]


def _named(module: str, imported: str) -> str:
    """How lint-imports names the import: an outside library by its top package."""
    top = imported.partition(".")[0]
    return f"{module} -> {imported if top in ('tablekit', 'hub') else top}"


@pytest.fixture(scope="module")
def scratch(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A copy of the kit's packages (Python files only) and its contracts."""
    tree = tmp_path_factory.mktemp("kit")
    for package in ("tablekit", "hub"):
        shutil.copytree(ROOT / package, tree / package, ignore=_not_python)
    shutil.copy(ROOT / "pyproject.toml", tree / "pyproject.toml")
    yield tree


def _not_python(folder: str, names: list[str]) -> set[str]:
    return {n for n in names if not n.endswith(".py") and not (Path(folder) / n).is_dir()}


def lint(tree: Path) -> subprocess.CompletedProcess[str]:
    """``lint-imports`` on the scratch tree (its packages first on the path)."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    return subprocess.run(
        [str(LINT_IMPORTS), "--no-cache", "--no-logo"],
        cwd=tree, env=env, capture_output=True, text=True, timeout=300, check=False,
    )


def test_the_copy_keeps_every_contract(scratch: Path) -> None:
    result = lint(scratch)
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.parametrize(("module", "imported"), FORBIDDEN, ids=[_named(*f) for f in FORBIDDEN])
def test_a_forbidden_import_is_caught(scratch: Path, module: str, imported: str) -> None:
    path = scratch / f"{module.replace('.', '/')}.py"
    kept = path.read_text(encoding="utf-8")
    path.write_text(f"{kept}\nimport {imported}  # added by the contracts' test\n", "utf-8")
    try:
        result = lint(scratch)
    finally:
        path.write_text(kept, encoding="utf-8")
    assert result.returncode != 0, f"{module}: import {imported} passed every contract"
    assert _named(module, imported) in result.stdout, result.stdout


def test_a_stale_ignored_import_is_an_error(scratch: Path) -> None:
    """An ignored import the code no longer makes fails the check, so it is dropped."""
    module = scratch / "hub/web/live.py"
    kept = module.read_text(encoding="utf-8")
    assert "from hub.screen.feed import ScreenFeed" in kept
    module.write_text(kept.replace("from hub.screen.feed import ScreenFeed", "pass"), "utf-8")
    try:
        result = lint(scratch)
    finally:
        module.write_text(kept, encoding="utf-8")
    assert result.returncode != 0
    assert "hub.web.live -> hub.screen.feed" in result.stdout + result.stderr


def _contract(contract_id: str) -> dict[str, object]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    contracts = config["tool"]["importlinter"]["contracts"]
    (contract,) = (c for c in contracts if c["id"] == contract_id)
    return dict(contract)


def _children(package: str) -> set[str]:
    folder = ROOT / package.replace(".", "/")
    names = {p.stem for p in folder.glob("*.py")} | {
        p.parent.name for p in folder.glob("*/__init__.py")
    }
    return {f"{package}.{name}" for name in names - {"__init__", "__main__"}}


def test_every_module_has_a_layer() -> None:
    layers = _contract("layers")["layers"]
    assert isinstance(layers, list)
    listed = {m.strip() for layer in layers for m in layer.replace("|", ":").split(":")}
    modules = _children("tablekit") | (_children("hub") - {"hub.league"}) | _children("hub.league")
    assert sorted(modules - listed) == [], "modules in no layer of pyproject.toml's contract"
    assert sorted(listed - modules) == [], "layers naming no module"


def test_ignored_imports_are_few() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    contracts = config["tool"]["importlinter"]["contracts"]
    ignored = [i for c in contracts for i in c.get("ignore_imports", [])]
    assert all("*" not in i for i in ignored), "an ignored import is named exactly"
    assert len(ignored) <= 20
    assert all(c.get("unmatched_ignore_imports_alerting", "error") == "error" for c in contracts)
