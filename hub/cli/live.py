"""The command line's options and precedence for reading the tables' retained clock
states and statuses from the MQTT broker (``round status`` and ``event hall`` with
``--broker``); the reading itself is :mod:`hub.retained`'s."""

from __future__ import annotations

import argparse
from collections.abc import Mapping

from hub.cli.common import CliError
from hub.config import HubConfigError, add_config_options, resolve
from hub.retained import LiveSource
from tablekit.core.words import N_
from tablekit.shared.i18n import Words


def live_source(args: argparse.Namespace, env: Mapping[str, str]) -> LiveSource | None:
    """The broker and topics of the live views by the hub's one precedence (the config
    file < RUMMIKUB_* < the flags: :mod:`hub.config`, the file's ``[organizer]`` account);
    None when nothing names a broker (no --broker, no RUMMIKUB_BROKER, no config file)."""
    named = args.broker is not None or bool(env.get("RUMMIKUB_BROKER"))
    try:
        settings = resolve("organizer", args, env)
    except HubConfigError as err:
        raise CliError(N_("round status: {error}"), error=err) from None
    if not named and not settings.source:
        given = [
            option
            for option, value in (
                ("--venue", args.venue),
                ("--event", args.event),
                ("--username", args.username),
                ("--password-file", args.password_file),
            )
            if value is not None
        ]
        if given:
            raise CliError(
                N_("round status: {options} needs --broker HOST:PORT"), options=", ".join(given)
            )
        return None
    return LiveSource(settings.broker, settings.topics)


def live_options(p: argparse.ArgumentParser, words: Words) -> None:
    """The broker options of the commands that read the tables' retained messages, their
    help in ``words``' language."""
    add_config_options(
        p, account=words.gettext("the file's [organizer] username"), config=False, words=words
    )
