"""Two ways of choosing a play, compared where they disagree: a quick judge of a
change to the search, sharper than whole games.

Positions come from level 6's self-play (seeded). In each, both choosers pick a
play; where they reach different positions, both positions are rolled out by
GNU Backgammon at 0-ply (gnubg-nn, an independent player), the same dice for both
(common random numbers: the luck cancels in the difference), each trial cut off
after ``--horizon`` throws and judged there by gnubg's 0-ply network. Prints the
second chooser's gain in cubeless equity a position met (every position with a
choice, disagreements or not) with its 95 % interval, and each chooser's time a
move. A chooser is ``level N`` (``level6``), move filters as the level 7 search takes
them (``8:0.16,3:0.06``; ``8:0.16,3:0.06,2:0.03`` looks three throws ahead), or
``gnubgN`` (gnubg-nn's own play at N plies). A chooser of ours may name another
network after ``@`` (``level6@M5.npz``): two networks compared with one search.

    python benchmarks/backgammon_disagreements.py --a level6 --b 8:0.16,3:0.06 --positions 2000

Calibrated against whole games in docs/benchmarks.md: a gain of 0.0033 a position
(level 7 over level 6) came to 0.05 points a game.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

import gnubg_nn
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from backgammon_vs_pubeval import filters_of, gnubg_board

from parlour.backgammon.board import CheckerMove, Position, legal_plays
from parlour.backgammon.engine import BackgammonEngine
from parlour.backgammon.network import Network

Chooser = Callable[[Position, tuple[int, int]], Position]


def gnubg_play(position: Position, dice: tuple[int, int], plies: int = 0) -> Position:
    """The position gnubg-nn's play reaches (still seen by its mover); gnubg's play
    is trusted here, as the games of backgammon_vs_pubeval.py check it."""
    pairs = gnubg_nn.best_move(gnubg_board(position), dice[0], dice[1], n=plies)
    return position.apply(tuple(CheckerMove(start, end) for start, end in pairs))


def cubeless_equity(chances: tuple[float, ...]) -> float:
    """gnubg's five probabilities as points a game for the side on roll."""
    win, win_gammon, win_backgammon, lose_gammon, lose_backgammon = chances
    return 2 * win - 1 + win_gammon - lose_gammon + win_backgammon - lose_backgammon


def rolled_out(after: Position, dice: np.ndarray) -> float:
    """One trial: the points won by the side that has just played to reach
    ``after`` (seen by it), both sides playing gnubg's 0-ply play with ``dice``
    (one row a throw) and the position left judged by gnubg's network."""
    kind = after.win_kind()
    if kind:
        return float(kind)
    position, sign = after.swapped(), -1  # the opponent is on roll
    for first, second in dice:
        reached = gnubg_play(position, (int(first), int(second)))
        kind = reached.win_kind()
        if kind:
            return float(sign * kind)
        position, sign = reached.swapped(), -sign
    return sign * cubeless_equity(gnubg_nn.probabilities(gnubg_board(position), 0))


def chooser(engine: BackgammonEngine, spec: str) -> Chooser:
    """A chooser of plays by its description (the module's docstring)."""
    spec, _, weights = spec.partition("@")
    if weights:
        engine = BackgammonEngine(Network.load(Path(weights)))
    if spec.startswith("level"):
        level = int(spec.removeprefix("level"))
        return lambda position, dice: position.apply(engine.choose_play(position, dice, level))
    if spec.startswith("gnubg"):
        plies = int(spec.removeprefix("gnubg"))
        return lambda position, dice: gnubg_play(position, dice, plies)
    filters = filters_of(spec)

    def searched(position: Position, dice: tuple[int, int]) -> Position:
        ranked = engine.ranked_plays(position, dice, filters)
        return position.apply(ranked[0][0] if ranked else ())

    return searched


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--a", required=True, help="the chooser compared against")
    parser.add_argument("--b", required=True, help="the chooser measured")
    parser.add_argument("--positions", type=int, default=2000)
    parser.add_argument("--trials", type=int, default=1296, help="rollout trials a position")
    parser.add_argument("--horizon", type=int, default=12, help="throws a trial")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--weights", type=Path, help="a network checkpoint (default: shipped)")
    args = parser.parse_args(argv)
    engine = BackgammonEngine(Network.load(args.weights) if args.weights else None)
    first, second = chooser(engine, args.a), chooser(engine, args.b)
    rng = random.Random(args.seed)
    gains: list[float] = []
    spent = [0.0, 0.0]
    met = 0
    position = Position.start()
    started = time.perf_counter()
    while met < args.positions:
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        if len(legal_plays(position, dice)) > 1:
            met += 1
            reached = []
            for side, choose in enumerate((first, second)):
                clock = time.perf_counter()
                reached.append(choose(position, dice))
                spent[side] += time.perf_counter() - clock
            if reached[0] != reached[1]:
                throws = np.random.default_rng(rng.randrange(1 << 30)).integers(
                    1, 7, size=(args.trials, args.horizon, 2)
                )
                values = [
                    float(np.mean([rolled_out(after, trial) for trial in throws]))
                    for after in reached
                ]
                gains.append(values[1] - values[0])
        after = position.apply(engine.choose_play(position, dice, 6))
        position = Position.start() if after.win_kind() else after.swapped()
    found = np.array(gains)
    gain = found.sum() / met
    # the gain a position is a mean over every position met, zero where they agree
    spread = np.r_[found, np.zeros(met - len(found))].std(ddof=1) / np.sqrt(met)
    print(
        f"{args.b} against {args.a}: {met} positions, {len(found)} disagreements; "
        f"gain a position {gain:+.5f} (95 %: {gain - 1.96 * spread:+.5f} to "
        f"{gain + 1.96 * spread:+.5f}); time a move {1000 * spent[0] / met:.1f} and "
        f"{1000 * spent[1] / met:.1f} ms; {time.perf_counter() - started:.0f} s"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
