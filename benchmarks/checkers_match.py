"""Checkers engine match: Parlour against py-draughts' engine at equal time per move.

Run from the repository root::

    .venv/bin/python benchmarks/checkers_match.py                # 24 ballots x 2 = 48 games
    .venv/bin/python benchmarks/checkers_match.py --seconds 0.3 --jobs 2
    .venv/bin/python benchmarks/checkers_match.py --ballots 3    # a quick look
    .venv/bin/python benchmarks/checkers_match.py --ballots 40 --external "PROGRAM"

The peer is py-draughts' ``SimpleEngine`` (PyPI ``py-draughts``: negamax with
alpha-beta, transposition table, killers, history, quiescence, late-move
reductions) on its American board, changed only so that it plays the ACF rules:
captures compulsory (its own move generator asked with ``captures_optional=False``)
and Black moving first. Both engines get the same time per move.

The games start from three-move ballots, as checkers tournaments do: the first
three moves (Black, White, Black) are dealt from the American Checkers Federation's
three-move restriction list; below is a subset of that list written out as data.
Beyond its 24, ``--ballots`` adds the three-move starts the opening book scores
nearest to level (its depth-13 searches), most level first. Each ballot is played
twice, Parlour taking Black once and White once.

``--external`` plays another program instead of py-draughts, over the line protocol
of :class:`ExternalPeer`. Parlour plays from its opening book, as it does in games.

Adjudication follows the ACF rules as our own rules class states them: a side with
no legal move loses; the game is drawn when a position has stood for the third
time, or after forty moves by each side with no man moved and nothing captured.
Every py-draughts move is checked against our rules: an illegal one stops the
match with an error.

It prints each game, then the score from Parlour's side with its 95 % interval
(normal approximation over the per-game results) and the Elo difference.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from parlour.checkers.board import BIT_SQUARE, BLACK, Move, bits
from parlour.checkers.engine import CheckersEngine
from parlour.checkers.pdn import PdnGame, write_pdn
from parlour.checkers.rules import CHECKERS, CheckersState

#: Three-move ballots (Black, White, Black) from the ACF three-move list: a subset,
#: mostly the well-trodden openings, each checked legal by our rules before play.
BALLOTS: tuple[str, ...] = (
    "9-13 22-18 10-15",
    "9-13 23-18 10-14",
    "9-14 22-18 5-9",
    "9-14 22-17 11-15",
    "9-14 23-19 11-16",
    "9-14 24-20 11-15",
    "10-14 22-17 11-16",
    "10-14 23-19 11-16",
    "10-14 24-20 6-10",
    "10-15 21-17 11-16",
    "10-15 23-18 6-10",
    "10-15 24-19 15x24",
    "11-15 21-17 9-13",
    "11-15 22-17 8-11",
    "11-15 22-17 15-19",
    "11-15 22-18 15x22",
    "11-15 23-18 8-11",
    "11-15 23-19 8-11",
    "11-15 23-19 9-14",
    "11-15 24-20 8-11",
    "11-16 22-18 10-14",
    "11-16 24-20 16-19",
    "12-16 24-20 8-12",
    "12-16 21-17 9-13",
)

#: A game still going after this many plies is stopped and scored a draw (the
#: 40-move rule ends real games long before; the count of such games is printed).
PLY_CAP = 400


def game_end(state: CheckersState, black_scores: bool) -> tuple[float, str] | None:
    """How the game stands by our rules, scored for Black if ``black_scores`` (else for
    White): the score (1, 0.5 or 0) and why, once it is won, drawn or at the ply cap;
    None while it goes on."""
    outcome = state.rules_outcome()
    if outcome is not None:
        return (1.0 if (outcome.winner is BLACK) == black_scores else 0.0), outcome.reason
    draw = state.claimable_draw()
    if draw is not None or len(state.move_stack) >= PLY_CAP:
        return 0.5, draw or f"stopped at {PLY_CAP} plies"
    return None


def three_move_starts() -> list[list[Move]]:
    """Every three-move start, Black, White, Black, in our move order (302)."""
    found = []
    state = CHECKERS.new_state()
    for first in state.legal_moves():
        state.push(first)
        for second in state.legal_moves():
            state.push(second)
            found += [[first, second, third] for third in state.legal_moves()]
            state.pop()
        state.pop()
    return found


def balanced_starts() -> list[str]:
    """Three-move starts not among :data:`BALLOTS`, the most level first by the
    opening book's scores."""
    from parlour.checkers.openings import shipped_book

    book = shipped_book()
    scored = []
    for moves in three_move_starts():
        text = " ".join(str(move) for move in moves)
        state = CHECKERS.new_state()
        for move in moves:
            state.push(move)
        entry = book.entry(state)
        if entry is not None and text not in BALLOTS:
            scored.append((abs(entry.score), text))
    return [text for _, text in sorted(scored)]


def ballot_state(ballot: str) -> CheckersState:
    state = CHECKERS.new_state()
    for text in ballot.split():
        state.push(state.parse_move(text))
    return state


# -- the peer -------------------------------------------------------------------------


class Peer:
    """py-draughts' engine on its American board with the ACF capture rule."""

    def __init__(self, seconds: float | None, fen: str | None = None, depth: int = 64) -> None:
        """The peer at ``seconds`` a move (None: no clock) and at most ``depth``
        plies, from the start or from ``fen``."""
        from draughts.boards._core import CORE_AMERICAN
        from draughts.boards.american import Board
        from draughts.boards.base import BaseBoard
        from draughts.engines.simple import SimpleEngine
        from draughts.models import Color
        from draughts.move import Move as TheirMove
        from loguru import logger

        logger.remove()  # its search logs every move

        class CompulsoryCaptureBoard(Board):
            @property
            def legal_moves(self) -> list[TheirMove]:
                return self._legal_moves_from_core(
                    CORE_AMERICAN, max_capture=False, captures_optional=False
                )

        self.board: BaseBoard
        if fen is None:
            self.board = CompulsoryCaptureBoard(turn=Color.BLACK)
        else:
            self.board = CompulsoryCaptureBoard.from_fen(fen)
        self.engine = SimpleEngine(depth_limit=depth, time_limit=seconds)

    @staticmethod
    def _shape(start: int, end: int, captured: object) -> tuple[int, int, frozenset[int]]:
        return start, end, frozenset(captured)  # type: ignore[call-overload]

    def push(self, move: Move) -> None:
        """Play our move on the peer's board (the move with the same start, end
        and captured pieces: py-draughts keeps one path of two equivalent ones)."""
        wanted = (move.start - 1, move.end - 1, frozenset(c - 1 for c in move.captured))
        for theirs in self.board.legal_moves:
            shape = (theirs.square_list[0], theirs.square_list[-1], frozenset(theirs.captured_list))
            if shape == wanted:
                self.board.push(theirs)
                return
        raise RuntimeError(f"py-draughts does not allow {move}: the boards disagree")

    def choose(self, state: CheckersState) -> Move:
        """The peer's move, checked by our rules and pushed on its own board."""
        theirs = self.engine.get_best_move(self.board)
        assert not isinstance(theirs, tuple)  # a move alone: no evaluation was asked for
        shape = (
            theirs.square_list[0] + 1,
            theirs.square_list[-1] + 1,
            frozenset(c + 1 for c in theirs.captured_list),
        )
        for move in state.legal_moves():
            if (move.start, move.end, frozenset(move.captured)) == shape:
                self.board.push(theirs)
                return move
        raise RuntimeError(
            f"py-draughts played an illegal move {theirs} in {state.to_text()}: match stopped"
        )


class ExternalPeer:
    """Another program as the peer, over a line protocol: it is sent the side to
    move (``b`` or ``w``) and 32 characters, one per square 1-32 (``.``, ``b``,
    ``B`` for a Black king, ``w``, ``W``), and answers the 32 characters after its
    move. The move is the legal move of ours that leads there: a position no legal
    move reaches stops the match with an error."""

    def __init__(self, command: str, limit: str) -> None:
        """Start the peer: ``limit`` (its last argument) is the seconds a move, or
        ``nodes=N`` for a peer that searches a fixed number of nodes."""
        import shlex
        import subprocess

        self.process = subprocess.Popen(
            [*shlex.split(command), limit],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )

    @staticmethod
    def squares(state: CheckersState) -> str:
        board = dict.fromkeys(range(1, 33), ".")
        black_men, black_kings, white_men, white_kings = state.position
        for mask, letter in ((black_men, "b"), (black_kings, "B"), (white_men, "w")):
            for bit in bits(mask):
                board[BIT_SQUARE[bit]] = letter
        for bit in bits(white_kings):
            board[BIT_SQUARE[bit]] = "W"
        return "".join(board[n] for n in range(1, 33))

    def push(self, move: Move) -> None:
        pass  # each question carries the whole position

    def choose(self, state: CheckersState) -> Move:
        assert self.process.stdin is not None and self.process.stdout is not None
        side = "b" if state.turn is BLACK else "w"
        self.process.stdin.write(f"{side} {self.squares(state)}\n")
        self.process.stdin.flush()
        answer = self.process.stdout.readline().strip()
        for move in state.legal_moves():
            state.push(move)
            reached = self.squares(state)
            state.pop()
            if reached == answer:
                return move
        raise RuntimeError(f"the peer answered {answer!r} to {state.to_text()}: no legal move")

    def close(self) -> None:
        self.process.kill()


# -- one game -------------------------------------------------------------------------


@dataclass(frozen=True)
class GameResult:
    ballot: str
    parlour_black: bool
    score: float  # for Parlour: 1, 0.5, 0
    reason: str
    plies: int
    our_seconds: float
    our_moves: int
    their_seconds: float
    their_moves: int
    capped: bool
    pdn: str


def play_game(
    ballot: str,
    parlour_black: bool,
    seconds: float,
    external: str | None = None,
    nodes: int | None = None,
) -> GameResult:
    """One game; with ``nodes``, Parlour searches that many nodes a move instead of
    ``seconds`` (and an external peer is told ``nodes=N`` instead of the time)."""
    state = ballot_state(ballot)
    peer: Peer | ExternalPeer
    if external is None:
        peer = Peer(seconds)
    else:
        peer = ExternalPeer(external, f"nodes={nodes}" if nodes else str(seconds))
    for move in state.move_stack:
        peer.push(move)
    engine = CheckersEngine()
    timing = {True: [0.0, 0], False: [0.0, 0]}
    capped = False
    while True:
        outcome = state.rules_outcome()
        if outcome is not None:
            ours_won = (outcome.winner is BLACK) == parlour_black
            score, reason = (1.0 if ours_won else 0.0), outcome.reason
            break
        draw = state.claimable_draw()
        if draw is not None:
            score, reason = 0.5, draw
            break
        if len(state.move_stack) >= PLY_CAP:
            score, reason, capped = 0.5, f"stopped at {PLY_CAP} plies", True
            break
        ours = (state.turn is BLACK) == parlour_black
        started = time.perf_counter()
        if ours:
            known = engine.book.move(state)  # the opening book, as the engine plays
            if known is None:
                if nodes:
                    result = engine.search(state, nodes=nodes)
                else:
                    result = engine.search(state, seconds=seconds)
                assert result.best_move is not None
                known = engine.to_move(state, result.best_move)
            move = known
            peer.push(move)
        else:
            move = peer.choose(state)
        timing[ours][0] += time.perf_counter() - started
        timing[ours][1] += 1
        state.push(move)
    if isinstance(peer, ExternalPeer):
        peer.close()
    them = "py-draughts" if external is None else external.split()[0]
    names = {"Black": "Parlour", "White": them}
    if not parlour_black:
        names = {"Black": them, "White": "Parlour"}
    ours_black = score if parlour_black else 1.0 - score
    result_text = {1.0: "0-1", 0.5: "1/2-1/2", 0.0: "1-0"}[ours_black]
    pdn = write_pdn(
        PdnGame.from_state(state, {"Event": f"ballot {ballot}", **names}, result=result_text)
    )
    return GameResult(
        ballot,
        parlour_black,
        score,
        reason,
        len(state.move_stack),
        timing[True][0],
        int(timing[True][1]),
        timing[False][0],
        int(timing[False][1]),
        capped,
        pdn,
    )


# -- the match ------------------------------------------------------------------------


def interval(scores: list[float]) -> tuple[float, float, float]:
    """The mean score and its 95 % interval (normal approximation)."""
    n = len(scores)
    mean = sum(scores) / n
    variance = sum((s - mean) ** 2 for s in scores) / (n - 1) if n > 1 else 0.0
    half = 1.96 * math.sqrt(variance / n)
    return mean, max(0.0, mean - half), min(1.0, mean + half)


def game_line(opening: str, player: str, black: bool, score: float, why: str, plies: int) -> str:
    """One game of a match, as the scripts print it, from ``player``'s side."""
    verdict = {1.0: "win", 0.5: "draw", 0.0: "loss"}[score]
    colour = "Black" if black else "White"
    return f"  {opening:18} {player} {colour}: {verdict:4} ({why}, {plies} plies)"


def score_lines(player: str, scores: list[float]) -> list[str]:
    """A match's result for ``player``: wins, draws and losses, the score with its
    95 % interval, and the Elo difference with its interval."""
    mean, low, high = interval(scores)
    return [
        f"{player}: +{scores.count(1.0)} ={scores.count(0.5)} -{scores.count(0.0)} "
        f"of {len(scores)}",
        f"score {mean:.1%}, 95 % interval {low:.1%} to {high:.1%}",
        f"Elo difference {elo(mean):+.0f} (interval {elo(low):+.0f} to {elo(high):+.0f})",
    ]


def elo(score: float) -> float:
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return -400 * math.log10(1 / score - 1)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=0.3, help="time per move, both sides")
    parser.add_argument("--ballots", type=int, default=len(BALLOTS), help="how many ballots")
    parser.add_argument("--skip", type=int, default=0, help="start after this many ballots")
    parser.add_argument("--jobs", type=int, default=1, help="games played at once")
    parser.add_argument("--pdn", type=Path, help="write the games to this PDN file")
    parser.add_argument(
        "--external",
        metavar="COMMAND",
        help="play this program instead of py-draughts (the line protocol of ExternalPeer; "
        "the time per move is passed as its last argument)",
    )
    parser.add_argument(
        "--nodes",
        type=int,
        help="Parlour searches this many nodes a move instead of --seconds, and the "
        "external peer is passed nodes=N (benchmarks/checkers_peer.py understands it)",
    )
    args = parser.parse_args()

    ballots = [*BALLOTS, *balanced_starts()][args.skip : args.skip + args.ballots]
    for ballot in ballots:
        ballot_state(ballot)  # every ballot must be legal: raises if not
    games = [(ballot, black) for ballot in ballots for black in (True, False)]
    peer = args.external or "py-draughts SimpleEngine"
    limit = f"{args.nodes} nodes" if args.nodes else f"{args.seconds} s"
    print(
        f"Parlour vs {peer}, {limit} per move each, "
        f"{len(games)} games from {len(ballots)} ballots, colours swapped"
    )
    results: list[GameResult] = []
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        futures = [
            pool.submit(play_game, ballot, black, args.seconds, args.external, args.nodes)
            for ballot, black in games
        ]
        for future in futures:
            game = future.result()
            results.append(game)
            line = game_line(
                game.ballot, "Parlour", game.parlour_black, game.score, game.reason, game.plies
            )
            print(line, flush=True)

    if args.pdn is not None:
        args.pdn.write_text("\n".join(game.pdn for game in results))
    ours = sum(g.our_seconds for g in results) / max(1, sum(g.our_moves for g in results))
    theirs = sum(g.their_seconds for g in results) / max(1, sum(g.their_moves for g in results))
    print("\n" + "\n".join(score_lines("Parlour", [game.score for game in results])))
    print(f"mean seconds per move: Parlour {ours:.3f}, the peer {theirs:.3f}")
    capped = sum(g.capped for g in results)
    if capped:
        print(f"{capped} games stopped at the {PLY_CAP}-ply cap and scored as draws")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
