"""How long the coach takes: a 40-move chess game, a 60-move checkers game and a
7-point backgammon match, each analysed at the engines' default budget (the
target: each within two minutes on this machine).

The games are the engines' own, seeded: chess by level 3 against itself (its
deliberate mistakes give the coach something to find), checkers by level 3 from the
first three-move ballot, backgammon by level 5 against itself. Run from the
repository root::

    .venv/bin/python benchmarks/coach_speed.py

It prints, for each game, its length, the seconds the analysis took, the seconds a
position, the depth reached and the judgements found.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from parlour.analysis.coach import GameReview, analyse_game
from parlour.core.protocol import CHANCE, State
from parlour.core.registry import get_engine, get_face, get_game


def self_play(game: str, level: int, moves: int, seed: int, opening: str = "") -> State[Any]:
    """A game of the engine against itself at ``level``, ``moves`` moves a side at most."""
    state = get_game(game).new_state()
    if opening:
        state.play_line(opening)
    engine = get_engine(game)
    rng = random.Random(seed)
    while not state.is_over() and len(state.move_stack) < 2 * moves:  # type: ignore[attr-defined]
        state.push(engine.choose_move(state, level=level, rng=rng))
    return state


def backgammon_match(length: int, seed: int) -> list[State[Any]]:
    """A match of the default level against itself."""
    series = get_face("backgammon").series({"match_length": length})
    engine = get_engine("backgammon")
    rng = random.Random(seed)
    games: list[State[Any]] = []
    state: State[Any] | None = series.first()
    while state is not None:
        while not state.is_over():
            if state.turn is CHANCE:
                outcomes = state.chance_outcomes()
                weights = [float(p) for _, p in outcomes]
                state.push(rng.choices([m for m, _ in outcomes], weights)[0])
            else:
                state.push(engine.choose_move(state, rng=rng))
        games.append(state)
        state = series.next(games)
    return games


def report(name: str, positions: int, seconds: float, reviews: list[GameReview]) -> None:
    moves = [move for review in reviews for move in review.moves]
    judged = [move.judgement.value for move in moves if move.judgement is not None]
    depths = [move.depth for move in moves if move.depth]
    print(
        f"{name}: {positions} positions in {seconds:.1f} s ({seconds / positions:.2f} s a "
        f"position); mean depth {statistics.mean(depths):.1f}; "
        f"judgements { ({j: judged.count(j) for j in sorted(set(judged))}) }"
    )


def main() -> int:
    games = [
        ("chess", self_play("chess", 3, 40, seed=1)),
        ("checkers", self_play("checkers", 3, 60, seed=1, opening="9-13 22-18 10-15")),
    ]
    for name, state in games:
        started = time.perf_counter()
        review = analyse_game(state)
        elapsed = time.perf_counter() - started
        report(f"{name}, {len(review.moves)} plies", len(review.curve), elapsed, [review])
    match = backgammon_match(7, seed=1)
    started = time.perf_counter()
    reviews = [analyse_game(game) for game in match]
    report(
        f"backgammon, a 7-point match of {len(match)} games",
        sum(len(r.curve) for r in reviews),
        time.perf_counter() - started,
        reviews,
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
