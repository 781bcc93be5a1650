"""The endgame database: its moves are the rules' moves, its verdicts hold move by
move, py-draughts' move generator confirms the short wins and losses it finds, and
the engine plays by it."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import numpy as np
import pytest

from parlour.checkers import endgame
from parlour.checkers.board import BLACK, SQUARE_BIT, WHITE, children, turned
from parlour.checkers.endgame import EndgameDatabase, Verdict, shipped_database, slot_count
from parlour.checkers.engine import CheckersEngine
from parlour.checkers.notation import parse_fen, position_to_fen
from parlour.checkers.rules import CheckersState
from tests.checkers.test_pydraughts_oracle import CompulsoryCaptureBoard


@pytest.fixture(scope="module")
def shipped() -> EndgameDatabase:
    db = shipped_database()
    assert db is not None, f"{endgame.SHIPPED} is missing: run parlour checkers-endgames"
    return db


def _padded(mask: int) -> int:
    return sum(1 << SQUARE_BIT[b + 1] for b in range(32) if mask >> b & 1)


@pytest.mark.parametrize(("pieces", "sample"), [(3, None), (4, 20_000)])
def test_the_moves_of_the_table_are_the_rules_moves(pieces: int, sample: int | None) -> None:
    """For every position of up to three pieces and 20,000 of four, the table's
    array move generator finds the same moves (as many, to the same positions) as
    the rules module, and numbering and un-numbering agree."""
    db = EndgameDatabase(pieces, np.zeros(slot_count(pieces), dtype=np.uint8))
    men, kings, other_men, other_kings, real = endgame._all_positions(pieces)
    slots = np.flatnonzero(real)
    if sample is not None:
        slots = np.sort(np.random.default_rng(7).choice(slots, sample, replace=False))
    parents, after = endgame._moves(
        slots, men[slots], kings[slots], other_men[slots], other_kings[slots], pieces
    )
    found: dict[int, Counter[int]] = {int(s): Counter() for s in slots}
    for parent, child in zip(parents.tolist(), after.tolist(), strict=True):
        found[parent][child] += 1
    for slot in slots.tolist():
        position = tuple(_padded(int(b[slot])) for b in (men, kings, other_men, other_kings))
        assert db.position(slot) == position
        assert db.slot(position, BLACK) == slot
        expected = Counter(
            -1 if (s := db.slot(child, WHITE)) is None else s for child in children(position, BLACK)
        )
        assert found[slot] == expected, position_to_fen(position, BLACK)


def test_the_shipped_table_is_the_table_built_here(shipped: EndgameDatabase) -> None:
    """Up to three pieces the slots are the same: the shipped file agrees with a
    table built now, position for position."""
    small = EndgameDatabase.build(pieces=3)
    assert shipped.pieces == 4
    assert np.array_equal(shipped.codes[: len(small.codes)], small.codes)
    assert int((small.codes > 0).sum()) == 188_673  # decided positions of two or three pieces


def test_every_verdict_holds_move_by_move(shipped: EndgameDatabase) -> None:
    """For 6,000 random positions (either side to move), the verdict follows from
    the verdicts after each legal move as the rules generate them: a win in n has a
    move to a loss in n - 1 and none quicker; a loss in n has only moves to wins,
    the slowest in n - 1; a draw has no move to a loss and a move to a draw."""
    rng = random.Random(11)
    checked = Counter[str]()
    while sum(checked.values()) < 6000:
        slot = rng.randrange(len(shipped.codes))
        try:
            position = shipped.position(slot)
        except ValueError:
            continue
        side = rng.choice((BLACK, WHITE))
        if side is WHITE:  # the same slot read with White to move: turn it
            position = turned(position)
        verdict = shipped.probe(position, side)
        assert verdict is not None
        # A child the table does not hold has no pieces for its side to move: lost.
        after = [
            shipped.probe(child, side.other) or Verdict("loss", 0)
            for child in children(position, side)
        ]
        losses = [v.plies for v in after if v.result == "loss" and v.plies is not None]
        wins = [v.plies for v in after if v.result == "win" and v.plies is not None]
        if verdict.result == "win":
            assert verdict.plies == min(losses) + 1
        elif verdict.result == "loss":
            assert len(wins) == len(after)
            assert verdict.plies == (max(wins) + 1 if wins else 0)
        else:
            assert not losses and len(wins) < len(after)
        checked[verdict.result] += 1
    assert min(checked.values()) > 500, checked


# -- py-draughts as the oracle of short wins ------------------------------------------


def _wins_within(board: Any, plies: int) -> bool:
    """The side to move can leave the other without a move within ``plies``."""
    if plies <= 0:
        return False
    for move in list(board.legal_moves):
        board.push(move)
        lost = _loses_within(board, plies - 1)
        board.pop()
        if lost:
            return True
    return False


def _loses_within(board: Any, plies: int) -> bool:
    moves = list(board.legal_moves)
    if not moves:
        return True
    if plies <= 0:
        return False
    for move in moves:
        board.push(move)
        won = _wins_within(board, plies - 1)
        board.pop()
        if not won:
            return False
    return True


def test_py_draughts_confirms_the_quick_wins_and_losses(shipped: EndgameDatabase) -> None:
    """Positions the table calls won in 1, 3 or 5 plies, or lost in 2 or 4, are
    exactly that by a full search over py-draughts' own move generator (captures
    compulsory, as the ACF plays); positions it calls drawn hold for 4 plies."""
    rng = random.Random(5)
    wanted = {
        Verdict("win", 1): 8,
        Verdict("win", 3): 8,
        Verdict("win", 5): 6,
        Verdict("loss", 2): 8,
        Verdict("loss", 4): 6,
        Verdict("draw", None): 8,
    }
    while any(wanted.values()):
        slot = rng.randrange(slot_count(3))  # two or three pieces: quick to search
        try:
            position = shipped.position(slot)
        except ValueError:
            continue
        verdict = Verdict.of(int(shipped.codes[slot]))
        if not wanted.get(verdict):
            continue
        wanted[verdict] -= 1
        board = CompulsoryCaptureBoard.from_fen(position_to_fen(position, BLACK))
        plies = verdict.plies
        if verdict.result == "win":
            assert plies is not None
            assert _wins_within(board, plies) and not _wins_within(board, plies - 2)
        elif verdict.result == "loss":
            assert plies is not None
            assert _loses_within(board, plies) and not _loses_within(board, plies - 2)
        else:
            assert not _wins_within(board, 5) and not _loses_within(board, 4)


# -- the engine ------------------------------------------------------------------------


def test_the_engine_takes_the_quickest_win_and_never_lets_it_go(
    shipped: EndgameDatabase,
) -> None:
    """Two kings against one: every move the engine makes keeps the win and brings
    it a move nearer, and the game ends in exactly the plies the table says."""
    engine = CheckersEngine()
    assert engine.endgames is shipped
    position, turn = parse_fen("W:WK29,K30:BK4")
    state = CheckersState.from_position(position, turn)
    verdict = shipped.probe(state.position, state.turn)
    assert verdict is not None and verdict.result == "win" and verdict.plies is not None
    for plies_left in range(verdict.plies, 0, -1):
        assert shipped.probe(state.position, state.turn) == Verdict(
            "win" if plies_left % 2 else "loss", plies_left
        )
        state.push(engine.choose_move(state, level=5))
    assert state.rules_outcome() is not None and state.rules_outcome().winner is WHITE


def test_the_engine_scores_a_table_win_as_a_win_in_moves(shipped: EndgameDatabase) -> None:
    """The analysis of a position the table holds reports its win in moves, and
    its line plays the win out to the end."""
    state = CheckersState.from_position(*parse_fen("W:WK29,K30:BK4"))
    verdict = shipped.probe(state.position, state.turn)
    assert verdict is not None and verdict.plies is not None
    found = CheckersEngine().analyse(state, seconds=0.3)
    assert found is not None
    assert CheckersEngine().score_text(found.score) == f"#{(verdict.plies + 1) // 2}"
    line = found.lines[0].pv
    assert len(line) == verdict.plies
    for text in line:
        state.push(state.parse_move(text))
    outcome = state.rules_outcome()
    assert outcome is not None and outcome.winner is WHITE
