"""One language for the whole hall: the event's language in its store, chosen when the
event is created and changed by the organizer mid-event (real SQLite files)."""

from __future__ import annotations

from pathlib import Path

import msgspec
import pytest
from test_cli_support import Cli

from hub.competition import CompetitionError, EventCreated, LanguageChosen, new_event
from hub.organizer import Organizer
from hub.store import EventStore
from tablekit.shared.i18n import LanguageError


def organizer(path: Path, by: str = "organizer Ola") -> Organizer:
    return Organizer(EventStore(path), by=by, clock=lambda: 1_700_000_000.0)


def test_an_event_speaks_polish_unless_created_in_english(tmp_path: Path) -> None:
    polish = organizer(tmp_path / "liga.sqlite3")
    polish.create_event("Liga", "league")
    assert polish.language == "pl"
    english = organizer(tmp_path / "cup.sqlite3")
    english.create_event("Cup", "school", language="en_GB.UTF-8")
    assert english.language == "en"
    # the choice is a record of its own, with who and when, stored with the event
    reopened = organizer(tmp_path / "cup.sqlite3")
    chosen = reopened.competition.language_chosen
    assert chosen is not None
    assert (chosen.language, chosen.by, chosen.at) == ("en", "organizer Ola", 1_700_000_000.0)


def test_a_language_the_kit_does_not_speak_creates_nothing(tmp_path: Path) -> None:
    org = organizer(tmp_path / "event.sqlite3")
    with pytest.raises(LanguageError, match="no language 'de'"):
        org.create_event("Turnier", "league", language="de")
    assert org.competition.created is None
    assert org.store.counts()["total"] == 0


def test_the_organizer_changes_it_mid_event_and_another_process_sees_it(
    tmp_path: Path,
) -> None:
    path = tmp_path / "event.sqlite3"
    org = organizer(path)
    org.create_event("Liga", "league")
    hub = organizer(path, by="hub")  # the hub's own reading of the same file
    assert hub.language == "pl"
    org.choose_language("en", why="an English club visits")
    assert hub.language == "en"
    chosen = hub.competition.language_chosen
    assert chosen is not None and chosen.why == "an English club visits"
    records = org.store.counts()["total"]
    org.choose_language("EN")  # what it already speaks: nothing recorded
    assert org.store.counts()["total"] == records
    with pytest.raises(LanguageError):
        org.choose_language("fr")
    assert org.store.counts()["total"] == records and hub.language == "en"
    org.choose_language("pl")
    assert hub.language == "pl"


def test_no_language_before_the_event(tmp_path: Path) -> None:
    org = organizer(tmp_path / "event.sqlite3")
    with pytest.raises(CompetitionError, match="no event yet"):
        org.choose_language("en")
    assert org.store.counts()["total"] == 0


def test_a_store_from_before_the_choice_reads_as_polish(tmp_path: Path) -> None:
    """An event file written by a release before the language existed holds no
    LanguageChosen record: it speaks Polish, and the organizer can still change it."""
    path = tmp_path / "old.sqlite3"
    org = organizer(path)
    org.record(new_event("Zimowe", "winter", at=1.0))  # what the older release stored
    kinds = [e.kind for e in org.store.events(source="hub")]
    assert kinds == ["event-created"]
    again = organizer(path)
    assert again.competition.language_chosen is None
    assert again.language == "pl"
    again.choose_language("en")
    assert organizer(path).language == "en"


def test_a_stored_language_this_hub_does_not_speak_is_set_aside(tmp_path: Path) -> None:
    """A newer hub's choice of a language this release has no catalog for does not stop
    the event: the record is set aside with its reason and the language stays."""
    path = tmp_path / "event.sqlite3"
    org = organizer(path)
    org.create_event("Liga", "league", language="en")
    newer = LanguageChosen(at=2.0, by="newer hub", language="de")
    org.store.append_facts([("language-chosen", msgspec.json.encode(newer))])
    competition = organizer(path).competition
    assert competition.language == "en"
    assert [(type(r), why) for r, why in competition.skipped] == [
        (LanguageChosen, "language de: the kit speaks pl, en")
    ]


def test_event_create_and_language_on_the_command_line(tmp_path: Path) -> None:
    c = Cli(tmp_path / "event.sqlite3")
    out = c.ok("event", "create", "--preset", "004", "--name", "Konkurs")
    assert "Language: Polish (pl)" in out
    assert c.competition().language == "pl"
    assert c.ok("event", "language") == "Language: Polish (pl)\n"
    out = c.ok("event", "language", "en", "--why", "goście z Anglii")
    assert out == (
        "Language: English (en) (was Polish (pl)); the hub tells every table and the hub "
        "screen at once\n"
    )
    assert c.competition().language == "en"
    assert "Language: English (en)" in c.ok("event", "show")
    assert c.ok("event", "language", "en") == "Language: English (en) already\n"
    err = c.fails("event", "language", "de")
    assert "no language 'de'" in err and "Polish (pl), English (en)" in err

    english = Cli(tmp_path / "cup.sqlite3")
    english.ok("event", "create", "--preset", "league", "--name", "Cup", "--lang", "en")
    assert english.competition().language == "en"
    refused = Cli(tmp_path / "none.sqlite3")
    err = refused.fails("event", "create", "--preset", "league", "--name", "X", "--lang", "xx")
    assert "--lang" in err and "no language 'xx'" in err
    assert not (tmp_path / "none.sqlite3").exists() or refused.records() == 0


def test_event_created_keeps_its_fields() -> None:
    """The language is its own record, not a field of EventCreated: a hub of the release
    before it still reads the event (it skips record kinds it does not know, but refuses
    unknown fields in one it knows)."""
    assert "language" not in EventCreated.__struct_fields__
