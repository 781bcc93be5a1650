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
from abc import ABC, abstractmethod
from collections.abc import Hashable
from dataclasses import dataclass
from typing import ClassVar, Generic, TypeVar

from parlour.core.errors import LevelError
from parlour.core.protocol import State

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


class Engine(ABC, Generic[Move]):
    """A computer opponent for one game."""

    #: The strongest level; levels run from 1 to this.
    strongest: ClassVar[int] = 10
    #: The level used when none is asked for: answers within about a second.
    default_level: ClassVar[int] = 5

    @abstractmethod
    def choose_move(
        self, state: State[Move], level: int | None = None, rng: random.Random | None = None
    ) -> Move:
        """The move the engine plays at ``level`` (default :attr:`default_level`).
        ``rng`` drives the deliberate mistakes of the low levels, so a seeded game
        can be replayed."""

    @abstractmethod
    def hint(self, state: State[Move]) -> Hint[Move]:
        """The best move at full strength (within a bounded time) and its assessment."""

    def time_limit(self, level: int) -> float:
        """The most seconds a move may take at ``level``."""
        self.check_level(level)
        return 0.1 * 2 ** ((level - 1) / 2)

    def check_level(self, level: int) -> int:
        """``level`` if the engine has it; LevelError naming the range if not."""
        if not 1 <= level <= self.strongest:
            raise LevelError(f"levels run from 1 to {self.strongest}, not {level}")
        return level
