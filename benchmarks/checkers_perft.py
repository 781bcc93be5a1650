"""Checkers perft: correctness against OEIS A133046 and speed against py-draughts.

Run from the repository root::

    /work/devvenv/bin/python benchmarks/checkers_perft.py   # compare at depth 8, verify to 10
    /work/devvenv/bin/python benchmarks/checkers_perft.py --depth 7 --verify-depth 9

How the comparison is kept fair. py-draughts (PyPI ``py-draughts``) ships American
checkers with captures optional and White first, which is a different tree. Its
board class is subclassed here so that ``legal_moves`` asks its own move-generation
core for compulsory captures (``captures_optional=False``, no maximum-capture rule,
as American checkers is played), and the board starts with Black to move; its
counts then equal A133046, which the script checks before timing anything. py-draughts
has no perft for this board, so it is counted the way its own tests count: make and
unmake with ``push``/``pop`` down the tree, and at the last ply the length of
``legal_moves``. Ours is timed three ways in the same run:

* ``parlour perft``: ``Game.perft`` as the command line runs it -- positions as
  tuples of bitboards, children made by copying, and the last ply counted
  without listing the moves (jump sequences are still walked one by one);
* ``children at the leaves``: the same, but the last ply lists every child
  position and takes the length, as py-draughts does with ``legal_moves``;
* ``protocol push/pop``: the generic make/unmake count through ``State``
  (``legal_moves``, ``push_unchecked``, ``pop`` with Move objects), for reference.

Every figure is leaves per second of wall time; the machine is shared, so only the
ratios measured in one run mean anything.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from parlour.checkers.board import Position, children
from parlour.checkers.rules import CHECKERS
from parlour.core.protocol import Side, _perft

A133046 = [1, 7, 49, 302, 1469, 7361, 36768, 179740, 845931, 3963680, 18391564, 85242128]


def perft_listing_leaves(position: Position, side: Side, depth: int) -> int:
    if depth == 1:
        return len(children(position, side))
    return sum(
        perft_listing_leaves(child, side.other, depth - 1) for child in children(position, side)
    )


def py_draughts_perft() -> Callable[[int], int]:
    from draughts.boards._core import CORE_AMERICAN
    from draughts.boards.american import Board
    from draughts.models import Color
    from draughts.move import Move

    class CompulsoryCaptureBoard(Board):
        """py-draughts' American board with the ACF capture rule."""

        @property
        def legal_moves(self) -> list[Move]:
            return self._legal_moves_from_core(
                CORE_AMERICAN, max_capture=False, captures_optional=False
            )

    def perft(board: Board, depth: int) -> int:
        moves = board.legal_moves
        if depth == 1:
            return len(moves)
        total = 0
        for move in moves:
            board.push(move)
            total += perft(board, depth - 1)
            board.pop()
        return total

    return lambda depth: perft(CompulsoryCaptureBoard(turn=Color.BLACK), depth)


def timed(count: Callable[[], int]) -> tuple[int, float]:
    start = time.perf_counter()
    leaves = count()
    return leaves, time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--depth", type=int, default=8, help="depth of the timed comparison")
    parser.add_argument("--verify-depth", type=int, default=10, help="check A133046 up to here")
    parser.add_argument("--repeat", type=int, default=1, help="best of this many runs each")
    args = parser.parse_args()

    state = CHECKERS.new_state()
    print(f"perft from the start, verified against OEIS A133046 to depth {args.verify_depth}:")
    for depth in range(1, args.verify_depth + 1):
        leaves, seconds = timed(partial(CHECKERS.perft, state, depth))
        status = "ok" if leaves == A133046[depth] else f"WRONG (A133046: {A133046[depth]})"
        print(f"  depth {depth:2}: {leaves:>10} {status}  {seconds:7.2f} s")
        if leaves != A133046[depth]:
            return 1

    theirs = py_draughts_perft()
    depth = args.depth
    contenders: dict[str, Callable[[], int]] = {
        "parlour perft": lambda: CHECKERS.perft(state, depth),
        "parlour, children at the leaves": lambda: perft_listing_leaves(
            state.position, state.turn, depth
        ),
        "parlour, protocol push/pop": lambda: _perft(state, depth),
        "py-draughts (captures compulsory)": lambda: theirs(depth),
    }
    print(f"\nspeed at depth {depth} (best of {args.repeat}), leaves per second:")
    rates: dict[str, float] = {}
    for name, count in contenders.items():
        best = min((timed(count) for _ in range(args.repeat)), key=lambda result: result[1])
        leaves, seconds = best
        if leaves != A133046[depth]:
            print(f"  {name}: counted {leaves}, A133046 says {A133046[depth]}")
            return 1
        rates[name] = leaves / seconds
        print(f"  {name:36} {rates[name]:>12,.0f}  ({seconds:.2f} s)")
    peer = rates["py-draughts (captures compulsory)"]
    print("\nratio to py-draughts (higher is faster):")
    for name, rate in rates.items():
        if not name.startswith("py-draughts"):
            print(f"  {name:36} {rate / peer:6.2f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
