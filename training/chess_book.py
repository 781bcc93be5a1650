"""Build the chess opening book from deep searches by Stockfish (training only).

Run from the repository root, with Debian's ``stockfish`` and python-chess (the test
extra) installed; resumable (positions already in the file keep their moves, and
their children are followed)::

    .venv/bin/python training/chess_book.py                       # the shipped book
    .venv/bin/python training/chess_book.py --plies 6 --out /tmp/book.tsv

From the start, ply by ply: each position is searched by Stockfish to ``--depth``
plies with ``--lines`` lines (MultiPV) from an empty table (``ucinewgame``, one
thread: the same book on any machine), and every move within ``--margin``
centipawns of the best is kept (at most ``--lines``, fewer after ``--narrow-after``
plies); the positions those moves lead to are searched in turn, until ``--plies``
plies. Stockfish is the teacher here as GNU Backgammon is for the backgammon
network: its judgements are data the package ships, none of its code; Parlour plays
without it. Lines are ``position<tab>move<tab>score<tab>depth`` (see
:mod:`parlour.chess.openings`), written to ``parlour/chess/data/openings.tsv`` as
each search finishes.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import time
from pathlib import Path

import chess
import chess.engine

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from parlour.chess.board import Move
from parlour.chess.notation import parse_san, san
from parlour.chess.openings import SHIPPED, position_key
from parlour.chess.rules import CHESS, parse_fen


def book_lines(
    stockfish: chess.engine.SimpleEngine, key: str, args: argparse.Namespace, ply: int
) -> list[tuple[str, int, int]]:
    """The moves to keep in a position: (SAN, centipawns for the side to move, depth),
    best first."""
    lines = 2 if ply >= args.narrow_after else args.lines
    found = stockfish.analyse(
        chess.Board(key + " 0 1"),
        chess.engine.Limit(depth=args.depth),
        multipv=lines,
        game=object(),  # a new game each time: ucinewgame, an empty table
    )
    state = parse_fen(key)
    scored = []
    for info in found:
        score = info["score"].relative.score(mate_score=100_000)
        assert score is not None
        move = Move.from_uci(info["pv"][0].uci())
        scored.append((san(state, move), score, int(info.get("depth", args.depth))))
    best = scored[0][1]
    return [line for line in scored if line[1] >= best - args.margin]


def child(key: str, move: str) -> str:
    state = parse_fen(key)
    state.push(parse_san(state, move))
    return position_key(state)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--plies", type=int, default=10, help="how deep the book goes")
    parser.add_argument("--depth", type=int, default=16, help="Stockfish's depth")
    parser.add_argument("--lines", type=int, default=3, help="the most moves a position keeps")
    parser.add_argument(
        "--narrow-after", type=int, default=4, help="from this ply on, at most two moves"
    )
    parser.add_argument("--margin", type=int, default=25, help="centipawns behind the best")
    parser.add_argument("--out", type=Path, default=SHIPPED)
    parser.add_argument("--stockfish", default=shutil.which("stockfish") or "/usr/games/stockfish")
    args = parser.parse_args()
    book: dict[str, list[str]] = {}
    if args.out.exists():
        for line in args.out.read_text().splitlines():
            key, move, *_ = line.split("\t")
            book.setdefault(key, []).append(move)
    started = time.monotonic()
    stockfish = chess.engine.SimpleEngine.popen_uci(args.stockfish)
    stockfish.configure({"Threads": 1, "Hash": 64})
    frontier = [position_key(CHESS.new_state())]
    try:
        with args.out.open("a") as out:
            for ply in range(args.plies):
                for key in frontier:
                    if key in book:
                        continue
                    kept = book_lines(stockfish, key, args, ply)
                    for move, score, depth in kept:
                        out.write(f"{key}\t{move}\t{score}\t{depth}\n")
                    out.flush()
                    book[key] = [move for move, _, _ in kept]
                following = (child(key, move) for key in frontier for move in book[key])
                frontier = list(dict.fromkeys(following))
                frontier = [key for key in frontier if not parse_fen(key).is_over()]
                print(
                    f"ply {ply}: {len(book)} positions, next {len(frontier)}, "
                    f"{time.monotonic() - started:.0f} s",
                    flush=True,
                )
    finally:
        stockfish.quit()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
