"""Teach the backgammon network by self-play with TD(λ). Seeded and resumable.

    python -m parlour.backgammon.train --games 100000 --checkpoint bg-train.npz
    python -m parlour.backgammon.train --games 200000 --checkpoint bg-train.npz --resume
    python -m parlour.backgammon.train --export bg-train.npz   # ship it in the package

The network plays both sides, choosing each play greedily by its own 0-ply
evaluation (the dice give all the exploration it needs, as Tesauro found). It learns
from each game once the game is over, by TD(λ) in its forward view: the target for
each position is its λ-return, a blend of the network's own estimates of the
positions that followed (weighted (1-λ)λ^k by distance) and the game's real result.
With λ = 0 a position learns only from the next one; with λ = 1, only from the result.

Every position is read from the side of its player on roll; since the turn passes at
every play, the return is flipped to the other side at each step back.

Once self-play levels off, a round of *refinement* carries on from a checkpoint:

    python -m parlour.backgammon.train --refine --checkpoint bg-train.npz \
        --positions 200000 --epochs 10 --fit-alpha 0.01 --seed 2 --jobs 2

The network plays itself to gather positions, judges each one a throw deeper (the
average over the 21 throws of its best play's outcome, as the coach looks ahead), and
is fitted to those judgements by gradient descent, so that what it sees a throw
ahead it learns to see at once (gnubg's and wildbg's networks are trained on the
results of looking ahead). Measured (docs/benchmarks.md): one round gained on a
network of 750,000 games, a second round did not, and the shipped network has none.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np

from parlour.backgammon.bearoff import is_bearoff
from parlour.backgammon.board import Position, legal_plays
from parlour.backgammon.engine import BackgammonEngine
from parlour.backgammon.network import (
    WEIGHTS,
    Array,
    Network,
    encode,
    equity,
    flip,
    result_vector,
)

#: The prefix of the weights at full precision in a checkpoint, so a resumed run
#: continues exactly.
FULL = "full_"


def rank_plays(network: Network, position: Position, dice: tuple[int, int]) -> list[Position]:
    """The positions each distinct legal play leads to (still seen from the mover),
    best first by 0-ply evaluation; ``[position]`` when nothing can be played."""
    plays = legal_plays(position, dice)
    if not plays:
        return [position]
    results = [position.apply(play) for play in plays]
    values = _values(network, results)
    return [results[i] for i in np.argsort(-values, kind="stable")]


def _values(network: Network, results: list[Position]) -> Array:
    """The mover's equity after each play: a finished game counts its points."""
    kinds = np.array([result.win_kind() for result in results], dtype=np.float64)
    if kinds.any():
        return kinds  # bearing off the last checker beats any unfinished position
    return equity(flip(network.probabilities([result.swapped() for result in results])))


def choose_play(network: Network, position: Position, dice: tuple[int, int]) -> Position:
    """The position after the best play by 0-ply evaluation."""
    return rank_plays(network, position, dice)[0]


def self_play_positions(network: Network, count: int, rng: np.random.Generator) -> list[Position]:
    """At least ``count`` positions met as the network plays itself by 0-ply, each
    with its mover about to throw (whole games, in order; the bear-offs the
    database judges exactly are left out)."""
    positions: list[Position] = []
    while len(positions) < count:
        seen, _ = self_play_game(network, rng)
        positions.extend(position for position in seen if not is_bearoff(position))
    return positions


def self_play_game(network: Network, rng: np.random.Generator) -> tuple[list[Position], int]:
    """One game of the network against itself by 0-ply: every position met, each
    with its mover about to throw, and how the last mover won (1 single, 2 gammon,
    3 backgammon)."""
    position = Position.start()
    seen: list[Position] = []
    while True:
        seen.append(position)
        dice = (int(rng.integers(1, 7)), int(rng.integers(1, 7)))
        after = choose_play(network, position, dice)
        kind = after.win_kind()
        if kind:
            return seen, kind
        position = after.swapped()


def lookahead_targets(network: Network, positions: Sequence[Position], jobs: int = 1) -> Array:
    """The five probabilities of each position's mover judged a throw deeper: the
    average over the 21 throws of the chances after the best play of each (see
    :meth:`.BackgammonEngine.rolled_chances`), worked out in ``jobs`` processes."""
    # positions travel to the other processes as their counts
    boards = [(p.mover, p.opponent) for p in positions]
    chunks = [boards[start : start + 64] for start in range(0, len(boards), 64)]
    if jobs <= 1:
        return np.concatenate([_one_ply(network, chunk) for chunk in chunks])
    with ProcessPoolExecutor(jobs) as pool:
        return np.concatenate(list(pool.map(_one_ply, [network] * len(chunks), chunks)))


Board = tuple[tuple[int, ...], tuple[int, ...]]


def _one_ply(network: Network, boards: list[Board]) -> Array:
    positions = [Position(mover, opponent) for mover, opponent in boards]
    return BackgammonEngine(network).rolled_probabilities(positions)


def fit(
    network: Network,
    inputs: Array,
    targets: Array,
    *,
    alpha: float,
    epochs: int,
    rng: np.random.Generator,
    batch: int = 64,
) -> list[float]:
    """Fit the network to ``targets`` by stochastic gradient descent on the squared
    error, ``epochs`` passes over the rows in shuffled batches; a twentieth of the
    rows are held out. Returns the held-out error (the mean over rows of the summed
    squares) before the first pass and after each."""
    order = rng.permutation(len(inputs))
    held, rows = order[: len(inputs) // 20], order[len(inputs) // 20 :]

    def held_error() -> float:
        return float(((network.forward(inputs[held]) - targets[held]) ** 2).sum(axis=1).mean())

    errors = [held_error()]
    for _ in range(epochs):
        rng.shuffle(rows)
        for start in range(0, len(rows), batch):
            chosen = rows[start : start + batch]
            network.learn(inputs[chosen], targets[chosen], alpha)
        errors.append(held_error())
    return errors


class Trainer:
    def __init__(self, network: Network, seed: int, alpha: float = 0.01, lam: float = 0.7) -> None:
        self.network = network
        self.rng = np.random.default_rng(seed)
        self.alpha = alpha
        self.lam = lam
        self.games = 0
        self.plies = 0
        self.gammons = 0
        #: Rounds of refinement (see the module's doc) since the self-play.
        self.rounds = 0

    def refine(self, positions: int, epochs: int, alpha: float, jobs: int = 1) -> list[float]:
        """One round of refinement: gather ``positions`` by self-play, judge each a
        throw deeper, fit the network to those judgements. Returns the held-out
        errors of :func:`fit`."""
        found = self_play_positions(self.network, positions, self.rng)
        targets = lookahead_targets(self.network, found, jobs)
        errors = fit(self.network, encode(found), targets, alpha=alpha, epochs=epochs, rng=self.rng)
        self.rounds += 1
        return errors

    def play_one_game(self) -> None:
        """Play one game against itself, then learn from it."""
        network = self.network
        seen, kind = self_play_game(network, self.rng)
        self.games += 1
        self.plies += len(seen)
        self.gammons += kind >= 2

        inputs = encode(seen)
        estimates = network.forward(inputs)
        targets = np.empty_like(estimates)
        # the last mover won; walking back, each return is flipped to the side on roll
        returns = result_vector(kind)
        targets[-1] = returns
        for t in range(len(seen) - 2, -1, -1):
            returns = flip((1 - self.lam) * estimates[t + 1] + self.lam * returns)
            targets[t] = returns
        network.learn(inputs, targets, self.alpha)

    # -- checkpoints -------------------------------------------------------------

    def save(self, path: Path) -> None:
        state = {
            "games": self.games,
            "plies": self.plies,
            "gammons": self.gammons,
            "alpha": self.alpha,
            "lam": self.lam,
            "rng": self.rng.bit_generator.state,
            "rounds": self.rounds,
        }
        full = self.network.arrays(FULL, np.float64)
        self.network.save(path, trainer=np.array(json.dumps(state)), **full)

    @classmethod
    def resume(cls, path: Path) -> Trainer:
        network = Network.load(path, prefix=FULL)
        with np.load(path) as data:
            state = json.loads(str(data["trainer"]))
        trainer = cls(network, seed=0, alpha=state["alpha"], lam=state["lam"])
        trainer.rng.bit_generator.state = state["rng"]
        trainer.games = state["games"]
        trainer.plies = state["plies"]
        trainer.gammons = state["gammons"]
        trainer.rounds = state.get("rounds", 0)  # checkpoints from before refinement
        return trainer


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m parlour.backgammon.train")
    parser.add_argument("--games", type=int, default=100_000, help="train until this many games")
    parser.add_argument("--checkpoint", type=Path, default=Path("bg-train.npz"))
    parser.add_argument("--resume", action="store_true", help="continue from --checkpoint")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--hidden", type=int, default=80)
    parser.add_argument(
        "--start-from",
        type=Path,
        help="begin this run from another run's checkpoint, widened to every input and "
        "--hidden units (the new weights start at zero; its count of games goes on)",
    )
    parser.add_argument(
        "--alpha",
        type=float,
        help="learning rate (a new run: 0.01 unless given; --resume: the checkpoint's, "
        "or this one from now on, to lower it as the run matures)",
    )
    parser.add_argument("--lam", type=float, default=0.7, help="λ of TD(λ)")
    parser.add_argument("--every", type=int, default=1000, help="report and save this often")
    parser.add_argument(
        "--export", type=Path, help="write this checkpoint's weights to the package"
    )
    refining = parser.add_argument_group("refinement (one round a run, from --checkpoint)")
    refining.add_argument("--refine", action="store_true", help="run a round of refinement")
    refining.add_argument("--positions", type=int, default=200_000, help="positions a round")
    refining.add_argument("--epochs", type=int, default=10, help="passes over them")
    refining.add_argument("--fit-alpha", type=float, default=0.01, help="the fit's learning rate")
    refining.add_argument("--jobs", type=int, default=1, help="processes judging positions")
    args = parser.parse_args(argv)

    if args.export is not None:
        Trainer.resume(args.export).network.save(WEIGHTS)
        print(f"wrote {WEIGHTS}")
        return 0
    if args.refine:
        trainer = Trainer.resume(args.checkpoint)
        # each round seeded by the run's seed and its number
        trainer.rng = np.random.default_rng([args.seed, trainer.rounds])
        started = time.perf_counter()
        errors = trainer.refine(args.positions, args.epochs, args.fit_alpha, args.jobs)
        trainer.save(args.checkpoint)
        print(
            f"round {trainer.rounds}: {args.positions} positions, held-out error "
            f"{errors[0]:.5f} -> {errors[-1]:.5f}, {time.perf_counter() - started:.0f} s",
            flush=True,
        )
        return 0
    if args.resume:
        trainer = Trainer.resume(args.checkpoint)
        if args.alpha is not None:
            trainer.alpha = args.alpha  # saved with the checkpoint from here on
    else:
        alpha = 0.01 if args.alpha is None else args.alpha
        if args.start_from is not None:
            earlier = Trainer.resume(args.start_from)
            network = earlier.network.widened(max(args.hidden, earlier.network.hidden), args.seed)
            trainer = Trainer(network, seed=args.seed, alpha=alpha, lam=args.lam)
            trainer.games, trainer.plies = earlier.games, earlier.plies
            trainer.gammons = earlier.gammons
        else:
            network = Network.new(hidden=args.hidden, seed=args.seed)
            trainer = Trainer(network, seed=args.seed, alpha=alpha, lam=args.lam)
    started, games_then = time.perf_counter(), trainer.games
    while trainer.games < args.games:
        trainer.play_one_game()
        if trainer.games % args.every == 0 or trainer.games == args.games:
            trainer.save(args.checkpoint)
            rate = (trainer.games - games_then) / (time.perf_counter() - started)
            print(
                f"{trainer.games} games, {trainer.plies / trainer.games:.1f} plies a game, "
                f"{trainer.gammons / trainer.games:.1%} gammons or more, {rate:.1f} games/s",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
