"""PGN files read one game at a time: a bad game costs only itself, with its number
and move in the error, and a long file is read only as far as the game asked for."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import chess.pgn
import pytest

from parlour.chess import iter_pgn, read_pgn, write_pgn
from parlour.core.errors import NotationError

THREE_GAMES = """\
[Event "one"]

1. e4 e5 2. Nf3 Nc6 1-0

[Event "two"]

1. d4 d5 2. Bg5 Nf6 3. Qxd5 *

[Event "three"]

1. c4 e5 1/2-1/2
"""


def test_an_illegal_move_spoils_only_its_own_game() -> None:
    games = list(iter_pgn(THREE_GAMES))
    assert [game.headers["Event"] for game in games] == ["one", "two", "three"]
    assert [game.error is None for game in games] == [True, False, True]
    error = str(games[1].error)
    assert error.startswith("PGN game 2, move 3. Qxd5: "), error
    # The moves before the error are kept.
    assert [move.uci() for move in games[1].mainline_moves()] == ["d2d4", "d7d5", "c1g5", "g8f6"]
    assert games[2].result() == "1/2-1/2"


def test_read_pgn_stays_strict_and_names_the_game() -> None:
    with pytest.raises(NotationError, match=r"^PGN game 2, move 3\. Qxd5: "):
        read_pgn(THREE_GAMES)


def test_a_malformed_tag_and_a_foreign_token_are_errors_of_their_game() -> None:
    text = '[Event "a"]\n[White oops]\n\n1. e4 *\n\n[Event "b"]\n\n1. e4 @ e5 *\n\n1. d4 *\n'
    games = list(iter_pgn(text))
    assert len(games) == 3
    assert "PGN game 1: malformed tag" in str(games[0].error)
    assert "PGN game 2: unexpected '@'" in str(games[1].error)
    assert games[2].error is None and len(games[2].mainline_moves()) == 1


def test_a_file_is_read_only_as_far_as_the_game_asked_for(tmp_path: Path) -> None:
    path = tmp_path / "many.pgn"
    path.write_text("".join(f'[Round "{n}"]\n\n1. e4 e5 *\n\n' for n in range(1, 1001)))
    consumed = 0

    def lines() -> Iterator[str]:
        nonlocal consumed
        with path.open(encoding="utf-8") as handle:
            for line in handle:
                consumed += 1
                yield line

    games = iter_pgn(lines())
    first = next(games)
    assert first.headers["Round"] == "1" and first.error is None
    assert consumed < 10, f"{consumed} lines read for the first game"
    assert sum(1 for _ in games) == 999


def test_a_sequence_of_games_is_written_and_python_chess_reads_each(tmp_path: Path) -> None:
    games = [game for game in iter_pgn(THREE_GAMES) if game.error is None]
    text = write_pgn(games)
    assert [game.headers["Event"] for game in read_pgn(text)] == ["one", "three"]
    path = tmp_path / "two.pgn"
    path.write_text(text)
    with path.open() as handle:
        first, second = chess.pgn.read_game(handle), chess.pgn.read_game(handle)
        assert chess.pgn.read_game(handle) is None
    assert first is not None and second is not None
    assert [m.uci() for m in first.mainline_moves()] == ["e2e4", "e7e5", "g1f3", "b8c6"]
    assert second.headers["Result"] == "1/2-1/2" and not first.errors and not second.errors
