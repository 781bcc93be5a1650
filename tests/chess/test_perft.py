"""perft: the number of leaf nodes of the legal-move tree, compared with the published
counts for the six standard test positions (chessprogramming.org's perft results, as
listed in the research notes). Any error in move generation, make or unmake shows up
as a wrong count. Deeper counts run in benchmarks/chess_perft.py."""

from __future__ import annotations

import subprocess
import sys

import pytest

from parlour.chess.rules import CHESS, ChessState
from parlour.core.registry import get_game

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
POSITION_3 = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"
POSITION_4 = "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1"
POSITION_5 = "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8"
POSITION_6 = "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10"

#: Published counts, depth 1 upwards.
COUNTS = {
    START: [20, 400, 8902, 197281, 4865609],
    KIWIPETE: [48, 2039, 97862, 4085603],
    POSITION_3: [14, 191, 2812, 43238, 674624],
    POSITION_4: [6, 264, 9467, 422333],
    POSITION_5: [44, 1486, 62379, 2103487],
    POSITION_6: [46, 2079, 89890, 3894594],
}
#: How deep the test run goes with make/unmake at every leaf (a few seconds each).
DEPTH = {START: 4, KIWIPETE: 3, POSITION_3: 5, POSITION_4: 4, POSITION_5: 3, POSITION_6: 3}


@pytest.mark.parametrize("fen", list(COUNTS), ids=["start", "kiwipete", "3", "4", "5", "6"])
def test_perft_making_every_move_matches_the_published_counts(fen: str) -> None:
    state = CHESS.state_from_text(fen)
    for depth in range(1, DEPTH[fen] + 1):
        assert state.perft(depth) == COUNTS[fen][depth - 1], f"depth {depth}"
    assert state.to_text() == fen, "perft left the board changed"
    assert state.hash == state.compute_hash(), "perft left the hash changed"


@pytest.mark.slow
@pytest.mark.parametrize(
    ("fen", "depth"), [(START, 5), (KIWIPETE, 4), (POSITION_5, 4), (POSITION_6, 4)]
)
def test_game_perft_one_ply_deeper(fen: str, depth: int) -> None:
    """Game.perft counts the last ply without making it; one ply deeper."""
    state = CHESS.state_from_text(fen)
    assert CHESS.perft(state, depth) == COUNTS[fen][depth - 1]
    assert state.to_text() == fen


def test_the_hash_is_kept_exactly_through_make_and_unmake() -> None:
    """The incremental Zobrist hash equals the one computed from scratch at every node
    of a small tree (castling, en passant, promotions and captures included)."""

    def walk(state: ChessState, depth: int) -> int:
        assert state.hash == state.compute_hash(), state.to_text()
        if depth == 0:
            return 1
        total = 0
        for m in state.generate():
            state.make(m)
            total += walk(state, depth - 1)
            state.unmake()
        return total

    for fen in (KIWIPETE, POSITION_4, POSITION_5):
        state = CHESS.state_from_text(fen)
        assert walk(state, 2) == COUNTS[fen][1]


def test_parlour_perft_chess_prints_the_count() -> None:
    completed = subprocess.run(
        [sys.executable, "-m", "parlour", "perft", "chess", KIWIPETE, "2"],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert completed.returncode == 0, completed.stderr
    assert completed.stdout.strip().splitlines()[-1] == "2039"


def test_parlour_perft_chess_refuses_a_bad_fen() -> None:
    completed = subprocess.run(
        [sys.executable, "-m", "parlour", "perft", "chess", "8/8/8/8 w - - 0 1", "2"],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert completed.returncode == 1
    assert "placement has 4 ranks" in completed.stderr


def test_chess_is_registered() -> None:
    assert get_game("chess") is CHESS
    assert CHESS.perft(CHESS.new_state(), 0) == 1
    with pytest.raises(ValueError):
        CHESS.perft(CHESS.new_state(), -1)
