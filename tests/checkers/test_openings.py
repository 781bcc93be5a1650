"""The opening book: it covers the first three moves with legal moves searched
deep, the engine plays it at once at the levels that search fully, and a damaged
book is refused with the line named."""

from __future__ import annotations

import time

import pytest

from parlour.checkers.engine import CheckersEngine
from parlour.checkers.openings import OpeningBook, first_positions, shipped_book
from parlour.checkers.rules import CHECKERS, CheckersState


def test_the_book_covers_the_first_three_moves_with_deep_legal_moves() -> None:
    book = shipped_book()
    wanted = set(first_positions(3))
    assert len(wanted) == 273  # 1 + 7 + 49 + 302 three-move starts, less transpositions
    held = {CheckersState.from_position(*key).to_text() for key in book.entries}
    assert wanted <= held
    for (position, turn), entry in book.entries.items():
        state = CheckersState.from_position(position, turn)
        assert state.parse_move(entry.move) in state.legal_moves()
        assert entry.depth >= 13
        assert abs(entry.score) < 1000  # no book line is a forced win: sound openings


def test_the_engine_plays_the_book_at_once_at_levels_that_search_fully() -> None:
    engine = CheckersEngine()
    start = CHECKERS.new_state()
    odd = OpeningBook.parse(f"{start.to_text()}\t12-16\t0\t13")  # legal, not the usual
    engine.book = odd
    began = time.perf_counter()
    assert str(engine.choose_move(start, level=5)) == "12-16"
    assert time.perf_counter() - began < 0.05
    with_book, without = CheckersEngine(), CheckersEngine()
    with_book.book, without.book = odd, OpeningBook({})
    # Level 4 searches (four plies, far within its time): the book changes nothing.
    assert with_book.choose_move(start, level=4) == without.choose_move(start, level=4)


def test_a_damaged_book_is_refused_naming_the_line() -> None:
    start = CHECKERS.new_state().to_text()
    with pytest.raises(ValueError, match="opening book line 2"):
        OpeningBook.parse(f"{start}\t11-15\t0\t13\n{start}\t11-15\tten\t13")
    with pytest.raises(ValueError, match="opening book line 1"):
        OpeningBook.parse("B:W99:B1\t1-5\t0\t13")
