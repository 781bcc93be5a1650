"""A game's progress, and the one function by which anything happens to it.

:class:`Progress` is a game's position with what the rules do not track: a pending
draw offer, the record of moves in the game's notation, and in a series of games (a
backgammon match) the series and its finished games. :func:`apply` applies one event
of the game's log to it, checked against the rules; live play and the replay of a
stored log go through it alike, so a restarted server rebuilds each game exactly.
:func:`throw_dice` throws the server's dice whenever the position waits on them.

Nothing here knows HTTP: the rules refuse with their own errors
(:mod:`parlour.core.errors`), and what only a server refuses (a move out of turn, an
answer to no offer) is a :class:`~parlour.server.errors.Refusal` of its kind.

>>> from parlour.core.registry import get_face
>>> series = get_face("checkers").series({})
>>> progress = Progress(series.first(), series)
>>> apply(progress, EventRow(1, "move", "11-15", 0))
>>> progress.version, progress.record[-1]["text"], progress.state.turn
(1, '11-15', <Side.SECOND: 1>)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from parlour.analysis.coach import opening_of
from parlour.core.dice import Dice
from parlour.core.errors import IllegalMoveError
from parlour.core.face import Series
from parlour.core.protocol import CHANCE, Side, State
from parlour.server.clocks import Clock
from parlour.server.errors import BadRequest, Conflict, Forbidden
from parlour.server.storage import EventRow

#: What a seat may ask for, by the name clients use, and the event kind it records.
ACTIONS: dict[str, str] = {
    "move": "move",
    "resign": "resign",
    "offer-draw": "draw-offer",
    "accept-draw": "draw-accept",
    "decline-draw": "draw-decline",
    "claim-draw": "claim",
    "next-game": "next-game",
}

#: The event that records a rematch offered after a game between friends: its
#: payload is the new game's id.
REMATCH = "rematch"

#: The event the server records when the side on turn has run out of time (its seat
#: is the side's).
TIME = "time"


@dataclass(slots=True)
class Progress:
    """A game's position with what the rules do not track: a pending draw offer, the
    record of moves in the game's notation, and, in a series of games (a backgammon
    match), the series and its finished games."""

    state: State[Any]
    series: Series
    version: int = 0
    draw_offer: Side | None = None
    record: list[dict[str, Any]] = field(default_factory=list)
    #: The series' games before this one, each over (never changed again).
    finished: tuple[State[Any], ...] = ()
    #: The rematch offered once the game (or match) is over: the new game's id.
    rematch: str | None = None
    #: Both sides' time, in a game with a clock (see :mod:`parlour.server.clocks`).
    clock: Clock | None = None

    def copy(self) -> Progress:
        return Progress(
            self.state.copy(),
            self.series,
            self.version,
            self.draw_offer,
            list(self.record),
            self.finished,
            self.rematch,
            None if self.clock is None else self.clock.copy(),
        )

    @property
    def on_clock(self) -> Side | None:
        """The side whose time runs now: the side to act, in a game going on."""
        turn = self.state.turn
        return turn if isinstance(turn, Side) and not self.state.is_over() else None

    @property
    def series_over(self) -> bool:
        """Whether the game is over with no next game of its series to play."""
        return self.state.is_over() and self.next_game() is None

    def next_game(self) -> State[Any] | None:
        """The game that follows this one in the series, when this one is over and
        the series goes on; None otherwise."""
        if not self.state.is_over():
            return None
        return self.series.next((*self.finished, self.state))


def apply(progress: Progress, event: EventRow, move: Any = None) -> None:
    """Apply one event to ``progress``, checking it against the rules; raises the
    rules' IllegalMoveError or NotationError, or a Refusal, and may leave
    ``progress`` half changed, so callers apply to a copy. ``move`` is the parsed move
    of a move or throw event when the caller has it already."""
    applier = _APPLIERS.get(event.kind)
    if applier is None:
        raise ValueError(f"unknown event kind {event.kind!r}")
    seat = None if event.seat is None else Side(event.seat)
    on_clock = progress.on_clock
    applier(progress, event, seat, move)
    progress.version = event.version
    clock = progress.clock
    if clock is not None:  # the side that was to act is charged for the time until now
        if event.kind == "move" and seat is not None and seat is on_clock:
            clock.moved(seat, event.time)
        else:
            clock.charge(on_clock, event.time)


def _apply_move(progress: Progress, event: EventRow, seat: Side | None, move: Any) -> None:
    """A player's move, or the server's throw of the dice."""
    state = progress.state
    if state.is_over():
        raise IllegalMoveError("the game is over", rule="game-over")
    if event.kind == "throw" and state.turn is not CHANCE:
        raise IllegalMoveError("the dice are not to be thrown now", rule="not-chance")
    if event.kind == "move" and state.turn is not seat:
        raise Forbidden("not-your-turn", "it is not your turn")
    if move is None:
        move = state.parse_move(event.payload)
    state.push(move)
    progress.record.append({"version": event.version, "side": event.seat, "text": event.payload})
    if event.kind == "move" and progress.draw_offer not in (None, seat):
        progress.draw_offer = None  # moving instead of answering declines the offer


def _apply_resign(progress: Progress, event: EventRow, seat: Side | None, move: Any) -> None:
    progress.state.resign(_seat(seat))
    progress.draw_offer = None


def _apply_draw_offer(progress: Progress, event: EventRow, seat: Side | None, move: Any) -> None:
    state = progress.state
    if state.is_over():
        raise IllegalMoveError("the game is over", rule="game-over")
    if not state.game.has_draws:
        raise IllegalMoveError(f"{state.game.title} has no draws", rule="no-draws")
    if progress.draw_offer is not None:
        raise Conflict("draw-offered", "a draw offer is already pending")
    progress.draw_offer = _seat(seat)


def _apply_draw_answer(progress: Progress, event: EventRow, seat: Side | None, move: Any) -> None:
    """The answer to the opponent's draw offer: accepted, or declined."""
    if progress.draw_offer is None or progress.draw_offer is _seat(seat):
        raise Conflict("no-draw-offer", "there is no draw offer from your opponent")
    if event.kind == "draw-accept":
        progress.state.agree_draw()
    progress.draw_offer = None


def _apply_claim(progress: Progress, event: EventRow, seat: Side | None, move: Any) -> None:
    progress.state.claim_draw()
    progress.draw_offer = None


def _apply_next_game(progress: Progress, event: EventRow, seat: Side | None, move: Any) -> None:
    """The next game of the series (a backgammon match) begins."""
    state = progress.state
    if not state.is_over():
        raise IllegalMoveError("this game is not over yet", rule="game-not-over")
    following = progress.next_game()
    if following is None:
        lone = progress.series.summary(()) is None
        why = "this game is not part of a match" if lone else "the match is over"
        raise IllegalMoveError(why, rule="no-next-game")
    progress.finished = (*progress.finished, state)
    progress.state = following
    progress.record = []
    progress.draw_offer = None


def _apply_rematch(progress: Progress, event: EventRow, seat: Side | None, move: Any) -> None:
    """A new game offered to the same two players, once this one is over."""
    if not progress.series_over:
        raise Conflict("not-over", "a rematch is offered once the game (or match) is over")
    if progress.rematch is not None:
        raise Conflict("rematch-offered", "a rematch has been offered already")
    progress.rematch = event.payload


def _apply_time(progress: Progress, event: EventRow, seat: Side | None, move: Any) -> None:
    """The side on turn ran out of time (the server saw it: its clock said so)."""
    if progress.on_clock is not _seat(seat):
        raise Conflict("not-on-clock", "only the side whose clock runs can run out of time")
    progress.state.flag(_seat(seat))
    progress.draw_offer = None


def _apply_join(progress: Progress, event: EventRow, seat: Side | None, move: Any) -> None:
    """A friend took the invited seat: the game itself does not change."""


_APPLIERS: dict[str, Callable[[Progress, EventRow, Side | None, Any], None]] = {
    "move": _apply_move,
    "throw": _apply_move,
    "resign": _apply_resign,
    "draw-offer": _apply_draw_offer,
    "draw-accept": _apply_draw_answer,
    "draw-decline": _apply_draw_answer,
    "claim": _apply_claim,
    "next-game": _apply_next_game,
    "join": _apply_join,
    REMATCH: _apply_rematch,
    TIME: _apply_time,
}


def _seat(seat: Side | None) -> Side:
    if seat is None:
        raise ValueError("this event needs a seat")
    return seat


def throw_dice(progress: Progress, dice: Dice, events: list[EventRow]) -> None:
    """While the position waits on the dice, throw them and record the throw."""
    state = progress.state
    while not state.is_over() and state.turn is CHANCE:
        throw = dice.choose(state.chance_outcomes())
        event = EventRow(progress.version + 1, "throw", state.move_to_text(throw))
        apply(progress, event, throw)
        events.append(event)


def replay_record(progress: Progress, games: Sequence[State[Any]]) -> list[EventRow]:
    """Play ``games`` (a game file's series as its face reads it: each game the state
    after its last move, ended as the file says) onto ``progress``, from its first
    position, and return the events that did it: each move or throw of the dice by
    whoever made it, an ending off the board (the loser's resignation, a claimed or
    agreed draw), and the next game of a match. BadRequest when the file's games do
    not follow from the position (the rules' own errors for an illegal move).
    """
    events: list[EventRow] = []

    def add(kind: str, payload: str = "", seat: int | None = None, move: Any = None) -> None:
        event = EventRow(progress.version + 1, kind, payload, seat)
        apply(progress, event, move)
        events.append(event)

    for number, game in enumerate(games, start=1):
        if number > 1:
            add("next-game", seat=int(Side.FIRST))
        start, moves = opening_of(game)
        if start.to_text() != progress.state.to_text():
            raise BadRequest(
                "bad-file", f"game {number} of the file does not begin where the series does"
            )
        for move in moves:
            state = progress.state
            text = state.move_to_text(move)
            if state.turn is CHANCE:
                add("throw", text, move=move)
            else:
                add("move", text, int(state.turn), move)
        outcome = game.outcome()
        if outcome is not None and not progress.state.is_over():
            if outcome.winner is not None:
                add("resign", seat=int(outcome.winner.other))
            elif progress.state.claimable_draw() is not None:
                add("claim", seat=int(Side.FIRST))
            else:
                add("draw-offer", seat=int(Side.FIRST))
                add("draw-accept", seat=int(Side.SECOND))
        ended = progress.state.outcome()
        if (outcome is None) != (ended is None) or (
            outcome is not None
            and ended is not None
            and (outcome.winner, outcome.points) != (ended.winner, ended.points)
        ):
            raise BadRequest(
                "bad-file", f"game {number} of the file ends in a way Parlour cannot replay"
            )
    return events
