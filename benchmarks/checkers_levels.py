"""Checkers levels: one level against another, or against py-draughts' engine.

Run from the repository root::

    .venv/bin/python benchmarks/checkers_levels.py 3 4 --jobs 2            # level 3 against 4
    .venv/bin/python benchmarks/checkers_levels.py 2 py-draughts --jobs 2  # at level 2's time
    .venv/bin/python benchmarks/checkers_levels.py 5 py-draughts --ballots 6
    .venv/bin/python benchmarks/checkers_levels.py 9 10 --skip 8 --ballots 8  # ballots 9-16

Each player is a level of Parlour's engine, played as a game against the computer
plays it (``CheckersEngine.choose_move``: the level's time, its deliberate mistakes,
its opening book), or ``py-draughts``: py-draughts' engine with the ACF capture rule
(see ``checkers_match.py``), given the time per move of the level it meets
(``--seconds`` to set it). The low levels' mistakes are seeded by the game's
number, so a match replays move for move where time does not decide.

The games start from the ballots of ``checkers_match.py``, each played twice with
colours swapped, and are adjudicated by our rules as there. It prints each game,
then the first player's score with its 95 % interval and the Elo difference.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from checkers_match import (
    BALLOTS,
    Peer,
    balanced_starts,
    ballot_state,
    game_end,
    game_line,
    score_lines,
)

from parlour.checkers.board import BLACK, Move
from parlour.checkers.engine import LEVELS, CheckersEngine
from parlour.checkers.rules import CheckersState

PEER = "py-draughts"


class LevelPlayer:
    """Parlour's engine at one level, its mistakes drawn from a seeded generator."""

    def __init__(self, level: int, seed: int) -> None:
        self.level = level
        self.engine = CheckersEngine()
        self.rng = random.Random(seed)

    def push(self, move: Move) -> None:
        pass  # the engine is asked about the whole position each time

    def choose(self, state: CheckersState) -> Move:
        return self.engine.choose_move(state, level=self.level, rng=self.rng)


def player(name: str, other: str, seconds: float | None, seed: int) -> LevelPlayer | Peer:
    if name != PEER:
        return LevelPlayer(int(name), seed)
    if seconds is None:
        seconds = LEVELS[int(other)].seconds
    return Peer(seconds)


def play(task: tuple[int, str, bool, str, str, float | None]) -> tuple[int, bool, float, str, int]:
    """One game: (its number, the first player is Black, the first player's score,
    why it ended, plies)."""
    number, ballot, first_black, first, second, seconds = task
    state = ballot_state(ballot)
    players = {
        True: player(first, second, seconds, seed=2 * number),
        False: player(second, first, seconds, seed=2 * number + 1),
    }
    for move in state.move_stack:
        for each in players.values():
            each.push(move)
    while (end := game_end(state, first_black)) is None:
        mover = players[(state.turn is BLACK) == first_black]
        move = mover.choose(state)
        for each in players.values():
            if each is not mover:  # the peer has pushed its own move on its board
                each.push(move)
        state.push(move)
    score, why = end
    return number, first_black, score, why, len(state.move_stack)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("first", help="a level (1-10) or py-draughts")
    parser.add_argument("second", help="a level (1-10) or py-draughts")
    parser.add_argument("--ballots", type=int, default=len(BALLOTS), help="how many ballots")
    parser.add_argument("--skip", type=int, default=0, help="start after this many ballots")
    parser.add_argument("--seconds", type=float, help="py-draughts' time per move")
    parser.add_argument("--jobs", type=int, default=2, help="games played at once")
    args = parser.parse_args()
    for name in (args.first, args.second):
        if name != PEER and (not name.isdigit() or int(name) not in LEVELS):
            parser.error(f"{name!r} is neither a level (1-{max(LEVELS)}) nor {PEER}")
    if PEER in (args.first, args.second) and args.first == args.second:
        parser.error("at least one player must be a level")

    started = time.monotonic()
    ballots = [*BALLOTS, *balanced_starts()][args.skip : args.skip + args.ballots]
    tasks = [
        (2 * n + (0 if black else 1), ballot, black, args.first, args.second, args.seconds)
        for n, ballot in enumerate(ballots)
        for black in (True, False)
    ]
    print(
        f"{args.first} against {args.second}: {len(tasks)} games from {len(ballots)} ballots",
        flush=True,
    )
    scores = []
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        for number, black, score, why, plies in pool.map(play, tasks):
            scores.append(score)
            print(game_line(tasks[number][1], args.first, black, score, why, plies), flush=True)
    print("\n" + "\n".join(score_lines(f"{args.first} against {args.second}", scores)))
    print(f"{time.monotonic() - started:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
