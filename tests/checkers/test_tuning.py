"""The evaluation tuner (training/checkers_tune.py) sees the evaluation as it is:
its features times the engine's weights give the engine's score, so a fit is of
the evaluation the engine plays with and not of a stale copy of it."""

from __future__ import annotations

import importlib.util
import random
import sys
from dataclasses import replace
from pathlib import Path
from types import ModuleType

from parlour.checkers.engine import WEIGHTS, Evaluation
from parlour.checkers.rules import CHECKERS

ROOT = Path(__file__).resolve().parents[2]


def tuner() -> ModuleType:
    sys.path.insert(0, str(ROOT / "benchmarks"))
    spec = importlib.util.spec_from_file_location(
        "checkers_tune", ROOT / "training/checkers_tune.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["checkers_tune"] = module
    spec.loader.exec_module(module)
    return module


def positions(games: int, seed: int) -> list[tuple[int, int, int, int]]:
    """Positions of random games, openings to bare endings."""
    rng = random.Random(seed)
    found = []
    for _ in range(games):
        state = CHECKERS.new_state()
        while not state.is_over() and len(state.move_stack) < 160:
            found.append(state.position)
            state.push(rng.choice(state.legal_moves()))
    return found


def test_the_features_give_the_engines_score() -> None:
    tune = tuner()
    # Other weights too, so that a term the tuner counts wrongly cannot hide behind
    # a weight of the engine's that happens to make it vanish.
    for weights in (WEIGHTS, replace(WEIGHTS, king=150, refuge=(25, 14, 3), hunt=9, edge=-7)):
        evaluate = Evaluation(weights)
        vector = tune.as_vector(weights)
        for position in positions(40, seed=3):
            score = float(vector @ tune.features(position, weights))
            assert abs(score - evaluate(position)) < 1, position


def test_weights_go_to_a_vector_and_back() -> None:
    tune = tuner()
    changed = replace(WEIGHTS, advance=(0, 2, 4, 7, 11, 16, 25, 0), mobility=3)
    assert tune.from_vector(tune.as_vector(changed)) == changed
    assert len(tune.as_vector(WEIGHTS)) == len(tune.NAMES)
