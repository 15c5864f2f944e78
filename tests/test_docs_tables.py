"""Every table of the docs renders as a table.

The docs are read on a forge or in an editor's preview, which render GitHub's pipe
tables: a blank line inside a table ends it and the rows after it show as raw pipes; a
row with more cells than the header loses the extra ones, silently. markdown-it-py (the
CommonMark parser with GitHub's table rule) renders each file; a line starting with a
pipe that is not part of a rendered table, a row whose cell count differs from its
header's, or a row named twice in the same table fails, naming the file and line.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from markdown_it import MarkdownIt
from markdown_it.token import Token

ROOT = Path(__file__).resolve().parent.parent
DOCS = sorted([ROOT / "README.md", *(ROOT / "docs").glob("*.md"), *(ROOT / "docs/pl").glob("*.md")])

# A cell boundary: a pipe not escaped by a backslash (GitHub splits on it inside code
# spans too, so a pipe meant as text is written \|).
_CELL_PIPE = re.compile(r"(?<!\\)\|")


def _cells(line: str) -> list[str]:
    """The cells of a pipe-table row, as GitHub splits them."""
    text = line.strip()
    text = text.removeprefix("|")
    if text.endswith("|") and not text.endswith("\\|"):
        text = text[:-1]
    return [cell.strip() for cell in _CELL_PIPE.split(text)]


def _tables(tokens: list[Token]) -> list[tuple[int, int]]:
    """The source line ranges (start, end) of the rendered tables."""
    return [(t.map[0], t.map[1]) for t in tokens if t.type == "table_open" and t.map]


def _fenced(tokens: list[Token]) -> set[int]:
    """Lines inside code blocks, where a pipe is only text."""
    lines: set[int] = set()
    for token in tokens:
        if token.type in ("fence", "code_block") and token.map:
            lines.update(range(*token.map))
    return lines


def table_problems(text: str) -> list[str]:
    """What is wrong with the pipe tables of one markdown text, each with its line."""
    tokens = MarkdownIt("commonmark").enable("table").parse(text)
    lines = text.splitlines()
    problems = []
    in_table: set[int] = set()
    for start, end in _tables(tokens):
        in_table.update(range(start, end))
        width = len(_cells(lines[start]))
        seen: dict[str, int] = {}
        for number in range(start + 2, end):
            cells = _cells(lines[number])
            if len(cells) != width:
                problems.append(
                    f"line {number + 1}: {len(cells)} cells, the header has {width}"
                    " (a pipe meant as text is written \\|)"
                )
            name = cells[0]
            if name in seen:
                first = seen[name]
                problems.append(f"line {number + 1}: the row {name} again (first on line {first})")
            seen.setdefault(name, number + 1)
    code = _fenced(tokens)
    for number, line in enumerate(lines):
        if line.lstrip().startswith("|") and number not in in_table and number not in code:
            problems.append(
                f"line {number + 1}: a table row outside any table"
                " (a blank line or a missing |---| line above it ends the table)"
            )
    return problems


@pytest.mark.parametrize("path", DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_table_renders(path: Path) -> None:
    problems = table_problems(path.read_text(encoding="utf-8"))
    assert not problems, f"{path.relative_to(ROOT)}:\n" + "\n".join(problems)


def test_a_broken_table_is_found() -> None:
    broken = (
        "| a | b |\n|---|---|\n| x | 1 |\n\n| y | 2 |\n\n"
        "| c | d |\n|---|---|\n| z | 1 | 2 |\n| z | 3 |\n"
    )
    assert table_problems(broken) == [
        "line 9: 3 cells, the header has 2 (a pipe meant as text is written \\|)",
        "line 10: the row z again (first on line 9)",
        "line 5: a table row outside any table"
        " (a blank line or a missing |---| line above it ends the table)",
    ]
    assert table_problems("| a | b |\n|---|---|\n| `x \\| y` | 1 |\n") == []
