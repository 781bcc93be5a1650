"""The backgammon coach against GNU Backgammon's own analysis: the plays gnubg
calls bad or very bad are found, and the coach's very bad plays are mostly bad to
gnubg too.

Three money games are played by the beginner level (level 1 adds a large error to
every judgement, so the games are full of mistakes of every size), written as .mat
files, and analysed twice: by GNU Backgammon (Debian's ``gnubg``, test-only:
``import mat`` and ``analyse match`` at 2-ply through its embedded Python) and by the
coach. Each play's equity lost against the best play is compared.

The coach is only as good as its engine: its network scores -0.25 points a game
against gnubg's at 0-ply (docs/benchmarks.md), so some disagreement is expected;
the thresholds below are what it measures, with a margin.
"""

from __future__ import annotations

import json
import random
import subprocess
from pathlib import Path

import pytest

from parlour.analysis.coach import MoveReview, analyse_game
from parlour.core.protocol import CHANCE
from parlour.core.registry import get_engine, get_face, get_game
from parlour.tui.session import Options, Session

GNUBG = "/usr/games/gnubg"
SEEDS = (11, 12, 13)
#: GNU Backgammon's thresholds: a play is bad from 0.08, very bad from 0.16, and
#: doubtful from 0.04.
BAD, VERY_BAD, DOUBTFUL = 0.08, 0.16, 0.04

SCRIPT = """
import json
import gnubg
found = []
for path in {paths!r}:
    gnubg.command("new session")
    gnubg.command("import mat " + path)
    gnubg.command("set analysis chequerplay evaluation plies 2")
    gnubg.command("set analysis cubedecision evaluation plies 2")
    gnubg.command("analyse match")
    plays = []
    for record in gnubg.match(analysis=1)["games"][0]["game"]:
        if record.get("action") != "move":
            continue
        analysis = record.get("analysis", {{}})
        loss = None
        if "moves" in analysis and analysis.get("imove") is not None:
            moves = analysis["moves"]
            loss = moves[0]["score"] - moves[analysis["imove"]]["score"]
        plays.append([sorted(record["dice"]), loss])
    found.append(plays)
json.dump(found, open({out!r}, "w"))
"""


def beginner_game(seed: int, path: Path) -> None:
    """One money game of the beginner level against itself, written as .mat."""
    session = Session(get_game("backgammon"), Options(seed=seed, rules={"match_length": 0}))
    engine = get_engine("backgammon")
    rng = random.Random(seed)
    while not session.state.is_over():
        if session.state.turn is CHANCE:
            session.throw_dice()
        else:
            session.push(engine.choose_move(session.state, level=1, rng=rng))
    written = get_face("backgammon").export([session.state], ("Ann", "Ben"))
    assert written is not None
    path.write_text(written.text)


def gnubg_losses(paths: list[Path], tmp_path: Path) -> list[list[tuple[list[int], float | None]]]:
    out = tmp_path / "gnubg.json"
    script = tmp_path / "analyse.py"
    script.write_text(SCRIPT.format(paths=[str(p) for p in paths], out=str(out)))
    if not Path(GNUBG).exists():
        pytest.fail(f"GNU Backgammon not found at {GNUBG}: apt-get install gnubg")
    run = subprocess.run(
        [GNUBG, "-t", "-q", "-r", "-p", str(script)],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert out.exists(), f"gnubg wrote nothing: {run.stdout[-500:]} {run.stderr[-500:]}"
    found: list[list[tuple[list[int], float | None]]] = json.loads(out.read_text())
    return found


@pytest.fixture(scope="module")
def compared(tmp_path_factory: pytest.TempPathFactory) -> list[tuple[float, MoveReview]]:
    """(gnubg's equity lost, the coach's review) for every play with a choice."""
    folder = tmp_path_factory.mktemp("games")
    paths = [folder / f"game{seed}.mat" for seed in SEEDS]
    for seed, path in zip(SEEDS, paths, strict=True):
        beginner_game(seed, path)
    theirs = gnubg_losses(paths, folder)
    rows = []
    for path, their_plays in zip(paths, theirs, strict=True):
        (recorded,) = get_face("backgammon").read_games(path.read_text())
        review = analyse_game(recorded.games[0])
        plays = [move for move in review.moves if move.kind == "move"]
        assert len(plays) == len(their_plays)
        for play, (_, loss) in zip(plays, their_plays, strict=True):
            if loss is not None and not play.forced:
                rows.append((loss, play))
    assert len(rows) >= 120
    return rows


def test_the_plays_gnubg_calls_bad_are_found(compared: list[tuple[float, MoveReview]]) -> None:
    bad = [(loss, play) for loss, play in compared if loss >= BAD]
    very_bad = [(loss, play) for loss, play in compared if loss >= VERY_BAD]
    found = [play for _, play in bad if play.loss >= DOUBTFUL]
    found_very_bad = [play for _, play in very_bad if play.loss >= DOUBTFUL]
    print(
        f"plays {len(compared)}; gnubg's bad or worse {len(bad)}, found {len(found)}; "
        f"very bad {len(very_bad)}, found {len(found_very_bad)}"
    )
    assert len(bad) >= 20
    assert len(found) >= 0.9 * len(bad)
    assert len(found_very_bad) >= 0.9 * len(very_bad)


def test_the_coachs_very_bad_plays_are_errors_to_gnubg(
    compared: list[tuple[float, MoveReview]],
) -> None:
    very_bad = [(loss, play) for loss, play in compared if play.loss >= VERY_BAD]
    fine = [
        (round(loss, 3), play.move, round(play.loss, 3))
        for loss, play in very_bad
        if loss < DOUBTFUL
    ]
    print(f"the coach's very bad plays {len(very_bad)}; fine to gnubg: {fine}")
    assert len(very_bad) >= 20
    assert len(fine) <= 0.2 * len(very_bad), fine
