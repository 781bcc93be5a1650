"""benchmarks/backgammon_disagreements.py: its rollouts count the points for the
right side, and a tiny run reports what it found (its figures mean nothing here)."""

from __future__ import annotations

import re
import subprocess
import sys
from types import ModuleType

import numpy as np

from parlour.backgammon.board import Position
from parlour.backgammon.network import WEIGHTS
from tests.scripts import ROOT, load_script


def _script() -> ModuleType:
    return load_script("benchmarks/backgammon_disagreements.py")


def _position(mover: dict[int, int], opponent: dict[int, int]) -> Position:
    """Counts by point (25 the bar), each side in its own numbering."""
    return Position(
        tuple(mover.get(point, 0) for point in range(1, 26)),
        tuple(opponent.get(point, 0) for point in range(1, 26)),
    )


def test_a_rollout_counts_for_the_side_that_has_just_played() -> None:
    script = _script()
    # the side that has just played has borne off all but one checker; the other
    # has fifteen in its outfield: a gammon for the first, whatever is thrown
    ahead = _position({1: 1}, {18: 5, 17: 5, 16: 5})
    dice = np.array([[6, 5], [2, 1], [4, 3]])
    assert script.rolled_out(ahead, dice[:0]) > 1.9  # gnubg's judgement, the other on roll
    assert script.rolled_out(ahead, dice) == 2.0  # it bears off on its next throw
    assert script.rolled_out(ahead.swapped(), dice) == -2.0  # the other side does
    won = _position({}, {24: 2, 13: 13})
    assert script.rolled_out(won, dice) == 3.0  # a backgammon, before anything is thrown


def _run(a: str, b: str, positions: int, trials: int, horizon: int, seed: int) -> re.Match[str]:
    """The script's report of a short run: its positions, disagreements and gain."""
    result = subprocess.run(
        [
            sys.executable,
            "benchmarks/backgammon_disagreements.py",
            *("--a", a, "--b", b, "--positions", str(positions)),
            *("--trials", str(trials), "--horizon", str(horizon), "--seed", str(seed)),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    found = re.search(
        rf"{positions} positions, (\d+) disagreements; gain a position ([-+]\d\.\d+)",
        result.stdout,
    )
    assert found, result.stdout
    return found


def test_a_short_run_reports_its_disagreements() -> None:
    found = _run("level6", "level2", positions=30, trials=6, horizon=2, seed=3)
    # level 2's large error makes it choose differently often, and worse on the whole
    assert int(found[1]) >= 5
    assert float(found[2]) < 0


def test_a_chooser_plays_with_the_network_it_names() -> None:
    def disagreements(b: str) -> int:
        return int(_run("level6", b, positions=40, trials=2, horizon=1, seed=4)[1])

    # the shipped network named: the same choices as the default
    assert disagreements(f"level6@{WEIGHTS}") == 0
    # the self-play network of 80 units before the fits to gnubg: other choices
    assert disagreements(f"level6@{ROOT / 'training' / 'backgammon-checkpoint.npz'}") >= 3
