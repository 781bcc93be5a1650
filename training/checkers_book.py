"""Build the checkers opening book by deep searches of our own engine.

Run from the repository root (resumable: positions already in the file are kept)::

    .venv/bin/python training/checkers_book.py                  # depth 13, both cores
    .venv/bin/python training/checkers_book.py --depth 11 --jobs 1

The book holds every position of the first three moves (the start, Black's seven
first moves, the 49 replies, the 302 three-move starts, fewer where two move orders
meet), and for each
of the ACF three-move ballots the benchmark plays
(``benchmarks/checkers_match.py``), the next three positions along the engine's own
main line. Each is searched to ``--depth`` plies from an empty table, so the book is
the same on any machine. Lines are ``FEN<tab>move<tab>score<tab>depth``, written to
``parlour/checkers/data/openings.tsv`` as each search finishes.
"""

from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

from checkers_match import BALLOTS

from parlour.checkers.engine import CheckersEngine
from parlour.checkers.openings import SHIPPED, first_positions
from parlour.checkers.rules import CHECKERS, CheckersState

#: How far along the main line after each ballot the book goes.
LINE_PLIES = 3


def search(task: tuple[str, int]) -> tuple[str, str, int, int]:
    """A position searched from an empty table: (FEN, move, score, depth)."""
    fen, depth = task
    state = CHECKERS.state_from_text(fen)
    assert isinstance(state, CheckersState)
    engine = CheckersEngine()
    result = engine.search(state, depth=depth)
    assert result.best_move is not None
    return fen, str(engine.to_move(state, result.best_move)), int(result.score), result.depth


def line_end(book: dict[str, str], fen: str) -> str | None:
    """The first position off the book along its own moves from ``fen`` (None
    when the game ends first)."""
    state = CHECKERS.state_from_text(fen)
    while state.to_text() in book:
        state.push(state.parse_move(book[state.to_text()]))
        if state.is_over():
            return None
    return state.to_text()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--depth", type=int, default=13)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--out", type=Path, default=SHIPPED)
    args = parser.parse_args()
    book: dict[str, str] = {}
    if args.out.exists():
        for line in args.out.read_text().splitlines():
            fen, move, *_ = line.split("\t")
            book[fen] = move
    ballots = []
    for ballot in BALLOTS:
        state = CHECKERS.new_state()
        for text in ballot.split():
            state.push(state.parse_move(text))
        ballots.append(state.to_text())
    started = time.monotonic()
    with args.out.open("a") as out, ProcessPoolExecutor(max_workers=args.jobs) as pool:
        batches = [[fen for fen in first_positions() if fen not in book]]
        for _ in range(LINE_PLIES + 1):
            for fen, move, score, depth in pool.map(
                search, [(fen, args.depth) for fen in batches[-1]]
            ):
                out.write(f"{fen}\t{move}\t{score}\t{depth}\n")
                out.flush()
                book[fen] = move
            # The next position along each ballot's main line.
            ends = (line_end(book, fen) for fen in ballots)
            batches.append(list(dict.fromkeys(end for end in ends if end is not None)))
    print(f"{len(book)} positions in {args.out}, {time.monotonic() - started:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
