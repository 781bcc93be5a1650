"""The chess search in C against the Python one on random positions: each position
searched by new searchers of both kinds and by a pair kept from search to search,
with random limits (a depth up to 5, a node limit up to 30,000, MultiPV 3, exact
root scores); every result must be the same but for its time.

Run from the repository root once ``parlour compile`` has built the C search::

    .venv/bin/python benchmarks/chess_native_agree.py --seed 7 --positions 150

Each position is reached by random moves (up to 60) from one of four of the perft
positions; a position whose game is over is passed over. Prints each difference,
then how many positions were compared and how many differed (exit status 1 if any).
"""

from __future__ import annotations

import argparse
import random
import sys
from typing import Any

from parlour.chess.engine import NATIVE, NativeSearcher, Searcher
from parlour.chess.rules import CHESS

STARTS = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--positions", type=int, default=150)
    args = parser.parse_args()
    if not NATIVE:
        sys.exit("the chess search in C is not built: run `parlour compile`")
    rng = random.Random(args.seed)
    kept_python, kept_c = Searcher(hash_entries=20_000), NativeSearcher(hash_entries=20_000)
    compared = differed = 0
    for _ in range(args.positions):
        state = CHESS.state_from_text(rng.choice(STARTS))
        for _ in range(rng.randrange(0, 60)):
            moves = state.generate()
            if not moves:
                break
            state.make(rng.choice(moves))
        if state.is_over():
            continue
        limits: dict[str, Any] = rng.choice(
            [
                {"depth": rng.randrange(1, 6)},
                {"nodes": rng.randrange(1, 30_000)},
                {"depth": 3, "multipv": 3},
                {"depth": 3, "exact_root": True, "margin": 80},
            ]
        )
        pairs = [
            (Searcher().search(state, **limits), NativeSearcher().search(state, **limits)),
            (kept_python.search(state, **limits), kept_c.search(state, **limits)),
        ]
        compared += 1
        if any(python != in_c for python, in_c in pairs):
            differed += 1
            print("DIFFERENT", state.to_text(), limits, flush=True)
    print(f"{compared} positions compared, {differed} different")
    sys.exit(1 if differed else 0)


if __name__ == "__main__":
    main()
