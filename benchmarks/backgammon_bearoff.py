"""Bear-off races with and without the bear-off database: the engine at a level,
judging races by the database, against itself judging them by the network, from
random positions with every checker home, each dice sequence played twice with the
seats swapped (duplicate dice), cubeless money points per game for the database:

    python benchmarks/backgammon_bearoff.py --pairs 1000 --level 5
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from parlour.backgammon.board import Position
from parlour.backgammon.engine import BackgammonEngine


def random_home(rng: random.Random) -> tuple[int, ...]:
    board = [0] * 25
    for _ in range(rng.randint(4, 15)):
        board[rng.randrange(6)] += 1
    return tuple(board)


def play(
    start: Position,
    engines: tuple[BackgammonEngine, BackgammonEngine],
    dice: random.Random,
    level: int,
) -> int:
    """Points for engines[0], who is on roll first."""
    position, turn = start, 0
    while True:
        throw = (dice.randint(1, 6), dice.randint(1, 6))
        chosen = engines[turn].choose_play(position, throw, level)
        position = position.apply(chosen)
        if position.win_kind():
            points = position.win_kind()
            return points if turn == 0 else -points
        position, turn = position.swapped(), 1 - turn


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pairs", type=int, default=1000)
    parser.add_argument("--level", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    exact, network = BackgammonEngine(), BackgammonEngine(bearoff=False)
    rng = random.Random(args.seed)
    results = []
    for _ in range(args.pairs):
        start = Position(random_home(rng), random_home(rng))
        seed = rng.random()
        first = play(start, (exact, network), random.Random(seed), args.level)
        second = -play(start, (network, exact), random.Random(seed), args.level)
        results.append((first + second) / 2)
    mean = statistics.fmean(results)
    spread = 1.96 * statistics.stdev(results) / len(results) ** 0.5
    print(
        f"{args.pairs} pairs of games at level {args.level}: database {mean:+.4f} points "
        f"per game (95 % interval {mean - spread:+.4f} to {mean + spread:+.4f})"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
