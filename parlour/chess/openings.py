"""The chess opening book: the first moves, chosen ahead of time by a deep search.

The book holds the positions of the first moves along sound lines: from the start,
every move a deep search found within a quarter of a pawn of the best (at most a few
a position), and so on for some ten plies (``training/chess_book.py`` builds it; the
figures are in ``docs/benchmarks.md``). Each position keeps several moves, so that
the engine, choosing among them at random by their scores, does not play the same
game twice; a book move costs no thinking time.

The file is plain text, one move a line, best first within a position:
``position<tab>move<tab>score<tab>depth``, the position as the first four fields of
its FEN (placement, side to move, castling, en passant: the move counters do not
change what to play), the move in SAN, its score in centipawns for the side to move.

>>> from parlour.chess.rules import CHESS
>>> start = position_key(CHESS.new_state())
>>> book = OpeningBook.parse(f"{start}\\te4\\t30\\t20\\n{start}\\td4\\t25\\t20\\n")
>>> [entry.move for entry in book.entries_for(CHESS.new_state())], len(book)
(['e4', 'd4'], 1)
>>> book.move(CHESS.new_state(), random.Random(1)).uci() in ("e2e4", "d2d4")
True
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from parlour.chess.board import Move
from parlour.chess.notation import parse_san, san
from parlour.chess.rules import ChessState, parse_fen
from parlour.core.errors import ParlourError

SHIPPED = Path(__file__).parent / "data" / "openings.tsv"


@dataclass(frozen=True, slots=True)
class BookEntry:
    """One of the book's moves for a position (SAN), with the search's score
    (centipawns, for the side to move) and depth."""

    move: str
    score: int
    depth: int


def position_key(state: ChessState) -> str:
    """A position as the book files it: the first four fields of its FEN."""
    return " ".join(state.to_text().split()[:4])


class OpeningBook:
    """Positions and the moves the book plays in each, best first."""

    def __init__(self, entries: dict[str, tuple[BookEntry, ...]]) -> None:
        self.entries = entries

    def __len__(self) -> int:
        return len(self.entries)

    @classmethod
    def parse(cls, text: str) -> OpeningBook:
        """The book in ``text``; ValueError naming the line for a bad position, a
        move that is not legal there, or a malformed number."""
        found: dict[str, list[BookEntry]] = {}
        for number, line in enumerate(text.splitlines(), start=1):
            if not line.strip():
                continue
            try:
                fen, move, score, depth = line.split("\t")
                state = parse_fen(fen)
                key = position_key(state)
                if key != fen:
                    raise ValueError(f"position {fen!r} is filed as {key!r}")
                try:
                    played = parse_san(state, move)
                except ParlourError as error:
                    raise ValueError(f"move {move!r}: {error}") from None
                entry = BookEntry(san(state, played), int(score), int(depth))
            except (ValueError, ParlourError) as error:
                raise ValueError(f"opening book line {number}: {error}") from None
            found.setdefault(key, []).append(entry)
        return cls({key: tuple(moves) for key, moves in found.items()})

    def entries_for(self, state: ChessState) -> tuple[BookEntry, ...]:
        """The book's moves here, best first (none when the position is not in it)."""
        return self.entries.get(position_key(state), ())

    def move(self, state: ChessState, rng: random.Random) -> Move | None:
        """One of the book's moves here, or None when the position is not in the
        book. The choice is at random, a move the more likely the nearer its score
        is to the best's: each is weighted by how far it stays inside the book's
        quarter of a pawn (the best 26 to 1, one a quarter of a pawn worse 1)."""
        entries = self.entries_for(state)
        if not entries:
            return None
        best = max(entry.score for entry in entries)
        weights = [max(1, 26 - (best - entry.score)) for entry in entries]
        chosen = rng.choices(entries, weights)[0]
        return parse_san(state, chosen.move)


@cache
def shipped_book() -> OpeningBook:
    """The book shipped with the package (empty if it is missing)."""
    if not SHIPPED.exists():
        return OpeningBook({})
    return OpeningBook.parse(SHIPPED.read_text())
