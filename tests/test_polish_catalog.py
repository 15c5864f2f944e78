"""The Polish catalog reads as a Polish club writes: no message left in English, Polish
quotes („…”) and never a hyphen for a minus, no English word of the kit inside a Polish
sentence (the commands, options and keys a person types stay as they are typed)."""

from __future__ import annotations

import re
import string
from collections.abc import Iterator

import catalogs
import pytest

SAME_AS_ENGLISH = {
    "OK": "the same word in Polish",
    "ok": "the same word in Polish",
    "Status": "the same word in Polish (a column)",
    "Format": "the same word in Polish",
    "joker": "the rule books' word (docs/glossary.md)",
    "+{n} joker": "the rule books' word, one joker",
    " +{n} joker": "the rule books' word, one joker",
    "{tiles} + joker": "the rule books' word, one joker left on a rack",
    "English": "the name of the language in itself (the link to switch to it)",
    "PDF (A4)": "a file type and a paper size",
    "M": "a gender in one letter: M is mężczyzna too",
    "N": "a gender in one letter: N is bez rodzaju too",
    "{source}: pins.{error}": "a key of the configuration file, as it is written",
}
"""Polish messages that are the English ones, reviewed, and why."""
UNITS = re.compile(r"\b(h|min|s)\b")
"""Units Polish writes as English does."""
TYPED = re.compile(
    r"\b(python3?|pip|apt-get|sudo|systemctl|journalctl|mosquitto\w*)( [^\s,;()]+)+"
    r"|rummikub(-\w+)?( (?!--)[^\s,;()„”]+)*( --[\w-]+( (?!--)\S+)?)*"
    r"|tablekit-\w+( --?[\w-]+( \S+)?)*"
    r"|--[\w-]+( [A-ZĄĆĘŁŃÓŚŹŻ_|.…]+\b| [a-z0-9.-]+\b)?|\bklucz \w+"
    r"|\b[A-Z][\w]*-\d+(-\d+)?\b|\$?\b[A-Z][A-Z0-9_]{2,}\b"
    r"|`[^`]*`|\[[\w.]+\]|\b[\w-]+\.(toml|csv|tsv|pdf|html|png|sqlite3|mo|po|md|txt)\b"
    r"|\b\w+[._/][\w./-]+|/[\w./-]+|https?://\S+|\b[a-z][\w-]*=\S*"
    r"|\b[a-z]+(-[a-zA-Z0-9]+)+\b|„[^”]*”"
    r"|^[a-z][a-z -]*?(?: --[\w-]+)?: "
)
"""What a person types or reads as written: commands and their arguments, options, keys
and sections of a configuration file, environment variables, file names, addresses, codes
written with hyphens (``went-out``, ``table-01``), a key of a file (*klucz event*), what a
message quotes as written, and
the command a message of the command line starts with (``round draw: …``)."""
ENGLISH_WORDS = re.compile(
    r"\b(round|rounds|table|tables|stage|stages|judge|judges|player|players|school|winner|"
    r"game|games|seat|seats|draw|event|organizer|none|promote|went|nobody|champion|"
    r"vice-champion|championship|placement|consolation|semifinal|elimination|sanction|"
    r"warning|deduction|registered|present|withdrawn|hub|unit|accounts|the|and|with|"
    r"of|for)\b"
)
"""English words of the kit that must not be left in a Polish sentence."""


def polish() -> Iterator[tuple[str, str, str]]:
    """(context, English, Polish) of every Polish message and plural form."""
    for m in catalogs.read(catalogs.po_path("pl")):
        if not m.id:
            continue
        ids = m.id if isinstance(m.id, tuple) else (m.id,)
        forms = m.string if isinstance(m.string, tuple) else (m.string,)
        for i, form in enumerate(forms):
            yield m.context or "", ids[min(i, len(ids) - 1)], form


def words_of(text: str) -> str:
    """``text`` without its placeholders, units and what a person types as written."""
    text = re.sub(r"\{[^}]*\}|%\(\w+\)s", " ", text)
    return UNITS.sub(" ", TYPED.sub(" ", text))


def test_no_polish_message_is_left_in_english() -> None:
    same = {
        english
        for _, english, said in polish()
        if said == english and re.search(r"[^\W\d_]", words_of(english))
    }
    assert sorted(same - set(SAME_AS_ENGLISH)) == []
    assert sorted(set(SAME_AS_ENGLISH) - same) == [], "an allowance no longer needed"


def test_polish_messages_quote_the_polish_way() -> None:
    """„…”, never 'x' or "x" (a ``{value!r}`` prints the English quotes: Polish writes
    „{value}”); what a person types (a command with its quoted arguments) as typed."""
    wrong = []
    for _, english, said in polish():
        conversions = [c for _, _, _, c in string.Formatter().parse(said) if c == "r"]
        bare = TYPED.sub(" ", re.sub(r"\{[^}]*\}", " ", said))
        if conversions or re.search(r"['\"]|%\(\w+\)r", bare):
            wrong.append((english, said))
    assert wrong == []


def test_polish_messages_write_a_minus_sign_not_a_hyphen() -> None:
    wrong = [
        (english, said)
        for _, english, said in polish()
        if re.search(r"(?<![\w-])-\d", TYPED.sub(" ", said))
    ]
    assert wrong == []


RULE_CODES = re.compile(r"\b00[0-4]\b|RULES\.md|§")
"""A rule book's number or paragraph: a Polish sentence says what the rule is instead."""
TYPED_RULE_NUMBERS = {
    "one of {names}, or a rule book's number (000, 002, 003, 004)": "the numbers --preset "
    "takes, as typed",
}


def test_no_polish_sentence_names_a_rule_by_its_code() -> None:
    wrong = [
        (english, said)
        for _, english, said in polish()
        if RULE_CODES.search(said) and english not in TYPED_RULE_NUMBERS
    ]
    assert wrong == []


def test_no_english_word_of_the_kit_is_left_in_a_polish_sentence() -> None:
    wrong = [
        (english, said, sorted(set(ENGLISH_WORDS.findall(words_of(said)))))
        for _, english, said in polish()
        if ENGLISH_WORDS.search(words_of(said))
    ]
    assert wrong == []


@pytest.mark.parametrize(
    ("text", "left"),
    [
        ("round draw: nic nie rozlosowano", "nic nie rozlosowano"),
        ("zobacz rummikub players rename P007 --why „…”", "zobacz"),
        ("plik hub.toml, sekcja [hub], $RUMMIKUB_DB", "plik , sekcja ,"),
        ("round i table zostały", "round i table zostały"),
    ],
)
def test_what_a_person_types_is_told_from_the_words(text: str, left: str) -> None:
    assert " ".join(words_of(text).split()) == left
