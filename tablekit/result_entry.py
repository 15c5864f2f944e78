"""Entering a game's result at the table with a numeric keypad (pure state machine).

After a game the unit walks the seats in order A, B, C(, D). Each seat is one step: the
sum of the tiles left, ``+`` once per joker left, ENTER. It then shows the whole table's
small and big points, and every seated player confirms in turn. The shell feeds abstract
:class:`Key` presses and draws :attr:`ResultEntry.view`; nothing here raises for anything
a player or judge types — problems become :attr:`EntryView.message` and the flow stays
where the problem is.

Keys (a plain USB numpad)::

    0-9        type the sum of the tiles left (jokers not counted; 0 = empty rack)
    +          one more joker left on this rack (at most 2 on a table); refused at once
               on an empty rack ("0"): a rack holding only jokers is ``+`` without a 0
    ENTER      accept what is typed (tiles and jokers) and go on to the next seat; with
               nothing typed, keep the values already entered for the seat (a total above
               the entry's bound, ``ask_above``, is asked once more: ENTER again takes it)
    BACKSPACE  delete the last joker, else the last digit; with nothing typed, go back
               (after a value was refused it is shown selected: a digit replaces it,
               BACKSPACE clears it)
    -          go back one seat (from the score screen back to the last seat)
    .          clear what is typed
    * or /     toggle "never opened" for the seat being entered (scores the flat
               not-opened penalty; tiles and jokers are still entered, they are checked)

A typical loser is "23 ENTER", one holding a joker "23 + ENTER", the winner "0 ENTER": a
whole 4-player table is "0 ENTER 23 ENTER 12 ENTER 45 ENTER". After a seat the flow moves
on to the next seat still missing values, or to the score screen once every seat has them
(so a correction is quick).

Score screen (``CONFIRM``): the prompt names the next seat to confirm; that player
presses ENTER. A digit 1–4 jumps to correct seat A–D (1 = A), ``-`` goes back to the
last seat. Any change to a value, opening or ending clears every confirmation given so
far, so the whole table confirms what is finally submitted. Going back without changing
anything keeps them.

The judge's inputs come from the shell as method calls: :meth:`judge_set_opening` (the
could-have-opened 200 or its waiver), :meth:`judge_set_ending` and
:meth:`judge_override` (accept the shown score on behalf of the players). Once
``READY`` the shell submits :attr:`report`, then reports the hub's answer with
:meth:`mark_submitted`, :meth:`mark_accepted` or :meth:`mark_rejected`; a rejected result
can be corrected (``-`` or a seat digit), or re-confirmed unchanged with ENTER, and
submitted again — unless the hub's refusal is final (the game's result is already at the
hub, say): sending again cannot change that, so the flow is over and a judge corrects the
result at the hub.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from typing import Final

import msgspec

from tablekit.core.errors import KitError
from tablekit.core.rulesets import Ruleset
from tablekit.core.scoring import (
    JOKERS_PER_TABLE,
    GameEnding,
    GameNumberError,
    GameReport,
    GameScore,
    Opening,
    RackReport,
    ScoreError,
    SeatError,
    score_game,
    validate_rack,
    validate_racks,
)
from tablekit.core.seats import Seat, SeatCountError, seats_for
from tablekit.core.words import N_
from tablekit.notes import NOTHING, Note


class Key(enum.StrEnum):
    """An abstract key from the numeric keypad."""

    D0 = "0"
    D1 = "1"
    D2 = "2"
    D3 = "3"
    D4 = "4"
    D5 = "5"
    D6 = "6"
    D7 = "7"
    D8 = "8"
    D9 = "9"
    ENTER = "ENTER"
    BACKSPACE = "BACKSPACE"
    PLUS = "+"
    MINUS = "-"
    STAR = "*"
    SLASH = "/"
    DOT = "."


class Step(enum.StrEnum):
    """Where the flow is."""

    TILES = "tiles"  # typing a seat's rack: tile value and jokers
    JOKERS = "jokers"
    """A separate joker step, in an entry saved by an earlier unit: resumed at ``TILES``."""
    CONFIRM = "confirm"  # score shown, seats confirming in turn
    READY = "ready"  # everyone confirmed (or judge override): report ready to submit
    SUBMITTED = "submitted"  # sent, waiting for the hub
    ACCEPTED = "accepted"  # the hub accepted it; the flow is over
    REJECTED = "rejected"  # the hub rejected it; correct and submit again


MAX_TILE_DIGITS: Final = 3  # 728 is the most a rack can hold
ASK_ABOVE: Final = 150
"""A rack total typed above this is asked once more by default (``[unit] ask_rack_above``):
far more often a slip (350 for 35) than a rack; the scoring's maximum stays the limit."""
_TOGGLE_OPENING: Final = {Opening.OPENED: Opening.NOT_OPENED, Opening.NOT_OPENED: Opening.OPENED}


class RackEntry(msgspec.Struct, frozen=True):
    """A seat's values so far; ``None`` means not entered yet."""

    seat: Seat
    tiles: int | None = None
    jokers: int | None = None
    opening: Opening = Opening.OPENED

    @property
    def complete(self) -> bool:
        return self.tiles is not None and self.jokers is not None

    def to_report(self) -> RackReport:
        return RackReport(
            seat=self.seat, tiles=self.tiles or 0, jokers=self.jokers or 0, opening=self.opening
        )


class EntryView(msgspec.Struct, frozen=True):
    """Everything a display needs to draw the flow at one moment.

    ``seat`` is the seat being entered (``TILES``) or the next one to confirm
    (``CONFIRM``), else ``None``; ``buffer`` and ``jokers_typed`` what is typed for it.
    ``score`` is set from ``CONFIRM`` on (small points winner plus, as everywhere).
    """

    game: int
    ending: GameEnding
    ruleset: Ruleset
    step: Step
    seat: Seat | None
    buffer: str
    racks: tuple[RackEntry, ...]
    confirmed: tuple[Seat, ...]
    judge_override: bool
    message: str
    score: GameScore | None
    rejection: str
    jokers_typed: int = 0
    """Jokers typed with ``+`` for the seat being entered (ENTER takes them with the tiles)."""
    said: Note = NOTHING
    """What the flow tells the table (a value refused, a key that does nothing here), said
    on the display in the reader's language; ``message`` is the same in English (an entry
    journaled by an older unit has only that)."""
    why: Note = NOTHING
    """Why the hub refused the result, said in the reader's language; ``rejection`` is the
    same in English (what an older hub sends, and an older unit journaled, alone)."""
    asked: int | None = None
    """A rack total above the entry's bound asked once more ("350 — sure?"): ENTER takes
    it (None: nothing asked)."""
    selected: bool = False
    """What is typed for the seat was refused: it is shown selected, and the next digit
    replaces it instead of adding to it."""
    final: bool = False
    """The hub's refusal cannot change by sending again (the game's result is at the hub
    already, another round, a game the round does not have): nothing more is typed or
    sent; a judge corrects at the hub and the table plays on."""

    @property
    def closed(self) -> bool:
        """The result is with the hub: sent, accepted, or refused for good."""
        return self.step in (Step.SUBMITTED, Step.ACCEPTED) or self.final


class EntryStateError(KitError, RuntimeError):
    """The shell reported a hub answer that does not fit the flow's step."""


class ResultEntry:
    """The result-entry flow of one game at one table."""

    def __init__(
        self,
        game: int,
        seats: Sequence[Seat],
        ruleset: Ruleset,
        ending: GameEnding,
        *,
        ask_above: int = 0,
    ) -> None:
        """``ask_above``: a rack total above it is asked once more before it is taken
        (0: never; the scoring's maximum stays the limit)."""
        if isinstance(game, bool) or not isinstance(game, int) or game < 1:
            raise GameNumberError(
                N_("game must be an integer of at least 1, got {got!r}"), field="game", got=game
            )
        try:
            expected = seats_for(len(seats))
        except SeatCountError as exc:
            raise SeatError(exc.template, seats=seats, field="seats", **exc.values) from None
        if tuple(seats) != expected:
            raise SeatError(
                N_("seats must be {expected} in order, got {got}"),
                seats=seats, field="seats", expected=", ".join(expected), got=", ".join(seats),
            )
        self._game = game
        self._seats = expected
        self._ruleset = ruleset
        self._ending = GameEnding(ending)
        self._racks = {seat: RackEntry(seat) for seat in expected}
        self._step = Step.TILES
        self._index = 0
        self._buffer = ""
        self._jokers_typed = 0
        self._selected = False
        self._ask_above = ask_above
        self._asked: int | None = None
        self._said = NOTHING
        self._confirmed: list[Seat] = []
        self._override = False
        self._score: GameScore | None = None
        self._rejection = ""
        self._why = NOTHING
        self._final = False

    @classmethod
    def resume(cls, view: EntryView, *, ask_above: int = 0) -> ResultEntry:
        """The flow exactly where ``view`` shows it (a unit restarting mid-entry)."""
        seats = tuple(rack.seat for rack in view.racks)
        flow = cls(view.game, seats, view.ruleset, view.ending, ask_above=ask_above)
        flow._asked = view.asked
        flow._racks = {rack.seat: rack for rack in view.racks}
        entering = view.step in (Step.TILES, Step.JOKERS) and view.seat is not None
        flow._step = Step.TILES if view.step is Step.JOKERS else view.step
        flow._index = seats.index(view.seat) if entering and view.seat is not None else 0
        flow._buffer = "" if view.step is Step.JOKERS else view.buffer
        flow._jokers_typed = view.jokers_typed
        flow._selected = view.selected and view.step is Step.TILES
        flow._said = view.said or (Note(view.message) if view.message else NOTHING)
        flow._confirmed = list(view.confirmed)
        flow._override = view.judge_override
        flow._score = view.score
        flow._rejection = view.rejection
        flow._why = view.why
        flow._final = view.final
        return flow

    # --- what the shell reads --------------------------------------------------------

    @property
    def view(self) -> EntryView:
        if self._step is Step.TILES:
            seat: Seat | None = self._seats[self._index]
        elif self._step == Step.CONFIRM:
            seat = next(s for s in self._seats if s not in self._confirmed)
        else:
            seat = None
        return EntryView(
            game=self._game,
            ending=self._ending,
            ruleset=self._ruleset,
            step=self._step,
            seat=seat,
            buffer=self._buffer,
            racks=tuple(self._racks.values()),
            confirmed=tuple(self._confirmed),
            judge_override=self._override,
            message=str(self._said),
            score=self._score,
            rejection=self._rejection,
            jokers_typed=self._jokers_typed,
            asked=self._asked,
            selected=self._selected,
            said=self._said,
            why=self._why,
            final=self._final,
        )

    @property
    def report(self) -> GameReport | None:
        """The confirmed report, from ``READY`` on (``None`` before)."""
        if self._step in (Step.READY, Step.SUBMITTED, Step.ACCEPTED, Step.REJECTED):
            return self._build_report()
        return None

    # --- player keys -------------------------------------------------------------------

    def press(self, key: Key | str) -> EntryView:
        """Handle one key press; ``ValueError`` only for a string that is not a :class:`Key`."""
        key = Key(key)
        self._said = NOTHING
        if self._final:
            self._said = _WITH_THE_HUB
        elif self._step is Step.TILES:
            self._press_entry(key)
        elif self._step in (Step.CONFIRM, Step.READY, Step.REJECTED):
            self._press_review(key)
        elif self._step == Step.SUBMITTED:
            self._said = Note.of(N_("result sent; waiting for the hub"))
        else:
            self._said = Note.of(N_("result accepted by the hub"))
        return self.view

    def _press_entry(self, key: Key) -> None:
        seat = self._seats[self._index]
        selected, self._selected = self._selected, False
        asked, self._asked = self._asked, None
        if selected and (key.isdigit() or key == Key.BACKSPACE):
            self._buffer = ""  # what was refused is replaced, not added to
            self._jokers_typed = 0
            if key == Key.BACKSPACE:
                return
        if key.isdigit():
            typed = self._buffer + key.value
            if len(typed) > MAX_TILE_DIGITS:
                self._said = Note.of(
                    N_("seat {seat}: tiles: at most {n} digits"), seat=seat, n=MAX_TILE_DIGITS
                )
            elif self._jokers_typed and int(typed) == 0:
                self._said = _empty_rack_jokers(seat)
            else:
                self._buffer = typed
        elif key == Key.PLUS:
            self._add_joker(seat)
        elif key == Key.ENTER:
            self._enter_rack(seat, asked)
        elif key == Key.BACKSPACE and self._jokers_typed:
            self._jokers_typed -= 1
        elif key == Key.BACKSPACE and self._buffer:
            self._buffer = self._buffer[:-1]
        elif key in (Key.BACKSPACE, Key.MINUS):
            self._back()
        elif key == Key.DOT:
            self._buffer = ""
            self._jokers_typed = 0
        elif key in (Key.STAR, Key.SLASH):
            self._toggle_opening(seat)

    def _add_joker(self, seat: Seat) -> None:
        """``+``: one more joker on the rack being typed, refused at once when impossible."""
        if self._buffer and int(self._buffer) == 0:
            self._said = _empty_rack_jokers(seat)
            return
        if self._jokers_typed >= JOKERS_PER_TABLE:
            self._said = Note.of(
                N_("seat {seat}: jokers: a rack holds at most {n}"), seat=seat, n=JOKERS_PER_TABLE
            )
            return
        held = {
            e.seat: e.jokers
            for e in self._racks.values()
            if e.seat != seat and e.complete and e.jokers
        }
        if sum(held.values()) + self._jokers_typed + 1 > JOKERS_PER_TABLE:
            holders = ", ".join(f"{s} {n}" for s, n in held.items())
            self._said = Note.of(
                N_("seat {seat}: jokers: a table has only {n} jokers (already entered: {held})"),
                seat=seat,
                n=JOKERS_PER_TABLE,
                held=holders,
            )
            return
        self._jokers_typed += 1

    def _enter_rack(self, seat: Seat, asked: int | None = None) -> None:
        entry = self._racks[seat]
        if not self._buffer and not self._jokers_typed:
            if entry.tiles is None:
                self._said = Note.of(
                    N_(
                        "seat {seat}: type the value of the tiles left (0 if the rack is "
                        "empty), + for each joker, then ENTER"
                    ),
                    seat=seat,
                )
                return
            tiles, jokers = entry.tiles, entry.jokers or 0
        else:
            tiles, jokers = int(self._buffer or "0"), self._jokers_typed
        candidate = msgspec.structs.replace(entry, tiles=tiles, jokers=jokers)
        others = [e.to_report() for e in self._racks.values() if e.complete and e.seat != seat]
        try:
            validate_rack(candidate.to_report())
            validate_racks([*others, candidate.to_report()])
        except ScoreError as exc:
            self._said = Note.of_words(exc)
            self._selected = bool(self._buffer or self._jokers_typed)
            return
        if self._ask_above and tiles > self._ask_above and asked != tiles and self._buffer:
            # a typo (350 for 35) more likely than such a rack: asked once, ENTER takes it
            self._asked = tiles
            self._selected = True
            self._said = Note.of(
                N_("seat {seat}: {value} — sure? ENTER yes, or type the right value"),
                seat=seat, value=tiles,
            )
            return
        self._update(seat, tiles=tiles, jokers=jokers)
        if all(e.complete for e in self._racks.values()):
            self._finish()
        else:
            missing = next(i for i, s in enumerate(self._seats) if not self._racks[s].complete)
            self._go(Step.TILES, missing)

    def _back(self) -> None:
        if self._step is Step.TILES and self._index > 0:
            self._go(Step.TILES, self._index - 1)
        elif self._step is Step.TILES:
            self._said = Note.of(N_("this is the first seat; nothing to go back to"))
        else:  # from the score screen (or a rejected result) back into the values
            self._go(Step.TILES, len(self._seats) - 1)

    def _toggle_opening(self, seat: Seat) -> None:
        opening = self._racks[seat].opening
        if opening not in _TOGGLE_OPENING:
            self._said = Note.of(
                N_("seat {seat}: opening: {opening} is a judge decision; only the judge can "
                   "change it"),
                seat=seat,
                opening=Note.of(_JUDGED_OPENINGS.get(opening, opening.value)),
            )
            return
        self._update(seat, opening=_TOGGLE_OPENING[opening])

    def _press_review(self, key: Key) -> None:
        if key.isdigit():
            number = int(key.value)
            if 1 <= number <= len(self._seats):
                self.correct(self._seats[number - 1])
            else:
                self._said = Note.of(
                    N_("press 1–{n} to correct seat A–{last}"),
                    n=len(self._seats),
                    last=self._seats[-1],
                )
        elif key in (Key.MINUS, Key.BACKSPACE):
            self._back()
        elif key == Key.ENTER and self._step == Step.CONFIRM:
            seat = next(s for s in self._seats if s not in self._confirmed)
            self._confirmed.append(seat)
            if len(self._confirmed) == len(self._seats):
                self._step = Step.READY
        elif key == Key.ENTER and self._step == Step.REJECTED:
            self._finish()  # confirm the same values again to resubmit
        elif key == Key.ENTER:
            self._said = Note.of(N_("everyone has confirmed; the result is being sent"))
        else:
            self._said = Note.of(
                N_("to change a value press - or the seat's number 1–{n}"), n=len(self._seats)
            )

    def correct(self, seat: Seat) -> EntryView:
        """Jump to ``seat``'s tile value to correct it (a seat digit on the score screen)."""
        if self._step in (Step.SUBMITTED, Step.ACCEPTED) or self._final:
            self._said = _WITH_THE_HUB
        elif seat not in self._racks:
            self._said = Note.of(N_("seat {seat}: not at this table"), seat=seat)
        else:
            self._go(Step.TILES, self._seats.index(seat))
        return self.view

    # --- judge inputs ----------------------------------------------------------------

    def judge_set_opening(self, seat: Seat, opening: Opening) -> EntryView:
        """The judge's opening decision for ``seat`` (e.g. ``COULD_HAVE_OPENED``, ``WAIVED``)."""
        self._said = NOTHING
        if self._judge_locked():
            return self.view
        if seat not in self._racks:
            self._said = Note.of(N_("seat {seat}: not at this table"), seat=seat)
            return self.view
        self._update(seat, opening=Opening(opening))
        self._rescore()
        return self.view

    def judge_set_ending(self, ending: GameEnding) -> EntryView:
        """The judge corrects how the game ended."""
        self._said = NOTHING
        if self._judge_locked():
            return self.view
        ending = GameEnding(ending)
        if ending != self._ending:
            self._ending = ending
            self._values_changed()
        self._rescore()
        return self.view

    def judge_override(self) -> EntryView:
        """The judge accepts the shown score on behalf of the players."""
        self._said = NOTHING
        if self._judge_locked():
            return self.view
        if self._step is Step.TILES:
            if not all(e.complete for e in self._racks.values()):
                self._said = Note.of(N_("judge override: enter every seat's values first"))
                return self.view
            self._finish()
        if self._step in (Step.CONFIRM, Step.REJECTED, Step.READY) and self._score is not None:
            self._override = True
            self._step = Step.READY
        return self.view

    def _judge_locked(self) -> bool:
        if self._step in (Step.SUBMITTED, Step.ACCEPTED) or self._final:
            self._said = _WITH_THE_HUB
            return True
        return False

    # --- hub answers (reported by the shell) ---------------------------------------------

    def mark_submitted(self) -> EntryView:
        self._expect(Step.READY, "submitted")
        self._step = Step.SUBMITTED
        self._said = NOTHING
        return self.view

    def mark_accepted(self) -> EntryView:
        self._expect(Step.SUBMITTED, "accepted")
        self._step = Step.ACCEPTED
        self._said = NOTHING
        return self.view

    def mark_rejected(self, reason: str, why: Note = NOTHING, *, final: bool = False) -> EntryView:
        """The hub refused the result for ``reason`` (English; ``why`` the same as words
        to translate, when the hub sent them); the table must confirm again whatever it
        resends. A ``final`` refusal cannot change by sending again: the flow is over."""
        self._expect(Step.SUBMITTED, "rejected")
        self._step = Step.REJECTED
        self._rejection = reason
        self._why = why
        self._final = final
        self._said = Note.of(N_("rejected by the hub: {reason}"), reason=why or reason)
        self._confirmed.clear()
        self._override = False
        return self.view

    def _expect(self, step: Step, what: str) -> None:
        if self._step != step:
            raise EntryStateError(
                N_("result can be marked {what} only when {step}, not {now}"),
                what=what,
                step=step.value,
                now=self._step.value,
            )

    # --- internals ------------------------------------------------------------------

    def _go(self, step: Step, index: int) -> None:
        self._step = step
        self._index = index
        self._buffer = ""
        self._jokers_typed = 0
        self._selected = False
        self._rejection = ""
        self._why = NOTHING

    def _update(self, seat: Seat, **changes: object) -> None:
        old = self._racks[seat]
        new = msgspec.structs.replace(old, **changes)
        if new != old:
            self._racks[seat] = new
            self._values_changed()

    def _values_changed(self) -> None:
        self._confirmed.clear()
        self._override = False
        self._score = None

    def _rescore(self) -> None:
        """After a judge change, score again (or show the problem) once every seat's values
        are in: on the score screen, or where an earlier problem sent the players back."""
        complete = all(e.complete for e in self._racks.values())
        if self._step in (Step.CONFIRM, Step.READY, Step.REJECTED) or complete:
            self._finish()

    def _build_report(self) -> GameReport:
        return GameReport(
            game=self._game,
            ending=self._ending,
            racks=tuple(e.to_report() for e in self._racks.values()),
        )

    def _finish(self) -> None:
        """Score the complete table and show it, or stay at the offending step."""
        try:
            self._score = score_game(self._build_report(), self._ruleset)
        except ScoreError as exc:
            self._score = None
            self._said = Note.of_words(exc)
            entering = self._step is Step.TILES
            if entering and self._seats[self._index] in exc.seats:
                self._selected = bool(self._buffer or self._jokers_typed)
                return  # the problem is at the seat the players are on: stay
            if exc.seats:
                self._go(Step.TILES, self._seats.index(exc.seats[0]))
            elif not entering:
                self._go(Step.TILES, len(self._seats) - 1)
            return
        self._rejection = ""
        self._why = NOTHING
        done = self._override or len(self._confirmed) == len(self._seats)
        self._step = Step.READY if done else Step.CONFIRM


def _empty_rack_jokers(seat: Seat) -> Note:
    return Note.of(N_("seat {seat}: only jokers left? Do not type 0, just press +"), seat=seat)


_JUDGED_OPENINGS: Final = {
    Opening.COULD_HAVE_OPENED: N_("could have opened"),
    Opening.WAIVED: N_("opening announced"),
}
"""The openings only the judge sets, as a refusal names them."""
_WITH_THE_HUB: Final = Note.of(N_("the result is with the hub; the judge corrects it there"))
