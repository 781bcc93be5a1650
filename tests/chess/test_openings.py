"""The chess opening book: sound moves, legal by python-chess too, every line
followed to the book's last ply; the levels that search fully play it at once and
vary; the weak levels, a level without the book and UCI's OwnBook left off do not;
a damaged book is refused with the line named."""

from __future__ import annotations

import io
import random
import time

import chess
import pytest

from parlour.chess.engine import ChessEngine
from parlour.chess.notation import parse_san
from parlour.chess.openings import OpeningBook, position_key, shipped_book
from parlour.chess.rules import CHESS, parse_fen
from parlour.chess.uci import UciEngine

#: How deep the shipped book goes (training/chess_book.py --plies).
PLIES = 10


def test_every_book_move_is_legal_by_python_chess_and_near_the_best() -> None:
    book = shipped_book()
    assert len(book) > 1000
    for key, entries in book.entries.items():
        board = chess.Board(key + " 0 1")
        assert board.is_valid(), key
        best = entries[0].score
        for entry in entries:
            assert board.parse_san(entry.move) in board.legal_moves, (key, entry.move)
            assert best - 25 <= entry.score <= best, (key, entry)
            assert entry.depth >= 16
        # sound openings: no book position is lost or won outright
        assert abs(best) < 150, (key, best)


def test_every_line_of_the_book_is_followed_to_its_last_ply() -> None:
    book = shipped_book()
    frontier = {position_key(CHESS.new_state())}
    reached: set[str] = set()
    for ply in range(PLIES):
        missing = [key for key in frontier if key not in book.entries]
        assert not missing, f"ply {ply}: {missing[:3]}"
        reached |= frontier
        following = set()
        for key in frontier:
            for entry in book.entries[key]:
                state = parse_fen(key)
                state.push(parse_san(state, entry.move))
                following.add(position_key(state))
        frontier = following
    assert reached == set(book.entries)  # nothing in the book that its lines never reach


def test_the_full_levels_play_the_book_at_once_and_not_always_the_same() -> None:
    book = shipped_book()
    start = CHESS.new_state()
    engine = ChessEngine()
    firsts = set()
    began = time.perf_counter()
    for seed in range(40):
        move = engine.choose_move(start, level=7, rng=random.Random(seed))
        firsts.add(start.move_to_text(move))
    assert time.perf_counter() - began < 2.0  # no search: 40 look-ups
    assert firsts <= {entry.move for entry in book.entries_for(start)}
    assert len(firsts) >= 2
    # a reply in the book, a few plies on, after one of its own lines
    state = CHESS.new_state()
    rng = random.Random(7)
    for _ in range(6):
        move = engine.choose_move(state, level=5, rng=rng)
        assert state.move_to_text(move) in {entry.move for entry in book.entries_for(state)}
        state.push(move)


def test_the_weak_levels_and_an_engine_without_the_book_search_instead() -> None:
    # An odd book: after 1. e4 e5 2. Qh5 it has Black offer the queen (2... Qg5??,
    # taken by the queen on h5).
    fen = "rnbqkbnr/pppp1ppp/8/4p2Q/4P3/8/PPPP1PPP/RNB1KBNR b KQkq -"
    state = parse_fen(fen)
    odd = OpeningBook.parse(f"{fen}\tQg5\t0\t16\n")
    engine = ChessEngine()
    engine.book = odd
    assert state.move_to_text(engine.choose_move(state, level=5)) == "Qg5"
    for level in (1, 2, 3):
        played = {
            state.move_to_text(engine.choose_move(state, level=level, rng=random.Random(s)))
            for s in range(5)
        }
        assert "Qg5" not in played  # the beginner levels never open the book
    without = ChessEngine(book=False)
    assert state.move_to_text(without.choose_move(state, level=5)) != "Qg5"
    assert len(without.book or ()) == 0


def uci(*lines: str) -> list[str]:
    out = io.StringIO()
    UciEngine(out).run(lines)
    return out.getvalue().splitlines()


def test_uci_own_book_is_off_until_the_gui_turns_it_on() -> None:
    starts = {
        chess.Board().parse_san(e.move).uci() for e in shipped_book().entries_for(CHESS.new_state())
    }
    lines = uci("uci", "position startpos", "go depth 3", "quit")
    assert "option name OwnBook type check default false" in lines
    assert any(line.startswith("info depth 3") for line in lines)  # searched
    lines = uci("setoption name OwnBook value true", "position startpos", "go depth 3", "quit")
    assert "info string a move of the opening book" in lines
    assert not any(line.startswith("info depth") for line in lines)
    assert lines[-1].split()[1] in starts
    # out of the book it searches as ever
    lines = uci(
        "setoption name OwnBook value true",
        "position startpos moves a2a3 h7h6",
        "go depth 2",
        "quit",
    )
    assert any(line.startswith("info depth 2") for line in lines)
    lines = uci("setoption name OwnBook value perhaps", "quit")
    assert "info string option 'ownbook' is true or false, not 'perhaps'" in lines


@pytest.mark.parametrize(
    ("text", "line", "why"),
    [
        ("{start}\te4\t30\t16\n{start}\te5\t20\t16\n", 2, "e5"),
        ("{start}\te4\tthirty\t16\n", 1, "thirty"),
        ("{start}\te4\t30\n", 1, "values"),
        ("8/8/8/8/8/8/8/8 w - -\te4\t30\t16\n", 1, "king"),
        ("{start} 0 1\te4\t30\t16\n", 1, "filed as"),
    ],
)
def test_a_damaged_book_is_refused_naming_the_line(text: str, line: int, why: str) -> None:
    start = position_key(CHESS.new_state())
    with pytest.raises(ValueError, match=f"opening book line {line}: .*{why}"):
        OpeningBook.parse(text.format(start=start))
