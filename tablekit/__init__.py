"""Rummikub table kit: the table unit and the code both ends share."""

__version__ = "0.1.0"
