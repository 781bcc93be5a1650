"""PDN moves, the FEN tag and PDN files, both ways, and their errors."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from parlour.checkers.board import BLACK, WHITE, Move
from parlour.checkers.notation import parse_fen, position_to_fen
from parlour.checkers.pdn import PdnGame, read_pdn, read_pdn_game, write_pdn
from parlour.checkers.rules import CHECKERS, CheckersState
from parlour.core.errors import IllegalMoveError, NotationError
from tests.checkers.openspiel_oracle import (
    GAME,
    OPENSPIEL_DRAW_PLIES,
    openspiel_board,
    openspiel_moves,
    our_board,
)

DATA = Path(__file__).parent / "data"
START_FEN = "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"
RING = "W:WK10,27:B6,7,14,15,22,23"


def random_game(seed: int, plies: int = 400) -> CheckersState:
    rng = random.Random(seed)
    state = CHECKERS.new_state()
    while not state.is_over() and len(state.move_stack) < plies:
        state.push(rng.choice(state.legal_moves()))
    return state


def replay_in_openspiel(moves: list[Move]) -> Any:  # pyspiel has no stubs
    """Play the moves in OpenSpiel (each must be one of its legal moves there) and
    return its final state."""
    theirs = GAME.new_initial_state()
    for move in moves:
        legal = openspiel_moves(theirs)
        assert move.path in legal, f"{move} is not legal for OpenSpiel"
        for action in legal[move.path]:
            theirs = theirs.child(action)
    return theirs


# -- the FEN tag ----------------------------------------------------------------------


def test_fen_round_trips_every_position_of_random_games() -> None:
    for seed in range(20):
        state = random_game(seed)
        for _ in range(len(state.move_stack)):
            text = state.to_text()
            position, turn = parse_fen(text)
            assert (position, turn) == (state.position, state.turn)
            assert position_to_fen(position, turn) == text
            state.pop()


@pytest.mark.parametrize(
    "text",
    [
        "W:W21,K22:B1,K5",
        "w:w21,k22:b1,k5",
        "W:B1,K5:W21,K22",
        "W:BK5,1:WK22,21",
        '[FEN "W:W21,K22:B1,K5"]',
        '"W:W21,K22:B1,K5"',
        "  W:W21, K22 :B1,K5.  ",
        "W:W21,K22,:B1,K5",
        "W:W21,K22:B1,K5:H0:F1",
    ],
)
def test_fen_variations_other_programs_write(text: str) -> None:
    position, turn = parse_fen(text)
    assert turn is WHITE
    assert position_to_fen(position, turn) == "W:W21,K22:B1,K5"


def test_fen_ranges() -> None:
    position, turn = parse_fen("B:W18-22,K30:B1-3,K9-10")
    assert position_to_fen(position, turn) == "B:W18,19,20,21,22,K30:B1,2,3,K9,K10"
    assert position_to_fen(*parse_fen("B:B1-12:W21-32")) == START_FEN


def test_fen_with_a_side_without_pieces() -> None:
    state = CHECKERS.state_from_text("W:W:BK1")
    assert state.to_text() == "W:W:BK1"
    assert state.outcome() is not None


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "the FEN is empty"),
        ("X:W21:B1", "starts with the side to move, B or W"),
        ("B:W21", "no piece list for Black"),
        ("B:B1", "no piece list for White"),
        ("B:W21:B1:W22", "two piece lists for White"),
        ("B:W21:X1", "starts with W or B"),
        ("B:W21:B0", "square 0 is not on the board"),
        ("B:W33:B1", "square 33 is not on the board"),
        ("B:W21:B1-40", "square 40 is not on the board"),
        ("B:W21,21:B1", "square 21 is listed twice"),
        ("B:W21:B21", "square 21 is listed twice"),
        ("B:W5:B1-5", "square 5 is listed twice"),
        ("B:W1-13:B20", "White 13 pieces; a side has at most 12"),
        ("B:W32:B1-12,K14", "Black 13 pieces"),
        ("B:W21:B30", "a Black man cannot stand on 30"),
        ("B:W3:B10", "a White man cannot stand on 3"),
        ("B:W21:B1,,2", "'' in Black's list is not a square"),
        ("B:W21:B1;2", "'1;2' in Black's list is not a square"),
        ("B:W21:BQ4", "'Q4' in Black's list is not a square"),
        ("B:W21:B9-5", "the range 9-5 runs backwards"),
    ],
)
def test_malformed_fen_is_refused_naming_the_fault(text: str, message: str) -> None:
    with pytest.raises(NotationError) as raised:
        CHECKERS.state_from_text(text)
    assert message in str(raised.value)


def test_kings_on_any_row_are_fine() -> None:
    assert CHECKERS.state_from_text("B:WK1:BK32").to_text() == "B:WK1:BK32"


# -- move text ------------------------------------------------------------------------


def test_move_text_forms() -> None:
    state = CHECKERS.new_state()
    assert state.parse_move("11-15") == Move((11, 15))
    assert state.parse_move(" 11 15 ") == Move((11, 15))
    assert state.parse_move("11-15!") == Move((11, 15))
    assert state.parse_move("f6-e5") == Move((11, 15))  # algebraic, a1 = 29
    ring = CHECKERS.state_from_text(RING)
    assert ring.parse_move("27x18x9x2") == Move((27, 18, 9, 2))
    assert ring.parse_move("27x9x2") == Move((27, 18, 9, 2))
    assert ring.parse_move("10x17x26x19x10x1") == Move((10, 17, 26, 19, 10, 1))
    assert ring.parse_move("10x26x19x1") == Move((10, 17, 26, 19, 10, 1))
    assert ring.parse_move("10X19:26:17:10:1") == Move((10, 19, 26, 17, 10, 1))
    assert ring.parse_move("10x3") == Move((10, 3))


def test_short_and_dash_captures_when_unambiguous() -> None:
    state = CHECKERS.new_state()
    state.play("11-15")
    state.play("24-19")
    assert state.parse_move("15-24") == Move((15, 24))  # a jump written with '-'
    long_jump = CHECKERS.state_from_text("B:W10,19:B6")
    assert [str(move) for move in long_jump.legal_moves()] == ["6x15x24"]
    assert long_jump.parse_move("6x24") == Move((6, 15, 24))
    assert long_jump.parse_move("6-24") == Move((6, 15, 24))


def test_ambiguous_short_capture_is_refused() -> None:
    ring = CHECKERS.state_from_text(RING)
    before = ring.to_text()
    with pytest.raises(NotationError) as raised:
        ring.parse_move("27x2")
    assert "ambiguous" in str(raised.value)
    assert "27x18x9x2" in str(raised.value) and "27x18x11x2" in str(raised.value)
    with pytest.raises(NotationError, match="ambiguous"):
        ring.parse_move("10x17x1")  # both loops pass 17 on the way round
    assert ring.to_text() == before


@pytest.mark.parametrize("text", ["", "11", "11-", "x15", "11-15-", "a9-b8", "11–15x", "@@"])
def test_text_that_is_no_move(text: str) -> None:
    with pytest.raises(NotationError) as raised:
        CHECKERS.new_state().parse_move(text)
    assert "not a checkers move" in str(raised.value)


def test_squares_off_the_board_and_light_squares() -> None:
    state = CHECKERS.new_state()
    with pytest.raises(NotationError, match="square 33 is not on the board"):
        state.parse_move("29-33")
    with pytest.raises(NotationError, match="a2 is a light square"):
        state.parse_move("a2-b3")


def test_a_stopped_multi_jump_in_short_text_is_explained() -> None:
    state = CHECKERS.state_from_text("B:W10,19:B6")
    with pytest.raises(IllegalMoveError) as raised:
        state.play("6x15")
    assert raised.value.rule == "multi-jump-incomplete"
    assert "6x15 can continue to 24" in str(raised.value)


# -- PDN files ------------------------------------------------------------------------


def test_pdn_round_trip_of_random_games() -> None:
    games = []
    for seed in range(12):
        state = random_game(seed, plies=150)
        game = PdnGame.from_state(state, {"Event": f"Random {seed}", "Black": "A", "White": "B"})
        game.comments = {0: ["first move"], 5: ["after {five} plies"]}
        games.append(game)
    text = write_pdn(games)
    assert text.count('[GameType "21"]') == 12
    again = read_pdn(text)
    assert len(again) == 12
    for before, after in zip(games, again, strict=True):
        assert after.moves == before.moves
        assert after.result == before.result
        assert after.tags["Event"] == before.tags["Event"]
        assert after.comments == {0: ["first move"], 5: ["after (five) plies"]}
        assert after.end().to_text() == before.end().to_text()
        assert write_pdn(after) == write_pdn(before)


def test_pdn_round_trip_from_a_set_up_position_with_white_to_move() -> None:
    state = CHECKERS.state_from_text(RING)
    state.play("10x19x26x17x10x1")
    state.play("7-11")
    game = PdnGame.from_state(state)
    text = write_pdn(game)
    assert '[SetUp "1"]' in text and f'[FEN "{RING}"]' in text
    assert "1... 10x19x26x17x10x1 2. 7-11 *" in text
    again = read_pdn_game(text)
    assert again.start_fen == RING and again.moves == state.move_stack


def test_pdn_result_of_a_finished_game() -> None:
    state = CHECKERS.state_from_text("W:W18:B14")
    state.play("18x9")
    text = write_pdn(PdnGame.from_state(state))
    assert '[Result "1-0"]' in text  # White won
    assert read_pdn_game(text).result == "1-0"


def test_checkerboard_style_file() -> None:
    # CRLF line ends, short multi-jumps (13x29), comments, no GameType tag.
    games = read_pdn((DATA / "checkerboard_style.pdn").read_text())
    assert [len(game.moves) for game in games] == [53, 42]
    assert [game.result for game in games] == ["0-1", "1-0"]
    assert games[0].tags["Black"] == "Smith, Anne"
    assert games[0].comments[1] == ["a quiet opening"]
    assert Move((13, 22, 29)) in games[0].moves
    for game in games:
        theirs = replay_in_openspiel(game.moves)
        assert openspiel_board(theirs) == our_board(game.end())
        assert theirs.is_terminal() and game.end().is_over()


def test_site_style_file() -> None:
    # GameType with board size, FEN with White to move, lists in reverse order,
    # lowercase k, ranges, NAGs, a variation, 2-0 results, "23..." numbering.
    games = read_pdn((DATA / "site_style.pdn").read_text())
    assert len(games) == 2
    first, second = games
    assert first.start_fen == "W:WK1,10,21,22,25,27:B8,16,19,28"
    assert first.start().turn is WHITE
    assert len(first.moves) == 91 and first.result == "1-0"
    assert first.moves[2] == Move((27, 20, 11, 4))
    assert first.end().to_text() == "B:WK1,K4,5:B"
    # The set-up position is ply 45 of the seeded random game 4 (that is how the
    # file was made); OpenSpiel cannot be set up from a FEN, so it plays those 45
    # plies, must reach the same board, then plays the file's moves until its own
    # draw rule (40 plies without a capture) stops it.
    prefix = random_game(4, plies=45).move_stack
    theirs = replay_in_openspiel(prefix)
    ours = first.start()
    assert openspiel_board(theirs) == our_board(ours)
    since_capture = 0
    for move in first.moves:
        if since_capture == OPENSPIEL_DRAW_PLIES:
            break
        legal = openspiel_moves(theirs)
        assert move.path in legal
        for action in legal[move.path]:
            theirs = theirs.child(action)
        ours.push(move)
        since_capture = 0 if move.is_capture else since_capture + 1
        assert openspiel_board(theirs) == our_board(ours)
    assert len(ours.move_stack) >= 40
    assert second.start_fen is None or second.start().to_text() == START_FEN
    assert len(second.moves) == 46 and second.result == "1-0"
    theirs = replay_in_openspiel(second.moves)
    assert openspiel_board(theirs) == our_board(second.end())


def test_minimal_file_without_tags_or_numbers() -> None:
    games = read_pdn((DATA / "minimal.pdn").read_text())
    assert [len(game.moves) for game in games] == [20, 30]
    assert [game.result for game in games] == ["*", "1/2-1/2"]
    assert games[1].moves[8] == Move((10, 17))  # written 10-17: a jump with '-'
    for game in games:
        theirs = replay_in_openspiel(game.moves)
        assert openspiel_board(theirs) == our_board(game.end())
        assert game.start().turn is BLACK


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("1. 11-15 24-20 2. 9-13 20-11 *", "PDN game 1, move 2 (White): 20-11"),
        ("1. 11-15 24-19 2. 9-13 *", "move 2 (Black): 9-13: a capture is available: 15x24"),
        ("1. 11-15 24-19 2. 15x22 *", "15x22: there is no opposing piece on 18 to jump"),
        ("1. 11-15 22-26 *", "move 1 (White): 22-26: men move only forward"),
        ("1. 11-15 hello *", "'hello' is neither a move nor a tag"),
        ("1. 11-15 (9-13 *", "a variation '(' is never closed"),
        ("1. 11-15) *", "a ')' closes no variation"),
        ('[FEN "B:W21:B33"]\n1. 1-5 *', "FEN tag: square 33 is not on the board"),
        ('[GameType "20"]\n1. 32-28 *', "GameType 20 is not American checkers"),
        ('[FEN "W:W29:B25,22"]\n1... 29-25 *', "comes after the game ended"),
        (
            "1. 11-15 24-20 *\n1. 11-15 24-20 2. 15-19 20-16 3. 19x26 *",
            "PDN game 2, move 2 (White): 20-16",
        ),
    ],
)
def test_bad_pdn_is_refused_naming_game_move_and_rule(text: str, message: str) -> None:
    with pytest.raises(NotationError) as raised:
        read_pdn(text)
    assert message in str(raised.value)


def test_move_number_styles() -> None:
    for movetext in ("1... 21-17 *", "1. ... 21-17 *", "1.…21-17 *", "21-17 *"):
        game = read_pdn_game('[FEN "W:W21:B1"]\n' + movetext)
        assert game.moves == [Move((21, 17))], movetext


def test_read_pdn_of_nothing() -> None:
    assert read_pdn("") == []
    with pytest.raises(NotationError, match="holds no game"):
        read_pdn_game("  \n")
