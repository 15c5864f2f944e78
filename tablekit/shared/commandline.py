"""What every command line of the kit shares in the reader's language: argparse's own
words from the catalog (:func:`speaking`), options parsed in the language they ask for
(:func:`parse_in_language`), the checks of the values several programs take (a port, a
whole number from 1: :func:`port_number`, :func:`whole_number`, made argparse's types by
:func:`option_type`) and the one line a refused command prints (:func:`error_text`: a kit
error through its template, the system's as a sentence naming the file and the reason;
:func:`refused` prints it)."""

from __future__ import annotations

import argparse
import errno
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Final, TypeVar

from tablekit.core.errors import KitError, quoted
from tablekit.core.words import N_
from tablekit.shared import i18n
from tablekit.shared.i18n import Words

T = TypeVar("T")

MAX_PORT: Final = 65535

ARGPARSE_WORDS: Final = (
    N_("usage: "),
    N_("positional arguments"),
    N_("options"),
    N_("show this help message and exit"),
    N_("argument %(argument_name)s: %(message)s"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"),
    N_("invalid %(type)s value: %(value)r"),
    N_("unrecognized arguments: %s"),
    N_("the following arguments are required: %s"),
    N_("one of the arguments %s is required"),
    N_("not allowed with argument %s"),
    N_("ignored explicit argument %r"),
    N_("expected one argument"),
    N_("expected at most one argument"),
    N_("expected at least one argument"),
    N_("ambiguous option: %(option)s could match %(matches)s"),
    N_("unexpected option string: %s"),
    N_("%(prog)s: error: %(message)s\n"),
)
"""argparse's own words that a person reads (its headings, its refusals), marked for the
catalogs so that :func:`speaking` finds them there (Python 3.11's wording; a message of
another Python is shown as argparse writes it)."""


@contextmanager
def speaking(words: Words) -> Iterator[None]:
    """argparse's own words (the usage heading, ``options``, its refusals such as "the
    following arguments are required") in ``words``' language while a parser is built and
    parses: argparse looks them up through its module's ``_`` and ``ngettext``, which this
    points at the catalog for that time (a command line parses in one thread)."""
    saved = argparse._, argparse.ngettext  # type: ignore[attr-defined]
    argparse._ = words.gettext  # type: ignore[attr-defined]
    argparse.ngettext = words.ngettext  # type: ignore[attr-defined]
    try:
        yield
    finally:
        argparse._, argparse.ngettext = saved  # type: ignore[attr-defined]


OS_REASONS: Final = {
    errno.ENOENT: N_("no such file or folder"),
    errno.EACCES: N_("permission denied"),
    errno.EPERM: N_("operation not permitted"),
    errno.EISDIR: N_("it is a folder, not a file"),
    errno.ENOTDIR: N_("a part of the path is a file, not a folder"),
    errno.ENOSPC: N_("no space left on the device"),
    errno.EROFS: N_("the file system is read-only"),
    errno.EEXIST: N_("it exists already"),
    errno.EIO: N_("input/output error (a damaged or removed device?)"),
    errno.ENAMETOOLONG: N_("file name too long"),
}
"""The system's reasons a person meets most, in the catalogs (another is shown as the
system words it)."""


def os_reason(err: OSError, words: Words) -> str:
    """Why the system refused, in ``words``' language where the catalogs have it."""
    reason = OS_REASONS.get(err.errno or 0)
    if reason is not None:
        return words.gettext(reason)
    return err.strerror or str(err) or type(err).__name__


def error_text(err: KitError | OSError, words: Words) -> str:
    """The one line a refused command prints (after the program's name): a kit error in
    ``words``' language; a system error as a sentence naming the file and the reason."""
    if isinstance(err, KitError):
        message = err.message(words.gettext).strip() or type(err).__name__
    elif err.filename is not None:
        message = words.gettext("cannot use {file}: {reason}").format(
            file=err.filename, reason=os_reason(err, words)
        )
    else:
        message = words.gettext("the system refused: {reason}").format(
            reason=os_reason(err, words)
        )
    return " ".join(message.split())


def lang_option(parser: argparse.ArgumentParser, words: Words) -> None:
    """``--lang``: the language of a command's help and errors (:func:`parse_in_language`
    reads it before the options are parsed)."""
    parser.add_argument(
        "--lang", metavar="pl|en",
        help=words.gettext(
            "the language of its help and errors: pl or en (default: LANG's, else Polish)"
        ),
    )


def parse_in_language(
    argv: Sequence[str], build_parser: Callable[[Words], argparse.ArgumentParser]
) -> tuple[Words, argparse.ArgumentParser, argparse.Namespace]:
    """``argv`` parsed by the parser ``build_parser`` makes in the language the options ask
    for (``--lang``, else ``LANG``, else Polish: known before they are parsed, so the help
    is in it), argparse's own words too; the language, the parser (for its refusals) and
    the options."""
    words = i18n.words(i18n.asked_language(argv, os.environ))
    with speaking(words):
        parser = build_parser(words)
        return words, parser, parser.parse_args(argv)


class OptionError(KitError, ValueError):
    """A value given to a program (an option, a variable of the environment) that it
    cannot use; the message says what it takes."""


def port_number(text: str) -> int:
    """A TCP port, 1–65535; :class:`OptionError` otherwise."""
    if not text.isdigit() or not 1 <= int(text) <= MAX_PORT:
        raise OptionError(N_("expected a port 1-65535, got {text}"), text=quoted(text))
    return int(text)


def whole_number(text: str) -> int:
    """A whole number from 1 (tables, a game, a count); :class:`OptionError` otherwise."""
    if not text.isdigit() or int(text) < 1:
        raise OptionError(N_("expected a whole number from 1, got {text}"), text=quoted(text))
    return int(text)


def option_type(check: Callable[[str], T], words: Words) -> Callable[[str], T]:
    """``check`` as argparse's type of an option: the kit error it raises becomes
    argparse's refusal of that option, in ``words``' language."""

    def parse(text: str) -> T:
        try:
            return check(text)
        except KitError as err:
            raise argparse.ArgumentTypeError(err.message(words.gettext)) from None

    return parse


def refused(prog: str, err: KitError | OSError, words: Words, option: str = "") -> int:
    """A refused command: its one line on stderr, ``prog: …`` (:func:`error_text`), and
    the exit code every program of the kit gives it, 2 (as argparse does a refused option).
    ``option``: the option that supplies what was missing, named after the message."""
    message = error_text(err, words) + (f" ({option})" if option else "")
    print(message if message.startswith(prog) else f"{prog}: {message}", file=sys.stderr)
    return 2
