"""Parlour's cube decisions against GNU Backgammon's, on positions of real games.

GNU Backgammon (Debian ``gnubg``) plays money games and matches against itself at
0-ply; every position where the side on roll may double is then evaluated by it at
``--plies`` (cubeful), and decided by Parlour twice: by its engine (its own network's
chances) and by its cube model alone, given gnubg's own cubeless chances. Prints the
agreement and the equity lost per decision (normalised, in thousandths, as gnubg's
error rates are), money and match, doubles and takes, counting the decisions gnubg
counts: those where a double is right or within 0.16 of it.

    python benchmarks/backgammon_cube.py --money 30 --matches 10 --length 7 --plies 2
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.backgammon.gnubg_cube import (
    compare,
    cube_positions,
    gnubg_games,
    gnubg_verdicts,
    in_temporary_folder,
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--money", type=int, default=30, help="money games")
    parser.add_argument("--matches", type=int, default=10, help="matches")
    parser.add_argument("--length", type=int, default=7, help="the matches' length")
    parser.add_argument("--plies", type=int, default=2, help="gnubg's plies for its verdicts")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--two-throws",
        action="store_true",
        help="also Parlour's network two throws deep (about 0.5 s a decision)",
    )
    args = parser.parse_args()
    folder = in_temporary_folder()
    started = time.perf_counter()
    texts = gnubg_games(
        folder, seed=args.seed, money=args.money, matches=args.matches, length=args.length
    )
    states = cube_positions(texts)
    money = sum(state.money for state in states)
    print(
        f"{len(states)} positions with the cube available ({money} money, "
        f"{len(states) - money} match), from {args.money} money games and "
        f"{args.matches} {args.length}-point matches gnubg played at 0-ply"
    )
    verdicts, _, _ = gnubg_verdicts(states, folder, args.plies)
    close = sum(verdict.close for verdict in verdicts)
    doubles = sum(verdict.doubles for verdict in verdicts)
    print(f"gnubg at {args.plies}-ply: {close} close decisions, {doubles} doubles")
    titles: tuple[tuple[str, str], ...] = (
        ("0-ply", "Parlour's network at 0-ply"),
        ("1-ply", "Parlour's network a throw deeper (the engine's cube decisions)"),
        ("gnubg", "Parlour's cube model, gnubg's chances"),
    )
    if args.two_throws:
        titles += (("2-ply", "Parlour's network two throws deeper"),)
    for source, title in titles:
        print(f"{title}:")
        for kind, tally in sorted(compare(states, verdicts, chances_from=source).items()):
            print(f"  {kind:<13} {tally}")
    print(f"({time.perf_counter() - started:.0f} s)")


if __name__ == "__main__":
    main()
