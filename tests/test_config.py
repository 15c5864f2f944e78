"""The unit's TOML config: defaults, normalised pins, and errors that name the field."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tablekit.config import (
    BCM_TO_BOARD,
    BOARD_TO_BCM,
    ConfigError,
    LinkSettings,
    PinSettings,
    RingBoardSettings,
    UnitConfig,
    default_config_path,
    describe_pins,
    load_config,
    parse_config,
    parse_pin,
)
from tablekit.config import (
    main as config_main,
)
from tablekit.core.clock import ClockRules


def error_of(text: str) -> str:
    with pytest.raises(ConfigError) as info:
        parse_config(text, "unit.toml")
    message = str(info.value)
    assert message.startswith("unit.toml: ")
    return message


def test_default_file_parses_to_the_built_in_defaults() -> None:
    path = default_config_path()
    assert load_config(path) == UnitConfig()
    assert load_config(None) == UnitConfig()


def test_empty_file_gives_the_defaults() -> None:
    config = parse_config("", "unit.toml")
    assert config == UnitConfig()
    assert config.unit.table == 1
    assert config.unit.unit_id == "table-01"
    assert config.clock.move_seconds == 40.0
    assert config.clock.seats == 4
    assert config.buzzer.beeps_at == (10, 5, 4, 3, 2, 1)
    assert config.pins.pass_button == 17
    assert config.pins.judge_key == 27
    assert config.pins.call_button is None
    assert config.pins.status_led == (5, 6, 13)
    assert len(config.pins.led_bar) == 10
    assert config.link is None
    assert config.clock_rules() == ClockRules(seats=4, move_seconds=40.0, lockout=0.4)


def test_default_pins_avoid_i2c_spi0_uart_and_id_pins() -> None:
    busy = {0, 1, 2, 3, 7, 8, 9, 10, 11, 14, 15}
    used = {pin for _, pin in PinSettings().uses()}
    assert not used & busy


def test_a_full_config_is_read() -> None:
    config = parse_config(
        """
        [unit]
        table = 7
        journal = "/var/lib/tablekit/journal.sqlite3"
        [clock]
        seats = 3
        move_seconds = 60
        lockout = 0.25
        [buzzer]
        mode = "quiet"
        tone = 2700
        [pins]
        pass_button = "BOARD11"
        judge_key = "GPIO4"
        call_button = "bcm27"
        buzzer = false
        status_led = false
        led_bar = [22, 23, 24]
        pull_up = false
        [display]
        fullscreen = true
        rotate = 180
        [link]
        host = "hub.local"
        username = "table-07"
        """,
        "unit.toml",
    )
    assert config.unit.unit_id == "table-07"
    assert config.unit.journal_path(Path("/tmp")) == Path("/var/lib/tablekit/journal.sqlite3")
    assert config.clock_rules() == ClockRules(seats=3, move_seconds=60.0, lockout=0.25)
    assert config.buzzer.quiet
    assert config.buzzer.tone == 2700.0
    pins = config.pins
    assert (pins.pass_button, pins.judge_key, pins.call_button, pins.buzzer) == (17, 4, 27, None)
    assert pins.status_led is None
    assert pins.led_bar == (22, 23, 24)
    assert not pins.pull_up
    assert config.display.rotate == 180
    assert config.link == LinkSettings(host="hub.local", username="table-07")
    assert config.link.port == 1883
    assert config.link.keepalive == 15


def test_relative_journal_lives_in_the_state_dir() -> None:
    unit = parse_config("", "u").unit
    assert unit.journal_path(Path("/state")) == Path("/state/tablekit-journal.sqlite3")


@pytest.mark.parametrize(
    ("text", "field", "detail"),
    [
        ("[pins]\npass_button = 40", "pins.pass_button", "40"),
        ('[pins]\npass_button = "GPIO99"', "pins.pass_button", "GPIO99"),
        ('[pins]\njudge_key = "X"', "pins.judge_key", "'X'"),
        ('[pins]\nbuzzer = "BOARD2"', "pins.buzzer", "power or ground"),
        ("[pins]\nled_bar = [22, -1]", "pins.led_bar[1]", "-1"),
        ("[pins]\nstatus_led = [5, 6]", "pins.status_led", "3 pins"),
        ("[pins]\npass_button = true", "pins.pass_button", "true"),
        ("[clock]\nmove_seconds = 0", "clock.move_seconds", "got 0"),
        ("[clock]\nmove_seconds = -5", "clock.move_seconds", "got -5"),
        ("[clock]\nmove_seconds = 3601", "clock.move_seconds", "3600"),
        ("[clock]\nmove_seconds = nan", "clock.move_seconds", "nan"),
        ("[clock]\nseats = 2", "clock.seats", "got 2"),
        ("[clock]\nseats = 5", "clock.seats", "got 5"),
        ("[clock]\nlockout = 40", "clock.lockout", "below move_seconds"),
        ("[clock]\nmove_seconds = 0.3\nlockout = 0.4", "clock.lockout", "below move_seconds"),
        ("[clock]\nlockout = -0.1", "clock.lockout", "-0.1"),
        ("[clock]\nspeed = 1", "clock.speed", "unknown field"),
        ("colour = 1", "colour", "unknown field"),
        ('[clock]\nseats = "4"', "clock.seats", "expected `int`, got `str`"),
        ("[unit]\ntable = 0", "unit.table", "got 0"),
        ('[unit]\nunit_id = "table 1"', "unit.unit_id", "'table 1'"),
        ('[unit]\ntable = 2\nunit_id = "table-01"', "unit.unit_id", "table 2 is 'table-02'"),
        ('[buzzer]\nmode = "loud"', "buzzer.mode", "'beeps' or 'quiet'"),
        ("[buzzer]\nbeeps_at = [10, 0]", "buzzer.beeps_at[1]", "got 0"),
        ("[buzzer]\nbeeps_at = [3, 3]", "buzzer.beeps_at", "twice"),
        ("[buzzer]\nbeep_length = 1.5", "buzzer.beep_length", "1.5"),
        ("[buzzer]\ntone = 10", "buzzer.tone", "got 10"),
        ("[display]\nrotate = 45", "display.rotate", "0, 90, 180 or 270"),
        ("[display]\nfps = 0", "display.fps", "got 0"),
        ("[link]\nport = 1883", "link", "`host`"),
        ('[link]\nhost = "h"\nevent = "a/b"', "link.event", "'a/b'"),
        ('[link]\nhost = "h"\nevent = "hub"', "link.event", "taken by the venue's own topics"),
        ('[link]\nhost = "h"\nport = 70000', "link.port", "70000"),
        ("clock = 5", "clock", "expected `object`"),
    ],
)
def test_bad_input_names_the_field(text: str, field: str, detail: str) -> None:
    message = error_of(text)
    assert f"unit.toml: {field}: " in message
    assert detail in message


def test_a_units_link_names_its_venue_and_no_event() -> None:
    """A unit follows the event its venue's hub announces: its config needs none; one of
    an earlier release names it, the event it follows until the hub says another."""
    config = parse_config('[link]\nhost = "hub.local"\nvenue = "gym"', "unit.toml")
    assert config.link is not None and (config.link.venue, config.link.event) == ("gym", "")
    older = parse_config('[link]\nhost = "hub.local"\nevent = "cup2026"', "unit.toml")
    assert older.link is not None and older.link.event == "cup2026"


def test_a_pin_used_twice_names_both_uses() -> None:
    message = error_of("[pins]\njudge_key = 17")
    assert "pins.judge_key" in message
    assert "pins.pass_button" in message
    assert "GPIO17" in message


def test_a_pin_used_twice_under_different_names_is_caught() -> None:
    message = error_of('[pins]\nled_bar = [22, "BOARD11"]')
    assert "pins.led_bar[1]: GPIO17 is already used by pins.pass_button" in message


def test_leaving_a_device_out_frees_its_pin() -> None:
    config = parse_config("[pins]\npass_button = false\njudge_key = 17", "u")
    assert config.pins.pass_button is None
    assert config.pins.judge_key == 17


def test_syntax_error_is_a_config_error() -> None:
    assert "not valid TOML" in error_of("[clock\nseats = 4")


def test_unreadable_file_is_a_config_error(tmp_path: Path) -> None:
    missing = tmp_path / "nope.toml"
    with pytest.raises(ConfigError, match=r"nope\.toml: cannot read"):
        load_config(missing)


def test_errors_from_a_file_name_the_file(tmp_path: Path) -> None:
    path = tmp_path / "unit.toml"
    path.write_text("[clock]\nmove_seconds = -5\n")
    with pytest.raises(ConfigError) as info:
        load_config(path)
    assert str(info.value).startswith(f"{path}: clock.move_seconds: ")


def test_pin_settings_checks_apply_to_direct_construction() -> None:
    with pytest.raises(ValueError, match="already used"):
        PinSettings(buzzer=17)
    with pytest.raises(ValueError, match="not on the 40-pin header"):
        PinSettings(led_bar=(28,))


def test_board_map_covers_every_header_gpio_once() -> None:
    assert sorted(BOARD_TO_BCM.values()) == list(range(28))
    assert all(BOARD_TO_BCM[BCM_TO_BOARD[bcm]] == bcm for bcm in range(28))


@given(st.integers(0, 27), st.sampled_from(["GPIO", "BCM", "gpio", "bcm"]))
def test_pin_names_normalise_to_bcm(pin: int, prefix: str) -> None:
    assert parse_pin(f"{prefix}{pin}") == pin
    assert parse_pin(pin) == pin
    assert parse_pin(f"BOARD{BCM_TO_BOARD[pin]}") == pin


@given(st.integers().filter(lambda n: not 0 <= n <= 27))
def test_numbers_off_the_header_are_refused(pin: int) -> None:
    with pytest.raises(ValueError, match="unknown pin"):
        parse_pin(pin, "pass_button")


def test_check_command_prints_the_pin_table(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LANGUAGE", "en")
    assert config_main([]) == 0
    out = capsys.readouterr().out
    assert out.startswith("built-in defaults: OK — table 1 (table-01)\n")
    assert "header pin 11  GPIO17  pass_button" in out
    assert "header pin 40  GPIO21  led_bar[9]" in out
    assert out.endswith("buttons wired to GND, internal pull-up; RGB LED common cathode\n")
    bad = tmp_path / "unit.toml"
    bad.write_text("[pins]\nbuzzer = 17\n")
    assert config_main([str(bad)]) == 1
    assert "pins.buzzer: GPIO17 is already used by pins.pass_button" in capsys.readouterr().err


def test_check_command_speaks_polish_unless_told(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    for variable in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(variable, raising=False)
    assert config_main([]) == 0
    out = capsys.readouterr().out
    assert out.startswith("ustawienia wbudowane: OK — stolik 1 (table-01)\n")
    assert "pin złącza 11  GPIO17  pass_button" in out
    assert out.endswith(
        "przyciski podłączone do GND, wewnętrzny pull-up; dioda RGB ze wspólną katodą\n"
    )
    bad = tmp_path / "unit.toml"
    bad.write_text("[pins]\nbuzzer = 17\n[clock]\nseats = 5\n")
    assert config_main([str(bad)]) == 1
    assert capsys.readouterr().err == (
        f"błąd: {bad}: clock.seats: przy stoliku grają 3 lub 4 osoby, podano 5\n"
    )
    bad.write_text("[pins]\nbuzzer = 17\n")
    assert config_main([str(bad)]) == 1
    assert capsys.readouterr().err == (
        f"błąd: {bad}: pins.buzzer: GPIO17 jest już zajęty przez pins.pass_button\n"
    )
    bad.write_text("[clock]\nseat = 4\n")
    assert config_main([str(bad)]) == 1
    assert capsys.readouterr().err == (
        f"błąd: {bad}: clock.seat: nieznane pole; [clock] zawiera: seats, move_seconds, "
        "lockout, judge_hold, call_hold\n"
    )
    bad.write_text("[display]\nwidth = \"wide\"\n")
    assert config_main([str(bad)]) == 1
    assert capsys.readouterr().err == (
        f"błąd: {bad}: display.width: oczekiwano `int`, podano `str`\n"
    )


def test_pin_table_lists_every_used_pin_by_header_position() -> None:
    lines = describe_pins(PinSettings())
    assert len(lines) == 3 + 3 + 10  # pass, judge, buzzer; RGB; bar (no call button)
    headers = [int(line.split()[2]) for line in lines]
    assert headers == sorted(headers)


def test_wiring_doc_pin_table_matches_the_defaults() -> None:
    doc = Path(__file__).resolve().parent.parent / "docs" / "wiring.md"
    rows = re.findall(r"^\| (\d+) \| GPIO(\d+) \| ([^|]+) \|", doc.read_text(), re.MULTILINE)
    pins = PinSettings()
    assert pins.status_led is not None
    expected = {
        "pass button": pins.pass_button,
        "judge key": pins.judge_key,
        "buzzer": pins.buzzer,
        **{f"LED bar, LED {i}": pin for i, pin in enumerate(pins.led_bar, 1)},
        **dict(zip(("red", "green", "blue"), pins.status_led, strict=True)),
    }
    documented: dict[str, int] = {}
    for header, gpio, device in rows:
        assert BCM_TO_BOARD[int(gpio)] == int(header), (header, gpio)
        name = device.strip().removesuffix(" (bottom)").removesuffix(" (top)")
        name = name.removeprefix("status RGB LED, ")
        documented[name] = int(gpio)
    assert documented == expected


def test_ring_board_section() -> None:
    assert parse_config("").ringboard is None
    assert parse_config("[ringboard]\n").ringboard == RingBoardSettings(port="auto")
    config = parse_config('[ringboard]\nport = "/dev/ttyACM0"\n')
    assert config.ringboard is not None and config.ringboard.port == "/dev/ttyACM0"
    with pytest.raises(ConfigError, match=r"ringboard.port: \"auto\" or a device path"):
        parse_config('[ringboard]\nport = "COM3"\n', "unit.toml")
