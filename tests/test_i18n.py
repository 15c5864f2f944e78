"""The message catalogs: Polish first and complete, English complete, both current.

The committed template, catalogs and compiled catalogs must be what ``./kit catalogs``
(tests/catalogs.py) makes of the code as it is: a marked word without a Polish
translation, a template older than the code or a ``.mo`` older than its ``.po`` fails
here, with the command that fixes it.
"""

from __future__ import annotations

import gettext
import string
import subprocess
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from catalogs import (
    LANGUAGES,
    TEMPLATE,
    extract,
    merge,
    messages,
    mo_bytes,
    mo_path,
    po_path,
    po_text,
    read,
    untranslated,
    updated,
)

from tablekit.shared import i18n
from tablekit.shared.i18n import LanguageError, choose, language, words

FIX = "run ./kit catalogs"


def polish_form(n: int) -> int:
    """The Polish plural form of ``n`` as the grammar has it (CLDR's one/few/many):
    1 stolik; 2, 3, 4, 22, 23, 24, 102 stoliki; 0, 5–21, 25–31, 112 stolików."""
    if n == 1:
        return 0
    if n % 10 in (2, 3, 4) and n % 100 not in (12, 13, 14):
        return 1
    return 2


def test_the_polish_plural_forms_are_those_of_the_grammar() -> None:
    pl = words("pl")
    tables = {n: pl.ngettext("{n} table", "{n} tables", n).format(n=n) for n in range(1000)}
    assert [tables[n] for n in (1, 2, 5, 22, 12)] == [
        "1 stolik", "2 stoliki", "5 stolików", "22 stoliki", "12 stolików",
    ]
    forms = ("{n} stolik", "{n} stoliki", "{n} stolików")
    assert tables == {n: forms[polish_form(n)].format(n=n) for n in range(1000)}
    games = [pl.ngettext("{n} game", "{n} games", n).format(n=n) for n in (1, 2, 5, 14, 24)]
    assert games == ["1 gra", "2 gry", "5 gier", "14 gier", "24 gry"]
    players = [pl.ngettext("{n} player", "{n} players", n).format(n=n) for n in (1, 3, 10)]
    assert players == ["1 gracz", "3 graczy".replace("graczy", "gracze"), "10 graczy"]


def test_english_has_two_forms_and_is_its_own_text() -> None:
    en = words("en")
    assert [en.ngettext("{n} table", "{n} tables", n).format(n=n) for n in (1, 2, 0)] == [
        "1 table", "2 tables", "0 tables",
    ]
    assert en.gettext("hub view:") == "hub view:"
    assert en.pgettext("abbreviation of big points", "BP") == "BP"
    assert words("pl").pgettext("abbreviation of big points", "BP") == "DP"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_message_is_translated(lang: str) -> None:
    catalog = read(po_path(lang))
    assert [m.id for m in catalog if m.id], "an empty catalog"
    missing = [m.id for m in untranslated(catalog)]
    assert missing == [], (
        f"{po_path(lang)}: no {lang} translation (or a fuzzy one) for {missing}: "
        f"{FIX}, translate them in that file (Poedit opens it), then {FIX} again"
    )


def test_a_missing_or_doubtful_translation_is_found() -> None:
    catalog = Catalog(locale="pl")
    catalog.add("done", "gotowe")
    catalog.add("empty", "")
    catalog.add(("{n} table", "{n} tables"), ("{n} stolik", "{n} stoliki", ""))
    catalog.add(("{n} game", "{n} games"), ("{n} gra", "{n} gry"))  # a form short
    catalog.add("changed", "zmienione", flags=["fuzzy"])
    assert [m.id for m in untranslated(catalog)] == [
        "empty", ("{n} table", "{n} tables"), ("{n} game", "{n} games"), "changed",
    ]


def fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_translations_keep_the_messages_placeholders(lang: str) -> None:
    """A translation filled in with ``.format`` must name the same fields as the code
    passes: a dropped or misspelt ``{stage}`` would raise or lose a value. A plural's forms
    each name the number and only fields the code passes (a form may leave a value out,
    as English leaves the state's word out of its plural)."""
    wrong = []
    for m in read(po_path(lang)):
        if not m.id:
            continue
        ids = m.id if isinstance(m.id, tuple) else (m.id,)
        forms = m.string if isinstance(m.string, tuple) else (m.string,)
        wanted = set().union(*(fields(i) for i in ids))
        if len(ids) == 1:
            wrong += [(ids[0], form) for form in forms if fields(form) != wanted]
        else:  # a plural's forms may each leave out a value (English "{n} {word}" / "{n} …S")
            wrong += [
                (ids[0], form)
                for form in forms
                if "n" not in fields(form) or not fields(form) <= wanted
            ]
    assert wrong == []


def test_the_template_is_what_the_code_marks() -> None:
    fresh, committed = messages(extract()), messages(read(TEMPLATE))
    new = sorted({m[:2] for m in fresh} - {m[:2] for m in committed})
    gone = sorted({m[:2] for m in committed} - {m[:2] for m in fresh})
    assert fresh == committed, (
        f"{TEMPLATE} is older than the code's marked words (new in the code: {new}; gone "
        f"from it: {gone}; else moved or their comments changed): {FIX}, then translate "
        "what it lists into Polish"
    )


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_catalogs_follow_the_template_and_are_compiled(lang: str) -> None:
    assert po_text(updated(lang, read(TEMPLATE))) == po_path(lang).read_text("utf-8"), (
        f"{po_path(lang)} does not follow {TEMPLATE.name}: {FIX}"
    )
    assert mo_bytes(read(po_path(lang))) == mo_path(lang).read_bytes(), (
        f"{mo_path(lang)} is older than its .po: {FIX}"
    )


@pytest.mark.parametrize("lang", LANGUAGES)
def test_gnu_gettext_reads_the_catalogs_as_a_translator_would(lang: str, tmp_path: Path) -> None:
    """Poedit and the other translators' tools are built on GNU gettext: its msgfmt takes
    each catalog without a warning, every message translated and every brace placeholder
    (python-brace-format) kept, and compiles the same translations the kit reads."""
    done = subprocess.run(
        ["msgfmt", "--check", "--statistics", "-o", str(tmp_path / "gnu.mo"), str(po_path(lang))],
        capture_output=True, text=True, check=False,
    )
    count = len([m for m in read(po_path(lang)) if m.id])
    assert done.returncode == 0 and done.stderr == f"{count} translated messages.\n", done.stderr
    with (tmp_path / "gnu.mo").open("rb") as file:
        gnu = gettext.GNUTranslations(file)
    ours = words(lang)
    for m in read(po_path(lang)):
        if isinstance(m.id, tuple):
            for n in (1, 2, 5, 22):
                assert gnu.ngettext(m.id[0], m.id[1], n) == ours.ngettext(m.id[0], m.id[1], n)
        elif m.id and m.context:
            assert gnu.pgettext(m.context, m.id) == ours.pgettext(m.context, m.id)
        elif m.id:
            assert gnu.gettext(m.id) == ours.gettext(m.id)


def test_the_package_reads_the_compiled_catalogs() -> None:
    assert i18n.catalog_path("pl") == mo_path("pl")
    assert words("pl").gettext("hub view:") == "stan sali:"
    assert words("pl_PL.UTF-8") is words("pl")  # read once


def test_a_language_is_named_by_its_code_or_a_locale() -> None:
    assert [language(n) for n in ("pl", "PL", "pl_PL.UTF-8", "pl-PL", "en", "en_GB.utf8")] == [
        "pl", "pl", "pl", "pl", "en", "en",
    ]
    with pytest.raises(LanguageError, match=r"no language 'de': the kit speaks Polish \(pl\), "
                       r"English \(en\)"):
        language("de")


def test_polish_unless_told_otherwise() -> None:
    assert choose() == "pl"
    assert choose(None, {"LANG": "C.UTF-8"}) == "pl"
    assert choose(None, {"LANG": "de_DE.UTF-8"}) == "pl"
    assert choose(None, {"LANG": "en_GB.UTF-8"}) == "en"
    assert choose(None, {"LANG": "en_GB.UTF-8", "LC_ALL": "pl_PL.UTF-8"}) == "pl"
    assert choose(None, {"LANGUAGE": "de:en", "LANG": "pl_PL.UTF-8"}) == "en"
    assert choose("pl", {"LANG": "en_GB.UTF-8"}) == "pl"  # an option beats the environment
    with pytest.raises(LanguageError):
        choose("fr")


def test_a_missing_catalog_is_named(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(i18n, "LOCALE_DIR", tmp_path)
    with pytest.raises(LanguageError, match=r"the Polish \(pl\) catalog .*tablekit.mo is "
                       r"missing: the kit was installed without its message catalogs"):
        i18n.load("pl")


def test_catalogs_merge_message_by_message(tmp_path: Path) -> None:
    """Two branches that each translated words merge without a conflict: a message
    changed on one side takes that side's words, one changed on both takes the branch
    merged in and is left fuzzy for the translator, an added one is kept from either."""

    def po(name: str, entries: dict[str, str]) -> Path:
        catalog = Catalog(locale="pl")
        for message, translation in entries.items():
            catalog.add(message, translation)
        path = tmp_path / f"{name}.po"
        path.write_text(po_text(catalog), encoding="utf-8")
        return path

    base = po("base", {"table": "stolik", "round": "runda", "game": "gra"})
    ours = po("ours", {"table": "stół", "round": "runda", "game": "partia", "move": "ruch"})
    theirs = po("theirs", {"table": "stolik", "round": "rundka", "game": "gierka",
                           "judge": "sędzia"})
    assert merge(base, ours, theirs) == 0
    merged = read(ours)
    got = {m.id: (m.string, m.fuzzy) for m in merged if m.id}
    assert got == {
        "table": ("stół", False),
        "round": ("rundka", False),
        "game": ("gierka", True),
        "move": ("ruch", False),
        "judge": ("sędzia", False),
    }


def test_a_kit_error_speaks_the_readers_language() -> None:
    """An error raised in the pure core with an English template and named values is
    shown in Polish by a front end, and a wrapped cause is translated with it; ``str``
    stays English for the logs."""
    from tablekit.core.errors import KitError

    polish = {"seat {seat}: {total} small points, not 0": "miejsce {seat}: {total} małych "
              "punktów, a nie 0", "{file}: {error}": "{file}: {error}"}
    cause = KitError("seat {seat}: {total} small points, not 0", seat="A", total=3)
    wrapped = KitError("{file}: {error}", file="wyniki.csv", error=cause)
    assert str(wrapped) == "wyniki.csv: seat A: 3 small points, not 0"
    assert wrapped.message(lambda m: polish.get(m, m)) == (
        "wyniki.csv: miejsce A: 3 małych punktów, a nie 0")
    assert KitError("plain words").message(lambda m: m.upper()) == "PLAIN WORDS"


def test_a_fuzzy_messages_previous_wording_is_kept_once(tmp_path: Path) -> None:
    """The previous wording of a fuzzy message survives a read and a write as gettext's
    ``#|`` lines, and is gone, not turned into a comment, once the message is translated."""
    path = tmp_path / "pl.po"
    catalog = Catalog(locale="pl")
    catalog.add("a new wording", "nowe", flags=["fuzzy"], previous_id="an old wording")
    catalog.add("settled", "ustalone", previous_id="what it was")
    path.write_text(po_text(catalog), encoding="utf-8")
    for _ in range(2):
        path.write_text(po_text(read(path)), encoding="utf-8")
    text = path.read_text(encoding="utf-8")
    assert text.count('#| msgid "an old wording"') == 1
    assert "# |" not in text and "what it was" not in text
    assert all(not m.user_comments for m in read(path))
