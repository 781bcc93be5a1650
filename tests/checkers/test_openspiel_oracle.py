"""Legal move sets checked against OpenSpiel's checkers, move by move.

OpenSpiel cannot be set up from a FEN from Python (its ``SetCustomBoard`` is not
exposed and its only parameters are the board size), so the special cases --
kings, a man crowned in the middle of a jump, two jump sequences between the same
squares -- are found in seeded random games from the start and counted: the test
fails if too few of them were met, so the cross-check provably covers them.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from parlour.checkers.board import BLACK, SQUARE_BIT, Move, Position, children, count_moves
from parlour.checkers.rules import CHECKERS, CheckersState
from tests.checkers.openspiel_oracle import (
    GAME,
    OPENSPIEL_DRAW_PLIES,
    openspiel_board,
    openspiel_moves,
    our_board,
)

GAMES = 300
#: Seeds whose random games reach a position with two jump sequences between the
#: same two squares (about one game in 250 does). They were found by scanning
#: seeds 0-2964 with our move generator; OpenSpiel gives the verdict on them.
SEEDS_WITH_TWIN_JUMPS = (198, 311, 428, 669, 796, 818, 1329, 1612, 2498, 2558, 2600, 2964)


def _play(state: Any, actions: list[int]) -> Any:
    for action in actions:
        state = state.child(action)
    return state


def board_position(board: dict[int, str]) -> Position:
    """Our bitboards of a board given square by square."""
    masks = dict.fromkeys("bBwW", 0)
    for square, piece in board.items():
        masks[piece] |= 1 << SQUARE_BIT[square]
    return masks["b"], masks["B"], masks["w"], masks["W"]


def _square_at(row: int, column: int) -> int | None:
    if 0 <= row < 8 and 0 <= column < 8 and (row + column) % 2 == 1:
        return 4 * row + column // 2 + 1
    return None


def _crowned_with_jumps_left(state: CheckersState, move: Move) -> bool:
    """Whether ``move`` crowns a man in the middle of a jump: it lands on the far
    row and, were it allowed to go on as a king, another jump would be there."""
    if not move.is_capture or state.piece_at(move.start) not in ("b", "w"):
        return False
    crown_row = 7 if state.turn is BLACK else 0
    row, column = divmod(move.end - 1, 4)
    if row != crown_row:
        return False
    column = 2 * column + (1 if row % 2 == 0 else 0)
    board = our_board(state)
    for square in (*move.captured, move.start):
        board.pop(square, None)
    enemy = "wW" if state.turn is BLACK else "bB"
    for dr, dc in ((-1, -1), (-1, 1), (1, -1), (1, 1)):
        over, land = _square_at(row + dr, column + dc), _square_at(row + 2 * dr, column + 2 * dc)
        if over and land and board.get(over, ".") in enemy and land not in board:
            return True
    return False


def cross_check_game(seed: int, seen: Counter[str]) -> None:
    rng = random.Random(seed)
    ours = CHECKERS.new_state()
    theirs = GAME.new_initial_state()
    since_capture = 0
    while since_capture < OPENSPIEL_DRAW_PLIES:
        assert our_board(ours) == openspiel_board(theirs), f"seed {seed}: boards differ"
        expected = openspiel_moves(theirs)
        legal = ours.legal_moves()
        got = {move.path for move in legal}
        assert got == set(expected), (
            f"seed {seed} at {ours.to_text()}: only ours {sorted(got - set(expected))}, "
            f"only OpenSpiel's {sorted(set(expected) - got)}"
        )
        # The fast counting and child generation used by perft and the engine
        # must agree with OpenSpiel too.
        assert count_moves(ours.position, ours.turn) == len(expected)
        if seen["positions"] % 4 == 0:
            after = sorted(
                board_position(openspiel_board(_play(theirs, a))) for a in expected.values()
            )
            assert sorted(children(ours.position, ours.turn)) == after, ours.to_text()
        seen["positions"] += 1
        if not legal:
            assert theirs.is_terminal() and ours.is_over()
            seen["games won by blocking or capturing all"] += 1
            return
        assert theirs.current_player() == (0 if ours.turn is BLACK else 1)
        board = our_board(ours)
        if any(piece.isupper() for piece in board.values()):
            seen["positions with kings"] += 1
        if any(board[move.start].isupper() for move in legal):
            seen["positions with king moves"] += 1
        if any(board[move.start].isupper() and move.is_capture for move in legal):
            seen["positions with king jumps"] += 1
        if any(len(move.path) > 2 for move in legal):
            seen["positions with multi-jumps"] += 1
        if any(_crowned_with_jumps_left(ours, move) for move in legal):
            seen["crowning in the middle of a jump"] += 1
        ends = Counter((move.start, move.end) for move in legal if move.is_capture)
        if any(count > 1 for count in ends.values()):
            seen["two jump sequences between the same squares"] += 1
        move = rng.choice(legal)
        ours.push(move)
        for action in expected[move.path]:
            theirs = theirs.child(action)
        since_capture = 0 if move.is_capture else since_capture + 1
    seen["games stopped by OpenSpiel's draw rule"] += 1


def test_random_games_have_the_same_move_sets_as_openspiel() -> None:
    seen: Counter[str] = Counter()
    for seed in (*range(GAMES), *SEEDS_WITH_TWIN_JUMPS):
        cross_check_game(seed, seen)
    print(dict(seen))
    assert seen["positions"] >= 5000
    assert seen["positions with king moves"] >= 500
    assert seen["positions with king jumps"] >= 50
    assert seen["positions with multi-jumps"] >= 100
    assert seen["crowning in the middle of a jump"] >= 3
    assert seen["two jump sequences between the same squares"] >= 10


def test_the_oracle_adapter_reads_openspiel_the_right_way_up() -> None:
    # OpenSpiel's first player starts at the bottom; turned half a turn its seven
    # opening moves must be Black's from squares 9-12.
    start = GAME.new_initial_state()
    assert set(openspiel_moves(start)) == {
        (9, 13), (9, 14), (10, 14), (10, 15), (11, 15), (11, 16), (12, 16)
    }  # fmt: skip
    assert openspiel_board(start) == our_board(CHECKERS.new_state())
