"""The printouts as PDF: every page A4, nothing past the margins, Polish letters intact
(text extracted from the PDF, fonts embedded), one score sheet page per table with the
paper table's totals rows. Pages are rendered to PNG with poppler's pdftoppm."""

from __future__ import annotations

import os
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest
from pdf_pages import A4_POINTS, ink_in_margins, read_pdf
from test_cli_support import Cli, play_round

from hub import printing
from hub.exports.pages import document
from hub.exports.printouts import sums
from hub.tournament import Player, player_order
from tablekit.shared.i18n import words

POLISH = "ąćęłńóśźżĄĆĘŁŃÓŚŹŻ"
NAMES = [
    "Łucja Ćwiek-Żółtowska",
    "Ścibor Źdźbło",
    "Grzegorz Brzęczyszczykiewicz",
    "Óla Mąńska-Maćkowiak",
    "Ąnna Ęlżbieta Ńowak",
    "Jan Kośla",
    "Małgorzata Kowalczyk-Wiśniewska-Brzęczyszczykiewicz",
]
WHY = "Przeszkadzanie innym graczom przy stole (regulamin 002 §3)"
CLUB = "Uczniowski Klub Sportowy „Żubr” Białystok–Łódź"


def flat(text: str) -> str:
    """Extracted text on one line; a name wrapped after a hyphen joined again."""
    return re.sub(r"-\s+", "-", " ".join(text.split()))


def surname_first(name: str) -> str:
    """How find your table writes a name added without a surname: the last word first."""
    given, _, surname = name.rpartition(" ")
    return f"{surname} {given}"


def winter_event(tmp_path: Path, *, finish: bool) -> Cli:
    """The winter preset (two rounds of 3 games) with 7 players: a table of 4, one of 3."""
    c = Cli(tmp_path / "e.sqlite3")
    c.ok("event", "create", "--preset", "winter", "--name", "Turniej Zimowy — Łódź 2026")
    for name in NAMES:
        c.ok("players", "add", name, "--club", CLUB)
    c.ok("players", "check-in", "--all")
    rng = random.Random(5)
    for r in range(2 if finish else 1):
        c.ok("round", "draw", "--seed", str(r))
        if finish:
            c.ok("round", "start")
            play_round(c, rng)
            c.ok("round", "close")
    if finish:  # a sanction: a column in the standings, a list under them
        c.ok("sanction", "deduct", "P002", "--big", "1", "--why", WHY, by="sędzia Żaneta")
    return c


def test_every_printout_is_a4_with_polish_letters_and_fits_the_page(tmp_path: Path) -> None:
    c = winter_event(tmp_path, finish=True)
    out = tmp_path / "print"
    written = c.ok("export", "pdf", str(out), "--stage", "round-2").split()
    names = ("seating", "find-your-table", "scoresheets", "standings", "ranking")
    assert written == [str(out / f"{n}.pdf") for n in names]
    tables = len(c.competition().event.seating("round-2"))
    for name in names:
        pdf = read_pdf(out / f"{name}.pdf")
        assert pdf.pages >= 1
        for number, ((width, height), png) in enumerate(zip(pdf.sizes, pdf.pngs, strict=True)):
            assert (width, height) == pytest.approx(A4_POINTS, abs=0.5), (name, number)
            assert ink_in_margins(png) == [], f"{name} page {number + 1} runs past the margin"
        text = flat(pdf.text)
        written = [surname_first(n) for n in NAMES] if name == "find-your-table" else NAMES
        for player in written:
            assert player in text, (name, player)
        if name == "find-your-table":  # sorted by surname, then given name, Polish order
            by_surname = sorted(NAMES, key=lambda n: player_order(Player("P", n)))
            found = [text.index(surname_first(n)) for n in by_surname]
            assert found == sorted(found), by_surname
        assert set(POLISH) <= set(text), (name, set(POLISH) - set(text))
        assert pdf.fonts and all("DejaVu-Sans" in font for font in pdf.fonts), pdf.fonts
        if name in ("standings", "ranking"):
            assert WHY in text and "sędzia Żaneta" in text
        if name == "scoresheets":
            assert pdf.pages == tables  # one sheet per table
            for page in range(1, tables + 1):
                sheet = flat(pdf.page_text(page))
                assert f"table {page}" in sheet
                assert "Game 3 — seat C starts" in sheet
                assert all(total in sheet for total in sums(words("en")))
        else:
            assert pdf.pages == 1, name


def test_the_margin_check_sees_a_table_wider_than_the_page(tmp_path: Path) -> None:
    wide = "<table style='width: 300mm'><tr><td>Żółw</td></tr></table>"
    path = tmp_path / "wide.pdf"
    path.write_bytes(printing.pdf(document("wide", wide, words("en"))))
    pdf = read_pdf(path)
    assert ink_in_margins(pdf.pngs[0]) == ["right"]


def test_export_pdf_without_weasyprint_says_what_to_install(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    c = winter_event(tmp_path, finish=False)
    monkeypatch.setitem(sys.modules, "weasyprint", None)  # import weasyprint -> ImportError
    printing._printer.cache_clear()
    error = c.fails("export", "pdf", str(tmp_path / "out"))
    assert "pip install 'rummikub-tablekit[hub]'" in error
    assert "libpango-1.0-0" in error
    assert not (tmp_path / "out").exists()
    c.ok("export", "html", str(tmp_path / "out"))  # HTML needs none of it


def test_the_pdf_needs_no_font_package(tmp_path: Path) -> None:
    """With fontconfig told of no font at all (a config without a font directory), the PDF
    still prints every Polish letter in the kit's own DejaVu Sans (and the command says
    nothing about fonts)."""
    c = winter_event(tmp_path, finish=False)
    conf = tmp_path / "no-fonts.conf"
    conf.write_text(
        '<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n'
        f"<fontconfig><cachedir>{tmp_path / 'fc-cache'}</cachedir></fontconfig>\n"
    )
    env = {**os.environ, "FONTCONFIG_FILE": str(conf)}
    run = subprocess.run(
        [sys.executable, "-m", "hub.cli", "--db", str(c.db), "export", "pdf", str(tmp_path)],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 0 and run.stderr == "", run.stderr
    pdf = read_pdf(tmp_path / "find-your-table.pdf")
    assert sorted(font.split("+")[1] for font in pdf.fonts) == ["DejaVu-Sans", "DejaVu-Sans-Bold"]
    text = flat(pdf.text)
    assert all(surname_first(player) in text for player in NAMES)
