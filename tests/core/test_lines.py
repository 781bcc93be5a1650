"""A whole line of moves as text: State.play_line and State.line_to_text, checked
against python-chess's own reading and writing of lines for chess."""

from __future__ import annotations

import random

import chess
import pytest

from parlour.core.errors import IllegalMoveError, NotationError
from parlour.core.protocol import CHANCE
from parlour.core.registry import get_game


def _random_line(name: str, plies: int, seed: int) -> tuple[str, list[object]]:
    state = get_game(name).new_state()
    start = state.copy()
    rng = random.Random(seed)
    moves: list[object] = []
    while len(moves) < plies and not state.is_over():
        if state.turn is CHANCE:
            move = rng.choice([m for m, _ in state.chance_outcomes()])
        else:
            move = rng.choice(state.legal_moves())
        state.push(move)
        moves.append(move)
    return start.line_to_text(moves), moves


@pytest.mark.parametrize("name", ["chess", "checkers", "backgammon"])
@pytest.mark.parametrize("seed", range(5))
def test_a_written_line_reads_back_to_the_same_moves(name: str, seed: int) -> None:
    line, moves = _random_line(name, 40, seed)
    state = get_game(name).new_state()
    assert state.play_line(line) == moves
    assert len(state.move_stack if hasattr(state, "move_stack") else moves) == len(moves)


@pytest.mark.parametrize("seed", range(10))
def test_chess_lines_are_written_as_python_chess_writes_them(seed: int) -> None:
    line, moves = _random_line("chess", 30, seed)
    board = chess.Board()
    expected = board.variation_san([chess.Move.from_uci(str(m)) for m in moves])
    assert line == expected


def test_a_line_from_black_to_move_starts_with_the_fen_move_number() -> None:
    fen = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 7"
    state = get_game("chess").state_from_text(fen)
    moves = state.copy().play_line("e5 Nf3 Nc6")
    board = chess.Board(fen)
    uci = [chess.Move.from_uci(str(m)) for m in moves]
    assert state.line_to_text(moves) == board.variation_san(uci) == "7...e5 8. Nf3 Nc6"


def test_python_chess_lines_are_read_with_numbers_stuck_to_moves_and_a_result() -> None:
    state = get_game("chess").new_state()
    moves = state.play_line("1.e4 e5 2.Nf3 Nc6 3.Bb5 a6 1/2-1/2")
    board = chess.Board()
    for text in ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6"]:
        board.push_san(text)
    assert [str(m) for m in moves] == [m.uci() for m in board.move_stack]
    assert state.to_text() == board.fen()


def test_a_bad_move_leaves_the_state_as_it_was_and_names_the_move() -> None:
    state = get_game("chess").new_state()
    before = state.to_text()
    with pytest.raises(IllegalMoveError, match=r"move 3 of the line, 'Ke3'") as caught:
        state.play_line("e4 e5 Ke3 Nf6")
    assert caught.value.rule == "piece-movement"
    with pytest.raises(NotationError, match=r"move 2 of the line, 'Zz9'"):
        state.play_line("e4 Zz9")
    assert state.to_text() == before


def test_checkers_lines_are_numbered_by_black_and_white_pairs() -> None:
    state = get_game("checkers").new_state()
    moves = state.copy().play_line("1. 11-15 23-19 2. 8-11 22-17")
    assert state.line_to_text(moves) == "1. 11-15 23-19 2. 8-11 22-17"
    with pytest.raises(IllegalMoveError, match="move 2 of the line, '11-15'"):
        state.play_line("11-15 11-15")


def test_backgammon_lines_carry_the_dice_as_a_mat_file_writes_them() -> None:
    state = get_game("backgammon").new_state()
    moves = state.play_line("31: 8/5 6/5, roll, 64: 24/18 13/9, double, take")
    assert len(moves) == 7
    assert state.turn is CHANCE  # the taker's opponent throws next
    assert get_game("backgammon").new_state().line_to_text(moves) == (
        "31: 8/5 6/5, roll, 64: 24/18 13/9, double, take"
    )
    fresh = get_game("backgammon").new_state()
    with pytest.raises(IllegalMoveError, match="move 2 of the line, '8/2 6/5'"):
        fresh.play_line("31: 8/2 6/5")
    assert fresh.to_text() == get_game("backgammon").new_state().to_text()
