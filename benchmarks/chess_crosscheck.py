"""A long cross-check of the chess rules against python-chess: many more seeded random
games than the test run plays, with the same comparisons at every position (legal
moves, FEN, SAN of every legal move, check, outcome, claimable draws).

    python benchmarks/chess_crosscheck.py --games 1000 --first-seed 100000

Prints a line per hundred games and, at the end, the number of games that disagreed
(0 expected) and the kinds of events the games went through.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

import chess

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.chess.test_oracle import play_cross_checked, random_start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--first-seed", type=int, default=100_000)
    args = parser.parse_args()
    rng = random.Random(args.first_seed)
    failures = 0
    seen: dict[str, int] = {}
    started = time.perf_counter()
    for n in range(args.games):
        seed = args.first_seed + n
        fen = chess.STARTING_FEN if n % 10 == 0 else random_start(rng)
        try:
            events = play_cross_checked(fen, seed)
        except AssertionError as error:
            failures += 1
            print(f"MISMATCH in game {n} (seed {seed}, start {fen}): {error}")
            continue
        for event in events - {""}:
            seen[event] = seen.get(event, 0) + 1
        if (n + 1) % 100 == 0:
            print(f"{n + 1} games, {failures} mismatches, {time.perf_counter() - started:.0f} s")
    print(f"{args.games} games cross-checked, {failures} with a mismatch")
    print("events:", ", ".join(f"{name} {count}" for name, count in sorted(seen.items())))
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
