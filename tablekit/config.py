"""The table unit's TOML config: strict decoding with errors that name the field.

Every section and field has a default, so an empty file is a valid desktop
config; ``tablekit/default-unit.toml`` spells the defaults out with comments.
Pins are BCM GPIO numbers (``17``) or strings (``"GPIO17"``, ``"BCM17"``,
``"BOARD11"`` = physical header pin 11); ``false`` leaves a device out.

A bad file raises :class:`ConfigError` whose message names the file and the
field, e.g. ``unit.toml: clock.move_seconds: must be above 0 and at most 3600,
got -5.0``.
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path
from typing import Final, Literal

import msgspec

from tablekit.controls import DEFAULT_CALL_HOLD, DEFAULT_JUDGE_HOLD
from tablekit.core.clock import ClockRules
from tablekit.core.errors import KitError, quoted
from tablekit.core.fields import MAX_TABLE
from tablekit.core.messages import unit_id_of
from tablekit.core.scoring import MAX_TILE_VALUE
from tablekit.core.topics import check_level
from tablekit.core.words import ENGLISH, N_, Lookups
from tablekit.result_entry import ASK_ABOVE
from tablekit.shared.broker import BrokerSettings
from tablekit.shared.i18n import DEFAULT_LANGUAGE, LanguageError, choose, words
from tablekit.shared.i18n import language as language_code
from tablekit.shared.tomlfile import SettingsFileError, decode_toml


class ConfigError(KitError, ValueError):
    """A config file that cannot be used; the message names the file and field."""


_NAME = re.compile(r"[A-Za-z0-9_-]{1,32}")

MAX_MOVE_SECONDS = 3600.0
MIN_TONE_HZ = 20.0
MAX_TONE_HZ = 6000.0
"""TonalBuzzer spans one octave either side of the tone; MIDI ends near 12.5 kHz."""


class SettingError(KitError, ValueError):
    """A setting a section's own check refuses (its field first); read with the file's
    name and the section by :func:`parse_config`."""


def _check(ok: bool, template: str, /, **values: object) -> None:
    if not ok:
        raise SettingError(template, **values)


# --- sections -----------------------------------------------------------------


class UnitSettings(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    table: int = 1
    unit_id: str = ""
    """Defaults to ``table-NN`` from ``table``."""
    journal: str = "tablekit-journal.sqlite3"
    """SQLite journal; a relative path is taken from the unit's state directory."""
    language: str = DEFAULT_LANGUAGE
    """The language the display speaks (``pl`` or ``en``) until the hall's language
    setting from the hub says otherwise."""
    ask_rack_above: int = ASK_ABOVE
    """A rack total typed above this is asked once more before it is taken (0: never)."""

    def __post_init__(self) -> None:
        try:
            msgspec.structs.force_setattr(self, "language", language_code(self.language))
        except LanguageError as err:
            raise SettingError(N_("language: {error}"), error=err) from None
        _check(
            1 <= self.table <= MAX_TABLE,
            N_("table: tables are numbered 1–{most} (the protocol's topics), got {got}"),
            most=MAX_TABLE, got=self.table,
        )
        if not self.unit_id:
            msgspec.structs.force_setattr(self, "unit_id", f"table-{self.table:02d}")
        _check(
            bool(_NAME.fullmatch(self.unit_id)),
            N_("unit_id: 1 to 32 of A-Z a-z 0-9 _ -, got {got!r}"),
            got=self.unit_id,
        )
        _check(
            self.unit_id == unit_id_of(self.table),
            N_("unit_id: the unit of table {table} is {unit!r} (the hub takes a unit's "
               "identity from its table's topic), got {got!r}"),
            table=self.table, unit=unit_id_of(self.table), got=self.unit_id,
        )
        _check(bool(self.journal.strip()), N_("journal: must name a file, got an empty string"))
        _check(
            0 <= self.ask_rack_above <= MAX_TILE_VALUE,
            N_("ask_rack_above: must be 0 (never ask) to {most}, got {got}"),
            most=MAX_TILE_VALUE, got=self.ask_rack_above,
        )

    def journal_path(self, state_dir: Path) -> Path:
        """The journal file: ``journal`` itself if absolute, else under ``state_dir``."""
        path = Path(self.journal).expanduser()
        return path if path.is_absolute() else state_dir / path


class ClockSettings(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    seats: int = 4
    move_seconds: float = 40.0
    lockout: float = 0.4
    """A pass press this soon after the last accepted one is ignored (double slams)."""
    judge_hold: float = DEFAULT_JUDGE_HOLD
    """Seconds the judge key is held to open the judge menu."""
    call_hold: float = DEFAULT_CALL_HOLD
    """Seconds the pass button is held right after a pass to call the judge."""

    def __post_init__(self) -> None:
        _check(
            self.seats in (3, 4), N_("seats: a table seats 3 or 4 players, got {count}"),
            count=self.seats,
        )
        _check(
            0 < self.move_seconds <= MAX_MOVE_SECONDS,
            N_("move_seconds: must be above 0 and at most 3600, got {got}"),
            got=self.move_seconds,
        )
        _check(
            0 <= self.lockout < self.move_seconds,
            N_("lockout: must be at least 0 and below move_seconds ({move_seconds}), "
               "got {got}"),
            move_seconds=self.move_seconds, got=self.lockout,
        )
        _check(
            0 < self.judge_hold <= 10, N_("judge_hold: must be in (0, 10], got {got}"),
            got=self.judge_hold,
        )
        _check(
            0 < self.call_hold <= 30, N_("call_hold: must be in (0, 30], got {got}"),
            got=self.call_hold,
        )


class BuzzerSettings(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    mode: Literal["beeps", "quiet"] = "beeps"
    """``quiet``: lights only, the buzzer never sounds."""
    beeps_at: tuple[float, ...] = (10.0, 5.0, 4.0, 3.0, 2.0, 1.0)
    """Seconds remaining at which a short beep starts."""
    beep_length: float = 0.15
    long_tone: float = 2.0
    """Seconds of tone when the time runs out (0: none)."""
    tone: float | None = None
    """Hz for a passive buzzer driven by TonalBuzzer; None = active buzzer."""

    def __post_init__(self) -> None:
        for i, mark in enumerate(self.beeps_at):
            _check(
                0 < mark <= MAX_MOVE_SECONDS,
                N_("beeps_at[{i}]: must be above 0 and at most 3600, got {got}"),
                i=i, got=mark,
            )
        _check(
            len(set(self.beeps_at)) == len(self.beeps_at),
            N_("beeps_at: a mark is listed twice in {marks}"), marks=list(self.beeps_at),
        )
        _check(
            0 < self.beep_length < 1,
            N_("beep_length: must be above 0 and below 1 second, got {got}"),
            got=self.beep_length,
        )
        _check(
            0 <= self.long_tone <= 30, N_("long_tone: must be in [0, 30], got {got}"),
            got=self.long_tone,
        )
        if self.tone is not None:
            _check(
                MIN_TONE_HZ <= self.tone <= MAX_TONE_HZ,
                N_("tone: must be {low} to {high} Hz, got {got}"),
                low=f"{MIN_TONE_HZ:g}", high=f"{MAX_TONE_HZ:g}", got=self.tone,
            )

    @property
    def quiet(self) -> bool:
        return self.mode == "quiet"


# -- pins ---------------------------------------------------------------------

GPIO_PINS = range(28)
"""BCM GPIO numbers present on the 40-pin header."""

BOARD_TO_BCM: dict[int, int] = {
    3: 2, 5: 3, 7: 4, 8: 14, 10: 15, 11: 17, 12: 18, 13: 27, 15: 22, 16: 23, 18: 24,
    19: 10, 21: 9, 22: 25, 23: 11, 24: 8, 26: 7, 27: 0, 28: 1, 29: 5, 31: 6, 32: 12,
    33: 13, 35: 19, 36: 16, 37: 26, 38: 20, 40: 21,
}
"""Physical header pin → BCM GPIO; the other header pins are power and ground."""

BCM_TO_BOARD: dict[int, int] = {bcm: board for board, bcm in BOARD_TO_BCM.items()}

DEFAULT_LED_BAR: tuple[int, ...] = (22, 23, 24, 25, 12, 19, 16, 26, 20, 21)
"""Bottom LED first; avoids the I2C, SPI0, UART and ID EEPROM pins."""


class PinSettings(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Resolved BCM GPIO numbers; None (or an empty bar) = device left out."""

    pass_button: int | None = 17
    judge_key: int | None = 27
    call_button: int | None = None
    buzzer: int | None = 18
    status_led: tuple[int, int, int] | None = (5, 6, 13)
    """Red, green, blue."""
    led_bar: tuple[int, ...] = DEFAULT_LED_BAR
    active_high: bool = True
    """RGB LED: True = common cathode (to GND), False = common anode (to 3V3)."""
    pull_up: bool = True
    """Buttons: True = wired to GND with the internal pull-up; False = to 3V3."""

    def __post_init__(self) -> None:
        seen: dict[int, str] = {}
        for use, pin in self.uses():
            _check(
                pin in GPIO_PINS,
                N_("{use}: GPIO{pin} is not on the 40-pin header (GPIO0 to GPIO27)"),
                use=use, pin=pin,
            )
            if pin in seen:
                raise SettingError(
                    N_("{use}: GPIO{pin} is already used by pins.{other}"),
                    use=use, pin=pin, other=seen[pin],
                )
            seen[pin] = use

    def uses(self) -> list[tuple[str, int]]:
        """Every (field, BCM pin) in use, in config order."""
        out: list[tuple[str, int]] = []
        for name in ("pass_button", "judge_key", "call_button", "buzzer"):
            pin = getattr(self, name)
            if pin is not None:
                out.append((name, pin))
        if self.status_led is not None:
            out += [(f"status_led[{i}]", p) for i, p in enumerate(self.status_led)]
        out += [(f"led_bar[{i}]", p) for i, p in enumerate(self.led_bar)]
        return out


_PinValue = int | str | bool


class _PinsFile(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """``[pins]`` as written: numbers or names, ``false`` for none."""

    pass_button: _PinValue = 17
    judge_key: _PinValue = 27
    call_button: _PinValue = False
    buzzer: _PinValue = 18
    status_led: tuple[_PinValue, ...] | bool = (5, 6, 13)
    led_bar: tuple[_PinValue, ...] | bool = DEFAULT_LED_BAR
    active_high: bool = True
    pull_up: bool = True

    def resolve(self) -> PinSettings:
        def one(field: str, value: _PinValue) -> int | None:
            if value is False:
                return None
            return parse_pin(value, field)

        def many(field: str, value: tuple[_PinValue, ...] | bool) -> tuple[int, ...]:
            if value is False:
                return ()
            if value is True:
                raise SettingError(
                    N_("{field}: true is not a pin list; give pins or false"), field=field
                )
            return tuple(parse_pin(v, f"{field}[{i}]") for i, v in enumerate(value))

        status = many("status_led", self.status_led)
        _check(
            len(status) in (0, 3),
            N_("status_led: needs 3 pins (red, green, blue) or false, got {count}"),
            count=len(status),
        )
        return PinSettings(
            pass_button=one("pass_button", self.pass_button),
            judge_key=one("judge_key", self.judge_key),
            call_button=one("call_button", self.call_button),
            buzzer=one("buzzer", self.buzzer),
            status_led=(status[0], status[1], status[2]) if status else None,
            led_bar=many("led_bar", self.led_bar),
            active_high=self.active_high,
            pull_up=self.pull_up,
        )


_PIN_NAME = re.compile(r"(GPIO|BCM|BOARD)(\d{1,2})")


def parse_pin(value: object, field: str = "pin") -> int:
    """A pin as written in the config → BCM GPIO number; ValueError names ``field``."""
    if isinstance(value, bool):
        raise SettingError(
            N_("{field}: true is not a pin; give a pin or false (use a BCM number 0-27, "
               "'GPIO17', 'BCM17' or 'BOARD11')"),
            field=field,
        )
    if isinstance(value, int):
        if value in GPIO_PINS:
            return value
        raise SettingError(_UNKNOWN_PIN, field=field, pin=value)
    if isinstance(value, str):
        m = _PIN_NAME.fullmatch(value.strip().upper())
        if m is not None:
            kind, number = m.group(1), int(m.group(2))
            if kind == "BOARD" and number in BOARD_TO_BCM:
                return BOARD_TO_BCM[number]
            if kind != "BOARD" and number in GPIO_PINS:
                return number
            if kind == "BOARD" and 1 <= number <= 40:
                raise SettingError(
                    N_("{field}: header pin {number} is power or ground, not a GPIO ({value!r})"),
                    field=field, number=number, value=value,
                )
        raise SettingError(_UNKNOWN_PIN, field=field, pin=quoted(value))
    raise SettingError(_UNKNOWN_PIN, field=field, pin=quoted(value))


_UNKNOWN_PIN: Final = N_(
    "{field}: unknown pin {pin} (use a BCM number 0-27, 'GPIO17', 'BCM17' or 'BOARD11')"
)


# -- display and link ------------------------------------------------------------


class DisplaySettings(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    width: int = 480
    height: int = 320
    fullscreen: bool = False
    fps: int = 15
    rotate: Literal[0, 90, 180, 270] = 0
    """Software rotation in degrees (KMSDRM ignores the system's display rotation)."""

    def __post_init__(self) -> None:
        _check(
            160 <= self.width <= 4096, N_("width: must be 160 to 4096, got {got}"), got=self.width
        )
        _check(
            120 <= self.height <= 4096, N_("height: must be 120 to 4096, got {got}"),
            got=self.height,
        )
        _check(1 <= self.fps <= 60, N_("fps: must be 1 to 60, got {got}"), got=self.fps)


class LinkSettings(BrokerSettings, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """The MQTT link to the hub; the section's absence means no link.

    The broker's fields and their defaults are :class:`~tablekit.shared.broker.BrokerSettings`'
    (every program's); ``host`` is required here. A unit belongs to its ``venue`` (a topic
    level) and follows the event the venue's hub announces (:mod:`tablekit.journals`).
    """

    host: str
    venue: str = "hall"
    event: str = ""
    """The event to follow until the hub announces one: configs of releases before units
    followed the hub named it (and a hub of such a release never announces one); "" for
    none. The hub's announcement takes its place."""

    def __post_init__(self) -> None:
        super().__post_init__()
        check_level("venue", self.venue)
        if self.event:
            check_level("event", self.event)


class RingBoardSettings(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The optional RP2040 ring board on USB serial (firmware/); absent = none."""

    port: str = "auto"
    """A serial device such as /dev/ttyACM0, or "auto" to find the board by its USB id."""

    def __post_init__(self) -> None:
        _check(
            self.port == "auto" or self.port.startswith("/dev/"),
            N_("port: \"auto\" or a device path under /dev/, got {got!r}"),
            got=self.port,
        )


# -- the whole file --------------------------------------------------------------


class UnitConfig(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    unit: UnitSettings = UnitSettings()
    clock: ClockSettings = ClockSettings()
    buzzer: BuzzerSettings = BuzzerSettings()
    pins: PinSettings = PinSettings()
    display: DisplaySettings = DisplaySettings()
    link: LinkSettings | None = None
    ringboard: RingBoardSettings | None = None

    def clock_rules(self) -> ClockRules:
        c = self.clock
        return ClockRules(seats=c.seats, move_seconds=c.move_seconds, lockout=c.lockout)


class _UnitFile(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    unit: UnitSettings = UnitSettings()
    clock: ClockSettings = ClockSettings()
    buzzer: BuzzerSettings = BuzzerSettings()
    pins: _PinsFile = _PinsFile()
    display: DisplaySettings = DisplaySettings()
    link: LinkSettings | None = None
    ringboard: RingBoardSettings | None = None


_CHOICES = {"buzzer.mode": N_("'beeps' or 'quiet'"), "display.rotate": N_("0, 90, 180 or 270")}


def parse_config(text: str, source: str = "<config>") -> UnitConfig:
    """Decode a unit config; ``source`` (usually the file name) leads every error."""
    try:
        raw = decode_toml(text, _UnitFile, source, _CHOICES)
    except SettingsFileError as err:
        raise ConfigError(err.template, **err.values) from None
    try:
        pins = raw.pins.resolve()
    except SettingError as err:
        raise ConfigError(N_("{source}: pins.{error}"), source=source, error=err) from None
    return UnitConfig(
        unit=raw.unit,
        clock=raw.clock,
        buzzer=raw.buzzer,
        pins=pins,
        display=raw.display,
        link=raw.link,
        ringboard=raw.ringboard,
    )


def load_config(path: Path | None) -> UnitConfig:
    """The config in ``path``, or the built-in defaults when ``path`` is None."""
    if path is None:
        return UnitConfig()
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        raise ConfigError(
            N_("{file}: cannot read the config: {error}"), file=path, error=err
        ) from None
    return parse_config(text, str(path))


def default_config_path() -> Path:
    """The packaged, commented example config (its values are the defaults)."""
    return Path(__file__).with_name("default-unit.toml")


def describe_pins(pins: PinSettings, words: Lookups = ENGLISH) -> list[str]:
    """One line per used pin: header pin, BCM GPIO, device; for a builder's check."""
    line = words.gettext(N_("header pin {board:>2}  GPIO{bcm:<2}  {use}"))
    return [
        line.format(board=BCM_TO_BOARD[bcm], bcm=bcm, use=use)
        for use, bcm in sorted(pins.uses(), key=lambda u: BCM_TO_BOARD[u[1]])
    ]


def main(argv: list[str] | None = None) -> int:
    """``python -m tablekit.config [FILE]``: check a config and print its pin table, in
    the language of ``LANG`` (Polish unless it names English)."""
    said = words(choose(environ=os.environ))
    args = sys.argv[1:] if argv is None else argv
    path = Path(args[0]) if args else None
    try:
        config = load_config(path)
    except ConfigError as err:
        print(said.gettext(N_("error: {error}")).format(error=err.message(said.gettext)),
              file=sys.stderr)
        return 1
    source = str(path) if path else said.gettext(N_("built-in defaults"))
    print(said.gettext(N_("{source}: OK — table {table} ({unit})")).format(
        source=source, table=config.unit.table, unit=config.unit.unit_id
    ))
    print("\n".join(describe_pins(config.pins, said)))
    wiring = {
        (True, True): N_("buttons wired to GND, internal pull-up; RGB LED common cathode"),
        (True, False): N_("buttons wired to GND, internal pull-up; RGB LED common anode"),
        (False, True): N_("buttons wired to 3V3, pull-down; RGB LED common cathode"),
        (False, False): N_("buttons wired to 3V3, pull-down; RGB LED common anode"),
    }
    print(said.gettext(wiring[config.pins.pull_up, config.pins.active_high]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
