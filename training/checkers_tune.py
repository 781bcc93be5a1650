"""Tune the checkers evaluation's weights on engine games by logistic regression.

The evaluation (:class:`parlour.checkers.engine.Weights`) is a sum of terms, each a
weight times a count: men and kings, men by row, on the centre, on the edge, kings
by their distance from the centre, the trade-down bonus, the back-rank guard,
mobility, runaway men, and in the endgame the hunt of the side ahead. So the score
is a dot product ``weights . features(position)``, and the chance that Black goes on
to win is modelled as ``1 / (1 + exp(-score * k))``. Fitting every weight (and k)
by maximum likelihood to the results of games is a logistic regression with
fractional results (a draw counts half a win): the "Texel" method of chess
programmers, here on positions of the engine's own games.

Two steps, run from the repository root::

    .venv/bin/python training/checkers_tune.py games --games 1200 --depth 6 --jobs 2 \\
        --seed 1 --out /tmp/checkers-positions.npz
    .venv/bin/python training/checkers_tune.py fit /tmp/checkers-positions.npz

``games``: the engine plays itself from the 302 three-move starts (chosen at
random, seeded), its first few moves after them by the beginner level so that the
games differ and some are decided, then every move searched to ``--depth`` plies
with the evaluation being tuned (``--weights`` names a file of weights to play
with, for a second round). Every quiet position (no capture to make) after the
opening with more pieces than the endgame database holds is kept with the game's
result for Black.

``fit``: the features of every position (checked against the evaluation itself:
the dot product with the engine's weights must give its score, to rounding), then
the regression by Newton's method, a ridge penalty (``--ridge``) holding each
weight towards the engine's own, so that terms seen in few positions (the
endgame's) or bound up with others stay sensible. It prints the weights rescaled
so that a man is 100, with their standard errors, and the log-loss before and
after (on the positions and on a held-out fifth). The weights go into
:class:`~parlour.checkers.engine.Weights` only if a match at fixed nodes says so
(benchmarks/checkers_selfmatch.py ``--change weights``; docs/benchmarks.md).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

from checkers_match import game_end, three_move_starts
from checkers_selfmatch import load_weights

from parlour.checkers.board import BIT_SQUARE, BLACK, BOARD, Position, _count_steps, bits
from parlour.checkers.engine import (
    BLACK_CONES,
    BLACK_GUARD,
    BLACK_RUNAWAY_ROWS,
    CENTRE,
    DISTANCE,
    NEAR_CENTRE,
    ROW_OF_BIT,
    SINGLE_CORNERS,
    WEIGHTS,
    WHITE_CONES,
    WHITE_GUARD,
    WHITE_RUNAWAY_ROWS,
    CheckersEngine,
    Evaluation,
    Weights,
    _row_column,
    corner_distance,
    is_edge,
    is_open_edge,
    off_centre,
)
from parlour.checkers.rules import CHECKERS, CheckersState
from parlour.core.protocol import Side

#: Loose moves by the beginner level after the three-move start.
LOOSE_PLIES = 4
#: Positions before this ply are the opening: not kept.
FIRST_KEPT_PLY = 10
#: Positions of this many pieces or fewer are the endgame database's.
DATABASE_PIECES = 4

# -- the features ---------------------------------------------------------------------

#: One name per feature: a field of Weights, with an index for its tuples.
NAMES = (
    ["man", "king"]
    + [f"advance[{row}]" for row in range(1, 7)]
    + ["centre", "near_centre", "edge"]
    + [f"king_centre[{ring}]" for ring in range(3)]
    + ["trade_down", "guard", "mobility", "runaway", "runaway_row"]
    + [f"refuge[{steps}]" for steps in range(3)]
    + ["refuge_edge", "refuge_single_corner", "hunt"]
)
INDEX = {name: i for i, name in enumerate(NAMES)}
#: The hunt of the endgame: kept out of the fit by default. It is technique (drive
#: the lone kings out of the double corners), seen in few positions of these games,
#: and what the conversion tests of two and three kings rest on.
ENDGAME_TERMS = ("refuge", "refuge_edge", "refuge_single_corner", "hunt")


def as_vector(weights: Weights) -> np.ndarray:
    """The weights in the order of :data:`NAMES`."""
    values = asdict(weights)
    vector = []
    for name in NAMES:
        field, _, index = name.partition("[")
        value = values[field]
        vector.append(value[int(index[:-1])] if index else value)
    return np.array(vector, dtype=float)


def from_vector(vector: np.ndarray, base: Weights = WEIGHTS) -> Weights:
    """Weights with the values of ``vector`` (rounded), the rest as in ``base``."""
    values: dict[str, Any] = asdict(base)
    for name, value in zip(NAMES, vector, strict=True):
        field, _, index = name.partition("[")
        if index:
            items = list(values[field])
            items[int(index[:-1])] = round(float(value))
            values[field] = tuple(items)
        else:
            values[field] = round(float(value))
    return Weights(**values)


def features(position: Position, weights: Weights = WEIGHTS) -> np.ndarray:
    """What each weight of the evaluation is multiplied by in ``position``, Black's
    count less White's; ``weights`` decide only when the trade-down and endgame
    terms apply (they depend on the material as valued)."""
    black_men, black_kings, white_men, white_kings = position
    x = np.zeros(len(NAMES))

    def man_terms(board: int, sign: int, mirror: bool) -> None:
        for bit in bits(board):
            square = BIT_SQUARE[bit]
            seen = 33 - square if mirror else square
            x[INDEX["man"]] += sign
            row = _row_column(seen)[0]
            if row:
                x[INDEX[f"advance[{row}]"]] += sign
            if seen in CENTRE:
                x[INDEX["centre"]] += sign
            elif seen in NEAR_CENTRE:
                x[INDEX["near_centre"]] += sign
            if is_edge(seen):
                x[INDEX["edge"]] += sign

    def king_terms(board: int, sign: int) -> None:
        for bit in bits(board):
            x[INDEX["king"]] += sign
            ring = off_centre(BIT_SQUARE[bit])
            if ring < 3:
                x[INDEX[f"king_centre[{ring}]"]] += sign

    man_terms(black_men, 1, mirror=False)
    man_terms(white_men, -1, mirror=True)
    king_terms(black_kings, 1)
    king_terms(white_kings, -1)

    pieces = sum(board.bit_count() for board in position)
    material = weights.man * (black_men.bit_count() - white_men.bit_count()) + weights.king * (
        black_kings.bit_count() - white_kings.bit_count()
    )
    if pieces:
        x[INDEX["trade_down"]] = material / pieces
    if white_men:
        x[INDEX["guard"]] += (black_men & BLACK_GUARD).bit_count()
    if black_men:
        x[INDEX["guard"]] -= (white_men & WHITE_GUARD).bit_count()
    empty = BOARD & ~(black_men | black_kings | white_men | white_kings)
    x[INDEX["mobility"]] = _count_steps(BLACK, black_men, black_kings, empty) - _count_steps(
        Side.SECOND, white_men, white_kings, empty
    )
    _runaway_terms(x, position)
    if material and (pieces <= 8 or not black_men or not white_men):
        if material > 0:
            _hunt_terms(x, black_kings, white_men, white_kings, 1)
        else:
            _hunt_terms(x, white_kings, black_men, black_kings, -1)
    return x


def _runaway_terms(x: np.ndarray, position: Position) -> None:
    black_men, black_kings, white_men, white_kings = position
    if not white_kings:
        for bit in bits(black_men & BLACK_RUNAWAY_ROWS):
            if not BLACK_CONES[bit] & white_men:
                x[INDEX["runaway"]] += 1
                x[INDEX["runaway_row"]] += ROW_OF_BIT[bit]
    if not black_kings:
        for bit in bits(white_men & WHITE_RUNAWAY_ROWS):
            if not WHITE_CONES[bit] & black_men:
                x[INDEX["runaway"]] -= 1
                x[INDEX["runaway_row"]] -= 7 - ROW_OF_BIT[bit]


def _hunt_terms(x: np.ndarray, kings: int, their_men: int, their_kings: int, sign: int) -> None:
    for bit in bits(their_kings):
        square = BIT_SQUARE[bit]
        near = corner_distance(square)
        if near < 3:
            x[INDEX[f"refuge[{near}]"]] -= sign
        if is_open_edge(square):
            x[INDEX["refuge_edge"]] += sign
        if square in SINGLE_CORNERS:
            x[INDEX["refuge_single_corner"]] += sign
    targets = bits(their_men | their_kings)
    if targets:
        for king in bits(kings):
            x[INDEX["hunt"]] -= sign * min(DISTANCE[king][target] for target in targets)


# -- the games ------------------------------------------------------------------------


def play(task: tuple[int, int, int, str | None]) -> tuple[list[Position], list[int], float]:
    """One game of the engine against itself: its kept positions, the side to move
    in each (1 Black, 0 White), and the result for Black."""
    seed, opening, depth, weights_file = task
    rng = random.Random(seed)
    weights = load_weights(weights_file) if weights_file else WEIGHTS
    engine = CheckersEngine(book=False, weights=weights)
    state: CheckersState = CHECKERS.new_state()
    for move in three_move_starts()[opening]:
        state.push(move)
    kept: list[Position] = []
    movers: list[int] = []
    while (end := game_end(state, True)) is None:
        ply = len(state.move_stack)
        if ply < 3 + LOOSE_PLIES:
            move = engine.choose_move(state, level=2, rng=rng)
        else:
            position = state.position
            if (
                ply >= FIRST_KEPT_PLY
                and sum(board.bit_count() for board in position) > DATABASE_PIECES
                and not any(m.captured for m in state.legal_moves())
            ):
                kept.append(position)
                movers.append(int(state.turn is BLACK))
            result = engine.search(state, depth=depth)
            assert result.best_move is not None
            move = engine.to_move(state, result.best_move)
        state.push(move)
    return kept, movers, end[0]


def games(args: argparse.Namespace) -> int:
    rng = random.Random(args.seed)
    openings = len(three_move_starts())
    tasks = [
        (rng.randrange(1 << 30), rng.randrange(openings), args.depth, args.weights)
        for _ in range(args.games)
    ]
    positions: list[Position] = []
    movers: list[int] = []
    results: list[float] = []
    tally = {1.0: 0, 0.5: 0, 0.0: 0}
    started = time.monotonic()
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        for n, (kept, sides, result) in enumerate(pool.map(play, tasks), 1):
            positions += kept
            movers += sides
            results += [result] * len(kept)
            tally[result] += 1
            if n % 50 == 0:
                print(
                    f"{n} games, {len(positions)} positions, Black +{tally[1.0]} "
                    f"={tally[0.5]} -{tally[0.0]}, {time.monotonic() - started:.0f} s",
                    flush=True,
                )
    np.savez_compressed(
        args.out,
        positions=np.array(positions, dtype=np.int64),
        black_to_move=np.array(movers, dtype=np.int8),
        results=np.array(results),
    )
    print(f"{args.games} games, {len(positions)} positions -> {args.out}")
    return 0


# -- the fit --------------------------------------------------------------------------


def log_loss(x: np.ndarray, y: np.ndarray, beta: np.ndarray) -> float:
    z = x @ beta
    p = np.clip(1 / (1 + np.exp(-z)), 1e-12, 1 - 1e-12)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def newton(
    x: np.ndarray, y: np.ndarray, ridge: float, prior: np.ndarray, start: np.ndarray
) -> np.ndarray:
    """The coefficients of greatest likelihood, less ``ridge`` times their squared
    distance from ``prior``, by Newton's method."""
    beta = start.copy()
    penalty = ridge * np.eye(len(beta))
    for _ in range(50):
        p = 1 / (1 + np.exp(-(x @ beta)))
        gradient = x.T @ (y - p) - penalty @ (beta - prior)
        hessian = (x * (p * (1 - p))[:, None]).T @ x + penalty
        step = np.linalg.solve(hessian, gradient)
        beta += step
        if np.max(np.abs(step)) < 1e-9:
            break
    return beta


def fit(args: argparse.Namespace) -> int:
    data = np.load(args.data)
    positions: list[Position] = [
        (int(a), int(b), int(c), int(d)) for a, b, c, d in data["positions"]
    ]
    results = data["results"]
    black_to_move = data["black_to_move"].astype(float)
    evaluate = Evaluation(WEIGHTS)
    x = np.array([features(p) for p in positions])
    current = as_vector(WEIGHTS)
    scores = np.array([float(evaluate(p)) for p in positions])
    worst = float(np.max(np.abs(x @ current - scores)))
    # The only difference allowed: the trade-down bonus, rounded down in the engine.
    assert worst < 1.0, f"the features do not give the evaluation (off by {worst})"
    # Two columns of the fit that the engine does not use: the side to move (a
    # tempo) and a constant (the openings' own lean), so that neither is mistaken
    # for a term of the evaluation.
    tempo = np.column_stack([2 * black_to_move - 1, np.ones(len(results))])
    xt = np.hstack([x, tempo])
    # The terms kept as they are: their columns are left out of the fit.
    kept = [INDEX[name] for name in NAMES if name.partition("[")[0] in args.keep]
    xt[:, kept] = 0
    order = np.random.default_rng(args.seed).permutation(len(results))
    held = order[: len(order) // 5]
    train = order[len(order) // 5 :]
    print(f"{len(results)} positions; Black's results: {np.mean(results):.3f} on average")

    # The current weights with only their scale (k) and the tempo fitted: the baseline.
    base_x = np.column_stack([scores, tempo])
    zero = np.zeros(3)
    base = newton(base_x[train], results[train], 0.0, zero, np.array([0.01, 0.0, 0.0]))
    print(
        f"current weights: k = {base[0]:.5f} a point; log-loss "
        f"{log_loss(base_x[train], results[train], base):.5f} (held out "
        f"{log_loss(base_x[held], results[held], base):.5f})"
    )
    # Every weight fitted, started from the current ones at the baseline's scale and
    # held towards them: a term seen in few positions stays near where it was.
    start = np.append(current * base[0], base[1:])
    beta = newton(xt[train], results[train], args.ridge, start, start)
    print(
        f"fitted weights: log-loss {log_loss(xt[train], results[train], beta):.5f} "
        f"(held out {log_loss(xt[held], results[held], beta):.5f})"
    )
    beta = newton(xt, results, args.ridge, start, beta)  # then on every position
    p = 1 / (1 + np.exp(-(xt @ beta)))
    covariance = np.linalg.inv(
        (xt * (p * (1 - p))[:, None]).T @ xt + args.ridge * np.eye(len(beta))
    )
    scale = WEIGHTS.man / beta[INDEX["man"]]
    errors = np.sqrt(np.diag(covariance)) * scale
    print(
        f"k = {beta[INDEX['man']] / WEIGHTS.man:.5f} a point; tempo {beta[-2] * scale:+.1f}, "
        f"constant {beta[-1] * scale:+.1f}"
    )
    print(f"{'weight':24} {'now':>6} {'fitted':>8} {'± s.e.':>7}")
    fitted = beta[:-2] * scale
    fitted[kept] = current[kept]
    errors[kept] = 0
    for name, now, new, error in zip(NAMES, current, fitted, errors, strict=False):
        print(f"{name:24} {now:6.0f} {new:8.1f} {error:7.1f}")
    weights = from_vector(fitted)
    if args.out:
        Path(args.out).write_text(json.dumps(asdict(weights)) + "\n")
        print(f"-> {args.out}")
    print(weights)
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    play_parser = commands.add_parser("games", help="play the games, keep their positions")
    play_parser.add_argument("--games", type=int, default=1200)
    play_parser.add_argument("--depth", type=int, default=6)
    play_parser.add_argument("--seed", type=int, default=1)
    play_parser.add_argument("--jobs", type=int, default=2)
    play_parser.add_argument("--weights", help="a JSON file of weights to play with")
    play_parser.add_argument("--out", type=Path, required=True)
    fit_parser = commands.add_parser("fit", help="fit the weights to the positions' results")
    fit_parser.add_argument("data", type=Path)
    fit_parser.add_argument("--ridge", type=float, default=30.0)
    fit_parser.add_argument("--seed", type=int, default=1)
    fit_parser.add_argument(
        "--keep",
        type=lambda text: text.split(","),
        default=list(ENDGAME_TERMS),
        help="weights not fitted, comma-separated (default: the endgame's hunt)",
    )
    fit_parser.add_argument("--out", help="write the fitted weights to this JSON file")
    args = parser.parse_args()
    return games(args) if args.command == "games" else fit(args)


if __name__ == "__main__":
    raise SystemExit(main())
