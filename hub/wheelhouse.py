"""The hall's package index, made beforehand with internet (``./kit wheelhouse``) and
served read-only by the hub (deploy/systemd/rummikub-wheelhouse.service): the kit's wheel
and every wheel its unit and hub roles need on a Raspberry Pi (aarch64, for the Python of
Raspberry Pi OS Bookworm, 3.11, and Trixie, 3.13), as a PEP 503 "simple" index of static
pages, with ``deploy.tar.gz`` (the provisioning scripts a card's first boot runs).

::

    wheelhouse/wheels/*.whl
    wheelhouse/simple/index.html, simple/<project>/index.html
    wheelhouse/deploy.tar.gz

``python3-lgpio`` is not in it: the Pis take it from Raspberry Pi OS's archive (apt).
"""

from __future__ import annotations

import argparse
import hashlib
import html
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Final

from tablekit.shared.commandline import parse_in_language
from tablekit.shared.i18n import LANGUAGES, Words

PYTHONS: Final = {"3.11": 36, "3.13": 41}
"""A Pi's Python (Bookworm, Trixie) and its glibc 2.N, the newest manylinux it runs."""
OLDEST_MANYLINUX: Final = 17
ROLES: Final = "unit,hub"
KIT: Final = "rummikub-tablekit"


def project_of(wheel: str) -> str:
    """A wheel file's project, canonical (PEP 503): ``Jinja2-3.1…whl`` → ``jinja2``."""
    return re.sub(r"[-_.]+", "-", wheel.split("-", 1)[0]).lower()


def write_index(folder: Path) -> list[str]:
    """``folder/simple/`` for the wheels in ``folder/wheels``: the projects it names."""
    wheels = sorted((folder / "wheels").glob("*.whl"))
    by_project: dict[str, list[Path]] = {}
    for wheel in wheels:
        by_project.setdefault(project_of(wheel.name), []).append(wheel)
    simple = folder / "simple"
    shutil.rmtree(simple, ignore_errors=True)
    simple.mkdir(parents=True)
    links = "".join(
        f'<a href="{p}/">{p}</a><br>\n' for p in sorted(by_project)
    )
    (simple / "index.html").write_text(_page("simple", links), encoding="utf-8")
    for project, files in by_project.items():
        (simple / project).mkdir()
        rows = "".join(
            f'<a href="../../wheels/{html.escape(w.name)}#sha256={_sha256(w)}">'
            f"{html.escape(w.name)}</a><br>\n"
            for w in files
        )
        (simple / project / "index.html").write_text(_page(project, rows), encoding="utf-8")
    return sorted(by_project)


def _page(title: str, body: str) -> str:
    head = f'<meta name="pypi:repository-version" content="1.0"><title>{title}</title>'
    return f"<!DOCTYPE html>\n<html><head>{head}</head><body>\n{body}</body></html>\n"


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def pack_deploy(source: Path, folder: Path) -> Path:
    """``folder/deploy.tar.gz``: the checkout's deploy/ (scripts, systemd units, broker
    config), unpacked by a first boot into /opt/tablekit."""
    target = folder / "deploy.tar.gz"
    with tarfile.open(target, "w:gz") as tar:
        tar.add(source / "deploy", arcname="deploy", filter=_no_caches)
    return target


def _no_caches(info: tarfile.TarInfo) -> tarfile.TarInfo | None:
    return None if "__pycache__" in info.name else info


def kit_wheel(source: Path, work: Path, out: Path, env: Mapping[str, str] | None = None) -> Path:
    """The kit's wheel in ``out``, built from a copy of ``source`` in ``work`` (the tree
    stays untouched) with this environment's setuptools: nothing is fetched."""
    copy = work / "source"
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info", "build")
    for name in ("tablekit", "hub"):
        shutil.copytree(source / name, copy / name, ignore=ignore)
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(source / name, copy / name)
    _pip("wheel", "--quiet", "--no-deps", "--no-index", "--no-build-isolation",
         "--wheel-dir", str(out), str(copy), env=env)
    (wheel,) = out.glob("rummikub_tablekit-*.whl")
    return wheel


def build(source: Path, folder: Path, pythons: Sequence[str]) -> list[str]:
    """The whole wheelhouse in ``folder`` (with internet): the kit's wheel built from
    ``source``, every dependency's aarch64 wheels for each Python in ``pythons``."""
    wheels = folder / "wheels"
    wheels.mkdir(parents=True, exist_ok=True)
    for old in wheels.glob("rummikub_tablekit-*.whl"):
        old.unlink()
    with tempfile.TemporaryDirectory() as work:
        kit = kit_wheel(source, Path(work), wheels)
    for python in pythons:
        # pip takes the platforms as given: every manylinux the Pi's glibc runs.
        platforms = [
            f"--platform=manylinux_2_{v}_aarch64"
            for v in range(PYTHONS[python], OLDEST_MANYLINUX - 1, -1)
        ] + ["--platform=manylinux2014_aarch64"]
        abi = "cp" + python.replace(".", "")
        _pip(
            "download", "--only-binary=:all:", "--dest", str(wheels),
            "--find-links", str(wheels), *platforms,
            "--python-version", python, "--implementation", "cp", "--abi", abi,
            f"{kit}[{ROLES}]",
        )
    pack_deploy(source, folder)
    return write_index(folder)


def _pip(*args: str, env: Mapping[str, str] | None = None) -> None:
    base = os.environ if env is None else env
    subprocess.run([sys.executable, "-m", "pip", "--disable-pip-version-check", *args],
                   check=True, env={**base, "PIP_REQUIRE_VIRTUALENV": "0"})


def build_parser(words: Words) -> argparse.ArgumentParser:
    _ = words.gettext
    p = argparse.ArgumentParser(
        prog="./kit wheelhouse",
        description=_("The kit and every package the Raspberry Pis need, made with internet "
                      "before the day, for the hub to serve to the hall."),
    )
    p.add_argument("--out", type=Path, default=Path("wheelhouse"), metavar=_("FOLDER"),
                   help=_("where to make it (default ./wheelhouse)"))
    p.add_argument(
        "--python", action="append", choices=sorted(PYTHONS), dest="pythons",
        help=_("only for this Python of the Pis (3.13: Trixie, 3.11: Bookworm; default both)"),
    )
    p.add_argument("--lang", choices=LANGUAGES,
                   help=_("the language of this help and of the program's messages"))
    return p


def main(argv: Sequence[str] | None = None) -> int:
    words, _parser, args = parse_in_language(
        list(sys.argv[1:] if argv is None else argv), build_parser
    )
    pythons = args.pythons or sorted(PYTHONS)
    source = Path(__file__).resolve().parent.parent
    projects = build(source, args.out, pythons)
    print(words.gettext(
        "{out}: {n} packages for Python {pythons} on the Raspberry Pi (aarch64); give the "
        "folder to rummikub hall cards (--wheelhouse)"
    ).format(out=args.out, n=len(projects), pythons=", ".join(pythons)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
