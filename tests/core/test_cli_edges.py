"""The command line at its edges, as a process: every mode ends in a clear line, never
a traceback."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from parlour import cli
from parlour.core.registry import get_game
from parlour.tui.session import Options, Session
from tests.core.process import parlour

START_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"


def test_moves_batch_reads_a_fen_whole() -> None:
    done = parlour("moves", "chess", "--batch", stdin=f"{START_FEN}\n8/8/8/8/8/8/8/8 w - - 0 1\n")
    assert done.returncode == 0, done.stderr
    first, second = done.stdout.splitlines()
    assert '"move": "e4"' in first and "error" not in first
    assert '"error": "FEN: White has no king"' in second


def test_moves_batch_of_backgammon_takes_the_dice_from_the_end_of_the_line() -> None:
    done = parlour("moves", "backgammon", "--batch", stdin="4HPwATDgc/ABMA 31\n")
    assert done.returncode == 0, done.stderr
    assert '"dice": "31"' in done.stdout and '"8/5 6/5"' in done.stdout


@pytest.mark.parametrize("depth", ["99999999999999999999", "21", "-1"])
def test_perft_refuses_a_depth_out_of_range(depth: str) -> None:
    done = parlour("perft", "chess", START_FEN, depth)
    assert done.returncode == cli.EXIT_ERROR
    assert done.stderr.startswith("parlour: DEPTH must be from 0 to 20")
    assert "Traceback" not in done.stderr


def test_a_closed_pipe_ends_the_command_quietly() -> None:
    # `parlour moves ... | head -1`: the reader goes away after one line.
    command = f"{sys.executable} -m parlour moves chess '{START_FEN}' | head -1"
    done = subprocess.run(["bash", "-c", command], capture_output=True, text=True, timeout=120)
    assert done.stdout.count("\n") == 1
    assert "Traceback" not in done.stderr and "BrokenPipe" not in done.stderr


def test_resuming_a_file_that_is_not_text_is_a_clear_error(tmp_path: Path) -> None:
    binary = tmp_path / "game.json"
    binary.write_bytes(b"\x89PNG\r\n\x1a\n\x00\xff\xfe")
    done = parlour("play", "chess", "--resume", str(binary))
    assert done.returncode == cli.EXIT_ERROR
    assert "is not a saved game: it is not text (UTF-8)" in done.stderr
    assert "Traceback" not in done.stderr


def test_resume_refuses_options_it_would_ignore(tmp_path: Path) -> None:
    path = tmp_path / "saved.json"
    Session(get_game("checkers"), Options()).save(path)
    done = parlour("play", "checkers", "--resume", str(path), "--level", "3")
    assert done.returncode == cli.EXIT_USAGE
    assert "a resumed game keeps its players, dice and position: leave out --level" in done.stderr
