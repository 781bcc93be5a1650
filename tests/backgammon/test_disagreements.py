"""benchmarks/backgammon_disagreements.py: its rollouts count the points for the
right side, and a tiny run reports what it found (its figures mean nothing here)."""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import numpy as np

from parlour.backgammon.board import Position
from parlour.backgammon.network import WEIGHTS

ROOT = Path(__file__).resolve().parents[2]


def _script() -> ModuleType:
    sys.path.insert(0, str(ROOT / "benchmarks"))
    spec = importlib.util.spec_from_file_location(
        "backgammon_disagreements", ROOT / "benchmarks" / "backgammon_disagreements.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


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


def test_a_short_run_reports_its_disagreements() -> None:
    result = subprocess.run(
        [
            sys.executable,
            "benchmarks/backgammon_disagreements.py",
            *("--a", "level6", "--b", "level2", "--positions", "30"),
            *("--trials", "6", "--horizon", "2", "--seed", "3"),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    found = re.search(
        r"30 positions, (\d+) disagreements; gain a position ([-+]\d\.\d+)", result.stdout
    )
    assert found, result.stdout
    # level 2's large error makes it choose differently often, and worse on the whole
    assert int(found[1]) >= 5
    assert float(found[2]) < 0


def _disagreements(a: str, b: str) -> int:
    result = subprocess.run(
        [
            sys.executable,
            "benchmarks/backgammon_disagreements.py",
            *("--a", a, "--b", b, "--positions", "40"),
            *("--trials", "2", "--horizon", "1", "--seed", "4"),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    found = re.search(r"40 positions, (\d+) disagreements", result.stdout)
    assert found, result.stdout
    return int(found[1])


def test_a_chooser_plays_with_the_network_it_names() -> None:
    # the shipped network named: the same choices as the default
    assert _disagreements("level6", f"level6@{WEIGHTS}") == 0
    # the self-play network of 80 units before the fits to gnubg: other choices
    checkpoint = ROOT / "training" / "backgammon-checkpoint.npz"
    assert _disagreements("level6", f"level6@{checkpoint}") >= 3
