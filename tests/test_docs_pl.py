"""The Polish docs (docs/pl/) stay true: their commands are the kit's.

The Polish guide and quick start keep every command and option as the kit has them
(they are not translated); only the free text a person types (``--why``, ``--note``,
``--reason``, ``--by``) is in Polish. Every command they quote — each line of a ``sh`` block
and each inline ``rummikub …``/``./kit …`` — is either one the English docs quote too (the
organizer's guide, the deployment guide, the README; free text aside) or, for ``rummikub``,
a command line its parser accepts.
"""

from __future__ import annotations

import contextlib
import io
import re
import shlex
from pathlib import Path

import pytest

from hub.cli import build_parser
from tablekit.core.errors import KitError

ROOT = Path(__file__).resolve().parent.parent
POLISH = sorted((ROOT / "docs" / "pl").glob("*.md"))
ENGLISH = [ROOT / "docs" / name for name in ("organizers-guide.md", "deployment.md")]
ENGLISH.append(ROOT / "README.md")
PROGRAMS = ("rummikub", "rummikub-screen", "rummikub-hub", "rummikub-demo", "./kit", "alias ",
            "export ", "sudo ")
"""How a quoted command starts."""

FREE_TEXT = re.compile(r'(--(?:why|note|reason|by) )"[^"]*"')
"""An option whose value is what a person writes in their own words."""

BLOCK = re.compile(r"^( *)```(\w*)\n(.*?)^\1```", re.M | re.S)
INLINE = re.compile(r"`([^`\n]+)`")


def shell_lines(text: str) -> list[str]:
    """The command lines of a document's ``sh`` blocks (continuations joined, comments
    after the command dropped)."""
    lines = []
    for _indent, lang, body in BLOCK.findall(text):
        if lang != "sh":
            continue
        joined = re.sub(r"\\\n\s*", "", body)
        for line in joined.splitlines():
            command = re.split(r"\s+# ", line.strip(), maxsplit=1)[0].strip()
            if command:
                lines.append(command)
    return lines


def free_text_masked(line: str) -> str:
    """A command line with the values of its free-text options left out: the Polish guide
    writes ``--why "B źle policzył"`` where the English one writes ``--why "B miscounted"``."""
    return FREE_TEXT.sub(r'\1"…"', line)


def inline_commands(text: str) -> list[str]:
    """Inline code spans outside the blocks that quote one of the kit's programs."""
    outside = BLOCK.sub("", text)
    return [span for span in INLINE.findall(outside) if span.startswith(PROGRAMS)]


def english_text() -> str:
    return "\n".join(path.read_text(encoding="utf-8") for path in ENGLISH)


def parses(command: str) -> bool:
    """Whether ``rummikub``'s parser accepts a command line (nothing is run)."""
    words = shlex.split(command)
    if words[:2] == ["./kit", "run"]:  # the same program, run inside the kit's venv
        words = words[2:]
    if words[0] != "rummikub" or any("…" in w or w.startswith("[") for w in words):
        return False
    try:
        with contextlib.redirect_stderr(io.StringIO()):
            build_parser().parse_args(words[1:])
    except (KitError, SystemExit):  # the parser's refusal (its errors are kit errors)
        return False
    return True


def test_the_polish_guide_quotes_every_command_of_the_english_one() -> None:
    """A whole translation, not a summary: a command added to the English guide is
    missing here until the Polish guide explains it too."""
    names = {path.name for path in POLISH}
    assert {"README.md", "szybki-start.md", "przewodnik-organizatora.md"} <= names
    polish = (ROOT / "docs/pl/przewodnik-organizatora.md").read_text(encoding="utf-8")
    english = (ROOT / "docs/organizers-guide.md").read_text(encoding="utf-8")
    assert len(shell_lines(english)) > 50
    assert sorted(map(free_text_masked, shell_lines(polish))) == sorted(
        map(free_text_masked, shell_lines(english))
    )


@pytest.mark.parametrize("path", POLISH, ids=lambda p: p.name)
def test_every_command_quoted_in_polish_is_the_kits(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    english = english_text()
    english_lines = {free_text_masked(line) for line in shell_lines(english)}
    unknown = [line for line in shell_lines(text)
               if free_text_masked(line) not in english_lines and not parses(line)]
    unknown += [span for span in inline_commands(text)
                if span not in english and not parses(span)]
    assert unknown == [], f"{path}: commands neither in the English docs nor accepted"


def test_the_check_refuses_a_command_the_kit_does_not_have() -> None:
    assert parses("rummikub round draw --seed 7")
    assert not parses("rummikub runda losuj")
    assert not parses("rummikub round draw --ziarno 7")
    assert "rummikub runda losuj" not in set(shell_lines(english_text()))


def test_the_polish_docs_say_the_kit_speaks_polish() -> None:
    for name in ("README.md", "szybki-start.md", "przewodnik-organizatora.md"):
        text = (ROOT / "docs/pl" / name).read_text(encoding="utf-8")
        assert "Zestaw mówi po polsku" in text, name
        assert "po angielsku; polska wersja jest w przygotowaniu" not in text, name


def test_free_text_is_the_only_difference_allowed() -> None:
    polish = 'rummikub result enter --table 3 --why "B źle policzył" --by "sędzia Ala"'
    english = 'rummikub result enter --table 3 --why "B miscounted" --by "judge Ala"'
    assert free_text_masked(polish) == free_text_masked(english)
    assert free_text_masked(polish) != free_text_masked(english.replace("3", "4"))


def test_the_readme_links_the_polish_docs_in_its_first_lines() -> None:
    head = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()[:5]
    assert any("docs/pl/" in line for line in head), head
