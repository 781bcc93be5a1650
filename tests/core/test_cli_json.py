"""The command line for programs: ``startpos`` for the usual start, ``--json`` output
of ``moves`` and ``perft --divide`` (checked against python-chess), and ``--level``
help naming each game's range."""

from __future__ import annotations

import json

import chess

from parlour.core.registry import engine_levels, game_names
from tests.core.process import parlour


def test_perft_divide_as_json_agrees_with_python_chess() -> None:
    fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
    done = parlour("perft", "chess", fen, "2", "--divide", "--json")
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    board = chess.Board(fen)
    expected = {}
    for move in board.legal_moves:
        text = board.san(move)
        board.push(move)
        expected[text] = board.legal_moves.count()
        board.pop()
    assert answer == {"nodes": 2039, "divide": expected}


def test_perft_divide_as_text_ends_with_the_total_and_startpos_is_the_start() -> None:
    done = parlour("perft", "chess", "startpos", "3", "--divide")
    assert done.returncode == 0, done.stderr
    *rows, total = done.stdout.splitlines()
    assert len(rows) == 20 and total == "8902"
    assert sum(int(row.split("\t")[1]) for row in rows) == 8902
    assert parlour("perft", "checkers", "startpos", "0", "--divide").returncode == 1


def test_moves_as_json_for_each_game() -> None:
    done = parlour("moves", "chess", "startpos", "--json")
    answer = json.loads(done.stdout)
    assert answer["position"] == chess.STARTING_FEN
    assert sorted(play["move"] for play in answer["plays"]) == sorted(
        chess.Board().san(move) for move in chess.Board().legal_moves
    )
    done = parlour("moves", "backgammon", "4HPwATDgc/ABMA", "31", "--json")
    answer = json.loads(done.stdout)
    assert answer["dice"] == "31"
    assert "8/5 6/5" in [play["move"] for play in answer["plays"]]
    batch = parlour("moves", "checkers", "--batch", stdin="startpos\n")
    assert len(json.loads(batch.stdout)["plays"]) == 7


def test_level_help_names_each_games_range_and_default() -> None:
    done = parlour("play", "--help")
    words = " ".join(done.stdout.split())
    for name in game_names():
        levels = engine_levels(name)
        assert levels is not None
        assert f"{name} 1-{levels[0]} (default {levels[1]})" in words, words
