"""Chess perft speed: Parlour against python-chess, in the same run.

Both count the leaf nodes of the same trees the same way -- generate the legal moves,
make each move and unmake it at every node, leaves included -- so the ratio measures
move generation plus make/unmake, the work a search engine does. python-chess runs
``board.legal_moves``, ``board.push`` and ``board.pop``; Parlour its fast path
(``ChessState.perft``: ``generate``, ``make``, ``unmake``). Every count is checked
against the published numbers.

    python benchmarks/chess_perft.py            # the six standard positions
    python benchmarks/chess_perft.py --deep     # also deeper counts (Parlour only, bulk)

The machine is shared and noisy: only the ratio means much.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import chess

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from parlour.chess.rules import CHESS

POSITIONS = [
    (
        "start",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        4,
        [20, 400, 8902, 197281, 4865609, 119060324],
    ),
    (
        "kiwipete",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        3,
        [48, 2039, 97862, 4085603, 193690690],
    ),
    (
        "position 3",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        5,
        [14, 191, 2812, 43238, 674624, 11030083],
    ),
    (
        "position 4",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        4,
        [6, 264, 9467, 422333, 15833292],
    ),
    (
        "position 5",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        3,
        [44, 1486, 62379, 2103487, 89941194],
    ),
    (
        "position 6",
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
        3,
        [46, 2079, 89890, 3894594, 164075551],
    ),
]


def python_chess_perft(board: chess.Board, depth: int) -> int:
    if depth == 0:
        return 1
    total = 0
    for move in board.legal_moves:
        board.push(move)
        total += python_chess_perft(board, depth - 1)
        board.pop()
    return total


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deep", action="store_true", help="also count one to two plies deeper")
    parser.add_argument("--extra", type=int, default=0, help="add this to every depth")
    args = parser.parse_args()

    ours_nodes = ours_time = theirs_nodes = theirs_time = 0.0
    print(
        f"{'position':12} {'depth':>5} {'nodes':>10} {'parlour n/s':>12} "
        f"{'python-chess n/s':>17} {'ratio':>6}"
    )
    for name, fen, depth, counts in POSITIONS:
        depth += args.extra
        state = CHESS.state_from_text(fen)
        started = time.perf_counter()
        ours = state.perft(depth)
        ours_seconds = time.perf_counter() - started
        board = chess.Board(fen)
        started = time.perf_counter()
        theirs = python_chess_perft(board, depth)
        theirs_seconds = time.perf_counter() - started
        expected = counts[depth - 1]
        if ours != expected or theirs != expected:
            print(
                f"MISMATCH {name} depth {depth}: ours {ours}, python-chess {theirs}, "
                f"published {expected}"
            )
            return 1
        ours_nodes += ours
        ours_time += ours_seconds
        theirs_nodes += theirs
        theirs_time += theirs_seconds
        ratio = (ours / ours_seconds) / (theirs / theirs_seconds)
        print(
            f"{name:12} {depth:>5} {ours:>10} {ours / ours_seconds:>12,.0f} "
            f"{theirs / theirs_seconds:>17,.0f} {ratio:>5.2f}x"
        )
    ratio = (ours_nodes / ours_time) / (theirs_nodes / theirs_time)
    print(
        f"{'all':12} {'':>5} {int(ours_nodes):>10} {ours_nodes / ours_time:>12,.0f} "
        f"{theirs_nodes / theirs_time:>17,.0f} {ratio:>5.2f}x"
    )

    if args.deep:
        print("\nDeeper counts (Parlour's Game.perft: the last ply counted, not made):")
        for name, fen, depth, counts in POSITIONS:
            deep = min(depth + 2, len(counts)) if name == "position 3" else depth + 1
            state = CHESS.state_from_text(fen)
            started = time.perf_counter()
            nodes = CHESS.perft(state, deep)
            seconds = time.perf_counter() - started
            verdict = "ok" if nodes == counts[deep - 1] else f"WRONG, expected {counts[deep - 1]}"
            print(f"{name:12} depth {deep}: {nodes} in {seconds:.1f} s ({verdict})")
            if nodes != counts[deep - 1]:
                return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
