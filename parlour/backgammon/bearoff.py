"""The one-sided bear-off database: for every way of having up to 15 checkers on the
six home points, how many throws it takes to bear them all off, as a probability
distribution, exactly.

A side's home board is six counts, one per point (the ace point first). There are
54,264 such boards (15 checkers or fewer in six places: C(21, 6)). Every throw
lowers the pip count, so the boards can be solved in order of pip count by backward
induction: a board with no checkers is off in 0 throws; for any other, each of the
21 throws is played to the reachable board with the fewest throws still expected,
and the board's distribution is one throw more than the throws' average of theirs.
A second table does the same for bearing off the *first* checker (the count that
decides whether a side is gammoned), for boards of all 15 checkers.

With both sides' distributions, a race in which both sides have every checker home
and no contact is judged exactly, as far as each side plays to bear off fastest: the
player on roll, needing ``n`` throws, wins when the opponent needs ``n`` or more.

The tables are built by :func:`build` (42 s here) and kept in a cache file of
2.3 MB (``parlour bearoff`` builds it ahead; the first game that needs it
otherwise builds it once, saying so on standard error).

>>> table = BearoffTable.build_small(3)  # up to 3 checkers, for a quick look
>>> round(table.expected_throws((1, 0, 0, 0, 0, 0)), 6)
1.0
>>> table.distribution((0, 0, 0, 0, 0, 1))[:3]  # one checker on the six: 8 throws in 36 fail
array([0.  , 0.75, 0.25])
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Iterator, Sequence
from functools import cache
from itertools import combinations_with_replacement
from math import comb
from pathlib import Path

import numpy as np
import numpy.typing as npt

from parlour.backgammon.board import Position, legal_plays

Board = tuple[int, ...]  # six counts, the ace point first
Array = npt.NDArray[np.float64]

#: Home points, and the most checkers a side has.
POINTS = 6
CHECKERS = 15
#: Throws counted in a distribution: none of the 54,264 boards needs more.
MAX_THROWS = 32
#: The 21 distinct throws, with their probabilities.
THROWS = [
    ((high, low), (1 if high == low else 2) / 36)
    for high in range(1, 7)
    for low in range(1, high + 1)
]
#: Bump when the file's layout or contents change.
VERSION = 1


def boards(checkers: int = CHECKERS) -> Iterator[Board]:
    """Every home board of at most ``checkers`` checkers, in index order."""
    for count in range(checkers + 1):
        for points in combinations_with_replacement(range(POINTS), count):
            board = [0] * POINTS
            for point in points:
                board[point] += 1
            yield tuple(board)


def board_count(checkers: int = CHECKERS) -> int:
    """How many boards of at most ``checkers`` checkers there are: C(checkers + 6, 6).

    >>> board_count()
    54264
    """
    return comb(checkers + POINTS, POINTS)


def is_bearoff(position: Position) -> bool:
    """Whether both sides have every checker left on their home boards (so no
    contact is possible and the database knows the race)."""
    return not any(position.mover[6:]) and not any(position.opponent[6:])


def pips(board: Sequence[int]) -> int:
    return sum((point + 1) * count for point, count in enumerate(board))


#: The opponent, out of the way: all fifteen on its ace point (the mover's 24-point).
_PARKED = (CHECKERS,) + (0,) * 24


def _plays(board: Board, dice: tuple[int, int]) -> set[Board]:
    """The home boards a throw can leave: the rules' own legal plays
    (:func:`~parlour.backgammon.board.legal_plays`), with the opponent parked."""
    position = Position(board + (0,) * 19, _PARKED)
    return {position.apply(play).mover[:POINTS] for play in legal_plays(position, dice)}


def _at_least(distribution: Array) -> Array:
    """P(n or more throws) for each n, from P(exactly n)."""
    tail: Array = np.cumsum(distribution[::-1])[::-1]
    return tail


class BearoffTable:
    """The distributions of throws to bear off: :attr:`off` for all checkers (every
    board of up to :attr:`checkers`), :attr:`first_off` for the first checker (boards
    of exactly :attr:`checkers`; others hold 0 throws, having one off already)."""

    def __init__(self, checkers: int, off: Array, first_off: Array) -> None:
        self.checkers = checkers
        self.off = off
        self.first_off = first_off
        self._index = {board: i for i, board in enumerate(boards(checkers))}

    @classmethod
    def build_small(cls, checkers: int) -> BearoffTable:
        """A table for boards of up to ``checkers`` checkers (the full one is
        :func:`build`'s)."""
        return cls(checkers, *_solve(checkers))

    def index(self, board: Sequence[int]) -> int:
        return self._index[tuple(board)]

    def distribution(self, board: Sequence[int]) -> Array:
        """P(all off in exactly n throws), n = 0, 1, ..."""
        row: Array = self.off[self.index(board)]
        return row

    def expected_throws(self, board: Sequence[int]) -> float:
        return float(self.distribution(board) @ np.arange(MAX_THROWS))

    def chances(self, mover: Sequence[int], opponent: Sequence[int]) -> Array:
        """The five cubeless probabilities (win, win gammon, win backgammon, lose
        gammon, lose backgammon) of the side on roll with home board ``mover``
        against ``opponent``'s, each side bearing off as fast as it can."""
        mine, theirs = self.distribution(mover), self.distribution(opponent)
        # The mover's n-th throw comes before the opponent's n-th: the mover wins
        # needing n when they need n or more.
        win = float(mine @ _at_least(theirs))
        win_gammon = lose_gammon = 0.0
        if sum(opponent) == self.checkers:
            win_gammon = float(mine @ _at_least(self.first_off[self.index(opponent)]))
        if sum(mover) == self.checkers:
            # They win in n while the mover needs n + 1 or more for a first checker.
            mine_later = np.append(_at_least(self.first_off[self.index(mover)])[1:], 0.0)
            lose_gammon = float(theirs @ mine_later)
        # Kept as 32-bit floats: a certain win may sum to a hair over 1.
        chances: Array = np.clip(np.array([win, win_gammon, 0.0, lose_gammon, 0.0]), 0.0, 1.0)
        return chances


def _solve(checkers: int) -> tuple[Array, Array]:
    """Backward induction over the boards, in order of pip count."""
    every = list(boards(checkers))
    index = {board: i for i, board in enumerate(every)}
    off = np.zeros((len(every), MAX_THROWS))
    first = np.zeros((len(every), MAX_THROWS))
    mean_off = np.zeros(len(every))
    mean_first = np.zeros(len(every))
    for board in sorted(every, key=pips):
        i = index[board]
        if not any(board):
            off[i, 0] = 1.0
            first[i, 0] = 1.0
            continue
        full = sum(board) == checkers
        if not full:
            first[i, 0] = 1.0  # a checker is already off
        for dice, probability in THROWS:
            reached = [index[after] for after in _plays(board, dice)]
            best = min(reached, key=lambda j: mean_off[j])
            off[i, 1:] += probability * off[best, :-1]
            if full:
                best = min(reached, key=lambda j: mean_first[j])
                first[i, 1:] += probability * first[best, :-1]
        throws = np.arange(MAX_THROWS)
        mean_off[i] = off[i] @ throws
        mean_first[i] = first[i] @ throws
    return off, first


def cache_file() -> Path:
    """Where the built table is kept: $XDG_CACHE_HOME/parlour (~/.cache/parlour)."""
    root = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(root) / "parlour" / f"bearoff-{VERSION}.npz"


def build(path: Path | None = None) -> Path:
    """Build the full table and save it (compressed) at ``path``, by default the
    cache file. Returns where it went."""
    path = path or cache_file()
    off, first = _solve(CHECKERS)
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_suffix(f".{os.getpid()}.partial.npz")
    np.savez_compressed(
        partial, off=off.astype(np.float32), first_off=first.astype(np.float32), version=VERSION
    )
    partial.replace(path)  # whole or not at all, if two processes build at once
    return path


@cache
def shipped_table() -> BearoffTable:
    """The full table, from the cache file (built there first if it is missing)."""
    path = cache_file()
    if not path.exists():
        print("parlour: building the bear-off database once (about a minute)...", file=sys.stderr)
        build(path)
    with np.load(path) as data:
        if int(data["version"]) != VERSION:
            raise ValueError(f"{path} is of another version; delete it to rebuild")
        return BearoffTable(
            CHECKERS, data["off"].astype(np.float64), data["first_off"].astype(np.float64)
        )


def main() -> int:
    """``parlour bearoff``: build the table into the cache, unless it is there."""
    path = cache_file()
    if path.exists():
        print(f"{path}: already built ({path.stat().st_size / 1e6:.1f} MB)")
        return 0
    started = time.monotonic()
    build(path)
    seconds = time.monotonic() - started
    size = path.stat().st_size / 1e6
    print(f"{path}: {board_count():,} boards, {size:.1f} MB, built in {seconds:.0f} s")
    return 0
