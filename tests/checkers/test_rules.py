"""The rules of American checkers: perft against published counts, the special
cases worked out by hand, the draw claims, and illegal moves explained."""

from __future__ import annotations

import subprocess
import sys

import pytest

from parlour.checkers.board import BLACK, WHITE, Move
from parlour.checkers.rules import CHECKERS, CheckersState
from parlour.core.errors import GameOverError, IllegalMoveError
from parlour.core.registry import get_game

#: OEIS A133046: perft of checkers from the start, every jump sequence counted.
A133046 = [1, 7, 49, 302, 1469, 7361, 36768, 179740, 845931, 3963680, 18391564]
START_FEN = "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"
#: White king on 10 ringed by Black men, and a White man on 27 with two ways to
#: the crown row (worked out square by square in test_king_loops_and_twin_jumps).
RING = "W:W27,K10:B6,7,14,15,22,23"


def snapshot(state: CheckersState) -> tuple[object, ...]:
    return state.to_text(), state.turn, state.quiet_plies, state.move_stack, state.outcome()


@pytest.mark.parametrize("depth", range(9))
def test_perft_from_the_start_is_oeis_a133046(depth: int) -> None:
    assert CHECKERS.perft(CHECKERS.new_state(), depth) == A133046[depth]


def test_fast_perft_agrees_with_the_generic_make_unmake_count() -> None:
    from parlour.core.protocol import _perft

    for text in (START_FEN, RING, "B:WK3,K12,28:BK25,K30,6,7", "W:W18,K26:BK23,19,10,11"):
        state = CHECKERS.state_from_text(text)
        for depth in range(5):
            assert CHECKERS.perft(state, depth) == _perft(state, depth), (text, depth)


def test_perft_through_the_command_line() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "parlour", "perft", "checkers", START_FEN, "5"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().splitlines()[-1] == "7361"


def test_registered_under_its_name() -> None:
    assert get_game("checkers") is CHECKERS
    assert CHECKERS.side_names == ("Black", "White")


def test_start_position() -> None:
    state = CHECKERS.new_state()
    assert state.to_text() == START_FEN
    assert state.turn is BLACK
    assert [str(move) for move in state.legal_moves()] == [
        "9-13", "9-14", "10-14", "10-15", "11-15", "11-16", "12-16"
    ]  # fmt: skip


def test_king_loops_and_twin_jumps() -> None:
    # The king on 10 (d6) jumps 6 to 1 or 7 to 3 and stops there; or it goes round
    # 14, 22, 23, 15 in either direction back to 10 and then takes 6 or 7 as well.
    # The man on 27 (f2) jumps 23 to 18, then 14 to 9 or 15 to 11, then 6 or 7
    # to 2, where it is crowned: two sequences from 27 to 2 over different men.
    state = CHECKERS.state_from_text(RING)
    assert sorted(str(move) for move in state.legal_moves()) == sorted(
        [
            "10x1",
            "10x3",
            "10x17x26x19x10x1",
            "10x17x26x19x10x3",
            "10x19x26x17x10x1",
            "10x19x26x17x10x3",
            "27x18x9x2",
            "27x18x11x2",
        ]
    )
    assert CHECKERS.perft(state, 1) == 8
    assert Move((27, 18, 9, 2)).captured == (23, 14, 6)
    assert Move((27, 18, 11, 2)).captured == (23, 15, 7)
    state.play("27x18x11x2")
    assert state.piece_at(2) == "W"
    assert [state.piece_at(n) for n in (23, 15, 7, 14, 6)] == [None, None, None, "b", "b"]
    state.pop()
    state.play("10x19x26x17x10x3")
    assert state.to_text() == "B:WK3,27:B6"


def test_a_man_crowned_in_a_jump_stops_there() -> None:
    # The man on 22 jumps 26 and lands on 31, the crown row. As a king it could
    # jump 27 next, but crowning ends the move.
    state = CHECKERS.state_from_text("B:W26,27:B22")
    assert [str(move) for move in state.legal_moves()] == ["22x31"]
    with pytest.raises(IllegalMoveError) as raised:
        state.play("22x31x24")
    assert raised.value.rule == "crowning-ends-move"
    assert "crowned on 31" in str(raised.value)
    state.play("22x31")
    assert state.piece_at(31) == "B" and state.piece_at(27) == "w"
    assert state.turn is WHITE


def test_kings_move_one_square_every_way() -> None:
    state = CHECKERS.state_from_text("B:W32:BK14")
    assert sorted(move.end for move in state.legal_moves()) == [9, 10, 17, 18]


@pytest.mark.parametrize(
    ("fen", "text", "rule", "message"),
    [
        (
            "B:W19,21,22,23,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,12,15",
            "9-13",
            "capture-compulsory",
            "a capture is available: 15x24 must be played",
        ),
        (RING, "27x18", "multi-jump-incomplete", "27x18 can continue to 9 or 11"),
        (RING, "10x17x26", "multi-jump-incomplete", "must go on: 10x17x26 can continue to 19"),
        ("B:W30:B14", "14-9", "men-forward", "men move only forward"),
        ("W:W18:B5", "18-22", "men-forward", "men move only forward"),
        (START_FEN, "5-9", "occupied", "that square is occupied: 9"),
        (START_FEN, "21-17", "not-your-piece", "the piece on 21 is not yours"),
        (START_FEN, "13-17", "empty-square", "there is no piece on square 13"),
        (START_FEN, "9-22", "not-diagonal", "steps one square diagonally"),
        (START_FEN, "9x17", "no-such-jump", "no jump sequence of the piece on 9 ends on 17"),
        (START_FEN, "9x18", "nothing-to-jump", "no opposing piece on 14 to jump"),
        ("B:W18:B14,16", "16x23", "nothing-to-jump", "no opposing piece on 19 to jump"),
        ("B:W27:BK1", "1-14", "not-diagonal", "steps one square diagonally"),
    ],
)
def test_illegal_moves_name_the_rule_and_change_nothing(
    fen: str, text: str, rule: str, message: str
) -> None:
    state = CHECKERS.state_from_text(fen)
    before = snapshot(state)
    with pytest.raises(IllegalMoveError) as raised:
        state.play(text)
    assert raised.value.rule == rule
    assert message in str(raised.value)
    assert snapshot(state) == before


def test_push_checks_a_move_value_too() -> None:
    state = CHECKERS.new_state()
    with pytest.raises(IllegalMoveError) as raised:
        state.push(Move((10, 15, 19)))
    assert raised.value.rule == "not-diagonal"
    with pytest.raises(IllegalMoveError) as raised:
        state.push(Move((33, 29)))
    assert raised.value.rule == "no-such-square"
    assert state.to_text() == START_FEN


def test_no_move_loses() -> None:
    blocked = CHECKERS.state_from_text("W:W29:B25,22")
    outcome = blocked.outcome()
    assert outcome is not None and outcome.winner is BLACK and outcome.reason == "no legal move"
    bare = CHECKERS.state_from_text("W:W:B1")
    outcome = bare.outcome()
    assert outcome is not None and outcome.winner is BLACK and outcome.reason == "no pieces left"
    with pytest.raises(GameOverError):
        bare.play("1-5")
    assert CHECKERS.perft(bare, 3) == 0


def test_threefold_repetition_is_claimed_not_automatic() -> None:
    state = CHECKERS.state_from_text("B:WK32:BK1")
    shuffle = ["1-6", "32-27", "6-1", "27-32"]
    for text in shuffle:
        state.play(text)
    assert state.repetitions() == 2 and state.claimable_draw() is None
    for text in shuffle:
        state.play(text)
    assert state.repetitions() == 3
    assert state.claimable_draw() == "threefold repetition"
    assert state.outcome() is None and state.legal_moves()  # play may go on
    outcome = state.claim_draw()
    assert outcome.is_draw and outcome.reason == "threefold repetition"
    assert state.legal_moves() == []


def test_forty_move_rule_counts_king_moves_only() -> None:
    position = CHECKERS.state_from_text("B:WK32,21:BK1,12").position
    state = CheckersState.from_position(position, BLACK, quiet_plies=79)
    assert state.claimable_draw() is None
    with pytest.raises(IllegalMoveError) as raised:
        state.claim_draw()
    assert raised.value.rule == "no-draw-claim"
    state.play("1-6")
    assert state.quiet_plies == 80
    assert state.claimable_draw() == "40-move rule"
    state.play("21-17")  # a man moved: the count starts again
    assert state.quiet_plies == 0 and state.claimable_draw() is None
    state.pop()
    assert state.quiet_plies == 80


def test_a_capture_resets_the_forty_move_count() -> None:
    state = CHECKERS.state_from_text("B:WK23,K32:BK1,K10")
    for text in ("1-5", "23-19", "5-1", "19-15"):
        state.play(text)
    assert state.quiet_plies == 4
    state.play("10x19")
    assert state.quiet_plies == 0


def test_resignation_and_agreement() -> None:
    state = CHECKERS.new_state()
    outcome = state.copy().resign(BLACK)
    assert outcome.winner is WHITE and outcome.reason == "resignation"
    agreed = state.copy()
    assert agreed.agree_draw().is_draw
    assert agreed.legal_moves() == []
    assert not state.is_over()


def test_a_declared_ending_does_not_change_what_the_position_decides() -> None:
    state = CHECKERS.new_state()
    state.resign(WHITE)
    assert state.rules_outcome() is None
    assert state.legal_moves() == []
    outcome = state.outcome()
    assert outcome is not None and outcome.winner is BLACK
