"""The event archive: one zip with every stage's standings, every game, every
correction and sanction, the seatings, in CSV and as printable HTML and A4 PDF."""

from __future__ import annotations

import csv
import io
import zipfile
from pathlib import Path

import pytest
from pdf_pages import A4_POINTS, ink_in_margins, read_pdf
from test_printouts import NAMES, WHY, flat, winter_event

from hub import archive
from hub.exports.grid import Sheet
from tablekit.shared.i18n import words

FIX = "Źle odczytana karta: stół 1, gra 2"


def rows(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text)))


def test_the_archive_holds_the_whole_event_in_csv_html_and_pdf(tmp_path: Path) -> None:
    c = winter_event(tmp_path, finish=True)
    seats = len(c.competition().event.seating("round-1")[0].players)
    racks = " ".join(f"{s}={0 if s == 'A' else 10 * (i + 1)}" for i, s in enumerate("ABCD"[:seats]))
    c.ok("result", "enter", "--stage", "round-1", "--table", "1", "--game", "2",
         "--racks", racks, "--why", FIX, "--yes", by="sędzia Żaneta")
    out = c.ok("export", "archive", str(tmp_path))  # a folder: the event's name
    path = tmp_path / "turniej-zimowy-lodz-2026.zip"
    assert out.startswith(f"{path} (")

    with zipfile.ZipFile(path) as made:
        assert made.testzip() is None
        names = made.namelist()
        folder = "turniej-zimowy-lodz-2026/"
        assert all(n.startswith(folder) for n in names)
        files = {n.removeprefix(folder): made.read(n) for n in names}
    docs = ["standings", "seating", "results", "corrections", "sanctions", "ranking"]
    tables = [
        "standings.csv", "results.csv", "corrections.csv", "seating.csv", "sanctions.csv",
        "players.csv", "ranking.csv",
    ]
    assert sorted(files) == sorted(
        ["index.html"]
        + [f"csv/{n}" for n in tables]
        + [f"{kind}/{d}.{kind}" for d in docs for kind in ("html", "pdf")]
    )
    index = files["index.html"].decode()
    for link in [f"csv/{n}" for n in tables] + [f"pdf/{d}.pdf" for d in docs]:
        assert f'href="{link}"' in index

    text = {n: files[f"csv/{n}"].decode("utf-8-sig") for n in tables}
    assert all(files[f"csv/{n}"].startswith(b"\xef\xbb\xbf") for n in tables)  # Excel's BOM
    standings = rows(text["standings.csv"])
    assert [r["stage"] for r in standings] == ["round-1"] * 7 + ["round-2"] * 7
    assert {r["name"] for r in standings} == set(NAMES)
    results = rows(text["results.csv"])
    assert len(results) == 2 * (4 + 3) * 3  # two rounds, tables of 4 and 3, 3 games each
    corrected = [r for r in rows(text["corrections.csv"]) if r["version"] == "2"]
    assert len(corrected) == seats and {r["why"] for r in corrected} == {FIX}
    assert {r["recorded_by"] for r in corrected} == {"sędzia Żaneta"}
    assert {r["version"] for r in rows(text["corrections.csv"])} == {"1", "2"}
    [sanction] = rows(text["sanctions.csv"])
    assert (sanction["player_id"], sanction["bp"], sanction["why"]) == ("P002", "1", WHY)
    assert len(rows(text["seating.csv"])) == 14 and len(rows(text["ranking.csv"])) == 7

    for doc in docs:
        (tmp_path / f"{doc}.pdf").write_bytes(files[f"pdf/{doc}.pdf"])
        pdf = read_pdf(tmp_path / f"{doc}.pdf")
        for size, png in zip(pdf.sizes, pdf.pngs, strict=True):
            assert size == pytest.approx(A4_POINTS, abs=0.5), doc
            assert ink_in_margins(png) == [], doc
        printed = flat(pdf.text)
        if doc in ("standings", "seating", "results", "ranking"):
            assert all(name in printed for name in NAMES), doc
        if doc == "standings":
            assert "round-1" in printed and "round-2" in printed, doc
        if doc == "results":
            assert "Games of Round 1" in printed and "Games of Round 2" in printed, doc
    corrections = flat(read_pdf(tmp_path / "corrections.pdf").text)
    assert FIX in corrections and "sędzia Żaneta" in corrections
    assert WHY in flat(read_pdf(tmp_path / "sanctions.pdf").text)


def test_an_archive_of_an_event_without_corrections_or_sanctions_says_so(tmp_path: Path) -> None:
    c = winter_event(tmp_path, finish=False)
    comp = c.competition()
    made = archive.event_archive(
        comp, pdf=lambda html: html.encode(), at=1_768_000_000.0, sheet=Sheet(words("en"))
    )
    again = archive.event_archive(
        comp, pdf=lambda html: html.encode(), at=1_768_000_000.0, sheet=Sheet(words("en"))
    )
    assert made == again  # the same event and time: the same bytes
    with zipfile.ZipFile(io.BytesIO(made)) as z:
        folder = "turniej-zimowy-lodz-2026/"
        assert f"{folder}csv/ranking.csv" not in z.namelist()  # not finished
        assert "No result was corrected." in z.read(f"{folder}html/corrections.html").decode()
        assert "No sanction was given." in z.read(f"{folder}html/sanctions.html").decode()
        assert rows(z.read(f"{folder}csv/corrections.csv").decode("utf-8-sig")) == []


def test_slug() -> None:
    assert archive.slug("Turniej Zimowy — Łódź 2026") == "turniej-zimowy-lodz-2026"
    assert archive.slug("Żółć!") == "zolc"
    assert archive.slug("—") == "event"
