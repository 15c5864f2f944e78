"""The kit's version as installed: what a unit reports to the hub and the hub compares."""

from __future__ import annotations

import functools
from importlib import metadata

DISTRIBUTION = "rummikub-tablekit"


@functools.cache
def kit_version() -> str:
    """The installed kit's version (its package metadata); empty when the kit runs from a
    source tree that was never installed."""
    try:
        return metadata.version(DISTRIBUTION)
    except metadata.PackageNotFoundError:
        return ""
