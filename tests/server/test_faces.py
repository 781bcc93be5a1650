"""The board data the front end draws, checked against python-chess (an independent
oracle) and against each game's own move list: a board offers exactly the legal
moves, by their squares."""

from __future__ import annotations

import random

import chess

from parlour.backgammon.face import board as backgammon_board
from parlour.backgammon.face import steps
from parlour.backgammon.rules import BACKGAMMON, BackgammonState, Phase
from parlour.checkers.face import board as checkers_board
from parlour.checkers.rules import CHECKERS
from parlour.chess.face import board as chess_board
from parlour.chess.rules import CHESS


def test_chess_board_offers_python_chess_legal_moves() -> None:
    rng = random.Random(7)
    for _ in range(6):
        state, oracle = CHESS.new_state(), chess.Board()
        for _ in range(rng.randrange(10, 60)):
            if oracle.is_game_over():
                break
            data = chess_board(state)
            offered = {m["from"] + m["to"] + (m["promotion"] or "") for m in data["moves"]}
            assert offered == {move.uci() for move in oracle.legal_moves}
            assert (data["check"] is not None) == oracle.is_check()
            assert data["pieces"] == {
                chess.square_name(sq): piece.symbol() for sq, piece in oracle.piece_map().items()
            }
            move = rng.choice(list(oracle.legal_moves))
            oracle.push(move)
            state.play(move.uci())
            assert chess_board(state)["last"] == [move.uci()[:2], move.uci()[2:4]]


def test_checkers_board_offers_the_legal_moves_and_says_when_a_jump_is_forced() -> None:
    rng = random.Random(3)
    state = CHECKERS.new_state()
    for _ in range(40):
        if state.is_over():
            break
        data = checkers_board(state)
        legal = state.legal_moves()
        assert sorted(m["text"] for m in data["moves"]) == sorted(map(state.move_to_text, legal))
        assert data["must_capture"] == any(move.is_capture for move in legal)
        state.push(rng.choice(legal))


def clickable_plays(state: BackgammonState, made: list[str]) -> set[str]:
    """Every play reachable by clicking the steps offered, one after another."""
    turn = steps(state, made)
    reached = {turn["play"]} if turn["complete"] else set()
    for option in turn["options"]:
        reached |= clickable_plays(state, [*made, option["text"]])
    return reached


def test_backgammon_steps_reach_exactly_the_legal_plays() -> None:
    """Every way of clicking checkers one at a time ends in a legal play, and every
    legal play can be clicked (the steps walk the same tree as the rules)."""
    rng = random.Random(11)
    state = BACKGAMMON.new_state()
    checked = 0
    while checked < 6 and not state.is_over():
        if state.phase is Phase.PLAY:
            legal = {state.move_to_text(m) for m in state.legal_moves()}
            assert clickable_plays(state, []) == legal
            layout = backgammon_board(state)
            on_board = sum(n for n in layout["points"] if n > 0)
            assert on_board + layout["bar"][0] + layout["off"][0] == 15
            checked += 1
        if state.phase is Phase.CUBE:
            state.play("roll")
        else:
            state.push(rng.choice(state.legal_moves()))  # dice too: a random throw
    assert checked == 6
