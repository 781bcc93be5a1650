"""A source of dice throws that can be seeded, so a game can be replayed exactly.

Unseeded, it draws from the operating system's randomness (``random.SystemRandom``),
which is what online play needs: nobody can predict the next throw. Seeded, it is
an ordinary ``random.Random``, the same throws every run, for tests and benchmarks.

>>> dice = Dice(seed=7)
>>> dice.roll() == Dice(seed=7).roll()
True
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from fractions import Fraction
from typing import TypeVar

T = TypeVar("T")


class Dice:
    """Throws six-sided dice and picks chance outcomes by their probabilities."""

    def __init__(self, seed: int | None = None) -> None:
        self._random: random.Random = random.SystemRandom() if seed is None else random.Random(seed)

    def roll_one(self) -> int:
        """One die: 1 to 6."""
        return self._random.randint(1, 6)

    def roll(self) -> tuple[int, int]:
        """Two dice, in the order thrown."""
        return self.roll_one(), self.roll_one()

    def choose(self, outcomes: Sequence[tuple[T, Fraction]]) -> T:
        """Pick one of ``outcomes`` (pairs of outcome and probability) at random,
        each as likely as its probability says."""
        if not outcomes:
            raise ValueError("no outcomes to choose from")
        point = Fraction(self._random.random())
        running = Fraction(0)
        for outcome, probability in outcomes:
            running += probability
            if point < running:
                return outcome
        return outcomes[-1][0]


class LoadedDice(Dice):
    """Dice that throw a fixed sequence, for tests and for replaying a record.

    >>> dice = LoadedDice([(3, 1), (6, 6)])
    >>> dice.roll(), dice.roll()
    ((3, 1), (6, 6))
    """

    def __init__(self, throws: Iterable[tuple[int, int]]) -> None:
        super().__init__(seed=0)
        self._throws = iter(throws)
        self._pending: list[int] = []

    def roll(self) -> tuple[int, int]:
        try:
            first, second = next(self._throws)
        except StopIteration:
            raise ValueError("the loaded dice have no throws left") from None
        return first, second

    def roll_one(self) -> int:
        if not self._pending:
            self._pending = list(self.roll())
        return self._pending.pop(0)
