"""Fit the backgammon network to GNU Backgammon's judgements.

Self-play TD levelled off some 0.14 points a game short of gnubg's 0-ply
(docs/benchmarks.md), so this takes the other road the issue names: positions
labelled by a stronger judge and fitted by supervised learning. The judge is gnubg
itself (through gnubg-nn, test- and training-only), at 0-ply or a throw deeper (its
1-ply). The steps that made the shipped network (training/README.md has the
commands):

* ``rolls``: the self-play of a network; for each position met a random throw and
  the positions its plays lead to (the network's best twelve and four others),
  numbered by throw, and the positions met themselves;
* ``label``: gnubg's five probabilities for every position of a file;
* ``distil``: a wider network fitted to them by the squared error with Adam
  (PyTorch, training-only), judged after each pass by the equity a held-out
  throw's chosen play loses by gnubg's figures; with ``--kind``, a network for
  crashed positions or races alone;
* ``combine``: the main network with those for crashed positions and races, as
  one checkpoint.

The earlier trial, with plain stochastic gradient descent from the self-play
checkpoint, which gained nothing (docs/benchmarks.md, "Fitted to GNU Backgammon's
judgements"):

    python training/backgammon_gnubg_fit.py positions --count 400000 --out bg-positions.npz
    python training/backgammon_gnubg_fit.py label bg-positions.npz --ply 1 --jobs 2
    python training/backgammon_gnubg_fit.py plays bg-positions.npz --rolls 60000 --out bg-plays.npz
    python training/backgammon_gnubg_fit.py label bg-plays.npz --ply 0
    python training/backgammon_gnubg_fit.py fit bg-positions.npz --ply 1 \
        --schedule 20:0.01,10:0.003 --out fitted.npz
    python training/backgammon_gnubg_fit.py rank bg-plays.npz --ply 0 --epochs 3 --out ranked.npz

Each output is a checkpoint for ``benchmarks/backgammon_vs_pubeval.py --weights``
(and ``python -m parlour.backgammon.train --export``).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import gnubg_nn
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
# (gnubg's play as the benchmarks take it, checked against our rules)
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

from backgammon_vs_pubeval import gnubg_player

from parlour.backgammon.bearoff import is_bearoff
from parlour.backgammon.board import Position, legal_plays
from parlour.backgammon.features import CRASHED, RACE, counts_of, kinds_of_counts
from parlour.backgammon.network import (
    INPUTS,
    OUTPUTS,
    WEIGHTS,
    Array,
    Network,
    encode,
    equity,
    flip,
)
from parlour.backgammon.train import (
    Trainer,
    choose_play,
    fit,
    rank_plays,
    self_play_game,
    self_play_positions,
)

CHECKPOINT = Path(__file__).with_name("backgammon-checkpoint.npz")
#: d(equity)/d(probabilities): a win, a gammon and a backgammon each a point more.
EQUITY_WEIGHTS = np.array([2.0, 1.0, 1.0, -1.0, -1.0])
#: The rolls step keeps, of a throw's plays, the network's best this many and this
#: many others at random.
PLAYS_KEPT = 12
PLAYS_AT_RANDOM = 4
#: The distil step holds out the same throws whatever its seed.
HELD_OUT_SEED = 5
#: Positions as their two sides' counts (mover, opponent): what crosses between
#: processes and is saved (a Position does not cross).
Boards = list[tuple[tuple[int, ...], tuple[int, ...]]]


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
    save_boards(path, [(p.mover, p.opponent) for p in positions], rolls)


def save_boards(path: Path, boards: Boards, rolls: list[int] | None = None) -> None:
    """Positions given as their two sides (mover, opponent), with each one's roll
    number for a file of plays."""
    mover = np.array([m for m, _ in boards], dtype=np.int8)
    opponent = np.array([o for _, o in boards], dtype=np.int8)
    if rolls is None:
        np.savez(path, mover=mover, opponent=opponent)
    else:
        np.savez(path, mover=mover, opponent=opponent, roll=np.array(rolls))


def labels_path(path: Path, ply: int) -> Path:
    return path.with_name(f"{path.stem}-gnubg{ply}.npy")


def _labelled(name: str, ply: int) -> tuple[Path, int]:
    """A file of positions and the ply of its labels, from ``FILE`` or ``FILE:PLY``."""
    path, _, named = name.rpartition(":")
    if path and named.isdigit():
        return Path(path), int(named)
    return Path(name), ply


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
    # (a share small enough that gnubg's 2-ply finishes each in a minute or so)
    share = 2000 if ply < 2 else 500
    tasks = [(boards[i : i + share], ply) for i in range(0, len(boards), share)]
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


class DoublePrecision(Network):
    """A network that plays in double precision, as every network did when the
    shipped one's positions were made (single precision may order two near-equal
    plays otherwise, and the steps would no longer repeat bit for bit)."""

    def probabilities(self, positions: Sequence[Position]) -> Array:
        return self.forward(encode(positions))


def game_against_gnubg(
    network: Network, rng: np.random.Generator, network_first: bool
) -> list[Position]:
    """One game of the network by 0-ply against gnubg-nn's 0-ply: every position
    met, each with its mover (either side) about to throw."""
    position = Position.start()
    seen: list[Position] = []
    network_on_roll = network_first
    while True:
        seen.append(position)
        dice = (int(rng.integers(1, 7)), int(rng.integers(1, 7)))
        if network_on_roll:
            after = choose_play(network, position, dice)
        else:
            after = gnubg_player(position, dice)
        if after.win_kind():
            return seen
        position = after.swapped()
        network_on_roll = not network_on_roll


def _rolls_of(
    task: tuple[Path, int, int, int, int, bool],
) -> tuple[Boards, list[int], Boards]:
    """One process's share of :func:`rolls`: (the plays' positions, their throws'
    numbers, the positions met before the throws), each position as its two sides
    (a Position does not cross between processes)."""
    weights, seed, count, kept, at_random, against_gnubg = task
    w1, b1, w2, b2 = Network.load(weights).parameters()
    network = DoublePrecision(w1, b1, w2, b2)
    rng = np.random.default_rng(seed)
    found: list[Position] = []
    numbers: list[int] = []
    met: list[Position] = []
    throws = 0
    games = 0
    while throws < count:
        if against_gnubg:
            seen = game_against_gnubg(network, rng, network_first=games % 2 == 0)
        else:
            seen, _ = self_play_game(network, rng)
        games += 1
        for position in seen:
            if is_bearoff(position):
                continue
            met.append(position)
            dice = (int(rng.integers(1, 7)), int(rng.integers(1, 7)))
            plays = legal_plays(position, dice)
            if len(plays) < 2:
                continue  # nothing to choose between
            # (a set: plays that differ only in order lead to one position)
            results = list({position.apply(play) for play in plays})
            if any(result.win_kind() for result in results):
                continue
            after = [r.swapped() for r in results]
            after = [a for a in after if not is_bearoff(a)]
            if len(after) < 2:
                continue
            if len(after) > kept + at_random:
                # the network's best plays (where the choice is made) and a few others
                # at random (so that the fit learns that bad plays are bad)
                order = np.argsort(-equity(flip(network.probabilities(after))))
                others = rng.choice(order[kept:], at_random, replace=False)
                after = [after[i] for i in [*order[:kept], *others]]
            found.extend(after)
            numbers.extend([seed * 10_000_000 + throws] * len(after))
            throws += 1
    return [(p.mover, p.opponent) for p in found], numbers, [(p.mover, p.opponent) for p in met]


def rolls(
    weights: Path,
    count: int,
    seeds: list[int],
    kept: int = PLAYS_KEPT,
    at_random: int = PLAYS_AT_RANDOM,
    against_gnubg: bool = False,
) -> tuple[Boards, list[int]]:
    """The self-play of the network of ``weights``, ``count`` throws in all, shared
    between one process for each seed: for each position met (not a bear-off) a
    random throw and the positions its plays lead to (seen from the opponent, then
    on roll; the network's best ``kept`` and ``at_random`` others where there are
    more), numbered by throw; then the positions met themselves, numbered -1 (no
    throw: judged, never ranked). Fewer plays kept make a file that a slow judge
    (gnubg at 2-ply, some 40 ms a position) can label in an hour. With
    ``against_gnubg``, the network's games against gnubg's 0-ply instead (each
    side's positions met, the network first in every other game): positions of
    the kind the measure's games reach rather than those of self-play."""
    tasks = [(weights, seed, count // len(seeds), kept, at_random, against_gnubg) for seed in seeds]
    with ProcessPoolExecutor(len(seeds)) as pool:
        parts = list(pool.map(_rolls_of, tasks))
    found = [p for part in parts for p in part[0]]
    found += [p for part in parts for p in part[2]]
    numbers = [n for part in parts for n in part[1]]
    return found, numbers + [-1] * (len(found) - len(numbers))


def lost_per_throw(chosen: Array, judged: Array, numbers: np.ndarray) -> tuple[float, float]:
    """Over the throws of ``numbers``: the equity (by ``judged``, the probabilities
    of each play's position) lost on average by playing the best play by
    ``chosen``, and how often that play is the best by ``judged``."""
    mine = -equity(chosen)  # each position is the opponent's: the mover's equity
    best = -equity(judged)
    starts = np.flatnonzero(np.r_[True, numbers[1:] != numbers[:-1]])
    lost = np.array(
        [
            best[s:e].max() - best[s + int(np.argmax(mine[s:e]))]
            for s, e in zip(starts, np.r_[starts[1:], len(numbers)], strict=True)
        ]
    )
    return float(lost.mean()), float((lost == 0).mean())


def distil(
    files: list[tuple[Path, int]],
    weights: Path,
    hidden: int,
    epochs: int,
    rate: float,
    seed: int,
    out: Path,
    kind: int | None = None,
    rank_weight: float = 0.0,
) -> None:
    """Fit a network of ``hidden`` units, the one of ``weights`` widened, to gnubg's
    probabilities of the positions of ``files`` (files of the rolls step, each with
    the ply of the labels to fit: a small file judged deeper may join a large one
    judged at 0-ply or 1-ply) by the squared error, with Adam and a cosine schedule
    (PyTorch on one thread, so that a run repeats exactly; training-only); a
    twentieth of the throws held out, the same whatever the seed, judged after each
    pass by :func:`lost_per_throw`.
    Saved as a checkpoint after each pass. With ``kind`` (:data:`CRASHED` or
    :data:`RACE`), only the positions of that kind are fitted: a network for them
    alone (the ``combine`` step joins it to the main one), judged with the network
    of ``weights`` judging the rest. With ``rank_weight``, each step also fits a
    share of the throws' plays to differ from one another in equity as gnubg's do
    (each play's equity less the mean of its throw's, by the squared error, that
    many times the probabilities' error): the choice of play is what counts."""
    import torch  # the training extra: never needed to play

    torch.set_num_threads(1)
    torch.manual_seed(seed)
    loaded = [load_positions(path) for path, _ in files]
    positions = [p for found, _ in loaded for p in found]
    numbers = np.concatenate([n for _, n in loaded if n is not None])
    if len(numbers) != len(positions):
        sys.exit("distil fits the files the rolls step writes")
    targets = np.concatenate([load_labels(path, ply) for path, ply in files])
    # every file's plays' positions first, then the positions met
    order = np.r_[np.flatnonzero(numbers >= 0), np.flatnonzero(numbers < 0)]
    positions = [positions[i] for i in order]
    numbers, targets = numbers[order], targets[order]
    # encoded a slice at a time, and the positions let go: four million of them
    # take some gigabytes as objects, and twice as many again as double precision
    inputs = np.concatenate(
        [
            encode(positions[i : i + 100_000]).astype(np.float32)
            for i in range(0, len(positions), 100_000)
        ]
    )
    fitted = np.ones(len(numbers), bool)
    if kind is not None:
        fitted = kinds_of_counts(counts_of(positions)) == kind
    del positions, loaded
    throws = np.unique(numbers[numbers >= 0])
    chosen = np.random.default_rng(HELD_OUT_SEED).choice(throws, len(throws) // 20, replace=False)
    held = np.isin(numbers, chosen)
    taught_inputs = torch.from_numpy(inputs[~held & fitted])
    taught_targets = torch.tensor(targets[~held & fitted], dtype=torch.float32)
    # judged in double precision, as the network is saved
    held_inputs = inputs[held].astype(np.float64)
    del inputs
    held_fitted = fitted[held]
    print(f"fitting {len(taught_inputs)} positions, {held_fitted.sum()} held out", flush=True)

    start = Network.load(weights)
    judged = start.forward(held_inputs)
    lost, best = lost_per_throw(judged, targets[held], numbers[held])
    print(f"{weights}: lost {lost:.5f} a throw, the best play {best:.3f}", flush=True)
    widened = start.widened(hidden, seed=7)
    first, second = torch.nn.Linear(INPUTS, hidden), torch.nn.Linear(hidden, OUTPUTS)
    with torch.no_grad():
        for layer, matrix, bias in (
            (first, widened.w1, widened.b1),
            (second, widened.w2, widened.b2),
        ):
            layer.weight.copy_(torch.tensor(matrix.T))
            layer.bias.copy_(torch.tensor(bias))
    model = torch.nn.Sequential(first, torch.nn.Sigmoid(), second, torch.nn.Sigmoid())
    optimiser = torch.optim.Adam(model.parameters(), lr=rate)
    schedule = torch.optim.lr_scheduler.CosineAnnealingLR(optimiser, epochs)
    starts, lengths = _throw_spans(numbers[~held & fitted])
    gnubg_equity = torch.from_numpy(equity(targets[~held & fitted].astype(np.float32)))
    steps = -(-len(taught_inputs) // 512)
    for epoch in range(epochs):
        order = torch.randperm(len(taught_inputs))
        # (drawn only when used, so that a fit without it repeats the earlier ones)
        throws = torch.randperm(len(starts)).numpy() if rank_weight else starts
        for step, begin in enumerate(range(0, len(order), 512)):
            batch = order[begin : begin + 512]
            loss = ((model(taught_inputs[batch]) - taught_targets[batch]) ** 2).mean()
            if rank_weight:
                chosen = throws[step * len(starts) // steps : (step + 1) * len(starts) // steps]
                loss = loss + rank_weight * _rank_error(
                    model, taught_inputs, gnubg_equity, starts[chosen], lengths[chosen]
                )
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
        schedule.step()
        network = Network(
            first.weight.detach().numpy().T.astype(np.float64),
            first.bias.detach().numpy().astype(np.float64),
            second.weight.detach().numpy().T.astype(np.float64),
            second.bias.detach().numpy().astype(np.float64),
        )
        outputs = judged.copy()
        outputs[held_fitted] = network.forward(held_inputs[held_fitted])
        error = float(((outputs - targets[held])[held_fitted] ** 2).mean())
        lost, best = lost_per_throw(outputs, targets[held], numbers[held])
        print(
            f"pass {epoch + 1}: held-out error {error:.6f}, lost {lost:.5f} a throw,"
            f" the best play {best:.3f}",
            flush=True,
        )
        Trainer(network, seed=seed).save(out)


#: The kinds of position a network may be fitted to alone.
KINDS = {"crashed": CRASHED, "race": RACE}


def combine(main: Path, crashed: Path | None, race: Path | None) -> Trainer:
    """The main network of ``main`` with the networks of ``crashed`` and ``race``
    (each fitted to its kind alone) judging their kinds of position, as a checkpoint
    to save. Each path is a checkpoint or a weights file."""

    def read(path: Path) -> Network:
        with np.load(path) as data:
            checkpoint = "trainer" in data
        return Trainer.resume(path).network if checkpoint else Network.load(path)

    def alone(path: Path) -> Network:
        """The network at ``path`` without any of its own for kinds of position."""
        w1, b1, w2, b2 = read(path).parameters()
        return Network(w1, b1, w2, b2)

    network = read(main)
    network.crashed = alone(crashed) if crashed else None
    network.race = alone(race) if race else None
    return Trainer(network, seed=0)


def _throw_spans(numbers: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Where each throw's plays begin among rows numbered ``numbers`` (the plays
    first, each throw's together, then the positions met), and how many there are."""
    plays = int((numbers >= 0).sum())
    starts = np.flatnonzero(np.r_[True, numbers[1:plays] != numbers[: plays - 1]])
    return starts, np.diff(np.r_[starts, plays])


def _rank_error(
    model: Any, inputs: Any, gnubg_equity: Any, starts: np.ndarray, lengths: np.ndarray
) -> Any:
    """The squared error of the model's equities of the plays of some throws (rows
    ``starts[i]`` to ``starts[i] + lengths[i]``), each less the mean of its throw's,
    against gnubg's the same way."""
    import torch

    rows = np.repeat(starts - np.r_[0, np.cumsum(lengths)[:-1]], lengths) + np.arange(lengths.sum())
    throw = torch.tensor(np.repeat(np.arange(len(starts)), lengths))
    counts = torch.tensor(lengths, dtype=torch.float32)
    # equity() is plain arithmetic on the five columns: a tensor's as an array's
    mine, theirs = equity(model(inputs[rows])), gnubg_equity[rows]

    def centred(values: Any) -> Any:
        means = torch.zeros(len(starts)).index_add(0, throw, values) / counts
        return values - means[throw]

    return ((centred(mine) - centred(theirs)) ** 2).mean()


def main(argv: list[str] | None = None) -> int:  # noqa: PLR0915 (one parser, its steps)
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
    step = steps.add_parser("rolls", help="self-play's throws, each with its plays' positions")
    step.add_argument("--count", type=int, default=160_000, help="throws")
    step.add_argument(
        "--seeds", default="101,202", help="one process for each (their share of the throws)"
    )
    step.add_argument("--network", type=Path, default=WEIGHTS, help="the network that plays")
    step.add_argument("--kept", type=int, default=PLAYS_KEPT, help="the network's best plays kept")
    step.add_argument(
        "--at-random", type=int, default=PLAYS_AT_RANDOM, help="and this many others at random"
    )
    step.add_argument(
        "--against-gnubg",
        action="store_true",
        help="the network's games against gnubg's 0-ply rather than against itself",
    )
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
    step = steps.add_parser("distil", help="fit a wider network to the rolls' labels (PyTorch)")
    step.add_argument("positions", nargs="+", help="files of the rolls step, each FILE or FILE:PLY")
    step.add_argument("--ply", type=int, default=0, help="the labels' ply where not named")
    step.add_argument("--hidden", type=int, default=256)
    step.add_argument("--epochs", type=int, default=12)
    step.add_argument("--rate", type=float, default=0.001)
    step.add_argument("--seed", type=int, default=0, help="PyTorch's, for the shuffles")
    step.add_argument(
        "--rank-weight",
        type=float,
        default=0.0,
        help="also fit each throw's plays' equities relative to one another, this much",
    )
    step.add_argument("--network", type=Path, default=WEIGHTS, help="the network to widen")
    step.add_argument(
        "--kind", choices=sorted(KINDS), help="fit a network for this kind of position alone"
    )
    step.add_argument("--out", type=Path, required=True)
    step = steps.add_parser("combine", help="join networks for crashed positions and races")
    step.add_argument("network", type=Path, help="the checkpoint of the main network")
    step.add_argument("--crashed", type=Path, help="a checkpoint fitted with --kind crashed")
    step.add_argument("--race", type=Path, help="a checkpoint fitted with --kind race")
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
    elif args.step == "rolls":
        seeds = [int(seed) for seed in args.seeds.split(",")]
        boards, numbers = rolls(
            args.network, args.count, seeds, args.kept, args.at_random, args.against_gnubg
        )
        save_boards(args.out, boards, numbers)
        met = numbers.count(-1)
        print(f"{met} positions met, {len(boards) - met} after {args.count} throws")
    elif args.step == "distil":
        distil(
            [_labelled(name, args.ply) for name in args.positions],
            args.network,
            args.hidden,
            args.epochs,
            args.rate,
            args.seed,
            args.out,
            KINDS[args.kind] if args.kind else None,
            args.rank_weight,
        )
    elif args.step == "combine":
        combine(args.network, args.crashed, args.race).save(args.out)
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
