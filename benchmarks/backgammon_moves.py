"""Legal-play generation speed: Parlour's ``legal_plays`` against GNU Backgammon's
``moves()`` (gnubg-nn, written in C), on the same positions in the same run.

Positions come from seeded games: by default games that gnubg plays against itself
(real play), or with ``--random`` games of random legal plays (wild positions, many
checkers on the bar). Each position gets a random roll. Both generators are timed
over the whole set several times, alternately, and the best time of each is kept,
so that load from other processes on a shared machine disturbs the ratio little;
times are CPU time of this process (``time.process_time``), not wall-clock time, for
the same reason.

    python benchmarks/backgammon_moves.py [--positions N] [--rounds R] [--random]

It prints calls per second for both, the ratio (ours / gnubg-nn), and the same
split by kind of position, to show where the time goes.
"""

from __future__ import annotations

import argparse
import gc
import random
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import gnubg_nn

from parlour.backgammon.board import CheckerMove, Position, legal_plays


def games(seed: int, *, gnubg_plays: bool) -> Iterator[Position]:
    """Every position, the player on roll to move, of endless seeded games."""
    rng = random.Random(seed)
    while True:
        position = Position.start()
        while not position.win_kind():
            yield position
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            if gnubg_plays:
                board = [list(position.opponent), list(position.mover)]
                play = tuple(CheckerMove(a, b) for a, b in gnubg_nn.best_move(board, *dice))
            else:
                # Sorted, so that the positions do not hang on the order of the list.
                plays = sorted(legal_plays(position, dice))
                play = rng.choice(plays) if plays else ()
            position = position.apply(play)
            if not position.win_kind():
                position = position.swapped()


def kind(position: Position, dice: tuple[int, int]) -> str:
    double = dice[0] == dice[1]
    if position.mover[24]:
        return "bar"
    outside = sum(position.mover[6:24])
    if outside >= (4 if double else 2):
        return "open, doubles" if double else "open"
    return "bear-off, doubles" if double else "bear-off"


def best_time(
    run: Callable[[], None], rounds: int, other: Callable[[], None]
) -> tuple[float, float]:
    ours = theirs = float("inf")
    # As timeit does, the cyclic garbage collector is paused while timing: its passes
    # over every object alive would otherwise be charged to whoever triggered them.
    gc.collect()
    gc.disable()
    try:
        for _ in range(rounds):
            start = time.process_time()
            run()
            ours = min(ours, time.process_time() - start)
            start = time.process_time()
            other()
            theirs = min(theirs, time.process_time() - start)
    finally:
        gc.enable()
    return ours, theirs


def measure(cases: list[tuple[Position, tuple[int, int]]], rounds: int) -> tuple[float, float]:
    boards = [([list(p.opponent), list(p.mover)], a, b) for p, (a, b) in cases]
    moves = gnubg_nn.moves

    def ours() -> None:
        for position, dice in cases:
            legal_plays(position, dice)

    def theirs() -> None:
        for board, a, b in boards:
            moves(board, a, b)

    ours_time, theirs_time = best_time(ours, rounds, theirs)
    return len(cases) / ours_time, len(cases) / theirs_time


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=4000)
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--random", action="store_true", help="random games, not gnubg's")
    parser.add_argument("--seed", type=int, default=2026)
    options = parser.parse_args()

    rng = random.Random(options.seed)
    source = games(options.seed, gnubg_plays=not options.random)
    cases = []
    for _ in range(options.positions):
        cases.append((next(source), (rng.randint(1, 6), rng.randint(1, 6))))
    plays = sum(len(legal_plays(p, d)) for p, d in cases)
    print(
        f"{len(cases)} positions from {'random' if options.random else 'gnubg-played'} games, "
        f"{plays / len(cases):.1f} plays per roll on average; best of {options.rounds} rounds"
    )
    ours, theirs = measure(cases, options.rounds)
    print(
        f"{'all':18} {len(cases):6} calls  parlour {ours:9.0f}/s  gnubg-nn {theirs:9.0f}/s"
        f"  ratio {ours / theirs:.2f}"
    )
    groups: dict[str, list[tuple[Position, tuple[int, int]]]] = {}
    for position, dice in cases:
        groups.setdefault(kind(position, dice), []).append((position, dice))
    for name in ("open", "open, doubles", "bar", "bear-off", "bear-off, doubles"):
        group = groups.get(name, [])
        if not group:
            continue
        ours, theirs = measure(group, options.rounds)
        share = sum(len(legal_plays(p, d)) for p, d in group) / len(group)
        print(
            f"{name:18} {len(group):6} calls  parlour {ours:9.0f}/s  gnubg-nn {theirs:9.0f}/s"
            f"  ratio {ours / theirs:.2f}  ({share:.1f} plays per roll)"
        )


if __name__ == "__main__":
    main()
