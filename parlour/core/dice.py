"""A source of dice throws that can be seeded, so a game can be replayed exactly.

Unseeded, it draws from the operating system's randomness (``random.SystemRandom``),
which is what online play needs: nobody can predict the next throw. Seeded, it is
an ordinary ``random.Random``, the same throws every run, for tests and benchmarks.
:class:`CommittedDice` are dice anyone can check afterwards: every throw follows
from a secret whose SHA-256 hash is published before the first throw.

>>> dice = Dice(seed=7)
>>> dice.roll() == Dice(seed=7).roll()
True
"""

from __future__ import annotations

import hashlib
import hmac
import random
import secrets
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
        point = self._next_point()
        running = Fraction(0)
        for outcome, probability in outcomes:
            running += probability
            if point < running:
                return outcome
        return outcomes[-1][0]

    def _next_point(self) -> Fraction:
        """A number in [0, 1), uniformly: where the next choice falls."""
        return Fraction(self._random.random())


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


class CommittedDice(Dice):
    """Dice whose throws all follow from a secret, committed to before the game.

    Throw ``n`` (counting from 0) is decided by HMAC-SHA256 of the text ``throw n``
    keyed by the secret, read as a number in [0, 1) against the outcomes' summed
    probabilities. Publish :meth:`commitment` when the game starts and the secret
    when it ends: anyone can then hash the secret to see it is the one committed
    to, and recompute every throw. Nobody can predict a throw before the secret is
    revealed, nor choose a secret that gives throws of their liking after
    committing to its hash.

    >>> secret = bytes(32)
    >>> dice = CommittedDice(secret)
    >>> first = dice.roll()
    >>> CommittedDice(secret).roll() == first  # the same secret, the same throws
    True
    >>> CommittedDice.commitment(secret)[:16]
    '66687aadf862bd77'
    """

    def __init__(self, secret: bytes, thrown: int = 0) -> None:
        super().__init__(seed=0)
        self.secret = secret
        #: How many throws were made before this one.
        self.thrown = thrown

    @staticmethod
    def new_secret() -> bytes:
        """A fresh secret from the operating system's randomness (32 bytes)."""
        return secrets.token_bytes(32)

    @staticmethod
    def commitment(secret: bytes) -> str:
        """The SHA-256 hash of ``secret``, in hexadecimal: what is published first."""
        return hashlib.sha256(secret).hexdigest()

    def point(self, label: str) -> Fraction:
        """A number in [0, 1) that follows from the secret and ``label``."""
        digest = hmac.new(self.secret, label.encode(), hashlib.sha256).digest()
        return Fraction(int.from_bytes(digest, "big"), 1 << 256)

    def _next_point(self) -> Fraction:
        point = self.point(f"throw {self.thrown}")
        self.thrown += 1
        return point

    def roll_one(self) -> int:
        return self.choose([(face, Fraction(1, 6)) for face in range(1, 7)])
