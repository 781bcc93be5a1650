"""Every game's computer opponent, through the core protocol: it answers every
position with a legal move, never changing the position it was shown.

Positions come from seeded random games (so they are varied, not only the ones good
play reaches); the engine is asked at level 1, its fastest, which still runs its
search and its deliberate-mistake code.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from typing import Any

import pytest

from parlour.core.protocol import CHANCE, Game, State
from parlour.core.registry import game_names, get_engine, get_game

POSITIONS_PER_GAME = 2000


def random_positions(game: Game[Any], seed: int, count: int) -> Iterator[State[Any]]:
    """Positions where a player is to act, from seeded random games."""
    rng = random.Random(seed)
    state = game.new_state()
    found = 0
    while found < count:
        if state.is_over():
            state = game.new_state()
            continue
        if state.turn is CHANCE:
            outcomes = state.chance_outcomes()
            state.push(rng.choices([m for m, _ in outcomes], [float(p) for _, p in outcomes])[0])
            continue
        yield state
        found += 1
        state.push(rng.choice(state.legal_moves()))


@pytest.mark.parametrize("name", game_names())
def test_engine_plays_only_legal_moves(name: str) -> None:
    game = get_game(name)
    engine = get_engine(game)
    rng = random.Random(7)
    for state in random_positions(game, seed=11, count=POSITIONS_PER_GAME):
        before = state.to_text()
        move = engine.choose_move(state, 1, rng)
        assert move in state.legal_moves(), f"{name}: illegal {move!r} in {before}"
        assert state.to_text() == before, f"{name}: the engine changed the position"


@pytest.mark.parametrize("name", game_names())
def test_the_strongest_level_keeps_within_the_seconds_it_is_given(name: str) -> None:
    """A clock's share (``seconds``) caps even the strongest level's thinking."""
    game = get_game(name)
    engine = get_engine(game)
    slowest = 0.0
    for state in random_positions(game, seed=5, count=6):
        started = time.perf_counter()
        move = engine.choose_move(state, engine.strongest, random.Random(1), seconds=0.1)
        slowest = max(slowest, time.perf_counter() - started)
        assert move in state.legal_moves()
    assert slowest < 0.6, f"{name}: a move took {slowest:.2f} s of the 0.1 s given"
