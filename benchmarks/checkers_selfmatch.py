"""Checkers: the engine against itself without one of its parts, at fixed nodes.

Run from the repository root::

    .venv/bin/python benchmarks/checkers_selfmatch.py --change endgames      # 200 games
    .venv/bin/python benchmarks/checkers_selfmatch.py --change endgames --openings 10

The change measured (a change to measure is added here as another choice: the
engine with it and without it):

* ``endgames``: the endgame database;
* ``weights``: the evaluation's weights, the engine's own (or those of the JSON
  file ``--weights``, written by training/checkers_tune.py) against the hand-made
  ones the engine had before they were tuned (:data:`HAND_MADE`).

Each of the first ``--openings`` three-move openings (every legal Black, White,
Black start, in our move order; 302 in all) is played twice, the engine with the
change taking Black once and White once. Both search ``--nodes`` nodes a move, so
that the machine's load does not decide. Adjudication by our rules: no legal move
loses; a threefold repetition or forty moves a side without a man move or capture
is a draw; 400 plies is a draw (reported).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from checkers_match import elo, game_end, game_line, interval, three_move_starts

from parlour.checkers.board import BLACK
from parlour.checkers.engine import WEIGHTS, CheckersEngine, Weights
from parlour.checkers.rules import CHECKERS, CheckersState

#: The evaluation's weights as they were made by hand (until 2026-11-27).
HAND_MADE = Weights(
    man=100,
    king=135,
    advance=(0, 1, 3, 6, 10, 15, 22, 0),
    centre=6,
    near_centre=2,
    edge=-3,
    king_centre=(12, 8, 4, 0),
    trade_down=6,
    guard=12,
    mobility=2,
    runaway=30,
    runaway_row=8,
    refuge=(30, 20, 10),
    refuge_edge=8,
    refuge_single_corner=8,
    hunt=6,
)


def engines(change: str, weights_file: str | None = None) -> dict[bool, CheckersEngine]:
    """The engine with the change (True) and without it (False)."""
    if change == "endgames":
        return {True: CheckersEngine(endgames=True), False: CheckersEngine(endgames=False)}
    if change == "weights":
        weights = load_weights(weights_file) if weights_file else WEIGHTS
        return {True: CheckersEngine(weights=weights), False: CheckersEngine(weights=HAND_MADE)}
    raise ValueError(f"no change called {change!r}")


def load_weights(path: str) -> Weights:
    """Weights from a JSON file of training/checkers_tune.py."""
    values = json.loads(Path(path).read_text())
    # numbers and tuples of numbers, each as its field has it: too mixed to check through **
    fields: dict[str, Any] = {k: tuple(v) if isinstance(v, list) else v for k, v in values.items()}
    return Weights(**fields)


def play(task: tuple[int, bool, int, str, str | None]) -> tuple[int, bool, float, str, int]:
    """One game: (opening, the changed side is Black, its score, why, plies)."""
    number, with_black, nodes, change, weights_file = task
    state: CheckersState = CHECKERS.new_state()
    for move in three_move_starts()[number]:
        state.push(move)
    players = engines(change, weights_file)
    while (end := game_end(state, with_black)) is None:
        engine = players[(state.turn is BLACK) == with_black]
        result = engine.search(state, nodes=nodes)
        assert result.best_move is not None
        state.push(engine.to_move(state, result.best_move))
    score, why = end
    return number, with_black, score, why, len(state.move_stack)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--change", choices=("endgames", "weights"), required=True)
    parser.add_argument("--weights", help="the weights file for --change weights")
    parser.add_argument("--openings", type=int, default=100)
    parser.add_argument("--skip", type=int, default=0, help="start after this many openings")
    parser.add_argument("--nodes", type=int, default=4000, help="nodes a move, both sides")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    started = time.monotonic()
    tasks = [
        (n, black, args.nodes, args.change, args.weights)
        for n in range(args.skip, args.skip + args.openings)
        for black in (True, False)
    ]
    names = [" ".join(str(m) for m in opening) for opening in three_move_starts()]
    scores = []
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        for number, black, score, why, plies in pool.map(play, tasks):
            scores.append(score)
            print(game_line(names[number], "changed", black, score, why, plies))
    mean, low, high = interval(scores)
    print(
        f"\nwith {args.change}: +{scores.count(1.0)} ={scores.count(0.5)} "
        f"-{scores.count(0.0)} of {len(scores)} at {args.nodes} nodes a move"
    )
    print(f"score {mean:.1%}, 95 % interval {low:.1%} to {high:.1%}; Elo {elo(mean):+.0f}")
    print(f"{time.monotonic() - started:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
