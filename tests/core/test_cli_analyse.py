"""``parlour analyse``: game files written back annotated, or as JSON, with a
progress bar; bad files and illegal moves named, the games before them kept.

The annotated PGN is read back by python-chess (an independent reader): the
judgement glyphs, the evaluations and the better lines are where PGN puts them."""

from __future__ import annotations

import io
import json
import random
import re
from pathlib import Path

import chess.pgn

from parlour.core.protocol import CHANCE
from parlour.core.registry import get_face, get_game
from parlour.tui.session import Options, Session
from tests.core.process import parlour

TWO_GAMES = """[Event "Miniatures"]
[White "Alice"]
[Black "Bob"]
[Result "1-0"]

1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0

[Event "Fools"]
[White "Carol"]
[Black "Dave"]
[Result "0-1"]

1. f3 e5 2. g4 Qh4# 0-1
"""

BAD_THIRD = (
    TWO_GAMES
    + """
[Event "Broken"]
[Result "*"]

1. e4 e5 2. Ke3 *
"""
)

NODES = ("--nodes", "8000")


def test_a_pgn_file_comes_back_annotated_as_pgn_that_python_chess_reads(tmp_path: Path) -> None:
    path = tmp_path / "two.pgn"
    path.write_text(TWO_GAMES)
    done = parlour("analyse", str(path), *NODES)
    assert done.returncode == 0, done.stderr
    stream = io.StringIO(done.stdout)
    first = chess.pgn.read_game(stream)
    second = chess.pgn.read_game(stream)
    assert first is not None and second is not None and not first.errors
    assert first.headers["White"] == "Alice" and first.headers["Annotator"] == "Parlour"
    assert first.headers["Result"] == "1-0" and second.headers["Event"] == "Fools"
    moves = list(first.mainline())
    assert [node.san() for node in moves][-2:] == ["Nf6", "Qxf7#"]
    blunder = moves[-2]
    assert chess.pgn.NAG_BLUNDER in blunder.nags
    assert len(blunder.parent.variations) == 2  # the better move as a variation
    better = blunder.parent.variations[1].move
    assert better is not None and blunder.parent.board().san(better) != "Nf6"
    score = blunder.eval()
    assert score is not None and score.white().mate() == 1
    assert moves[0].eval() is not None  # every position's score
    assert "[##############################] 7/7" in done.stderr  # the progress bar


def test_json_gives_one_object_a_game_with_every_move_judged(tmp_path: Path) -> None:
    path = tmp_path / "two.pgn"
    path.write_text(TWO_GAMES)
    done = parlour("analyse", str(path), "--json", *NODES)
    assert done.returncode == 0, done.stderr
    games = [json.loads(line) for line in done.stdout.splitlines()]
    assert [game["number"] for game in games] == [1, 2]
    assert games[0]["names"] == ["Alice", "Bob"] and games[0]["game"] == "chess"
    moves = games[0]["moves"]
    assert [move["ply"] for move in moves] == list(range(1, 8))
    assert {move["kind"] for move in moves} == {"move"}
    for move in moves:
        assert set(move) >= {"ply", "side", "kind", "move", "best", "loss", "judgement"}
        assert move["judgement"] in (None, "inaccuracy", "mistake", "blunder")
        assert isinstance(move["loss"], float) and move["loss"] >= 0
    nf6 = next(move for move in moves if move["move"] == "Nf6")
    assert nf6["judgement"] == "blunder" and nf6["best"] != "Nf6"
    black = games[0]["summary"]["Black"]
    assert black["name"] == "Bob" and black["counts"]["blunder"] == 1
    assert 0 <= black["accuracy"] <= 100
    assert games[1]["moves"][2]["move"] == "g4" and games[1]["moves"][2]["judgement"] == "blunder"


def test_an_illegal_move_is_named_and_the_games_before_it_are_analysed(tmp_path: Path) -> None:
    path = tmp_path / "bad.pgn"
    path.write_text(BAD_THIRD)
    done = parlour("analyse", str(path), "--json", *NODES)
    assert done.returncode == 1
    assert len(done.stdout.splitlines()) == 2  # the two good games
    assert "game 3" in done.stderr and "Ke3" in done.stderr
    assert "Traceback" not in done.stderr


def test_what_cannot_be_analysed_is_said_plainly(tmp_path: Path) -> None:
    unknown = tmp_path / "game.txt"
    unknown.write_text("1. e4 e5")
    done = parlour("analyse", str(unknown))
    assert done.returncode == 1 and "name it with --game" in done.stderr
    binary = tmp_path / "game.pgn"
    binary.write_bytes(b"\xff\xfe\x00")
    done = parlour("analyse", str(binary))
    assert done.returncode == 1 and "not text" in done.stderr
    done = parlour("analyse", str(unknown), "--game", "chess", "--budget", "0")
    assert done.returncode == 2 and "--budget" in done.stderr
    empty = tmp_path / "empty.pgn"
    empty.write_text("")
    done = parlour("analyse", str(empty))
    assert done.returncode == 1 and "holds no game" in done.stderr
    for result in (done,):
        assert "Traceback" not in result.stderr


def test_a_pdn_game_comes_back_annotated_from_stdin() -> None:
    moves = "1. 11-16 22-18 2. 7-11 26-22 3. 9-14 18x9 4. 5x14 22-17 5. 10-15 17x10 *"
    pdn = f'[Black "Ann"]\n[White "Ben"]\n[Result "*"]\n\n{moves}\n'
    done = parlour("analyse", "-", "--game", "checkers", *NODES, stdin=pdn)
    assert done.returncode == 0, done.stderr
    assert '[Black "Ann"]' in done.stdout and '[Annotator "Parlour"]' in done.stdout
    assert "[%eval" in done.stdout
    # 10-15 leaves a man to 17x10: at least a mistake ($2) or a blunder ($4). The
    # game's own move is read, not one of the same name in a better line or comment.
    body = done.stdout.split("\n\n", 1)[1]
    game_line = re.sub(r"\{[^}]*\}|\([^()]*\)", " ", body.replace("\n", " "))
    after = game_line.split("5. 10-15", 1)[1].split()[0]
    assert after in ("$2", "$4"), done.stdout
    # a better line carries the number of the move it replaces, as a score sheet does
    judged = re.findall(r"(\d+)\.(?:\.\.)? ?\S+ \$\d+ \{[^}]*\} \((\d+)\.", body.replace("\n", " "))
    assert judged and all(played == line for played, line in judged), done.stdout
    # the annotated game reads back: the same moves, the same players
    (back,) = get_face("checkers").read_games(done.stdout)
    (original,) = get_face("checkers").read_games(pdn)
    assert back.games[0] == original.games[0] and back.names == ("Ann", "Ben")


def test_a_backgammon_match_is_reported_decision_by_decision(tmp_path: Path) -> None:
    session = Session(get_game("backgammon"), Options(seed=3, rules={"match_length": 3}))
    rng = random.Random(3)
    while not session.state.is_over():
        if session.state.turn is CHANCE:
            session.throw_dice()
        else:
            moves = [m for m in session.state.legal_moves() if "resign" not in str(m)]
            session.push(rng.choice(moves or session.state.legal_moves()))
    session.save(tmp_path / "match.json")
    assert parlour("convert", str(tmp_path / "match.json"), str(tmp_path / "m.mat")).returncode == 0
    done = parlour("analyse", str(tmp_path / "m.mat"))
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert any("was better by" in line for line in lines)  # random play errs
    assert sum("error rate" in line for line in lines) == 2
    as_json = parlour("analyse", str(tmp_path / "m.mat"), "--json")
    game = json.loads(as_json.stdout.splitlines()[0])
    assert game["judged_by"] == "equity"
    judged = [move for move in game["moves"] if move["judgement"]]
    assert judged and {move["judgement"] for move in judged} <= {"doubtful", "bad", "very bad"}
    kinds = {move["kind"] for move in game["moves"]}
    assert "move" in kinds and kinds <= {"move", "double", "take", "drop", "beaver"}
