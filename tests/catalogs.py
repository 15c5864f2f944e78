"""The message catalogs' upkeep: extract, update, fill English, compile (``./kit catalogs``).

1. ``pybabel extract`` (configured in pyproject.toml's ``[tool.babel]``) collects every
   marked message of ``tablekit/`` and ``hub/`` into the template
   ``tablekit/locale/tablekit.pot``, with the file each comes from (no line numbers, so
   moving code does not change the template).
2. Each language's ``.po`` is updated from the template (Babel keeps a translation whose
   message changed a little as *fuzzy*, for the translator to check). In the English
   catalog a new message is translated to itself.
3. Each ``.po`` is compiled to its ``.mo``, which the package installs.

Files are written only when their content changes, so running it again changes nothing.
The tests (tests/test_i18n.py) use the same functions to check that the committed files
are what this produces.
"""

from __future__ import annotations

import ast
import io
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
LOCALE = ROOT / "tablekit" / "locale"
DOMAIN = "tablekit"
TEMPLATE = LOCALE / f"{DOMAIN}.pot"
LANGUAGES = ("pl", "en")
SOURCES = ("tablekit", "hub")
HEADER = """\
# The words of the Rummikub table kit (gettext domain tablekit),
# extracted from tablekit/ and hub/ by ./kit catalogs (tests/catalogs.py):
# do not edit, it is made anew. The translations are
# tablekit/locale/<lang>/LC_MESSAGES/tablekit.po; docs/glossary.md holds
# the Polish terms of the rule books that they use."""

MessageKey = tuple[tuple[str, ...], str, tuple[str, ...], tuple[str, ...], tuple[str, ...]]


def po_path(lang: str) -> Path:
    return LOCALE / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def mo_path(lang: str) -> Path:
    return LOCALE / lang / "LC_MESSAGES" / f"{DOMAIN}.mo"


def extract(root: Path = ROOT) -> Catalog:
    """The template as ``pybabel extract`` makes it from the tree at ``root``, its header
    filled in (the kit's name and version, no placeholder addresses)."""
    project = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / f"{DOMAIN}.pot"
        subprocess.run(
            [sys.executable, "-m", "babel.messages.frontend", "-q", "extract",
             "-F", "pyproject.toml", "--add-location=file", "--sort-output",
             "--add-comments=Translators:", "-o", str(out), *SOURCES],
            cwd=root, check=True, capture_output=True, text=True,
        )
        catalog = read(out)
    catalog.project = project["name"]
    catalog.version = project["version"]
    catalog.msgid_bugs_address = ""
    catalog.copyright_holder = ""
    catalog.header_comment = HEADER
    return catalog


def read(path: Path) -> Catalog:
    """A catalog as the file has it, the previous wording of each fuzzy message kept.

    Babel writes a fuzzy message's previous wording as gettext does (``#| msgid "…"``)
    but reads those lines back as the translator's comments, which then piled up on every
    run; here they become the previous wording again (a message no longer fuzzy has
    none)."""
    with path.open("rb") as file:
        catalog = read_po(file)
    for message in catalog:
        previous = [c for c in message.user_comments if c.startswith("|")]
        if not previous:
            continue
        message.user_comments = [c for c in message.user_comments if not c.startswith("|")]
        message.previous_id = _previous_id(previous) if message.fuzzy else []
    return catalog


def _previous_id(lines: list[str]) -> list[str]:
    """``| msgid "a"`` / ``| "b"`` / ``| msgid_plural "c"`` as ``["ab", "c"]`` (a
    previous context, ``| msgctxt``, is left out). Babel wraps a long previous wording
    as comment text, so a line may also go on inside the string without quotes
    (``| msgid "… the first round`` / ``| is."``): each keyword's lines are joined with the
    space the wrapping took, and read as one literal (Python joins ``"a" "b"`` too)."""
    entries: list[tuple[str, list[str]]] = []
    for line in lines:
        text = line[1:].strip()
        keyword, _, rest = text.partition(" ")
        if keyword in ("msgid", "msgid_plural", "msgctxt") and rest.startswith('"'):
            entries.append((keyword, [rest]))
        elif entries:
            entries[-1][1].append(text)
    return [
        str(ast.literal_eval(" ".join(pieces)))
        for keyword, pieces in entries
        if keyword in ("msgid", "msgid_plural")
    ]


def messages(catalog: Catalog) -> list[MessageKey]:
    """What a template says about its messages, without the header (whose dates change
    on every run): id, context, the files, the translators' comments, the flags."""
    return sorted(
        (
            tuple(m.id) if isinstance(m.id, tuple | list) else (m.id,),
            m.context or "",
            tuple(sorted({file for file, _ in m.locations})),
            tuple(m.auto_comments),
            tuple(sorted(m.flags)),
        )
        for m in catalog
        if m.id
    )


def untranslated(catalog: Catalog) -> list[Message]:
    """Messages with an empty translation (or an empty plural form), or left fuzzy: a
    compiled catalog shows neither, so the reader would see the English."""
    missing = []
    for m in catalog:
        if not m.id:
            continue
        forms = m.string if isinstance(m.string, tuple | list) else (m.string,)
        wanted = catalog.num_plurals if m.pluralizable else 1
        if m.fuzzy or not all(forms) or len(forms) != wanted:
            missing.append(m)
    return missing


def updated(lang: str, template: Catalog) -> Catalog:
    """The language's catalog brought up to the template; English fills itself in."""
    catalog = read(po_path(lang))
    catalog.update(template)
    # A message gone from the code leaves the catalog: kept as gettext's obsolete (#~)
    # entries they misled GNU msgfmt when the same wording came back.
    catalog.obsolete.clear()
    catalog.project, catalog.version = template.project, template.version
    if lang == "en":
        for m in catalog:
            if m.id and not m.fuzzy and not any(m.string if m.pluralizable else (m.string,)):
                m.string = tuple(m.id) if m.pluralizable else m.id
    return catalog


def po_text(catalog: Catalog) -> str:
    out = io.BytesIO()
    write_po(out, catalog, sort_output=True, include_previous=True, include_lineno=False)
    return out.getvalue().decode("utf-8")


def mo_bytes(catalog: Catalog) -> bytes:
    out = io.BytesIO()
    write_mo(out, catalog)
    return out.getvalue()


def _write(path: Path, content: str | bytes) -> bool:
    data = content.encode("utf-8") if isinstance(content, str) else content
    if path.is_file() and path.read_bytes() == data:
        return False
    path.write_bytes(data)
    return True


def merge(base: Path, ours: Path, theirs: Path) -> int:
    """Git's merge driver for a ``.po`` (``./kit catalogs merge %O %A %B``): the two
    sides' translations joined message by message, three-way, into ``ours``.

    A message changed on one side only takes that side's translation; changed on both, the
    side being merged in (``theirs``: the branch a rebase replays) wins and is left fuzzy
    for the translator to check. A message either side added is kept. Git merges a ``.po``
    with this when ``.gitattributes`` says so and the clone's config names the driver
    (``git config merge.catalog.driver "./kit catalogs merge %O %A %B"``, which ``./kit``
    sets); the ``.mo`` and
    the template are then made anew by ``./kit catalogs``.
    """
    old, mine, other = read(base), read(ours), read(theirs)
    for message in other:
        if not message.id:
            continue
        current = mine.get(message.id, message.context)
        before = old.get(message.id, message.context)
        if current is None:
            mine[message.id] = message
        elif before is not None and current.string == before.string:
            current.string, current.flags = message.string, set(message.flags)
        elif message.string != current.string and (
            before is None or message.string != before.string
        ):
            current.string = message.string
            current.flags.add("fuzzy")
    ours.write_text(po_text(mine), encoding="utf-8")
    return 0


def main() -> int:
    if sys.argv[1:2] == ["merge"]:
        base, ours, theirs = (Path(a) for a in sys.argv[2:5])
        return merge(base, ours, theirs)
    fresh = extract()
    if not TEMPLATE.is_file() or messages(fresh) != messages(read(TEMPLATE)):
        _write(TEMPLATE, po_text(fresh))
        print(f"catalogs: {TEMPLATE.relative_to(ROOT)} extracted anew")
    template = read(TEMPLATE)
    for lang in LANGUAGES:
        catalog = updated(lang, template)
        if _write(po_path(lang), po_text(catalog)):
            print(f"catalogs: {po_path(lang).relative_to(ROOT)} updated")
        compiled = read(po_path(lang))
        if _write(mo_path(lang), mo_bytes(compiled)):
            print(f"catalogs: {mo_path(lang).relative_to(ROOT)} compiled")
        for m in untranslated(compiled):
            print(f"catalogs: {lang}: no translation for {m.id!r} ({po_path(lang).name})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
