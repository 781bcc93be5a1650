"""Cube decisions against GNU Backgammon's (Debian ``gnubg``, test-only): the match
equity table is the one gnubg uses, and on the positions of games gnubg played
against itself, money and match, Parlour's cube model given gnubg's cubeless chances
makes gnubg's decisions; with its own network's chances it stays within a bound.
The full measurement, over more games at 2-ply, is benchmarks/backgammon_cube.py."""

from __future__ import annotations

from pathlib import Path

import pytest

from parlour.backgammon.equity import published_table
from parlour.backgammon.rules import BackgammonState
from tests.backgammon.gnubg_cube import (
    Tally,
    Verdict,
    compare,
    cube_positions,
    gnubg_games,
    gnubg_verdicts,
)

Judged = tuple[list[BackgammonState], list[Verdict], list[list[float]], list[float]]


@pytest.fixture(scope="module")
def judged(tmp_path_factory: pytest.TempPathFactory) -> Judged:
    folder: Path = tmp_path_factory.mktemp("gnubg-cube")
    texts = gnubg_games(folder, seed=3, money=6, matches=2, length=5)
    states = cube_positions(texts)
    verdicts, pre, post = gnubg_verdicts(states, folder, plies=1)
    return states, verdicts, pre, post


def test_the_match_equity_table_is_gnubgs(judged: Judged) -> None:
    _, _, gnubg_pre, gnubg_post = judged
    pre, post = published_table()
    assert len(pre) == len(gnubg_pre) == 25
    for ours, theirs in zip(pre, gnubg_pre, strict=True):
        assert ours == pytest.approx(theirs, abs=1e-4)
    assert list(post) == pytest.approx(gnubg_post, abs=1e-4)


def test_given_gnubgs_chances_the_cube_decisions_are_gnubgs(judged: Judged) -> None:
    states, verdicts, _, _ = judged
    assert len(states) >= 200 and any(s.money for s in states) and not all(s.money for s in states)
    tallies = compare(states, verdicts, chances_from="gnubg")
    print({kind: str(tally) for kind, tally in tallies.items()})
    doubles = [tallies["money double"], tallies["match double"]]
    assert all(tally.decisions >= 8 for tally in doubles)
    for tally in tallies.values():
        assert tally.agreed >= 0.8 * tally.decisions
        assert tally.lost <= 0.005 * tally.decisions  # under gnubg's World class band


def test_with_its_own_chances_the_engine_stays_within_a_bound(judged: Judged) -> None:
    states, verdicts, _, _ = judged
    tallies = compare(states, verdicts, chances_from="1-ply")
    print({kind: str(tally) for kind, tally in tallies.items()})
    everything = Tally()
    for tally in tallies.values():
        everything.decisions += tally.decisions
        everything.agreed += tally.agreed
        everything.lost += tally.lost
    # The network is weaker than gnubg's (docs/benchmarks.md): its chances, not
    # the cube model, make most of the difference.
    assert everything.agreed >= 0.6 * everything.decisions
    assert everything.lost <= 0.04 * everything.decisions
