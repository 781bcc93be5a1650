"""What a computer opponent offers the apps: the same few calls for every game.

An engine chooses a move at a level (1 is a beginner who makes deliberate mistakes,
:attr:`Engine.strongest` the best it can do), each level within a bounded time, and
gives a hint: the best move and what the position is worth, in a player's words.
In backgammon the cube decisions are moves of the protocol ("double", "take"), so
:meth:`Engine.choose_move` makes them too.

>>> from parlour.core.registry import get_engine, get_game
>>> state = get_game("checkers").state_from_text("B:W18:B14,K5")
>>> engine = get_engine("checkers")
>>> state.move_to_text(engine.choose_move(state, level=3))
'14x23'
>>> engine.hint(state).move_text
'14x23'
"""

from __future__ import annotations

import random
import threading
from abc import ABC, abstractmethod
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import ClassVar, Generic, Literal, TypeVar

from parlour.core.errors import LevelError
from parlour.core.protocol import Chance, Side, State

Move = TypeVar("Move", bound=Hashable)


@dataclass(frozen=True, slots=True)
class RankedMove(Generic[Move]):
    """One of the moves an engine compared, with its score on the engine's scale
    from the mover's point of view (after the move)."""

    move: Move
    move_text: str
    score: float


@dataclass(frozen=True, slots=True)
class Hint(Generic[Move]):
    """The engine's advice for the side to act.

    ``assessment`` is for players ("White is winning: mate in 3", "about even",
    "double, take"); ``score`` is on the engine's own scale from the side to act's
    point of view (centipawns, equity), for programs. ``ranked`` lists the moves the
    engine compared, best first, where it ranks them (backgammon's plays of a roll)."""

    move: Move
    move_text: str
    assessment: str
    score: float | None = None
    ranked: tuple[RankedMove[Move], ...] = ()


@dataclass(frozen=True, slots=True)
class Line(Generic[Move]):
    """One line an analysis looked at: its first move, what the position is worth
    after it (on the engine's scale, from the analysed side's point of view) and
    the principal variation as move texts, starting with this move."""

    move: Move
    move_text: str
    score: float
    pv: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Analysis(Generic[Move]):
    """What an engine found in one position, for the coach.

    ``score`` is the position's worth for ``side`` on the engine's scale (the
    best line's score where the side has a choice; at a throw of the dice, the
    worth before the throw for the side who throws). ``lines`` are the moves
    compared, best first: as many as were asked for, or every one where the engine
    ranks them all (backgammon's plays and cube actions). ``depth`` is how far the
    engine looked: plies for the searching games, plies of look-ahead in
    backgammon."""

    side: Side
    score: float
    lines: tuple[Line[Move], ...]
    depth: int
    nodes: int = 0
    seconds: float = 0.0

    @property
    def best(self) -> Line[Move] | None:
        return self.lines[0] if self.lines else None

    def line_of(self, move: Move) -> Line[Move] | None:
        """The line that starts with ``move``, if the analysis looked at it."""
        return next((line for line in self.lines if line.move == move), None)


def move_texts(state: State[Move], moves: Iterable[Move]) -> tuple[str, ...]:
    """The texts of ``moves`` played one after another from ``state`` (which is
    left as it was): a principal variation as a player reads it."""
    probe = state.copy()
    texts = []
    for move in moves:
        texts.append(probe.move_to_text(move))
        probe.push_unchecked(move)
    return tuple(texts)


class Engine(ABC, Generic[Move]):
    """A computer opponent for one game."""

    #: The strongest level; levels run from 1 to this.
    strongest: ClassVar[int] = 10
    #: The level used when none is asked for: answers within about a second.
    default_level: ClassVar[int] = 5
    #: Each level's strength as measured, in a player's words, shown by the help
    #: and the web page (the matches behind the words are in docs/benchmarks.md).
    #: A level not here has not been measured yet.
    level_strengths: ClassVar[Mapping[int, str]] = {}

    @abstractmethod
    def choose_move(
        self,
        state: State[Move],
        level: int | None = None,
        rng: random.Random | None = None,
        *,
        seconds: float | None = None,
    ) -> Move:
        """The move the engine plays at ``level`` (default :attr:`default_level`).
        ``rng`` drives the deliberate mistakes of the low levels, so a seeded game
        can be replayed. ``seconds``, when given, caps the thinking below the
        level's own time: the share of a clock the move may take."""

    @abstractmethod
    def hint(self, state: State[Move]) -> Hint[Move]:
        """The best move at full strength (within a bounded time) and its assessment."""

    #: How the coach weighs this engine's scores: by the mover's *winning chances*
    #: (-1 to +1, lichess's scale; see :meth:`winning_chances`) or by *equity*
    #: (points a game, GNU Backgammon's scale: the scores are equities already).
    judged_by: ClassVar[Literal["chances", "equity"]] = "chances"
    #: Seconds an analysis gives a position by default: a 40-move game in under
    #: two minutes.
    analysis_seconds: ClassVar[float] = 1.0

    def winning_chances(self, score: float) -> float:
        """The mover's winning chances from -1 (lost) to +1 (won) for a score on
        this engine's scale (engines judged by chances give their own curve)."""
        return max(-1.0, min(1.0, score))

    def score_text(self, score: float) -> str:
        """A score as an annotation shows it: ``+0.35`` (in pawns, men or points),
        or ``#3`` for a mate the engine sees."""
        return f"{score:+.2f}"

    def luck(self, state: State[Move], throw: Move) -> float | None:
        """What the chance outcome ``throw`` is worth to the side it falls to,
        against the average outcome, on the engine's scale; None in games without
        chance, and where the engine does not weigh it."""
        return None

    def decision_kind(self, state: State[Move], move: Move) -> str:
        """What kind of decision ``move`` is, as the coach reports it: "move" here;
        backgammon's engine names its cube decisions."""
        return "move"

    def analyse(
        self,
        state: State[Move],
        *,
        seconds: float = 1.0,
        lines: int = 1,
        stop: threading.Event | None = None,
        nodes: int | None = None,
        moves: Sequence[Move] | None = None,
        depth: int | None = None,
    ) -> Analysis[Move] | None:
        """What the position is worth and its best ``lines``, within ``seconds``
        (sooner when ``stop`` is set; within ``nodes`` positions searched too, where
        the engine searches: a budget the machine's load does not change, for
        results that repeat). ``moves`` limits the analysis to those first moves
        (UCI's searchmoves) and ``depth`` to so many plies: the coach scores a
        move played by the same search, to the same depth, as the best one. None
        where the engine does not judge the position (a throw it cannot weigh, a
        game over). Engines that search give their own; this one stands on
        :meth:`hint`, one line deep."""
        if state.is_over() or isinstance(state.turn, Chance):
            return None
        hint = self.hint(state)
        score = 0.0 if hint.score is None else hint.score
        line = Line(hint.move, hint.move_text, score, (hint.move_text,))
        return Analysis(state.turn, score, (line,), depth=1)

    def time_limit(self, level: int) -> float:
        """The most seconds a move may take at ``level``."""
        self.check_level(level)
        return 0.1 * 2 ** ((level - 1) / 2)

    def check_level(self, level: int) -> int:
        """``level`` if the engine has it; LevelError naming the range if not."""
        if not 1 <= level <= self.strongest:
            raise LevelError(f"levels run from 1 to {self.strongest}, not {level}")
        return level
