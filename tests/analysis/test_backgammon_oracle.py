"""The backgammon coach against GNU Backgammon's own analysis: the plays gnubg
calls bad or very bad are found, and the coach's very bad plays are mostly bad to
gnubg too; in a match, the cube errors gnubg sees are found.

Three money games are played by the beginner level (level 1 adds a large error to
every judgement, so the games are full of mistakes of every size), and 7-point
matches by the beginner (who never doubles) against level 3 (who doubles when its
judgement says so), written as .mat files, and analysed twice: by GNU Backgammon
(Debian's ``gnubg``, test-only: ``import mat`` and ``analyse match`` at 2-ply
through its embedded Python; its cube verdicts by ``cfevaluate`` at 2-ply) and by
the coach. Each play's and each cube decision's equity lost is compared.

The coach is only as good as its engine: its network plays level with gnubg's at
0-ply (docs/benchmarks.md) but judges single positions less well than gnubg's 2-ply,
so some disagreement is expected; the thresholds below are what it measures, with a
margin.
"""

from __future__ import annotations

import json
import random
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from parlour.analysis.coach import MoveReview, analyse_game, opening_of
from parlour.backgammon.rules import BackgammonState
from parlour.core.protocol import CHANCE, Side
from parlour.core.registry import get_engine, get_face, get_game
from parlour.tui.session import Options, Session
from tests.backgammon.gnubg_cube import gnubg_verdicts

GNUBG = "/usr/games/gnubg"
SEEDS = (11, 12, 13)
#: The match whose plays are compared with the money games'.
MATCH_SEED = 21
MATCH_LENGTH = 7
#: The matches whose cube decisions are compared.
CUBE_SEEDS = (21, 22, 23, 24, 25, 26)
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
    for game in gnubg.match(analysis=1)["games"]:
        plays = []
        for record in game["game"]:
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


def beginner_match(seed: int, path: Path, length: int = MATCH_LENGTH) -> None:
    """A match, the beginner (never doubling) against level 3, as .mat."""
    session = Session(get_game("backgammon"), Options(seed=seed, rules={"match_length": length}))
    engine = get_engine("backgammon")
    rng = random.Random(seed)
    while True:
        state = session.state
        if state.is_over():
            following = session.next_game()
            if following is None:
                break
            session.start_next_game(following)
        elif state.turn is CHANCE:
            session.throw_dice()
        else:
            level = 1 if state.turn == Side.FIRST else 3
            session.push(engine.choose_move(state, level=level, rng=rng))
    states = [*session.earlier_states, session.state]
    written = get_face("backgammon").export(states, ("Ann", "Ben"))
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
    match_path = folder / "match.mat"
    beginner_match(MATCH_SEED, match_path)
    paths.append(match_path)
    games = [
        game
        for path in paths
        for game in get_face("backgammon").read_games(path.read_text())[0].games
    ]
    with ThreadPoolExecutor(1) as pool:
        asked = pool.submit(gnubg_losses, paths, folder)  # gnubg works beside the coach
        reviews = [analyse_game(game) for game in games]
        theirs = asked.result()
    assert len(theirs) == len(reviews)
    rows = []
    for review, their_plays in zip(reviews, theirs, strict=True):
        plays = [move for move in review.moves if move.kind == "move"]
        assert len(plays) == len(their_plays)
        for play, (_, loss) in zip(plays, their_plays, strict=True):
            if loss is not None and not play.forced:
                rows.append((loss, play))
    assert len(rows) >= 150
    return rows


@pytest.fixture(scope="module")
def cube_compared(tmp_path_factory: pytest.TempPathFactory) -> list[tuple[float, MoveReview]]:
    """(gnubg's equity lost, the coach's review) for every cube decision of the match:
    each roll or double where a double was possible, and each answer to a double."""
    folder = tmp_path_factory.mktemp("match")
    decisions: list[tuple[BackgammonState, MoveReview, str]] = []
    asked = []
    # Each match's decisions go to gnubg as soon as the coach has found them, so that
    # gnubg judges one match while the coach analyses the next.
    with ThreadPoolExecutor(1) as pool:
        for seed in CUBE_SEEDS:
            path = folder / f"match{seed}.mat"
            beginner_match(seed, path)
            (recorded,) = get_face("backgammon").read_games(path.read_text())
            found: list[tuple[BackgammonState, MoveReview, str]] = []
            for game in recorded.games:
                reviews = {review.ply: review for review in analyse_game(game).moves}
                state, moves = opening_of(game)
                assert isinstance(state, BackgammonState)
                for ply, move in enumerate(moves, start=1):
                    review = reviews.get(ply)
                    if review is not None and review.kind != "move":
                        before = state.copy()
                        if review.kind != "double":  # an answer: judged from the doubler's roll
                            before.pop()
                        found.append((before, review, review.kind))
                    state.push(move)
            decisions.extend(found)
            apart = folder / f"gnubg{seed}"
            apart.mkdir()
            asked.append(pool.submit(gnubg_verdicts, [s for s, _, _ in found], apart, plies=2))
        verdicts = [verdict for future in asked for verdict in future.result()[0]]
    rows = []
    for (_, review, kind), verdict in zip(decisions, verdicts, strict=True):
        if kind == "double":
            rows.append((verdict.double_loss(review.move == "double"), review))
        else:
            rows.append((verdict.take_loss(kind == "take"), review))
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


def test_the_cube_errors_gnubg_sees_in_a_match_are_found(
    cube_compared: list[tuple[float, MoveReview]],
) -> None:
    errors = [(loss, review) for loss, review in cube_compared if loss >= BAD]
    found = [review for _, review in errors if review.loss >= DOUBTFUL]
    called = [(loss, review) for loss, review in cube_compared if review.loss >= DOUBTFUL]
    wrongly = [(round(loss, 3), review.move) for loss, review in called if loss < DOUBTFUL / 2]
    print(
        f"cube decisions {len(cube_compared)}; gnubg's bad or worse {len(errors)}, "
        f"found {len(found)}; the coach's doubtful or worse {len(called)}, fine to gnubg "
        f"{wrongly}"
    )
    assert len(cube_compared) >= 30
    assert len(errors) >= 3
    # What the coach calls doubtful or worse, gnubg does not call fine (under half
    # of doubtful; a fifth may be near misses, and one of a handful). With the network fitted to
    # gnubg's 1-ply the coach called 11 bad (none fine to gnubg); with the network
    # of the ranking term it calls none bad and 3 doubtful, the largest 0.072 where
    # gnubg says 0.174, one (0.041) where gnubg says 0.000: it errs on the mild side.
    assert called and len(wrongly) <= max(1, 0.2 * len(called))
    # ...and it finds most of gnubg's: 2 of 3 here with the network of the ranking
    # term, 8 of 12 with the one fitted to gnubg's 1-ply (its matches reached a
    # post-Crawford game, where waiting to double is no error:
    # CubeDecision.may_wait); 1 of 5 with the self-play network, which saw a third
    # of the gammons gnubg's does. The cube arithmetic alone, given gnubg's chances,
    # makes gnubg's decisions (tests/backgammon/test_cube_oracle.py).
    assert len(found) >= len(errors) / 2
