"""The ``parlour`` command: its help, its contracts and its errors."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from parlour import cli
from parlour.core import registry
from parlour.lineplay import play_in_terminal
from tests.conformance.toygame import RACE
from tests.core.process import parlour

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def race_registered() -> object:
    registry.register("race", registry.GameEntry(rules="tests.conformance.toygame:RACE"))
    yield
    registry.unregister("race")


def run_parlour(
    *args: str, stdin: str = "", timeout: float = 120
) -> subprocess.CompletedProcess[str]:
    """The ``parlour`` command run as a separate process from the repository's root."""
    return subprocess.run(
        [sys.executable, "-m", "parlour", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=timeout,
        check=False,
    )


def test_help_lists_every_command() -> None:
    result = run_parlour("--help")
    assert result.returncode == 0
    for command in ("perft", "moves", "play", "serve", "uci"):
        assert command in result.stdout
    for command in ("perft", "moves", "play", "serve", "uci"):
        sub = run_parlour(command, "--help")
        assert sub.returncode == 0 and "usage: parlour" in sub.stdout


def test_uci_answers_uci_with_uciok() -> None:
    result = run_parlour("uci", stdin="uci\nisready\nquit\n")
    assert result.returncode == 0
    lines = result.stdout.splitlines()
    assert lines[0].startswith("id name ")
    assert "uciok" in lines and lines[-1] == "readyok"


def test_unknown_game_is_a_clear_error() -> None:
    result = run_parlour("perft", "go", "x", "1")
    assert result.returncode == 1
    assert result.stderr.startswith("parlour: no game called 'go'")
    assert "Traceback" not in result.stderr


def test_perft_prints_digits_on_the_last_line(
    race_registered: object, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["perft", "race", "0,0,0,3", "1"]) == 0
    assert capsys.readouterr().out.strip().splitlines()[-1] == "2"


def test_perft_refuses_a_bad_position(
    race_registered: object, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["perft", "race", "0,0", "1"]) == 1
    assert "four fields" in capsys.readouterr().err


def test_moves_lists_move_and_result(
    race_registered: object, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["moves", "race", "3,4,1,-", "throw 2"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines == ["+1\t3,5,0,-", "+2\t3,6,0,-"]


def test_moves_batch_goes_on_past_bad_lines(race_registered: object) -> None:
    out = io.StringIO()
    cli._moves_batch("race", io.StringIO("0,0,0,-\nbroken\n\n9,9,1,-\n"), out)
    records = [json.loads(line) for line in out.getvalue().splitlines()]
    assert [r["position"] for r in records] == ["0,0,0,-", "broken", "9,9,1,-"]
    assert records[0]["plays"][0] == {"move": "throw 1", "position": "0,0,0,1"}
    assert "four fields" in records[1]["error"]
    assert records[2]["plays"] == []


def test_line_play_explains_mistakes_and_ends_with_the_result() -> None:
    typed = io.StringIO("+7\nundo\n" + "+1\n" * 40)
    out = io.StringIO()
    assert play_in_terminal(RACE, seed=3, stdin=typed, stdout=out) == 0
    text = out.getvalue()
    assert "Not allowed: advance by 1 or by the die" in text
    assert "Not allowed: the dice have been thrown" in text
    assert "wins: reached ten" in text or "Draw: deadlock" in text


def test_line_play_stops_cleanly_at_end_of_input() -> None:
    out = io.StringIO()
    assert play_in_terminal(RACE, seed=1, stdin=io.StringIO("resign\n"), stdout=out) == 0
    assert "wins: resignation" in out.getvalue()


def test_line_play_says_a_throw_of_the_dice_in_words() -> None:
    done = parlour("play", "backgammon", "--plain", "--seed", "1", stdin="quit\n")
    assert done.returncode == 0, done.stderr
    assert "Black rolled 1-5." in done.stdout
    assert "Dice:" not in done.stdout
