"""Checkers: where Parlour's lost games of a match were lost, and how deep it searches
in their middlegames.

Run from the repository root on the PDN that ``checkers_match.py --pdn`` wrote::

    .venv/bin/python benchmarks/checkers_match.py --ballots 40 --seconds 0.1 --jobs 2 \\
        --external /path/to/simplech-adapter --pdn games.pdn
    .venv/bin/python benchmarks/checkers_losses.py games.pdn --depth-at 0.1

For each game Parlour lost: the ply from which it stayed behind in material for
the rest of the game (a man 1, a king 1.3; behind means by 0.7 or more) and how
many pieces were on the board then. With ``--depth-at S``: the depth Parlour's
search completes in S seconds (no book) at plies 21, 31, 41 and 51 of the first
40 games, median and mean.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from parlour.checkers.engine import CheckersEngine
from parlour.checkers.pdn import PdnGame, read_pdn

#: A king counted against a man.
KING = 1.3


def balance(game: PdnGame, ours_black: bool) -> list[tuple[float, int]]:
    """Parlour's material lead after each ply, and the pieces on the board."""
    state = game.start()
    found = []
    for move in game.moves:
        state.push_unchecked(move)
        black_men, black_kings, white_men, white_kings = state.position
        black = black_men.bit_count() + KING * black_kings.bit_count()
        white = white_men.bit_count() + KING * white_kings.bit_count()
        pieces = (black_men | black_kings | white_men | white_kings).bit_count()
        found.append((black - white if ours_black else white - black, pieces))
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("pdn", type=Path, help="a PDN file of checkers_match.py --pdn")
    parser.add_argument("--depth-at", type=float, help="seconds a search of the middlegames")
    args = parser.parse_args()
    games = read_pdn(args.pdn.read_text())

    losses = 0
    for game in games:
        ours_black = game.tags.get("Black") == "Parlour"
        if game.result != ("1-0" if ours_black else "0-1"):
            continue
        losses += 1
        lead = balance(game, ours_black)
        behind = next(
            (ply for ply in range(len(lead)) if all(d <= -0.7 for d, _ in lead[ply:])), None
        )
        colour = "Black" if ours_black else "White"
        where = (
            "never behind for good"
            if behind is None
            else f"behind from ply {behind + 1} with {lead[behind][1]} pieces"
        )
        print(f"{game.tags.get('Event', '?'):28} Parlour {colour}: {where} ({len(lead)} plies)")
    print(f"{losses} losses of {len(games)} games")

    if args.depth_at:
        engine = CheckersEngine(book=False)
        depths = []
        for game in games[:40]:
            state = game.start()
            for index, move in enumerate(game.moves):
                state.push_unchecked(move)
                if index in (20, 30, 40, 50) and state.legal_moves():
                    depths.append(engine.search(state, seconds=args.depth_at).depth)
        print(
            f"depth completed in {args.depth_at} s, {len(depths)} positions: "
            f"median {statistics.median(depths)}, mean {statistics.mean(depths):.1f}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
