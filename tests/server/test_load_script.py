"""The load test runs, bounded, and stops by itself (a tiny run: its figures mean
nothing here, only that the script works end to end against both servers)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
@pytest.mark.parametrize("transport", ["ws", "http"])
def test_the_load_test_plays_and_reports(transport: str) -> None:
    result = subprocess.run(
        [
            sys.executable,
            "benchmarks/server_load.py",
            *("--games", "4", "--think", "0.05", "--duration", "2", "--transport", transport),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=150,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "== echo peer" in result.stdout and "== parlour" in result.stdout
    assert "p99 latency" in result.stdout and "errors          none" in result.stdout


def test_the_swarms_collector_is_tuned_as_the_servers_is() -> None:
    """The script keeps its own copy of the servers' collector thresholds (it does
    not import the package it measures): the two must not drift apart."""
    from parlour.server.app import COLLECTOR_THRESHOLDS

    tree = ast.parse((ROOT / "benchmarks/server_load.py").read_text())
    copies = [
        ast.literal_eval(node.value)
        for node in tree.body
        if isinstance(node, ast.Assign)
        and any(getattr(target, "id", None) == "COLLECTOR_THRESHOLDS" for target in node.targets)
    ]
    assert copies == [COLLECTOR_THRESHOLDS]
