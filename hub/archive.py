"""The event archive: one zip file with everything a league publishes after a tournament.

003 publishes each tournament's results on the league's website; the archive is that
upload in one file. Inside one folder named after the event:

* ``index.html`` — what the event was and a link to every file below;
* ``csv/`` — the files of ``rummikub export csv``: every stage's standings, every game
  as it counts, every version of each corrected game (who, when, why), the seatings,
  the sanctions, the players, the head judge's tie decisions and the final ranking;
* ``html/`` and ``pdf/`` — the same as printable documents (A4): standings, seating and
  games of every stage, corrections, sanctions, tie decisions, the final ranking.

Pure but for the PDF maker it is given: the same event and ``at`` give the same bytes.
"""

from __future__ import annotations

import html
import io
import re
import time
import unicodedata
import zipfile
from collections.abc import Callable, Mapping

from hub.competition import Competition
from hub.exports.files import archive_documents, csv_files
from hub.exports.grid import event_name, when
from hub.exports.pages import document

DOCUMENTS = {
    "standings": "standings of every stage",
    "seating": "the seating of every stage",
    "results": "every game as it counts (the latest version)",
    "corrections": "every corrected game: each version, who, when and why",
    "sanctions": "warnings, big points deducted, disqualifications: who, when and why",
    "ties": "the head judge's tie decisions",
    "consolation": "the organizer's seating of the consolation games",
    "ranking": "the final ranking",
}
CSV_FILES = {
    "standings.csv": "every stage's standings, a block of rows per stage",
    "results.csv": "one row per player per game, as it counts",
    "corrections.csv": "every version of each corrected game, one row per player",
    "seating.csv": "every stage's seating",
    "sanctions.csv": "every sanction",
    "players.csv": "the players",
    "ties.csv": "the head judge's tie decisions",
    "consolation.csv": "the organizer's seating of the consolation games",
    "ranking.csv": "the final ranking",
}


def slug(name: str) -> str:
    """A file name from an event name: ``Turniej Zimowy — Łódź 2026`` →
    ``turniej-zimowy-lodz-2026``."""
    text = name.replace("ł", "l").replace("Ł", "L")
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "event"


def _index_html(
    comp: Competition, csvs: Mapping[str, str], docs: Mapping[str, str], at: float
) -> str:
    e = html.escape
    event = comp.event
    created = comp.created
    stages = ", ".join(
        f"{s} (round {comp.round_number(s)})" for s in event.stages_played
    )
    facts = [
        ("Format", f"{created.preset if created else ''} — {event.format.name}"),
        ("Players", str(len(event.players))),
        ("Stages played", stages or "none"),
        ("State", str(event.phase)),
        ("Archived", when(at)),
    ]
    rows = "".join(f"<tr><th>{e(k)}</th><td>{e(v)}</td></tr>\n" for k, v in facts)
    printable = "".join(
        f'<tr><td>{e(DOCUMENTS.get(stem, stem))}</td><td><a href="pdf/{stem}.pdf">PDF</a></td>'
        f'<td><a href="html/{stem}.html">HTML</a></td></tr>\n'
        for stem in docs
    )
    tables = "".join(
        f'<tr><td><a href="csv/{name}">{e(name)}</a></td>'
        f"<td>{e(CSV_FILES.get(name, ''))}</td></tr>\n"
        for name in csvs
    )
    name = event_name(comp)
    body = (
        f"<h1>{e(name)}</h1>\n<table>\n{rows}</table>\n"
        f"<h2>To read and print</h2>\n<table>\n{printable}</table>\n"
        "<h2>For spreadsheets (CSV, UTF-8)</h2>\n<table>\n"
        f"{tables}</table>\n"
    )
    return document(f"{name} — archive", body)


def event_archive(
    comp: Competition,
    *,
    pdf: Callable[[str], bytes],
    at: float,
    delimiter: str = ",",
) -> bytes:
    """The archive of ``comp`` as the bytes of a zip file, made at wall time ``at``."""
    csvs = csv_files(comp, delimiter)
    docs = archive_documents(comp)
    files: dict[str, bytes] = {"index.html": _index_html(comp, csvs, docs, at).encode()}
    for name, text in csvs.items():
        files[f"csv/{name}"] = text.encode("utf-8-sig")
    for stem, doc in docs.items():
        files[f"html/{stem}.html"] = doc.encode()
        files[f"pdf/{stem}.pdf"] = pdf(doc)
    folder = slug(event_name(comp))
    stamp = time.localtime(max(at, 315_532_800.0))[:6]  # zip times start in 1980
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in files.items():
            info = zipfile.ZipInfo(f"{folder}/{name}", date_time=stamp)
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, data)
    return out.getvalue()
