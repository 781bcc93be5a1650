"""benchmarks/sprt.py: the sequential test that decides whether an engine change is
kept (issue 15), checked against the Gaussian likelihood ratio computed here from
its definition, and on the shape of its answers."""

from __future__ import annotations

import doctest
import importlib.util
import math
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]


def load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("sprt", ROOT / "benchmarks" / "sprt.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["sprt"] = module
    spec.loader.exec_module(module)
    return module


sprt = load()


def gaussian_llr(scores: list[float], s0: float, s1: float) -> float:
    """ln of the likelihood of the scores under a normal law of mean s1 over one of
    mean s0, both with the sample's variance: the ratio the test approximates."""
    n = len(scores)
    mean = sum(scores) / n
    variance = sum((x - mean) ** 2 for x in scores) / n
    return sum(((x - s0) ** 2 - (x - s1) ** 2) / (2 * variance) for x in scores)


@pytest.mark.parametrize(("wins", "draws", "losses"), [(85, 41, 74), (30, 140, 30), (10, 5, 60)])
def test_the_ratio_is_the_gaussian_one(wins: int, draws: int, losses: int) -> None:
    scores = [1.0] * wins + [0.5] * draws + [0.0] * losses
    s0, s1 = sprt.expected_score(0), sprt.expected_score(10)
    verdict = sprt.sprt(wins, draws, losses, elo0=0, elo1=10)
    assert verdict.llr == pytest.approx(gaussian_llr(scores, s0, s1), rel=1e-9)


def test_bounds_and_decisions() -> None:
    undecided = sprt.sprt(85, 41, 74)
    assert undecided.lower == pytest.approx(-math.log(19))
    assert undecided.upper == pytest.approx(math.log(19))
    assert undecided.decision.startswith("undecided")
    assert sprt.sprt(600, 300, 400).decision.startswith("H1 accepted")
    assert sprt.sprt(400, 300, 600).decision.startswith("H0 accepted")
    # halfway between the two hypotheses' scores the evidence is even
    assert sprt.sprt(100, 1, 100, elo0=-10, elo1=10).llr == pytest.approx(0)
    assert sprt.sprt(5, 0, 0).llr == math.inf
    for bad in ((0, 0, 0, 0, 10), (1, 1, 1, 10, 0)):
        with pytest.raises(ValueError):
            sprt.sprt(*bad)


def test_the_command_reads_match_logs(tmp_path: Path) -> None:
    log = tmp_path / "match.log"
    log.write_text(
        "Parlour at /x: compiled\n"
        "game 2: Parlour (Black) 1 (checkmate); running score 1/1\n"
        "game 1: Parlour (White) 0.5 (threefold repetition); running score 1.5/2\n"
        "game 3: Parlour (White) 0 (checkmate); running score 1.5/3\n"
    )
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "sprt.py"), str(log)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("+1 =1 -1 (3 games): LLR ")
    refused = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "sprt.py"), "--wins", "3"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert refused.returncode == 2
    assert "give the logs, or all of --wins, --draws and --losses" in refused.stderr
    assert "Traceback" not in refused.stderr


def test_its_examples() -> None:
    assert doctest.testmod(sprt).failed == 0
