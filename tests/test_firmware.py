"""The ring board firmware (firmware/main.py) and its framing, run on CPython.

Fake ``machine``, ``rp2``, ``micropython`` and ``neopixel`` modules stand in for
MicroPython's; they record what the firmware does to the pins, the PIO state
machine, the PWM and the watchdog.
"""

from __future__ import annotations

import ast
import importlib.util
import sys
import types
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tablekit.ringproto

ROOT = Path(__file__).resolve().parent.parent
FIRMWARE = ROOT / "firmware"
PROTOCOL_FILE = ROOT / "tablekit" / "ringproto.py"
"""The framing module: the package's own file is what is copied to the Pico."""


def _load_as_on_the_pico() -> types.ModuleType:
    """``tablekit/ringproto.py`` as the top-level module ``ringproto`` that main.py imports."""
    spec = importlib.util.spec_from_file_location("ringproto", PROTOCOL_FILE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


ringproto: Any = _load_as_on_the_pico()

# --- fake MicroPython modules ---------------------------------------------------------


class FakePin:
    IN = 0
    OUT = 1
    PULL_UP = 2
    pins: dict[int, FakePin] = {}  # noqa: RUF012

    def __init__(self, number: int, mode: int | None = None, pull: int | None = None) -> None:
        self.number = number
        self.mode = mode
        self.pull = pull
        self.level = FakePin.pins[number].level if number in FakePin.pins else 1
        FakePin.pins[number] = self

    def value(self) -> int:
        return self.level


class FakePWM:
    last: FakePWM | None = None

    def __init__(self, pin: FakePin) -> None:
        self.pin = pin
        self.hz = 0
        self.duty = -1
        FakePWM.last = self

    def freq(self, hz: int) -> None:
        self.hz = hz

    def duty_u16(self, duty: int) -> None:
        self.duty = duty


class FakeWDT:
    last: FakeWDT | None = None

    def __init__(self, timeout: int) -> None:
        self.timeout = timeout
        self.feeds = 0
        FakeWDT.last = self

    def feed(self) -> None:
        self.feeds += 1


class FakeStateMachine:
    last: FakeStateMachine | None = None

    def __init__(self, sm_id: int, program: Any, freq: int, sideset_base: FakePin) -> None:
        self.program = program
        self.freq = freq
        self.pin = sideset_base
        self.running = False
        self.writes: list[tuple[list[int], int]] = []
        FakeStateMachine.last = self

    def active(self, on: int) -> None:
        self.running = bool(on)

    def put(self, words: Any, shift: int = 0) -> None:
        self.writes.append((list(words), shift))


def fake_modules() -> dict[str, types.ModuleType]:
    machine = types.ModuleType("machine")
    machine.Pin = FakePin  # type: ignore[attr-defined]
    machine.PWM = FakePWM  # type: ignore[attr-defined]
    machine.WDT = FakeWDT  # type: ignore[attr-defined]

    rp2 = types.ModuleType("rp2")
    rp2.PIO = types.SimpleNamespace(OUT_LOW=0, SHIFT_LEFT=0)  # type: ignore[attr-defined]

    def asm_pio(**options: Any) -> Any:
        # The real decorator runs the body with the assembler's names defined;
        # here the program is only recorded.
        return lambda fn: ("pio program", fn.__name__, options)

    rp2.asm_pio = asm_pio  # type: ignore[attr-defined]
    rp2.StateMachine = FakeStateMachine  # type: ignore[attr-defined]

    micropython = types.ModuleType("micropython")
    micropython.kbd_intr_calls = []  # type: ignore[attr-defined]
    micropython.kbd_intr = micropython.kbd_intr_calls.append  # type: ignore[attr-defined]

    neopixel = types.ModuleType("neopixel")

    def no_neopixel(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("neopixel bit-bangs with interrupts off: use the PIO")

    neopixel.NeoPixel = no_neopixel  # type: ignore[attr-defined]
    return {
        "machine": machine,
        "rp2": rp2,
        "micropython": micropython,
        "neopixel": neopixel,
        "ringproto": ringproto,
    }


@pytest.fixture
def fw(monkeypatch: pytest.MonkeyPatch) -> Any:
    """firmware/main.py, freshly imported against the fake MicroPython modules."""
    FakePin.pins = {}
    for name, module in fake_modules().items():
        monkeypatch.setitem(sys.modules, name, module)
    spec = importlib.util.spec_from_file_location("ring_firmware_main", FIRMWARE / "main.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class Device:
    """A Firmware on fake hardware with a fake ms clock and a captured output."""

    def __init__(self, fw: Any, now: int = 1000) -> None:
        self.fw = fw
        self.now = now
        self.out = bytearray()
        self.board = fw.Board()
        self.firmware = fw.Firmware(self.board, self.out.extend, now)
        self.host_seq = 0
        self.firmware.step(now)

    @property
    def sm(self) -> FakeStateMachine:
        assert FakeStateMachine.last is not None
        return FakeStateMachine.last

    @property
    def pwm(self) -> FakePWM:
        assert FakePWM.last is not None
        return FakePWM.last

    def set_button(self, index: int, pressed: bool) -> None:
        FakePin.pins[self.fw.BUTTON_PINS[index]].level = 0 if pressed else 1

    def advance(self, ms: int, step: int = 1) -> None:
        for _ in range(ms // step):
            self.now += step
            self.firmware.step(self.now)

    def host(self, kind: str, *fields: object) -> int:
        seq = self.host_seq
        self.firmware.receive(ringproto.encode(seq, kind, fields), self.now)
        self.host_seq = (seq + 1) % 256
        self.firmware.step(self.now)
        return seq

    def sent(self) -> list[tuple[int, str, list[str]]]:
        decoder = ringproto.Decoder()
        frames = decoder.feed(bytes(self.out))
        assert decoder.errors == 0
        self.out.clear()
        return frames

    def pixels(self) -> list[tuple[int, int, int]]:
        words, shift = self.sm.writes[-1]
        assert shift == 8
        return [((w >> 8) & 255, (w >> 16) & 255, w & 255) for w in words]


# --- framing --------------------------------------------------------------------------


def test_the_firmware_runs_the_packaged_framing_module() -> None:
    # One file, no copy to drift: the unit imports it from the wheel, the Pico gets the
    # same file next to main.py (README.md, Flashing), and it imports nothing MicroPython
    # lacks (typing only under TYPE_CHECKING, which is False there).
    assert Path(tablekit.ringproto.__file__).resolve() == PROTOCOL_FILE
    assert not (FIRMWARE / "ringproto.py").exists()
    readme = (FIRMWARE / "README.md").read_text()
    assert "cp tablekit/ringproto.py firmware/main.py :" in readme
    tree = ast.parse(PROTOCOL_FILE.read_text())
    imports = [n for n in tree.body if isinstance(n, ast.Import | ast.ImportFrom)]
    assert imports == []
    guarded = [n for n in tree.body if isinstance(n, ast.If)]
    assert [ast.unparse(n.test) for n in guarded] == ["TYPE_CHECKING"]
    assert ringproto.TYPE_CHECKING is False
    assert ringproto.encode(3, "P") == tablekit.ringproto.encode(3, "P")


def test_frame_round_trip_and_format() -> None:
    frame = ringproto.encode(7, "R", [500, 0, 255, 0, 0, 0])
    assert frame.startswith(b"$7 R 500 0 255 0 0 0*") and frame.endswith(b"\n")
    assert ringproto.Decoder().feed(frame) == [(7, "R", ["500", "0", "255", "0", "0", "0"])]
    assert ringproto.crc8(b"123456789") == 0xF4  # the CRC-8/SMBUS check value


def test_encode_refuses_what_it_cannot_frame() -> None:
    for seq, kind, fields in [
        (256, "P", []),
        (0, "p", []),
        (0, "PP", []),
        (0, "E", ["a b"]),
        (0, "E", ["$"]),
        (0, "E", [""]),
        (0, "E", ["\x03"]),
        (0, "E", ["x" * 100]),
    ]:
        with pytest.raises(ValueError):
            ringproto.encode(seq, kind, fields)


def test_decoder_skips_garbage_and_cut_frames() -> None:
    good = ringproto.encode(1, "P")
    other = ringproto.encode(2, "B", [1, 440])
    bad_crc = bytearray(ringproto.encode(3, "P"))
    bad_crc[-3] = ord("0") if bad_crc[-3] != ord("0") else ord("1")
    stream = (
        b"MicroPython v1.23 REPL noise\r\n\x03\x00\xff"
        + good[:5]  # a frame cut short: the next "$" starts afresh
        + other
        + bytes(bad_crc)
        + b"$"
        + (b"9" * 200)
        + b"\n"  # too long
        + b"$1 P*ZZ\n"  # not hex
        + good.replace(b"\n", b"\r\n")  # CRLF is fine
    )
    decoder = ringproto.Decoder()
    assert decoder.feed(stream) == [(2, "B", ["1", "440"]), (1, "P", [])]
    assert decoder.errors == 4


def test_decoder_reassembles_frames_split_anywhere() -> None:
    stream = ringproto.encode(4, "E", ["P", 1, 123456]) + ringproto.encode(5, "K", [1, 2, 3, 4, 0])
    for cut in range(len(stream) + 1):
        decoder = ringproto.Decoder()
        got = decoder.feed(stream[:cut]) + decoder.feed(stream[cut:])
        assert [seq for seq, _, _ in got] == [4, 5]


def test_sequence_gaps() -> None:
    assert ringproto.seq_lost(None, 17) == 0
    assert ringproto.seq_lost(16, 17) == 0
    assert ringproto.seq_lost(16, 19) == 2
    assert ringproto.seq_lost(255, 0) == 0
    assert ringproto.seq_lost(254, 1) == 2
    assert ringproto.ints(["12", "-3", "x"], 2) == [12, -3]
    assert ringproto.ints(["12", "x"], 2) is None
    assert ringproto.ints(["12"], 2) is None
    assert ringproto.ints(["-"], 1) is None


TOKEN = st.text(
    alphabet="abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-_",
    min_size=1,
    max_size=6,
)
FRAMES = st.tuples(
    st.integers(0, 255),
    st.sampled_from("ABCDEFGHIJKLMNOPQRSTUVWXYZ"),
    st.lists(st.one_of(TOKEN, st.integers(-(10**6), 10**9)), max_size=6),
)


@given(frames=st.lists(FRAMES, min_size=1, max_size=8), garbage=st.lists(st.binary(max_size=30)))
@settings(max_examples=200, deadline=None)
def test_frames_survive_garbage_between_them(
    frames: list[tuple[int, str, list[object]]], garbage: list[bytes]
) -> None:
    stream = b""
    for i, (seq, kind, fields) in enumerate(frames):
        encoded = ringproto.encode(seq, kind, fields)
        assert 3 not in encoded
        assert all(32 <= b < 127 for b in encoded[:-1]) and encoded.endswith(b"\n")
        stream += (garbage[i] if i < len(garbage) else b"") + encoded
    got = ringproto.Decoder().feed(stream)
    assert got == [(seq, kind, [str(f) for f in fields]) for seq, kind, fields in frames]


@given(st.binary(max_size=400))
@settings(max_examples=200, deadline=None)
def test_decoder_never_raises_on_noise(noise: bytes) -> None:
    for seq, kind, fields in ringproto.Decoder().feed(noise):
        assert 0 <= seq <= 255 and "A" <= kind <= "Z" and all(fields)


# --- buttons --------------------------------------------------------------------------


def test_debounce_reports_the_first_change_and_ignores_bounces(fw: Any) -> None:
    dev = Device(fw)
    dev.host("P")
    dev.sent()
    t0 = dev.now
    dev.set_button(0, True)
    dev.advance(1)
    for _ in range(3):  # contact bounce within the debounce window
        dev.set_button(0, False)
        dev.advance(2)
        dev.set_button(0, True)
        dev.advance(2)
    dev.advance(50)
    dev.set_button(0, False)
    dev.advance(1)
    dev.set_button(0, True)  # bounce on release
    dev.advance(3)
    dev.set_button(0, False)
    dev.advance(50)
    edges = [(k, f) for _, k, f in dev.sent() if k == "E"]
    assert edges == [
        ("E", ["P", "1", str(t0 + 1)]),
        ("E", ["P", "0", str(t0 + 1 + 12 + 50 + 1)]),
    ]


def test_a_change_inside_the_window_is_reported_when_it_ends(fw: Any) -> None:
    dev = Device(fw)
    dev.host("P")
    dev.sent()
    dev.set_button(1, True)
    dev.advance(5)
    dev.set_button(1, False)  # a real release 4 ms after the press
    dev.advance(40)
    edges = [f[:2] for _, k, f in dev.sent() if k == "E"]
    assert edges == [["J", "1"], ["J", "0"]]


def test_no_writes_without_a_host(fw: Any) -> None:
    dev = Device(fw)
    dev.set_button(0, True)
    dev.advance(100)
    dev.set_button(0, False)
    dev.advance(3000, step=5)
    assert dev.out == b""
    assert dev.firmware.buttons_mask() == 0


# --- the host's frames ----------------------------------------------------------------


def test_first_host_frame_gets_hello_and_heartbeat(fw: Any) -> None:
    dev = Device(fw)
    dev.host("P")
    frames = dev.sent()
    assert [k for _, k, _ in frames] == ["H", "K"]
    assert frames[0][2] == ["1", fw.FIRMWARE_VERSION, "24", "PJC"]
    assert [s for s, _, _ in frames] == [0, 1]
    dev.advance(1100)
    beats = [f for _, k, f in dev.sent() if k == "K"]
    assert len(beats) == 2  # every HEARTBEAT_MS while the host is there


def test_ring_frame_lights_a_fraction_in_its_colour(fw: Any) -> None:
    dev = Device(fw)
    dev.host("R", 500, 0, 255, 0, 0, 0)
    full = fw.scale(255, fw.BRIGHTNESS)
    assert dev.pixels() == [(0, full, 0)] * 12 + [(0, 0, 0)] * 12
    words, _ = dev.sm.writes[-1]
    assert words[0] == full << 16  # GRB order for the WS2812
    assert dev.sm.running and dev.sm.freq == 8_000_000
    assert dev.sm.pin.number == fw.RING_PIN


def test_the_edge_led_glows_in_proportion(fw: Any) -> None:
    dev = Device(fw)
    dev.host("R", 1000 * 25 // 48, 255, 0, 0, 0, 0)  # 12.5 LEDs
    pixels = dev.pixels()
    full = fw.scale(255, fw.BRIGHTNESS)
    assert pixels[:12] == [(full, 0, 0)] * 12
    assert 0 < pixels[12][0] < full and pixels[12][1:] == (0, 0)
    assert pixels[13:] == [(0, 0, 0)] * 11
    dev.host("R", 1, 255, 0, 0, 0, 0)  # a sliver of time left still shows
    assert dev.pixels()[0][0] >= 1


def test_the_ring_blinks_by_itself_between_frames(fw: Any) -> None:
    dev = Device(fw)
    dev.host("R", 1000, 0, 0, 255, ringproto.BLINK_FAST, 200)  # 200 ms into a 500 ms period
    lit = dev.pixels()
    assert lit[0] != (0, 0, 0)
    dev.advance(60)  # 260 ms into the period: second half, dark
    assert dev.pixels() == [(0, 0, 0)] * 24
    dev.advance(250)  # 510: first half again
    assert dev.pixels() == lit
    assert ringproto.BLINK_PERIODS[ringproto.BLINK_FAST] == 500


def test_the_ring_is_redrawn_only_when_it_changes(fw: Any) -> None:
    dev = Device(fw)
    dev.host("R", 1000, 0, 255, 0, 0, 0)
    writes = len(dev.sm.writes)
    dev.advance(400)
    dev.host("P")
    dev.advance(400)
    assert len(dev.sm.writes) == writes


def test_buzzer_tone_steady_and_off(fw: Any) -> None:
    dev = Device(fw)
    assert dev.pwm.duty == 0
    dev.host("B", 1, 2000)
    assert (dev.pwm.hz, dev.pwm.duty) == (2000, fw.BUZZER_DUTY)
    dev.host("B", 1, 0)
    assert dev.pwm.duty == 65535  # an active buzzer: steady on
    dev.host("B", 0, 0)
    assert dev.pwm.duty == 0
    assert dev.pwm.pin.number == fw.BUZZER_PIN


def test_heartbeat_reports_buttons_applied_frames_and_errors(fw: Any) -> None:
    dev = Device(fw)
    dev.host("P")
    ring_seq = dev.host("R", 300, 255, 0, 0, 0, 0)
    buzz_seq = dev.host("B", 1, 880)
    dev.firmware.receive(b"$garbage*00\n", dev.now)
    dev.host("R", 2000, 0, 0, 0, 0, 0)  # level out of range: refused, counted
    dev.host_seq += 2  # two host frames lost on the way
    dev.set_button(1, True)
    dev.advance(5)
    dev.sent()
    dev.host("P")
    (beat,) = [f for _, k, f in dev.sent() if k == "K"]
    assert beat[1:] == ["2", str(ring_seq), str(buzz_seq), str(2 + 2)]
    assert dev.pixels()[2] != (0, 0, 0)  # the refused frame changed nothing


def test_echoed_device_frames_are_ignored(fw: Any) -> None:
    dev = Device(fw)
    dev.host("K", 1, 0, 0, 0, 0)  # a device kind coming back: not a host frame
    dev.host("H", 1, "1.0.0", 24, "PJC")
    assert dev.out == b""
    assert not dev.firmware.host_alive


def test_no_host_pattern_and_silence(fw: Any) -> None:
    dev = Device(fw)
    first = dev.pixels()
    assert 0 < sum(1 for p in first if p != (0, 0, 0)) <= 3
    dev.advance(fw.NO_HOST_PERIOD_MS // 2, step=10)
    assert dev.pixels() != first  # it circles
    dev.host("R", 1000, 0, 255, 0, 0, 0)
    dev.host("B", 1, 1000)
    assert dev.pixels()[23] != (0, 0, 0)
    dev.advance(fw.HOST_TIMEOUT_MS - 10, step=10)
    assert dev.firmware.host_alive and dev.pwm.duty != 0
    dev.advance(30, step=10)
    assert not dev.firmware.host_alive
    assert dev.pwm.duty == 0  # never left beeping
    silent = dev.pixels()
    assert 0 < sum(1 for p in silent if p != (0, 0, 0)) <= 3
    dev.sent()
    dev.advance(1000, step=10)
    assert dev.out == b""  # nothing written while nobody reads
    dev.host("P")
    assert [k for _, k, _ in dev.sent()] == ["H", "K"]  # back: hello again


def test_ticks_wrap_around(fw: Any) -> None:
    assert fw.ticks_diff(5, fw.TICKS_PERIOD - 5) == 10
    assert fw.ticks_diff(fw.TICKS_PERIOD - 5, 5) == -10
    dev = Device(fw, now=fw.TICKS_PERIOD - 300)
    dev.host("R", 1000, 0, 255, 0, 0, 0)
    dev.advance(600, step=10)  # across the wrap: the host is still alive
    assert dev.firmware.host_alive
    assert dev.pixels()[0] != (0, 0, 0) and dev.pixels()[5] != (0, 0, 0)


OPS = st.lists(
    st.one_of(
        st.tuples(st.just("button"), st.integers(0, 2), st.booleans()),
        st.tuples(st.just("wait"), st.integers(1, 700)),
        st.tuples(st.just("bytes"), st.binary(max_size=40)),
        st.tuples(st.just("frame"), FRAMES),
    ),
    max_size=40,
)


@given(ops=OPS)
@settings(max_examples=150, deadline=None)
def test_the_firmware_never_sends_0x03_or_a_bad_frame(ops: list[tuple[Any, ...]]) -> None:
    with pytest.MonkeyPatch.context() as mp:
        for name, module in fake_modules().items():
            mp.setitem(sys.modules, name, module)
        FakePin.pins = {}
        spec = importlib.util.spec_from_file_location("ring_firmware_prop", FIRMWARE / "main.py")
        assert spec is not None and spec.loader is not None
        fw = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(fw)
        dev = Device(fw)
        dev.host("P")
        for op in ops:
            if op[0] == "button":
                dev.set_button(op[1], op[2])
                dev.advance(1)
            elif op[0] == "wait":
                dev.advance(op[1], step=7)
            elif op[0] == "bytes":
                dev.firmware.receive(op[1], dev.now)
            else:
                seq, kind, fields = op[1]
                dev.firmware.receive(ringproto.encode(seq, kind, fields), dev.now)
            assert all(0 <= c <= 255 for p in dev.pixels() for c in p)
        assert 3 not in dev.out
        decoder = ringproto.Decoder()
        decoder.feed(bytes(dev.out))
        assert decoder.errors == 0


# --- the loop and the boot ------------------------------------------------------------


class FakeStdin:
    def __init__(self, data: bytes = b"") -> None:
        self.data = bytearray(data)

    def read(self, n: int) -> bytes:
        out = bytes(self.data[:n])
        del self.data[:n]
        return out


class FakePoller:
    def __init__(self, stdin: FakeStdin) -> None:
        self.stdin = stdin
        self.waits: list[int] = []

    def register(self, stream: Any, mask: int) -> None:
        self.registered = (stream, mask)

    def poll(self, timeout: int) -> list[tuple[Any, int]]:
        self.waits.append(timeout)
        return [(self.stdin, 1)] if self.stdin.data else []


def test_read_available_takes_what_is_there_up_to_a_limit(fw: Any) -> None:
    stdin = FakeStdin(b"x" * 500)
    poller = FakePoller(stdin)
    assert fw.read_available(poller, stdin) == b"x" * fw.READ_LIMIT
    assert fw.read_available(poller, stdin, limit=1000) == b"x" * (500 - fw.READ_LIMIT)
    assert fw.read_available(poller, stdin) == b""


def test_run_loop_reads_steps_and_feeds_the_watchdog(fw: Any) -> None:
    ticks = iter(range(5000, 6000, 10))
    stdin = FakeStdin(ringproto.encode(0, "R", [1000, 255, 0, 0, 0, 0]) + b"junk")
    out = bytearray()
    board = fw.Board()
    firmware = fw.Firmware(board, out.extend, 5000)
    watchdog = FakeWDT(timeout=fw.WATCHDOG_MS)
    fw.run(firmware, FakePoller(stdin), stdin, watchdog, lambda: next(ticks), loops=20)
    assert watchdog.feeds == 20
    assert firmware.ring[:4] == (1000, 255, 0, 0)
    assert [k for _, k, _ in ringproto.Decoder().feed(bytes(out))][:1] == ["H"]


def boot(fw: Any, monkeypatch: pytest.MonkeyPatch, loops: int) -> list[str]:
    """Run fw.main() with fake time, stdio and select; the watchdog stops it."""
    calls: list[str] = []
    stdin = FakeStdin(ringproto.encode(0, "P"))
    stdout = types.SimpleNamespace(write=lambda b: calls.append(f"write {b[3:4].decode()}"))
    ticks = iter(range(0, 10**6, 5))

    def sleep_ms(ms: int) -> None:
        calls.append(f"sleep {ms}")

    fake_time = types.SimpleNamespace(sleep_ms=sleep_ms, ticks_ms=lambda: next(ticks))
    fake_sys = types.SimpleNamespace(
        stdin=types.SimpleNamespace(buffer=stdin), stdout=types.SimpleNamespace(buffer=stdout)
    )
    fake_select = types.SimpleNamespace(POLLIN=1, poll=lambda: FakePoller(stdin))
    monkeypatch.setattr(fw, "time", fake_time)
    monkeypatch.setattr(fw, "sys", fake_sys)
    monkeypatch.setattr(fw, "select", fake_select)
    kbd = sys.modules["micropython"].kbd_intr_calls  # type: ignore[attr-defined]

    class LoopStoppedError(Exception):
        pass

    class CountingWDT(FakeWDT):
        def __init__(self, timeout: int) -> None:
            super().__init__(timeout)
            calls.append(f"wdt {timeout} after kbd_intr {kbd}")

        def feed(self) -> None:
            super().feed()
            if self.feeds >= loops:
                raise LoopStoppedError

    monkeypatch.setattr(sys.modules["machine"], "WDT", CountingWDT)
    try:
        fw.main()
    except LoopStoppedError:
        calls.append("stopped by test")
    return calls


def test_boot_window_then_ctrl_c_off_then_watchdog(
    fw: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls = boot(fw, monkeypatch, loops=5)
    assert calls[0] == f"sleep {fw.BOOT_WINDOW_MS}"
    assert calls[1] == f"wdt {fw.WATCHDOG_MS} after kbd_intr [-1]"
    assert "write H" in calls and calls[-1] == "stopped by test"
    assert FakeStateMachine.last is not None and FakeStateMachine.last.writes  # no-host ring


def test_judge_held_at_power_up_leaves_the_repl_alone(
    fw: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    FakePin(fw.BUTTON_PINS[1]).level = 0
    calls = boot(fw, monkeypatch, loops=5)
    assert calls == []  # no sleep, no kbd_intr(-1), no watchdog, no loop
    assert sys.modules["micropython"].kbd_intr_calls == []  # type: ignore[attr-defined]
