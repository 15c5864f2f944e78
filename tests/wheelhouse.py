"""A local wheelhouse for installing the kit without a registry (tests/test_installed.py).

The kit's own wheel is built from a copy of the source with the dev venv's setuptools
(``pip wheel --no-build-isolation``). Its dependencies are the distributions already
installed in the running venv, packed back into wheels: every file their RECORD lists
under site-packages plus their ``.dist-info`` (with a fresh RECORD), under the tags of
their WHEEL file. Scripts outside site-packages are left out: pip writes console
scripts again from ``entry_points.txt``. So a fresh venv gets, offline, exactly the
versions the suite runs with.
"""

from __future__ import annotations

import base64
import hashlib
import os
import zipfile
from collections.abc import Iterable, Mapping
from email.parser import Parser
from importlib import metadata
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from hub.wheelhouse import kit_wheel

KIT = "rummikub-tablekit"
SKIPPED_INFO = {"RECORD", "INSTALLER", "REQUESTED", "direct_url.json"}
"""Files of an installed ``.dist-info`` that pip writes itself (RECORD is rewritten)."""


def clean_env(base: Mapping[str, str]) -> dict[str, str]:
    """``base`` without pip's and Python's settings: no config file, index or path."""
    env = {k: v for k, v in base.items() if not k.startswith(("PIP_", "PYTHON"))}
    env["PIP_CONFIG_FILE"] = "/dev/null"
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    return env


def build_kit_wheel(source: Path, work: Path, out: Path) -> Path:
    """The kit's wheel, built as ``./kit wheelhouse`` builds it, from a copy of ``source``."""
    return kit_wheel(source, work, out, env=clean_env(os.environ))


def wheel_requirements(wheel: Path) -> list[Requirement]:
    """The ``Requires-Dist`` lines of a wheel's METADATA."""
    with zipfile.ZipFile(wheel) as whl:
        (name,) = [n for n in whl.namelist() if n.endswith(".dist-info/METADATA")]
        meta = Parser().parsestr(whl.read(name).decode())
    return [Requirement(text) for text in meta.get_all("Requires-Dist") or []]


def _wanted(req: Requirement, extras: Iterable[str]) -> bool:
    return req.marker is None or any(req.marker.evaluate({"extra": e}) for e in ("", *extras))


def closure(kit: list[Requirement], extras: Iterable[str]) -> set[str]:
    """Canonical names of every distribution the kit with ``extras`` pulls in (not the kit).

    The kit's own requirements come from its wheel (``kit``), everything below from the
    metadata of the distributions installed here.
    """
    seen: dict[str, set[str]] = {}
    todo: list[tuple[str, set[str]]] = [(KIT, set(extras))]
    while todo:
        name, wanted = todo.pop()
        key = canonicalize_name(name)
        if key in seen and wanted <= seen[key]:
            continue
        seen.setdefault(key, set()).update(wanted)
        if key == KIT:
            requires = kit
        else:
            requires = [Requirement(t) for t in metadata.distribution(name).requires or []]
        todo += [(r.name, set(r.extras)) for r in requires if _wanted(r, seen[key])]
    return set(seen) - {KIT}


def _record_line(path: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{path},sha256={digest},{len(data)}"


def repack(name: str, out: Path) -> Path:
    """The installed distribution ``name`` as a wheel in ``out``."""
    dist = metadata.distribution(name)
    site = Path(str(dist.locate_file("")))
    files = [f for f in dist.files or [] if not str(f).startswith("..")]
    (info,) = {f.parts[0] for f in files if f.parts[0].endswith(".dist-info")}
    wheel_meta = Parser().parsestr(dist.read_text("WHEEL") or "")
    tags = [t.split("-") for t in wheel_meta.get_all("Tag") or []]
    assert tags, f"{name}: no Tag in its WHEEL file"
    tag = "-".join(".".join(sorted({t[i] for t in tags})) for i in range(3))
    target = out / f"{info.removesuffix('.dist-info')}-{tag}.whl"
    record = []
    with zipfile.ZipFile(target, "w", zipfile.ZIP_STORED) as whl:
        for f in files:
            path = site / f
            if "__pycache__" in f.parts or not path.is_file():
                continue
            if f.parts[0] == info and f.name in SKIPPED_INFO:
                continue
            data = path.read_bytes()
            whl.writestr(f.as_posix(), data)
            record.append(_record_line(f.as_posix(), data))
        record.append(f"{info}/RECORD,,")
        whl.writestr(f"{info}/RECORD", "\n".join(record) + "\n")
    return target
