"""Shells both ends use: durable SQLite, systemd notification, stopping threads.

They wrap I/O for the table unit and the hub alike; neither end's own shells live here.
"""
