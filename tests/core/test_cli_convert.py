"""``parlour convert``: a terminal-app save file to its game's file format (PGN, PDN,
.mat) and a game of such a file to a save file, run as a process. PGN is checked
by python-chess's reading of what we write and of what we read."""

from __future__ import annotations

import io
import json
import random
from pathlib import Path

import chess
import chess.pgn

from parlour.core.protocol import CHANCE, Side
from parlour.core.registry import get_game
from parlour.tui.session import Options, Session
from tests.core.process import parlour

SCHOLARS = """[Event "Club night"]
[White "Ann Lee"]
[Black "Bob"]
[Result "0-1"]

1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 0-1
"""


def test_a_pgn_game_becomes_a_save_file_that_resumes_where_it_ended(tmp_path: Path) -> None:
    (tmp_path / "game.pgn").write_text(SCHOLARS)
    done = parlour("convert", str(tmp_path / "game.pgn"), str(tmp_path / "game.json"))
    assert done.returncode == 0, done.stderr
    session = Session.load(tmp_path / "game.json")
    theirs = chess.pgn.read_game(io.StringIO(SCHOLARS))
    assert theirs is not None
    assert session.state.to_text() == theirs.end().board().fen()
    assert session.texts == ["e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6"]
    # White resigned (0-1 with the game going on on the board): it stays ended.
    outcome = session.state.outcome()
    assert outcome is not None and outcome.winner is Side.SECOND
    assert outcome.reason == "resignation"
    assert session.record_name(Side.FIRST) == "Ann Lee"


def test_a_save_file_becomes_pgn_that_python_chess_reads_alike(tmp_path: Path) -> None:
    session = Session(get_game("chess"), Options())
    rng = random.Random(7)
    for _ in range(41):
        session.push(rng.choice(session.state.legal_moves()))
    session.save(tmp_path / "saved.json")
    done = parlour("convert", str(tmp_path / "saved.json"))
    assert done.returncode == 0, done.stderr
    theirs = chess.pgn.read_game(io.StringIO(done.stdout))
    assert theirs is not None and not theirs.errors
    assert theirs.end().board().fen() == session.state.to_text()
    assert [str(m) for m in theirs.mainline_moves()] == [
        str(m)
        for m in session.state.move_stack  # type: ignore[attr-defined]
    ]
    assert theirs.headers["Result"] == "*"


def test_pgn_to_save_to_pgn_keeps_moves_names_and_result(tmp_path: Path) -> None:
    (tmp_path / "game.pgn").write_text(SCHOLARS)
    assert parlour("convert", str(tmp_path / "game.pgn"), str(tmp_path / "g.json")).returncode == 0
    done = parlour("convert", str(tmp_path / "g.json"), "--to", "pgn")
    assert done.returncode == 0, done.stderr
    theirs = chess.pgn.read_game(io.StringIO(done.stdout))
    assert theirs is not None
    assert (theirs.headers["White"], theirs.headers["Black"]) == ("Ann Lee", "Bob")
    assert theirs.headers["Result"] == "0-1"
    original = chess.pgn.read_game(io.StringIO(SCHOLARS))
    assert original is not None
    assert list(theirs.mainline_moves()) == list(original.mainline_moves())


def test_pdn_round_trip_through_a_save_file_from_stdin(tmp_path: Path) -> None:
    pdn = '[Black "Cy"]\n[White "Di"]\n1. 11-15 23-19 2. 8-11 22-17 1-0\n'
    done = parlour("convert", "-", "--from", "pdn", "--to", "save", stdin=pdn)
    assert done.returncode == 0, done.stderr
    record = json.loads(done.stdout)
    assert record["moves"] == ["11-15", "23-19", "8-11", "22-17"]
    assert record["ended"] == {"winner": "second", "reason": "resignation"}  # White won
    (tmp_path / "c.json").write_text(done.stdout)
    back = parlour("convert", str(tmp_path / "c.json"))
    assert back.returncode == 0, back.stderr
    assert '[Result "1-0"]' in back.stdout and '[Black "Cy"]' in back.stdout
    assert "1. 11-15 23-19 2. 8-11 22-17 1-0" in back.stdout


def test_a_backgammon_match_round_trip_through_mat(tmp_path: Path) -> None:
    session = Session(get_game("backgammon"), Options(seed=5, rules={"match_length": 5}))
    rng = random.Random(5)
    while len(session.earlier) < 2:
        while not session.state.is_over():
            if session.state.turn is CHANCE:
                session.throw_dice()
            else:
                moves = [m for m in session.state.legal_moves() if "resign" not in str(m)]
                session.push(rng.choice(moves or session.state.legal_moves()))
        following = session.next_game()
        if following is None:
            break
        session.start_next_game(following)
    session.throw_dice()
    session.save(tmp_path / "match.json")
    to_mat = parlour("convert", str(tmp_path / "match.json"), str(tmp_path / "match.mat"))
    assert to_mat.returncode == 0, to_mat.stderr
    assert " 5 point match" in (tmp_path / "match.mat").read_text()
    back = parlour("convert", str(tmp_path / "match.mat"), str(tmp_path / "again.json"))
    assert back.returncode == 0, back.stderr
    before = json.loads((tmp_path / "match.json").read_text())
    after = json.loads((tmp_path / "again.json").read_text())
    for key in ("game", "start", "moves", "earlier_games", "position"):
        assert after[key] == before[key], key
    assert after["options"]["match_length"] == 5


def test_what_cannot_be_converted_is_said_plainly(tmp_path: Path) -> None:
    two = tmp_path / "two.pgn"
    two.write_text("1. e4 e5 *\n\n1. d4 d5 *\n")
    cases = [
        ([str(two)], "holds 2 games: choose one with --number N"),
        ([str(two), "--number", "3"], "holds 2 games, not 3"),
        ([str(two), "--to", "pdn"], "a pgn file converts to a save file (--to save), not to pdn"),
        ([str(tmp_path / "none.pgn")], "cannot read"),
        ([str(tmp_path / "x.txt")], "cannot read"),
    ]
    (tmp_path / "bad.pgn").write_text("1. e4 e5 2. Ke3 *\n")
    cases.append(([str(tmp_path / "bad.pgn")], "game 1"))
    (tmp_path / "binary.pgn").write_bytes(bytes(range(256)))
    cases.append(([str(tmp_path / "binary.pgn")], "is not text (UTF-8)"))
    (tmp_path / "notes.txt").write_text("hello")
    cases.append(([str(tmp_path / "notes.txt")], "name it with --from (save, mat, pdn, pgn)"))
    (tmp_path / "game.pgn").write_text("1. e4 *\n")
    cases.append(
        ([str(tmp_path / "game.pgn"), str(tmp_path / "out.txt")], "name it with --to (save,")
    )
    (tmp_path / "broken.json").write_text('{"kind": "parlour saved game"')
    cases.append(([str(tmp_path / "broken.json")], "is not a saved game"))
    for arguments, message in cases:
        done = parlour("convert", *arguments)
        assert done.returncode == 1, arguments
        assert message in done.stderr, (arguments, done.stderr)
        assert "Traceback" not in done.stderr


def test_two_games_by_number_and_the_second_is_the_one_converted() -> None:
    done = parlour("convert", "-", "--from", "pgn", "--number", "2", stdin="1. e4 *\n\n1. d4 *\n")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["moves"] == ["d4"]


def test_a_resignation_saved_in_the_app_stays_a_resignation(tmp_path: Path) -> None:
    session = Session(get_game("checkers"), Options())
    session.play_text("11-15")
    session.state.resign(Side.SECOND)
    session.save(tmp_path / "resigned.json")
    again = Session.load(tmp_path / "resigned.json")
    assert again.state.outcome() == session.state.outcome()
    assert again.state == session.state
