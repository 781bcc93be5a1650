"""Expectimax: look-ahead search for games with dice.

At a player's node the value is the best of the moves; at a chance node it is the
average over the dice, each throw weighted by its probability. Values are floats from
the point of view of the side to act (at a chance node: the side the throw is for),
so a value changes sign whenever the side changes.

Backgammon engines call it "n-ply": 0-ply judges each play by the evaluation of the
position it leads to; 1-ply also lets the opponent throw every roll and answer with
its best play. Because looking ahead multiplies the work by the 21 distinct throws,
only the most promising plays at the shallower depth are looked at more deeply
(``candidates``), as strong backgammon programs do.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

M = TypeVar("M", bound=Hashable)


class ChanceSearchable(Protocol[M]):
    """What expectimax needs of a position."""

    def side(self) -> int:
        """The side to act: 0 or 1 (at a chance node, the side the dice are for)."""
        ...

    def is_chance(self) -> bool: ...

    def chance_outcomes(self) -> Sequence[tuple[M, float]]:
        """Every throw with its probability (they sum to 1)."""
        ...

    def moves(self) -> Sequence[M]: ...

    def make(self, move: M) -> None: ...

    def unmake(self) -> None: ...

    def evaluate(self) -> float:
        """A static value for the side to act (for example its equity)."""
        ...

    def terminal_value(self) -> float | None:
        """The value for the side to act if the game is over, else None."""
        ...


@dataclass(frozen=True, slots=True)
class RankedMove(Generic[M]):
    move: M
    value: float


class Expectimax(Generic[M]):
    """n-ply expectimax with candidate filtering.

    ``plies`` counts the throws looked ahead after the move: 0 judges each move by
    the position it leads to. ``candidates`` bounds how many moves, ranked at the
    next shallower depth, are searched at full depth (None: all of them).
    """

    def __init__(self, plies: int = 0, candidates: int | None = 8) -> None:
        if plies < 0:
            raise ValueError("plies must be 0 or more")
        self.plies = plies
        self.candidates = candidates
        self.nodes = 0

    def rank_moves(self, position: ChanceSearchable[M]) -> list[RankedMove[M]]:
        """The moves of a player's node, best first, with their values for the
        side to act."""
        moves = list(position.moves())
        ranked = self._rank(position, moves, 0)
        for plies in range(1, self.plies + 1):
            if self.candidates is not None:
                ranked = ranked[: self.candidates]
            ranked = self._rank(position, [r.move for r in ranked], plies)
        return ranked

    def best_move(self, position: ChanceSearchable[M]) -> M | None:
        ranked = self.rank_moves(position)
        return ranked[0].move if ranked else None

    def _rank(
        self, position: ChanceSearchable[M], moves: list[M], plies: int
    ) -> list[RankedMove[M]]:
        side = position.side()
        ranked = []
        for move in moves:
            position.make(move)
            value = self._after_move(position, side, plies)
            position.unmake()
            ranked.append(RankedMove(move, value))
        ranked.sort(key=lambda r: r.value, reverse=True)
        return ranked

    def _after_move(self, position: ChanceSearchable[M], side: int, plies: int) -> float:
        """The value for ``side`` of the position a move of theirs led to."""
        value = self.value(position, plies)
        return value if position.side() == side else -value

    def value(self, position: ChanceSearchable[M], plies: int) -> float:
        """The value of ``position`` for its side to act, looking ``plies`` throws
        ahead."""
        self.nodes += 1
        terminal = position.terminal_value()
        if terminal is not None:
            return terminal
        side = position.side()
        if position.is_chance():
            if plies == 0:
                return position.evaluate()
            total = 0.0
            for throw, probability in position.chance_outcomes():
                position.make(throw)
                total += probability * self._after_move(position, side, plies - 1)
                position.unmake()
            return total
        moves = position.moves()
        if not moves:
            return position.evaluate()
        best = float("-inf")
        for move in moves:
            position.make(move)
            best = max(best, self._after_move(position, side, plies))
            position.unmake()
        return best
