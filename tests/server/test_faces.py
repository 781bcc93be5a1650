"""The board data the front end draws, checked against python-chess (an independent
oracle) and against each game's own move list: a board offers exactly the legal
moves, by their squares."""

from __future__ import annotations

import random

import chess
import gnubg_nn

from parlour.backgammon.board import Position
from parlour.backgammon.face import board as backgammon_board
from parlour.backgammon.face import page, steps
from parlour.backgammon.notation import MatchId, match_id, position_id
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


def test_backgammon_page_offers_the_cube_and_dice_as_buttons_and_explains_points() -> None:
    state = BACKGAMMON.new_state()
    state.play("31")
    state.play("8/5 6/5")  # Black is to roll or double
    shown = page(state)
    assert [(a["move"], a["primary"]) for a in shown["actions"]] == [
        ("roll", True),
        ("double", False),
    ]
    assert [o["label"] for o in shown["offers"]] == ["Single", "Gammon", "Backgammon"]
    assert shown["notice"] is None
    assert shown["info"][0] == {"id": "pips", "text": "Pips: White 163, Black 167"}
    state.play("double")
    assert page(state)["notice"] == "Black doubles to 2: take, or drop and lose 1 point."
    assert [a["move"] for a in page(state)["actions"]] == ["take", "drop"]
    state.play("take")
    state.play("64")  # the doubler's throw, after the take
    notes = backgammon_board(state)["notes"]
    assert notes["3"] == "There is no checker there."
    assert notes["5"] == "Those checkers are your opponent's."  # White's new point
    assert "1" not in notes and "12" not in notes  # Black's 24 and 13: these may move


def test_move_rows_number_chess_and_join_a_backgammon_roll_to_its_throw() -> None:
    from parlour.core.registry import get_face

    chess_record = [
        {"version": 1, "side": 0, "text": "e4"},
        {"version": 2, "side": 1, "text": "e5"},
    ]
    (row,) = get_face("chess").move_rows(CHESS.new_state(), chess_record)
    assert row["number"] == "1." and [c["version"] for c in row["cells"]] == [1, 2]
    state = BACKGAMMON.new_state()
    record = []
    for version, (side, text) in enumerate(
        [(None, "31"), (0, "8/5 6/5"), (1, "roll"), (None, "64"), (1, "24/18 13/9")], start=1
    ):
        record.append({"version": version, "side": side, "text": text})
    rows = get_face("backgammon").move_rows(state, record)
    assert [r["cells"][0]["text"] for r in rows] == [
        "Opening throw: White 3, Black 1",
        "White: 8/5 6/5",
        "Black rolls 6-4",
        "Black: 24/18 13/9",
    ]
    assert [r["cells"][0]["version"] for r in rows] == [1, 2, 4, 5]


def test_every_export_carries_the_date_it_was_written() -> None:
    import datetime

    from parlour.core.registry import get_face

    today = datetime.date.today().strftime("%Y.%m.%d")
    for name, tag in (
        ("chess", f'[Date "{today}"]'),
        ("checkers", f'[Date "{today}"]'),
        ("backgammon", f'; [EventDate "{today}"]'),
    ):
        face = get_face(name)
        series = face.series({})
        written = face.export([series.first()], ("Ann", "Bob"))
        assert written is not None and tag in written.text, name


def _gnubg_agrees(state: BackgammonState) -> None:
    """Our legal plays of ``state`` are gnubg's (its neural-net module, the oracle)."""
    position = state.position
    assert state.dice is not None
    ours = {state.position.apply(play) for play in state.legal_moves() if isinstance(play, tuple)}
    keys = gnubg_nn.moves([list(position.opponent), list(position.mover)], *state.dice)
    theirs = {tuple(map(tuple, gnubg_nn.board_from_position_key(key))) for key in keys}
    assert {(p.opponent, p.mover) for p in ours} == theirs


def test_a_checker_the_dice_could_move_says_which_rule_holds_it() -> None:
    # White 6-1: 10/4 is open, but after it no 1 could be played; 8/2/1 plays both.
    state = BACKGAMMON.state_from_text("/wEAMwz/H5AAAA:MAEHAAAAAAAA")
    _gnubg_agrees(state)
    assert [state.move_to_text(play) for play in state.legal_moves()] == ["8/1"]
    notes = backgammon_board(state)["notes"]
    assert notes["10"] == "Not 10/4: both dice must be used when possible."
    assert notes["1"].startswith("That checker cannot move with the dice left")
    assert not any(line["id"] == "dice-rule" for line in page(state)["info"])


def test_a_roll_only_partly_playable_is_said_in_the_panel() -> None:
    # White 6-1: the checker on 20 may go 20/14 or 20/19, not both: the 6, by rule.
    state = BACKGAMMON.state_from_text("2wAGAP5/AAAEAA:MAEHAAAAAAAA")
    _gnubg_agrees(state)
    rule = [line["text"] for line in page(state)["info"] if line["id"] == "dice-rule"]
    assert rule == [
        "Only one die can be played: the 6. When either could be played but not both, "
        "the higher one must be."
    ]
    # After its one step the turn is complete, and the panel still says why.
    turn = steps(state, ["20/14"])
    assert turn["complete"] and turn["play"] == "20/14"
    # A double of which only some can be played: White's lone runner, 4-4, can
    # reach 20 and 16 only (12 is closed).
    doubled = BACKGAMMON.state_from_text(_white_to_play({24: 1, 1: 14}, {12: 2, 22: 2}, (4, 4)))
    _gnubg_agrees(doubled)
    rule = [line["text"] for line in page(doubled)["info"] if line["id"] == "dice-rule"]
    assert rule == ["Only 2 of the four 4s can be played."]


def _white_to_play(mover: dict[int, int], opponent: dict[int, int], dice: tuple[int, int]) -> str:
    """The Position ID:Match ID of White on roll with ``dice``; points in White's numbering."""
    ours, theirs = [0] * 25, [0] * 25
    for point, count in mover.items():
        ours[point - 1] = count
    for point, count in opponent.items():
        theirs[24 - point] = count
    return f"{position_id(Position(tuple(ours), tuple(theirs)))}:{match_id(MatchId(dice=dice))}"
