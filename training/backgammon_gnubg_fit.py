"""Fit the backgammon network to GNU Backgammon's judgements: a trial, not kept.

Self-play TD has levelled off some 0.14 points a game short of gnubg's 0-ply
(docs/benchmarks.md), so this tries the other road the issue names: positions
labelled by a stronger judge and fitted by supervised learning. The judge here is
gnubg itself (through gnubg-nn, test- and training-only), at 0-ply or a throw
deeper (its 1-ply), and the network is fitted from the shipped checkpoint in two
ways:

* ``fit``: the five probabilities of each position, by the squared error
  (:func:`parlour.backgammon.train.fit`), on positions met in self-play or on the
  positions a roll's plays lead to;
* ``rank``: the plays of one roll ranked alike: each play's equity less the mean of
  its roll's plays, against gnubg's the same way (what decides a play), with a tenth
  of the squared error of the probabilities beside it to keep the values in scale.

The four steps, as run (docs/benchmarks.md, "Fitted to GNU Backgammon's judgements"):

    python training/backgammon_gnubg_fit.py positions --count 400000 --out bg-positions.npz
    python training/backgammon_gnubg_fit.py label bg-positions.npz --ply 1 --jobs 2
    python training/backgammon_gnubg_fit.py plays bg-positions.npz --rolls 60000 --out bg-plays.npz
    python training/backgammon_gnubg_fit.py label bg-plays.npz --ply 0
    python training/backgammon_gnubg_fit.py fit bg-positions.npz --ply 1 \
        --schedule 20:0.01,10:0.003 --out fitted.npz
    python training/backgammon_gnubg_fit.py rank bg-plays.npz --ply 0 --epochs 3 --out ranked.npz

Each output is a checkpoint for ``benchmarks/backgammon_vs_pubeval.py --weights``.
"""

from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import gnubg_nn
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from parlour.backgammon.bearoff import is_bearoff
from parlour.backgammon.board import Position
from parlour.backgammon.network import Array, encode, equity
from parlour.backgammon.train import Trainer, fit, rank_plays, self_play_positions

CHECKPOINT = Path(__file__).with_name("backgammon-checkpoint.npz")
#: d(equity)/d(probabilities): a win, a gammon and a backgammon each a point more.
EQUITY_WEIGHTS = np.array([2.0, 1.0, 1.0, -1.0, -1.0])


def load_positions(path: Path) -> tuple[list[Position], np.ndarray | None]:
    """The positions of a file (each seen from its player on roll) and, for a file
    of plays, each one's roll number."""
    with np.load(path) as data:
        positions = [
            Position(tuple(m), tuple(o))
            for m, o in zip(data["mover"].tolist(), data["opponent"].tolist(), strict=True)
        ]
        rolls = data.get("roll")
    return positions, rolls


def save_positions(path: Path, positions: list[Position], rolls: list[int] | None = None) -> None:
    mover = np.array([p.mover for p in positions], dtype=np.int8)
    opponent = np.array([p.opponent for p in positions], dtype=np.int8)
    if rolls is None:
        np.savez(path, mover=mover, opponent=opponent)
    else:
        np.savez(path, mover=mover, opponent=opponent, roll=np.array(rolls))


def labels_path(path: Path, ply: int) -> Path:
    return path.with_name(f"{path.stem}-gnubg{ply}.npy")


def load_labels(path: Path, ply: int) -> Array:
    """gnubg's probabilities for a file's positions, made by the label step."""
    labels = labels_path(path, ply)
    if not labels.exists():
        sys.exit(f"no {labels}: run the label step with --ply {ply} on {path} first")
    loaded: Array = np.load(labels)
    return loaded


def _gnubg(task: tuple[list[tuple[list[int], list[int]]], int]) -> Array:
    boards, ply = task
    # gnubg's board: the side not on roll first; its five outputs are ours, in order
    return np.array([gnubg_nn.probabilities([o, m], ply) for m, o in boards])


def label(path: Path, ply: int, jobs: int) -> None:
    positions, _ = load_positions(path)
    boards = [(list(p.mover), list(p.opponent)) for p in positions]
    tasks = [(boards[i : i + 2000], ply) for i in range(0, len(boards), 2000)]
    with ProcessPoolExecutor(jobs) as pool:
        labels = np.concatenate(list(pool.map(_gnubg, tasks)))
    np.save(labels_path(path, ply), labels)


def plays(path: Path, rolls: int, seed: int) -> tuple[list[Position], list[int]]:
    """For ``rolls`` positions of the file, each with a random throw: the positions
    its best twelve plays by the network lead to (seen from the opponent, then on
    roll), where at least two are unfinished and not bear-offs."""
    network = Trainer.resume(CHECKPOINT).network
    positions, _ = load_positions(path)
    rng = np.random.default_rng(seed)
    found: list[Position] = []
    numbers: list[int] = []
    for i in rng.choice(len(positions), rolls, replace=False):
        dice = (int(rng.integers(1, 7)), int(rng.integers(1, 7)))
        best = rank_plays(network, positions[i], dice)[:12]
        after = [r.swapped() for r in best if not r.win_kind()]
        after = [a for a in after if not is_bearoff(a)]
        if len(after) >= 2:
            found.extend(after)
            numbers.extend([numbers[-1] + 1 if numbers else 0] * len(after))
    return found, numbers


def _centred(values: Array, rolls: np.ndarray) -> Array:
    """Each value less the mean of its roll's."""
    _, index = np.unique(rolls, return_inverse=True)
    means = np.bincount(index, values) / np.bincount(index)
    return values - means[index]


def rank(path: Path, ply: int, epochs: int, alpha: float, value_weight: float) -> Trainer:
    """Fit the checkpoint so that each roll's plays rank as gnubg's ranks them."""
    trainer = Trainer.resume(CHECKPOINT)
    network = trainer.network
    positions, rolls = load_positions(path)
    if rolls is None:
        sys.exit(f"{path} holds no plays: rank fits the file the plays step writes")
    inputs, targets = encode(positions), load_labels(path, ply)
    # gnubg's equity of each play less its roll's mean: what the ranking aims at
    aims = _centred(equity(targets), rolls)
    starts = np.flatnonzero(np.r_[True, rolls[1:] != rolls[:-1]])
    ends = np.r_[starts[1:], len(rolls)]
    rng = np.random.default_rng(5)
    order = rng.permutation(len(starts))
    held, taught = order[: len(starts) // 20], order[len(starts) // 20 :]

    def rows(chosen: np.ndarray) -> np.ndarray:
        return np.concatenate([np.arange(starts[k], ends[k]) for k in chosen])

    def error(r: np.ndarray, outputs: Array) -> Array:
        """The ranking error of whole rolls' rows ``r`` whose outputs these are."""
        difference: Array = _centred(equity(outputs), rolls[r]) - aims[r]
        return difference

    held_rows = rows(held)

    def held_error() -> float:
        return float((error(held_rows, network.forward(inputs[held_rows])) ** 2).mean())

    print(f"held-out ranking error {held_error():.6f}", flush=True)
    for epoch in range(epochs):
        rng.shuffle(taught)
        for start in range(0, len(taught), 8):
            r = rows(taught[start : start + 8])
            outputs = network.forward(inputs[r])
            # the gradient of the squared ranking error, as a target for learn()
            wanted = outputs - 0.5 * error(r, outputs)[:, None] * EQUITY_WEIGHTS
            network.learn(inputs[r], wanted + value_weight * (targets[r] - outputs), alpha)
        print(f"epoch {epoch + 1}: {held_error():.6f}", flush=True)
    return trainer


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python training/backgammon_gnubg_fit.py")
    steps = parser.add_subparsers(dest="step", required=True)
    step = steps.add_parser("positions", help="positions met in the network's self-play")
    step.add_argument("--count", type=int, default=400_000)
    step.add_argument("--seed", type=int, default=11)
    step.add_argument("--out", type=Path, required=True)
    step = steps.add_parser("plays", help="the positions a roll's plays lead to")
    step.add_argument("positions", type=Path)
    step.add_argument("--rolls", type=int, default=60_000)
    step.add_argument("--seed", type=int, default=31)
    step.add_argument("--out", type=Path, required=True)
    step = steps.add_parser("label", help="gnubg's probabilities for a file's positions")
    step.add_argument("positions", type=Path)
    step.add_argument("--ply", type=int, default=0)
    step.add_argument("--jobs", type=int, default=1)
    step = steps.add_parser("fit", help="fit the probabilities by squared error")
    step.add_argument("positions", type=Path)
    step.add_argument("--ply", type=int, default=0)
    step.add_argument("--schedule", default="20:0.01,10:0.003", help="epochs:rate,...")
    step.add_argument("--hidden", type=int, help="widen the network to this many units first")
    step.add_argument("--out", type=Path, required=True)
    step = steps.add_parser("rank", help="fit each roll's plays to rank as gnubg's")
    step.add_argument("positions", type=Path)
    step.add_argument("--ply", type=int, default=0)
    step.add_argument("--epochs", type=int, default=3)
    step.add_argument("--alpha", type=float, default=0.002)
    step.add_argument("--value-weight", type=float, default=0.1)
    step.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)

    started = time.perf_counter()
    if args.step == "positions":
        network = Trainer.resume(CHECKPOINT).network
        found = self_play_positions(network, args.count, np.random.default_rng(args.seed))
        save_positions(args.out, found)
        print(f"{len(found)} positions")
    elif args.step == "plays":
        found, numbers = plays(args.positions, args.rolls, args.seed)
        save_positions(args.out, found, numbers)
        print(f"{len(found)} positions after {numbers[-1] + 1} rolls")
    elif args.step == "label":
        label(args.positions, args.ply, args.jobs)
    elif args.step == "fit":
        trainer = Trainer.resume(CHECKPOINT)
        if args.hidden:
            trainer.network = trainer.network.widened(args.hidden, seed=7)
        positions, _ = load_positions(args.positions)
        inputs, targets = encode(positions), load_labels(args.positions, args.ply)
        for phase in args.schedule.split(","):
            epochs, rate = phase.split(":")
            errors = fit(
                trainer.network,
                inputs,
                targets,
                alpha=float(rate),
                epochs=int(epochs),
                rng=np.random.default_rng(5),
            )
            print(f"{phase}: held-out error {errors[0]:.6f} -> {errors[-1]:.6f}", flush=True)
        trainer.save(args.out)
    else:
        rank(args.positions, args.ply, args.epochs, args.alpha, args.value_weight).save(args.out)
    print(f"{time.perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
