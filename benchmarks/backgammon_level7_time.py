"""How long the strongest backgammon level (7, two throws ahead) takes a move, in
two checkouts of Parlour side by side: say, the code before a change and after it.

Each checkout runs in a process of its own (started with its directory first on
the path), kept for the whole run; the positions go to the two in turn, one
position at a time and the first of the two alternating, so that only one works
at any moment and a busy machine slows both alike. The positions: those met in
self-play games of the shipped network (0-ply, seeded), each with a random throw,
then the worst moves of level 7 named in docs/benchmarks.md. Run from the
repository root, each checkout compiled (``parlour compile``)::

    OPENBLAS_NUM_THREADS=1 .venv/bin/python benchmarks/backgammon_level7_time.py \\
        --before /path/to/old/checkout --after . --positions 300

It prints, for each checkout, the seconds a move (average, median, 90th
percentile, worst), the named positions' times, and where the two differ: the
play chosen, or any play's equity by more than a millionth.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import IO, Any

#: The worst moves of level 7 named in docs/benchmarks.md: gnubg position IDs, the
#: player on roll to play the throw.
NAMED = [
    ("7w4AAIA7I6sQAA", (3, 1)),
    ("+y4AADCbGawgAA", (4, 1)),
    ("250BAIBtM1hgAA", (6, 4)),
    ("324AAADbTFRFAA", (5, 4)),
    ("/wEAANB2hKFCAA", (3, 2)),
]


def worker() -> None:
    """Read positions (JSON: mover, opponent, dice), one a line; answer each with
    level 7's time, its plays best first and their equities."""
    from parlour.backgammon import network
    from parlour.backgammon.board import Position
    from parlour.backgammon.engine import BackgammonEngine

    engine = BackgammonEngine()
    assert engine.strongest == 7, "ranked_plays is the strongest level's ranking"
    engine.ranked_plays(Position.start(), (3, 1))  # load the network and tables
    print(json.dumps({"native": network.NATIVE}), flush=True)
    for line in sys.stdin:
        mover, opponent, dice = json.loads(line)
        position = Position(tuple(mover), tuple(opponent))
        started = time.perf_counter()
        ranked = engine.ranked_plays(position, (dice[0], dice[1]))
        seconds = time.perf_counter() - started
        plays = [" ".join(map(str, play)) for play, _ in ranked]
        print(json.dumps([seconds, plays, [value for _, value in ranked]]), flush=True)


def positions(count: int, seed: int) -> list[tuple[list[int], list[int], tuple[int, int]]]:
    """``count`` self-play positions with a random throw each, then :data:`NAMED`."""
    import numpy as np

    from parlour.backgammon.board import Position
    from parlour.backgammon.network import shipped_network
    from parlour.backgammon.notation import position_from_id
    from parlour.backgammon.train import self_play_game

    rng = np.random.default_rng(seed)
    seen: list[Position] = []
    while len(seen) < count:
        seen.extend(self_play_game(shipped_network(), rng)[0])
    found = [
        (list(p.mover), list(p.opponent), (int(rng.integers(1, 7)), int(rng.integers(1, 7))))
        for p in seen[:count]
    ]
    for text, dice in NAMED:
        p = position_from_id(text)
        found.append((list(p.mover), list(p.opponent), dice))
    return found


def start(root: Path) -> tuple[subprocess.Popen[str], IO[str], IO[str]]:
    env = dict(os.environ, PYTHONPATH=str(root), OPENBLAS_NUM_THREADS="1")
    process = subprocess.Popen(
        [sys.executable, str(Path(__file__).resolve()), "--worker"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env=env,
        cwd=root,
    )
    assert process.stdin is not None and process.stdout is not None
    hello = json.loads(process.stdout.readline())
    print(f"{root}: native {hello['native']}", flush=True)
    return process, process.stdin, process.stdout


def summary(name: str, seconds: list[float]) -> str:
    ordered = sorted(seconds)
    average = sum(ordered) / len(ordered)
    median = ordered[len(ordered) // 2]
    ninetieth = ordered[int(0.9 * (len(ordered) - 1))]
    return (
        f"{name}: {len(ordered)} moves, average {average:.3f} s, median {median:.3f} s, "
        f"90th percentile {ninetieth:.3f} s, worst {ordered[-1]:.3f} s"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--before", type=Path, help="the checkout timed first")
    parser.add_argument("--after", type=Path, default=Path("."), help="the checkout after")
    parser.add_argument("--positions", type=int, default=300)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    if args.worker:
        worker()
        return 0
    if args.before is None:
        parser.error("--before is needed")
    sys.path.insert(0, str(args.after.resolve()))
    found = positions(args.positions, args.seed)
    roots = {"before": args.before.resolve(), "after": args.after.resolve()}
    workers = {name: start(root) for name, root in roots.items()}
    times: dict[str, list[float]] = {"before": [], "after": []}
    differences = []
    largest = 0.0
    for k, (mover, opponent, dice) in enumerate(found):
        line = json.dumps([mover, opponent, dice]) + "\n"
        answers: dict[str, Any] = {}
        for name in ("before", "after") if k % 2 == 0 else ("after", "before"):
            _, into, out = workers[name]
            into.write(line)
            into.flush()
            answers[name] = json.loads(out.readline())
            times[name].append(answers[name][0])
        (_, plays, values), (_, plays_after, values_after) = answers["before"], answers["after"]
        after = dict(zip(plays_after, values_after, strict=True))
        gap = max(
            (abs(v - after.get(p, float("inf"))) for p, v in zip(plays, values, strict=True)),
            default=0.0,
        )
        largest = max(largest, gap)
        if plays[:1] != plays_after[:1] or gap > 1e-6:
            differences.append((k, plays[:1], plays_after[:1], gap))
    for _, into, _ in workers.values():
        into.close()
    for process, _, _ in workers.values():
        process.wait()
    named = len(NAMED)
    for name, seconds in times.items():
        print(summary(f"{name} ({roots[name]})", seconds[:-named]))
        print(
            "  the named positions: "
            + ", ".join(
                f"{text} {dice[0]}{dice[1]} {t:.3f} s"
                for (text, dice), t in zip(NAMED, seconds[-named:], strict=True)
            )
        )
    print(f"the largest difference in a play's equity: {largest:.2g}")
    print(f"differences (position, play before, play after, largest equity gap): {differences}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
