"""Node counts and node rates of the chess and checkers engines at a fixed depth.

A refactoring of hot code must leave the search exactly as it was: the same node
count at the same depth on the same positions (so the same moves and scores). The
rate in nodes a second is what such a change may cost; compare it with the code
before the change in the same run (``git worktree add`` the old commit and run this
script there with ``PYTHONPATH`` set to it, in turn with this one).

    python benchmarks/engine_nodes.py            # both engines
    python benchmarks/engine_nodes.py --game chess
    python benchmarks/engine_nodes.py --timed 0.5   # chess: depth and nodes in 0.5 s
    python benchmarks/engine_nodes.py --depths 10,9,10,12,9,9   # chess: the C search alone

Each game is searched twice where its search in C is built (``parlour compile``):
by the C search and by the Python one (compiled with the rest, or pure), one after
the other, ``--repeat`` times. Both must count the same nodes (the C search mirrors
the Python one node for node); the last line is how many times as many nodes a
second the C search visits. ``--timed`` runs the C chess search where it is built,
the Python one with ``--python``.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from parlour import compiled
from parlour.checkers.engine import NATIVE, CheckersEngine
from parlour.checkers.rules import CHECKERS
from parlour.chess.engine import NATIVE as CHESS_NATIVE
from parlour.chess.engine import new_searcher
from parlour.chess.rules import CHESS

CHESS_POSITIONS = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1B1PPP/R2QKB1R w KQ - 0 8",
]
CHECKERS_POSITIONS = [
    "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12",
    "W:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29",
]


def chess_nodes(depth: int, native: bool = CHESS_NATIVE) -> tuple[list[int], float]:
    """Each position searched by a new searcher (an empty table), in C or in Python:
    the nodes, and the seconds of the searches."""
    counts = []
    seconds = 0.0
    for fen in CHESS_POSITIONS:
        searcher = new_searcher(native=native)
        state = CHESS.state_from_text(fen)
        started = time.perf_counter()
        searcher.search(state, depth=depth)
        seconds += time.perf_counter() - started
        counts.append(searcher.nodes)
    return counts, seconds


def checkers_nodes(depth: int, native: bool = NATIVE) -> tuple[list[int], float]:
    """Each position searched by a new engine (an empty table), in C or in Python:
    the nodes, and the seconds of the searches."""
    counts = []
    seconds = 0.0
    for fen in CHECKERS_POSITIONS:
        engine = CheckersEngine(native=native)
        state = CHECKERS.state_from_text(fen)
        started = time.perf_counter()
        result = engine.search(state, depth=depth)
        seconds += time.perf_counter() - started
        counts.append(result.nodes)
    return counts, seconds


def both(game: str, depth: int, repeat: int) -> None:
    """The C search against the Python one, alternately, and the ratio of their
    rates (the best run of each)."""
    python_build = "compiled" if compiled.state() == "compiled" else "pure"
    nodes = chess_nodes if game == "chess" else checkers_nodes
    rates: dict[bool, list[float]] = {True: [], False: []}
    counted: dict[bool, list[int]] = {}
    for _ in range(repeat):
        for native in (True, False):
            counts, seconds = nodes(depth, native)
            counted.setdefault(native, counts)
            assert counts == counted[native]
            rate = sum(counts) / seconds
            rates[native].append(rate)
            name = "in C" if native else f"in Python ({python_build})"
            listed = ", ".join(f"{n:,}" for n in counts)
            print(
                f"{game:9} depth {depth}: nodes {listed}; {seconds:.2f} s, "
                f"{rate:,.0f} nodes/s, {name}"
            )
    same = "the same nodes" if counted[True] == counted[False] else "DIFFERENT NODES"
    print(
        f"{game:9} the search in C: {max(rates[True]) / max(rates[False]):.1f}x the nodes a "
        f"second of the search in Python ({python_build}; best of {repeat} each), {same}"
    )


def chess_timed(seconds: float, native: bool) -> None:
    """The chess search (in C where built, unless not ``native``) given ``seconds``
    a move (as UCI ``movetime`` spends it) on each of the six standard perft
    positions: the depth finished, the nodes and the rate (quiescence nodes
    included)."""
    sys.path.insert(0, str(Path(__file__).parent))
    from chess_perft import POSITIONS

    total_nodes = 0
    total_seconds = 0.0
    for name, fen, _, _ in POSITIONS:
        searcher = new_searcher(native=native)
        result = searcher.search(CHESS.state_from_text(fen), seconds=seconds, use_all_time=True)
        total_nodes += result.nodes
        total_seconds += result.seconds
        rate = result.nodes / result.seconds
        print(f"{name:10} depth {result.depth:2}  nodes {result.nodes:8,}  {rate:9,.0f} nodes/s")
    print(f"all        {total_nodes / total_seconds:,.0f} nodes/s")


def chess_deep(depths: list[int]) -> None:
    """The chess search (in C where built) to a set depth on each of the six standard
    perft positions, each by a new searcher: the nodes and the rate. A change to the
    C search that keeps it node for node must count the same nodes here, so the rate
    of two builds run in turn is the change's cost or gain."""
    sys.path.insert(0, str(Path(__file__).parent))
    from chess_perft import POSITIONS

    total_nodes = 0
    total_seconds = 0.0
    for (name, fen, _, _), depth in zip(POSITIONS, depths, strict=True):
        searcher = new_searcher()
        state = CHESS.state_from_text(fen)
        started = time.perf_counter()
        searcher.search(state, depth=depth)
        total_seconds += time.perf_counter() - started
        total_nodes += searcher.nodes
        print(f"{name:10} depth {depth:2}  nodes {searcher.nodes:9,}")
    print(
        f"all        nodes {total_nodes:,} in {total_seconds:.3f} s, "
        f"{total_nodes / total_seconds:,.0f} nodes/s"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", choices=("chess", "checkers"), action="append")
    parser.add_argument("--chess-depth", type=int, default=6)
    parser.add_argument("--checkers-depth", type=int, default=9)
    parser.add_argument(
        "--timed", type=float, metavar="SECONDS", help="chess: search each position this long"
    )
    parser.add_argument(
        "--repeat",
        type=int,
        default=1,
        help="runs of each search, the C one and the Python one in turn",
    )
    parser.add_argument(
        "--depths",
        help="chess: the search to these depths (six, comma-separated) on the perft positions",
    )
    parser.add_argument(
        "--python", action="store_true", help="chess --timed: the Python search, not the C one"
    )
    args = parser.parse_args()
    if args.timed:
        chess_timed(args.timed, not args.python)
        return
    if args.depths:
        chess_deep([int(depth) for depth in args.depths.split(",")])
        return
    for game in args.game or ["chess", "checkers"]:
        if game == "chess" and CHESS_NATIVE:
            both(game, args.chess_depth, args.repeat)
            continue
        if game == "chess":
            counts, seconds = chess_nodes(args.chess_depth)
            depth = args.chess_depth
        elif NATIVE:
            both(game, args.checkers_depth, args.repeat)
            continue
        else:
            counts, seconds = checkers_nodes(args.checkers_depth)
            depth = args.checkers_depth
        rate = sum(counts) / seconds
        listed = ", ".join(f"{n:,}" for n in counts)
        print(f"{game:9} depth {depth}: nodes {listed}; {seconds:.2f} s, {rate:,.0f} nodes/s")


if __name__ == "__main__":
    main()
