"""Checkers endings: does play agree with the endgame database, and are won endings won?

Run from the repository root::

    .venv/bin/python benchmarks/checkers_endgames.py                  # both parts
    .venv/bin/python benchmarks/checkers_endgames.py --sample 20      # a quick look
    .venv/bin/python benchmarks/checkers_endgames.py --part conversions
    .venv/bin/python benchmarks/checkers_endgames.py --part play-outs --longest 20

**Play-outs.** Positions drawn at random from the database (the same number won,
lost and drawn for the side to move, either colour to move, two to four pieces, or
five where ``parlour checkers-endgames --pieces 5`` has built that table) are
played out twice: by Parlour against itself, where the result must be the
database's exactly; and by Parlour against py-draughts' engine (``SimpleEngine`` at
depth 8, on its American board with compulsory captures, every move checked by our
rules), Parlour taking the side the database favours (in a draw, the side to move),
where Parlour must do at least as well as the database says. Parlour searches 0.1 s
a move. Games are adjudicated by our rules: no move loses; a threefold repetition or
forty moves a side without a man move or capture is a draw. ``--longest N`` plays
out the database's N longest wins and N longest losses instead: the database knows
no 40-move rule, so these are where it could disagree with the rules.

**Conversions.** Won endings of more pieces than the database holds -- two kings
against one in a double corner, three kings against two, four pieces against three
with men -- played by Parlour (0.5 s a move) against py-draughts at depth 8, each
with Parlour on both colours. Each must be won within 60 of Parlour's moves.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from itertools import islice
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from checkers_match import Peer

from parlour.checkers.board import BLACK, WHITE, Move, turned
from parlour.checkers.endgame import Verdict, shipped_database
from parlour.checkers.engine import CheckersEngine
from parlour.checkers.notation import position_to_fen
from parlour.checkers.rules import CHECKERS, CheckersState
from parlour.core.protocol import Side

#: Won endings beyond the database, as FEN with the winner to move (Parlour takes
#: the winner), each also played turned round with the colours swapped.
CONVERSIONS: tuple[tuple[str, str], ...] = (
    ("two kings against one in Black's double corner", "W:WK14,K19:BK1"),
    ("two kings against one in White's double corner", "B:WK32:BK14,K18"),
    ("two kings against one, from the far corner", "W:WK29,K30:BK4"),
    ("three kings against two, both double corners", "W:WK14,K18,K19:BK1,K32"),
    ("three kings against two, one double corner", "W:WK29,K30,K31:BK1,K5"),
    ("three kings against two in the centre", "W:WK22,K26,K27:BK10,K11"),
    ("two kings and a man against a king and a man", "W:WK18,K19,30:BK5,12"),
    ("three kings against two men and a king", "W:WK22,K23,K27:BK1,3,4"),
    ("two kings and two men against three men", "W:WK14,K15,29,31:B2,3,4"),
    ("three kings and a man against three men", "W:WK13,K14,K15,31:B1,2,4"),
    ("two kings and two men against a king and two men", "W:WK17,K18,30,31:BK24,2,3"),
    ("four kings against three kings", "W:WK13,K14,K18,K19:BK1,K5,K32"),
)

PLY_CAP = 400


class ParlourPlayer:
    def __init__(self, seconds: float) -> None:
        self.engine = CheckersEngine()
        self.seconds = seconds

    def choose(self, state: CheckersState) -> Move:
        result = self.engine.search(state, seconds=self.seconds, depth=64)
        assert result.best_move is not None
        return self.engine.to_move(state, result.best_move)


def play_out(
    start: CheckersState, peer_side: Side | None, seconds: float, peer_depth: int
) -> tuple[Side | None, int, str]:
    """Play from ``start`` (py-draughts on ``peer_side``, Parlour elsewhere); the
    winner (None: a draw), the plies and why it ended."""
    state = start.copy()
    peer = (
        Peer(None, fen=position_to_fen(state.position, state.turn), depth=peer_depth)
        if peer_side is not None
        else None
    )
    players = {side: ParlourPlayer(seconds) for side in (BLACK, WHITE) if side != peer_side}
    plies = 0
    while True:
        outcome = state.rules_outcome()
        if outcome is not None:
            return outcome.winner, plies, outcome.reason
        draw = state.claimable_draw()
        if draw is not None:
            return None, plies, draw
        if plies >= PLY_CAP:
            return None, plies, f"stopped at {PLY_CAP} plies"
        if peer is not None and state.turn is peer_side:
            move = peer.choose(state)
        else:
            move = players[state.turn].choose(state)
            if peer is not None:
                peer.push(move)
        state.push(move)
        plies += 1


def sample(per_result: int, seed: int) -> list[tuple[str, CheckersState]]:
    """Positions from the database: ``per_result`` each won, lost and drawn for
    the side to move, with the database's verdict."""
    db = shipped_database()
    assert db is not None, "the endgame database is missing: run parlour checkers-endgames"
    rng = random.Random(seed)
    wanted = {"win": per_result, "loss": per_result, "draw": per_result}
    found: list[tuple[str, CheckersState]] = []
    while any(wanted.values()):
        slot = rng.randrange(len(db.codes))
        try:
            position = db.position(slot)
        except ValueError:
            continue
        verdict = db.probe(position, BLACK)
        assert verdict is not None
        if not wanted[verdict.result]:
            continue
        state = CheckersState.from_position(position, BLACK)
        if state.is_over():
            continue
        wanted[verdict.result] -= 1
        if rng.random() < 0.5:  # the same position with White to move
            state = CheckersState.from_position(turned(position), WHITE)
        found.append((verdict.result, state))
    return found


def longest(count: int) -> list[tuple[str, CheckersState]]:
    """The database's ``count`` longest wins and ``count`` longest losses for the side
    to move: where a long road without a capture or a man's move could meet the
    40-move rule, which the database does not know."""
    db = shipped_database()
    assert db is not None, "the endgame database is missing: run parlour checkers-endgames"
    codes = np.asarray(db.codes)
    # the codes in the table, the longest first (a code grows with its plies)
    present = [int(code) for code in np.flatnonzero(np.bincount(codes))[::-1] if code]
    found: list[tuple[str, CheckersState]] = []
    for verdict in ("win", "loss"):
        states = (
            CheckersState.from_position(db.position(int(slot)), BLACK)
            for code in present
            if Verdict.of(code).result == verdict
            for slot in np.flatnonzero(codes == code)
        )
        playable = (state for state in states if not state.is_over())
        found += [(verdict, state) for state in islice(playable, count)]
    return found


def check_play_out(
    args: tuple[str, str, bool, float, int],
) -> tuple[str, str, str, str, int, str]:
    """One play-out: (verdict, FEN, who played, the result for the side to move
    at the start, plies, why it ended)."""
    verdict, fen, against_peer, seconds, depth = args
    start = CHECKERS.state_from_text(fen)
    assert isinstance(start, CheckersState)
    mover = start.turn
    peer_side = None
    if against_peer:
        peer_side = mover.other if verdict != "loss" else mover
    winner, plies, reason = play_out(start, peer_side, seconds, depth)
    result = "draw" if winner is None else "win" if winner is mover else "loss"
    return verdict, fen, "py-draughts" if against_peer else "itself", result, plies, reason


RANK = {"loss": 0, "draw": 1, "win": 2}


def play_outs(
    positions: list[tuple[str, CheckersState]], jobs: int, seconds: float, depth: int
) -> bool:
    tasks = [
        (verdict, state.to_text(), against, seconds, depth)
        for verdict, state in positions
        for against in (False, True)
    ]
    tally: Counter[tuple[str, str, str]] = Counter()
    wrong = 0
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        for done, (verdict, fen, opponent, result, plies, reason) in enumerate(
            pool.map(check_play_out, tasks), 1
        ):
            tally[(opponent, verdict, result)] += 1
            if opponent == "itself":
                bad = result != verdict
            else:  # Parlour held the favoured side: at least the database's result
                ours = (
                    result
                    if verdict != "loss"
                    else {"win": "loss", "loss": "win"}.get(result, result)
                )
                favoured = verdict if verdict != "loss" else "win"
                bad = RANK[ours] < RANK[favoured]
            if bad:
                wrong += 1
                print(
                    f"  DISAGREES: {fen} database {verdict}, against {opponent}: {result}"
                    f" in {plies} plies ({reason})",
                    flush=True,
                )
            if done % 20 == 0:
                print(f"  {done} of {len(tasks)} played, {wrong} disagree", flush=True)
    for (opponent, verdict, result), count in sorted(tally.items()):
        print(f"  against {opponent:11}: database {verdict:4}, played {result:4}: {count}")
    print(f"{len(tasks)} play-outs of {len(positions)} positions; {wrong} disagree")
    return wrong == 0


def check_conversion(args: tuple[str, str, bool, float, int]) -> tuple[str, str, bool, int, str]:
    name, fen, swap, seconds, depth = args
    start = CHECKERS.state_from_text(fen)
    assert isinstance(start, CheckersState)
    if swap:
        start = CheckersState.from_position(turned(start.position), start.turn.other)
    winner_side = start.turn
    winner, plies, reason = play_out(start, winner_side.other, seconds, depth)
    ours = (plies + 1) // 2
    won = winner is winner_side and ours <= 60
    return name, start.to_text(), won, ours, reason


def conversions(jobs: int, seconds: float, depth: int) -> bool:
    tasks = [
        (name, fen, swap, seconds, depth) for name, fen in CONVERSIONS for swap in (False, True)
    ]
    won_all = True
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        for name, fen, won, moves, reason in pool.map(check_conversion, tasks):
            won_all &= won
            verdict = "won" if won else "NOT WON"
            print(f"  {name:52} {fen:32} {verdict} in {moves} moves ({reason})", flush=True)
    print(f"{len(tasks)} endings: {'all won' if won_all else 'some not won'}")
    return won_all


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--part", choices=("play-outs", "conversions", "both"), default="both")
    parser.add_argument("--sample", type=int, default=100, help="positions per verdict")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--longest",
        type=int,
        metavar="N",
        help="play out the database's N longest wins and N longest losses instead",
    )
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--depth", type=int, default=8, help="py-draughts' depth")
    args = parser.parse_args()
    started = time.monotonic()
    ok = True
    if args.part in ("play-outs", "both"):
        positions = longest(args.longest) if args.longest else sample(args.sample, args.seed)
        ok &= play_outs(positions, args.jobs, 0.1, args.depth)
    if args.part in ("conversions", "both"):
        ok &= conversions(args.jobs, 0.5, args.depth)
    print(f"{time.monotonic() - started:.0f} s")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
