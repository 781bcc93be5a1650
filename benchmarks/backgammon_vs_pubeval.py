"""Cubeless money games between Parlour's backgammon network and a yardstick:
pubeval (Tesauro's public linear evaluator) or GNU Backgammon (at 0-ply, or looking
one or two throws ahead with ``--gnubg-plies``), both from gnubg-nn, or another of
Parlour's own levels. Duplicate dice: each dice sequence is played twice with the
seats swapped, which cancels much of the luck. Prints points per game for Parlour's
level (by default level 6, the network's plain 0-ply play) with its 95 % interval,
and the time each Parlour level took a move (the mean and the worst over every
position met).

    python benchmarks/backgammon_vs_pubeval.py --games 1000 [--opponent gnubg] \
        [--weights bg-train.npz]
    python benchmarks/backgammon_vs_pubeval.py --level 7 --opponent 6 --games 400
    python benchmarks/backgammon_vs_pubeval.py --level 7 --filters 8:0.16,8:inf --opponent 7
    python benchmarks/backgammon_vs_pubeval.py --opponent gnubg --games 10000 --lend contact
    python benchmarks/backgammon_vs_pubeval.py --level 7 --opponent gnubg --gnubg-plies 2

``--lend`` is a diagnostic of where the points go: in positions of the kinds named
(gnubg's classes: contact, crashed, race) Parlour's side plays gnubg's 0-ply play,
so the rise of its score shows what its own play of those kinds costs.
"""

from __future__ import annotations

import argparse
import functools
import math
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

import gnubg_nn
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from parlour.backgammon.board import CheckerMove, Position, legal_plays
from parlour.backgammon.engine import BackgammonEngine, Filter
from parlour.backgammon.network import Network, shipped_network
from parlour.backgammon.notation import position_id
from parlour.backgammon.train import Trainer

Chooser = Callable[[Position, tuple[int, int]], Position]


class Timed:
    """A Parlour level as a player, timing each of its moves; ``filters``, if given,
    replace the top level's own (to measure a change to them)."""

    def __init__(
        self,
        engine: BackgammonEngine,
        level: int,
        seed: int,
        filters: tuple[Filter, ...] | None = None,
    ) -> None:
        self.engine = engine
        self.level = level
        self.filters = filters
        #: The noise of the beginner levels, seeded so that a run can be repeated.
        self.rng = random.Random(seed)
        self.times: list[float] = []
        #: The slowest move's time, position and dice, to time it again alone.
        self.slowest: tuple[float, Position, tuple[int, int]] | None = None

    def __call__(self, position: Position, dice: tuple[int, int]) -> Position:
        started = time.perf_counter()
        if self.filters:
            ranked = self.engine.ranked_plays(position, dice, self.filters)
            play = ranked[0][0] if ranked else ()
        else:
            play = self.engine.choose_play(position, dice, self.level, self.rng)
        spent = time.perf_counter() - started
        if self.slowest is None or spent > self.slowest[0]:
            self.slowest = (spent, position, dice)
        self.times.append(spent)
        return position.apply(play)

    def timing(self) -> str:
        times = self.times
        assert self.slowest is not None
        worst, position, dice = self.slowest
        return (
            f"level {self.level}{' with ' + str(self.filters) if self.filters else ''}: "
            f"{len(times)} moves, {1000 * sum(times) / len(times):.1f} ms "
            f"a move on average, the worst {1000 * worst:.0f} ms "
            f"(position {position_id(position)}, {dice[0]}{dice[1]} to play)"
        )


def gnubg_board(position: Position) -> list[list[int]]:
    """gnubg's board: the side not on roll first, each side in its own numbering."""
    return [list(position.opponent), list(position.mover)]


def pubeval_player(position: Position, dice: tuple[int, int]) -> Position:
    flat = gnubg_nn.pub_best_move(gnubg_board(position), dice[0], dice[1])
    # pubeval numbers points from 0 (the bar is 24) and writes off as -1
    moves = [
        CheckerMove(start + 1, end + 1 if end >= 0 else 0)
        for start, end in zip(flat[0::2], flat[1::2], strict=True)
    ]
    return checked(position, dice, tuple(moves))


def gnubg_player(position: Position, dice: tuple[int, int], plies: int = 0) -> Position:
    """gnubg-nn's play, judged ``plies`` throws ahead (0: its network as it stands;
    1 and 2 its own look ahead, with its own move filters)."""
    pairs = gnubg_nn.best_move(gnubg_board(position), dice[0], dice[1], n=plies)
    return checked(position, dice, tuple(CheckerMove(start, end) for start, end in pairs))


#: gnubg's classes of position, for ``--lend``.
KINDS = {"contact": gnubg_nn.c_contact, "crashed": gnubg_nn.c_crashed, "race": gnubg_nn.c_race}


class Lent:
    """A player that plays gnubg's 0-ply play in positions of some kinds, its own
    elsewhere."""

    def __init__(self, own: Chooser, kinds: set[int]) -> None:
        self.own = own
        self.kinds = kinds
        self.lent = 0
        self.moves = 0

    def __call__(self, position: Position, dice: tuple[int, int]) -> Position:
        self.moves += 1
        if gnubg_nn.classify(gnubg_board(position)) in self.kinds:
            self.lent += 1
            return gnubg_player(position, dice)
        return self.own(position, dice)


def checked(position: Position, dice: tuple[int, int], play: tuple[CheckerMove, ...]) -> Position:
    """The yardstick's play applied, after making sure our rules allow it (a
    misread move would silently corrupt the match)."""
    after = position.apply(play)
    legal = {position.apply(p) for p in legal_plays(position, dice)} or {position}
    if after not in legal:
        raise RuntimeError(f"the yardstick's play {play} is not legal here")
    return after


def play(first: Chooser, second: Chooser, dice: list[tuple[int, int]]) -> int:
    """Points won by ``first`` (negative when lost) in one game thrown with ``dice``."""
    position = Position.start()
    players = (first, second)
    turn = 0
    for throw in dice:
        after = players[turn](position, throw)
        kind = after.win_kind()
        if kind:
            return kind if turn == 0 else -kind
        position = after.swapped()
        turn = 1 - turn
    raise RuntimeError("the game outlasted its dice")


def opening_dice(rng: np.random.Generator) -> list[tuple[int, int]]:
    """A game's throws: a non-double opening, then anything."""
    while True:
        first, second = (int(x) for x in rng.integers(1, 7, size=2))
        if first != second:
            break
    rest = [(int(a), int(b)) for a, b in rng.integers(1, 7, size=(2000, 2))]
    return [(first, second), *rest]


def filters_of(text: str) -> tuple[Filter, ...]:
    """Move filters from ``keep:within,keep:within`` (``within`` may be ``inf``)."""
    try:
        return tuple(
            Filter(int(keep), float(within))
            for keep, within in (part.split(":") for part in text.split(","))
        )
    except ValueError:
        raise argparse.ArgumentTypeError(f"not keep:within,...: {text!r}") from None


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=1000, help="games (an even number)")
    parser.add_argument(
        "--opponent",
        default="pubeval",
        help="pubeval, gnubg (0-ply; see --gnubg-plies) or a Parlour level (1-7)",
    )
    parser.add_argument(
        "--gnubg-plies",
        type=int,
        choices=(0, 1, 2),
        default=0,
        help="the gnubg opponent looks this many throws ahead (default 0)",
    )
    parser.add_argument("--weights", type=Path, help="a training checkpoint (default: shipped)")
    parser.add_argument(
        "--level",
        type=int,
        default=6,
        help="Parlour's level: 6 is plain 0-ply, 7 looks two throws ahead",
    )
    parser.add_argument("--seed", type=int, default=12345)
    parser.add_argument(
        "--filters",
        type=filters_of,
        help="Parlour plays the top level's search with these move filters instead of "
        "its level's, e.g. 8:0.16,3:0.06 (keep, within: one for each throw ahead)",
    )
    parser.add_argument(
        "--lend",
        action="append",
        choices=sorted(KINDS),
        default=[],
        help="in positions of this kind Parlour plays gnubg's 0-ply play (repeatable)",
    )
    args = parser.parse_args()

    network: Network = Trainer.resume(args.weights).network if args.weights else shipped_network()

    engine = BackgammonEngine(network)
    parlour_player = Timed(engine, args.level, args.seed, args.filters)
    if args.gnubg_plies and args.opponent != "gnubg":
        parser.error("--gnubg-plies is for --opponent gnubg")
    opponent: Chooser
    name = args.opponent
    if args.opponent == "pubeval":
        opponent = pubeval_player
    elif args.opponent == "gnubg":
        opponent = functools.partial(gnubg_player, plies=args.gnubg_plies)
        if args.gnubg_plies:
            name = f"gnubg {args.gnubg_plies}-ply"
    elif args.opponent.isdigit():
        opponent = Timed(engine, engine.check_level(int(args.opponent)), args.seed + 1)
        name = f"level {args.opponent}"
    else:
        parser.error(f"no such opponent: {args.opponent}")
    parlour_side: Chooser = parlour_player
    if args.lend:
        parlour_side = lent = Lent(parlour_player, {KINDS[kind] for kind in args.lend})
    rng = np.random.default_rng(args.seed)
    pair_scores = []
    started = time.perf_counter()
    for _ in range(args.games // 2):
        dice = opening_dice(rng)
        pair_scores.append(
            (play(parlour_side, opponent, dice) - play(opponent, parlour_side, dice)) / 2
        )
    n = len(pair_scores)
    mean = sum(pair_scores) / n
    spread = math.sqrt(sum((s - mean) ** 2 for s in pair_scores) / (n - 1)) if n > 1 else 0.0
    half_width = 1.96 * spread / math.sqrt(n)
    print(
        f"Parlour level {args.level}{' with ' + str(args.filters) if args.filters else ''} "
        f"vs {name}: {2 * n} games (duplicate dice), "
        f"{mean:+.3f} points per game, 95 % interval [{mean - half_width:+.3f}, "
        f"{mean + half_width:+.3f}], {time.perf_counter() - started:.0f} s"
    )
    if args.lend:
        kinds = ", ".join(args.lend)
        print(f"gnubg's plays lent in {lent.lent} of Parlour's {lent.moves} moves ({kinds})")
    for player in (parlour_player, opponent):
        if isinstance(player, Timed):
            print(player.timing())
    return 0


if __name__ == "__main__":
    sys.exit(main())
