"""The root of every error the kit raises on purpose.

Each module keeps its own specific exceptions (a score that does not add up, a config
field of the wrong type, a broker that will not start); they all derive from
:class:`KitError`, so a front end catches the kit's errors once and shows their message,
while a bug (any other exception) still surfaces as one.
"""

from __future__ import annotations


class KitError(Exception):
    """An error the kit raises on purpose, with a message that names what is wrong."""
