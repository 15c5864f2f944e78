"""Rummikub table kit: the hub that stores events, scores, seats and shows the hall."""
