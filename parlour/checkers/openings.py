"""The checkers opening book: the first moves, searched deeply ahead of time.

The book holds every position of the first three moves (the 302 three-move starts
tournaments deal as ballots among them) and the main lines a few moves on from the
ACF ballots, each with the move a search of our own engine found at depth 13 from an
empty table (``training/checkers_book.py`` builds it; the figures are in
``docs/benchmarks.md``). The engine plays a book move at once, so the opening costs
no thinking time and is as sound as a search far deeper than play allows.

The file is plain text, one position a line: ``FEN<tab>move<tab>score<tab>depth``.

>>> from parlour.checkers.rules import CHECKERS
>>> start = CHECKERS.new_state().to_text()
>>> book = OpeningBook.parse(f"{start}\\t11-15\\t0\\t13")
>>> book.move(CHECKERS.new_state())
Move(...)
>>> len(book)
1
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

from parlour.checkers.board import Move, Position
from parlour.checkers.notation import parse_fen
from parlour.checkers.rules import CHECKERS, CheckersState
from parlour.core.errors import ParlourError
from parlour.core.protocol import Side

SHIPPED = Path(__file__).parent / "data" / "openings.tsv"


@dataclass(frozen=True, slots=True)
class BookEntry:
    """The book's move for a position, with the search's score (a man is 100)
    and depth."""

    move: str
    score: int
    depth: int


class OpeningBook:
    """Positions and the move to play in each."""

    def __init__(self, entries: dict[tuple[Position, Side], BookEntry]) -> None:
        self.entries = entries

    def __len__(self) -> int:
        return len(self.entries)

    @classmethod
    def parse(cls, text: str) -> OpeningBook:
        entries: dict[tuple[Position, Side], BookEntry] = {}
        for number, line in enumerate(text.splitlines(), start=1):
            if not line.strip():
                continue
            try:
                fen, move, score, depth = line.split("\t")
                entries[parse_fen(fen)] = BookEntry(move, int(score), int(depth))
            except (ValueError, ParlourError) as error:
                raise ValueError(f"opening book line {number}: {error}") from None
        return cls(entries)

    def entry(self, state: CheckersState) -> BookEntry | None:
        return self.entries.get((state.position, state.turn))

    def move(self, state: CheckersState) -> Move | None:
        """The book's move here, or None when the position is not in the book."""
        entry = self.entry(state)
        return None if entry is None else state.parse_move(entry.move)


def first_positions(moves: int = 3) -> list[str]:
    """Every position of the first ``moves`` moves (the start included), as FEN,
    each once however many move orders reach it.

    >>> len(first_positions(1)), len(first_positions(3))
    (8, 273)
    """
    found: list[str] = []
    frontier = [CHECKERS.new_state()]
    for ply in range(moves + 1):
        found += [state.to_text() for state in frontier]
        if ply == moves:
            break
        following = []
        for state in frontier:
            for move in state.legal_moves():
                child = state.copy()
                child.push(move)
                following.append(child)
        frontier = following
    return list(dict.fromkeys(found))


@cache
def shipped_book() -> OpeningBook:
    """The book shipped with the package (empty if it is missing)."""
    if not SHIPPED.exists():
        return OpeningBook({})
    return OpeningBook.parse(SHIPPED.read_text())
