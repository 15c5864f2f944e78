"""The event archive: one zip file with everything a league publishes after a tournament.

003 publishes each tournament's results on the league's website; the archive is that
upload in one file. Inside one folder named after the event:

* ``index.html`` — what the event was and a link to every file below;
* ``csv/`` — the files of ``rummikub export csv``: every stage's standings, every game
  as it counts, every version of each corrected game (who, when, why), the seatings,
  the sanctions, the players, the head judge's tie decisions and the final ranking;
* ``html/`` and ``pdf/`` — the same as printable documents (A4): standings, seating and
  games of every stage, corrections, sanctions, tie decisions, the final ranking.

Everything in it is in one language, the reader's (the command line's), its CSV files
written for that language's spreadsheet (:class:`~hub.exports.grid.Sheet`).

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
from hub.exports.grid import Sheet, event_name, when
from hub.exports.pages import document
from hub.exports.words import phase_label, stage_title
from hub.tournament.format_words import describe
from tablekit.shared.i18n import Words


def _documents(words: Words) -> dict[str, str]:
    """What each printable document of the archive holds, by its file name's stem."""
    return {
        "standings": words.gettext("standings of every stage"),
        "seating": words.gettext("the seating of every stage"),
        "results": words.gettext("every game as it counts (the latest version)"),
        "corrections": words.gettext("every corrected game: each version, who, when and why"),
        "sanctions": words.gettext(
            "warnings, big points deducted, disqualifications: who, when and why"
        ),
        "ties": words.gettext("the head judge's tie decisions"),
        "consolation": words.gettext("the organizer's seating of the consolation games"),
        "ranking": words.gettext("the final ranking"),
    }


def _csv_files(words: Words) -> dict[str, str]:
    """What each CSV file of the archive holds, by its name."""
    return {
        "standings.csv": words.gettext("every stage's standings, a block of rows per stage"),
        "results.csv": words.gettext("one row per player per game, as it counts"),
        "corrections.csv": words.gettext(
            "every version of each corrected game, one row per player"
        ),
        "seating.csv": words.gettext("every stage's seating"),
        "sanctions.csv": words.gettext("every sanction"),
        "players.csv": words.gettext("the players"),
        "ties.csv": words.gettext("the head judge's tie decisions"),
        "consolation.csv": words.gettext("the organizer's seating of the consolation games"),
        "ranking.csv": words.gettext("the final ranking"),
    }


def slug(name: str) -> str:
    """A file name from an event name: ``Turniej Zimowy — Łódź 2026`` →
    ``turniej-zimowy-lodz-2026``."""
    text = name.replace("ł", "l").replace("Ł", "L")
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "event"


def _index_html(
    comp: Competition,
    csvs: Mapping[str, str],
    docs: Mapping[str, str],
    at: float,
    sheet: Sheet,
) -> str:
    e = html.escape
    words = sheet.words
    event = comp.event
    stages = ", ".join(stage_title(s, comp.round_number(s), words) for s in event.stages_played)
    facts = [
        (words.gettext("Format"), describe(event.format).message(words.gettext)),
        (words.gettext("Players"), str(len(event.players))),
        (words.gettext("Stages played"), stages or words.gettext("none")),
        (words.gettext("State"), phase_label(event.phase, words)),
        (words.gettext("Archived"), when(at, words)),
    ]
    rows = "".join(f"<tr><th>{e(k)}</th><td>{e(v)}</td></tr>\n" for k, v in facts)
    documents = _documents(words)
    printable = "".join(
        f'<tr><td>{e(documents.get(stem, stem))}</td><td><a href="pdf/{stem}.pdf">PDF</a></td>'
        f'<td><a href="html/{stem}.html">HTML</a></td></tr>\n'
        for stem in docs
    )
    described = _csv_files(words)
    tables = "".join(
        f'<tr><td><a href="csv/{name}">{e(name)}</a></td>'
        f"<td>{e(described.get(name, ''))}</td></tr>\n"
        for name in csvs
    )
    name = event_name(comp)
    spreadsheets = words.gettext(
        "For spreadsheets (CSV, UTF-8, “{separator}” between fields)"
    ).format(separator=sheet.delimiter)
    to_print = words.gettext("To read and print")
    body = (
        f"<h1>{e(name)}</h1>\n<table>\n{rows}</table>\n"
        f"<h2>{e(to_print)}</h2>\n<table>\n{printable}</table>\n"
        f"<h2>{e(spreadsheets)}</h2>\n<table>\n"
        f"{tables}</table>\n"
    )
    title = words.gettext("{event} — archive").format(event=name)
    return document(title, body, words)


def event_archive(
    comp: Competition,
    *,
    pdf: Callable[[str], bytes],
    at: float,
    sheet: Sheet,
) -> bytes:
    """The archive of ``comp`` as the bytes of a zip file, made at wall time ``at``, in
    ``sheet``'s language (its CSV files written for its spreadsheet)."""
    csvs = csv_files(comp, sheet)
    docs = archive_documents(comp, sheet.words)
    files: dict[str, bytes] = {"index.html": _index_html(comp, csvs, docs, at, sheet).encode()}
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
