"""A Python programmer's type checker sees Parlour as typed: the package installed
(editable too) is found from any directory through its py.typed marker, and
``get_game`` names each game's own class, so moves are typed per game."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

PROGRAM = """\
from parlour.core.registry import get_game

chess = get_game("chess")
reveal_type(chess)
reveal_type(chess.new_state().legal_moves())
reveal_type(get_game("checkers").new_state())
reveal_type(get_game("backgammon").new_state())
reveal_type(get_game("some other game"))
get_game("chess").new_state().push("e4")
"""


def test_mypy_outside_the_repository_knows_each_games_types(tmp_path: Path) -> None:
    (tmp_path / "use.py").write_text(PROGRAM)
    run = subprocess.run(
        [sys.executable, "-m", "mypy", "--no-error-summary", "--cache-dir", "cache", "use.py"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
    )
    found = run.stdout
    assert "Cannot find implementation or library stub" not in found, found
    assert 'Revealed type is "parlour.chess.rules.ChessGame"' in found, found
    assert 'Revealed type is "list[parlour.chess.board.Move]"' in found, found
    assert 'Revealed type is "parlour.checkers.rules.CheckersState"' in found, found
    assert 'Revealed type is "parlour.backgammon.rules.BackgammonState"' in found, found
    assert 'Revealed type is "parlour.core.protocol.Game[Any]"' in found, found
    # A string where a chess move belongs is a type error the checker catches.
    assert 'use.py:9: error: Argument 1 to "push" of "ChessState" has incompatible type' in found
    # (The protocol a Move meets: see parlour.chess.rules.MoveLike.)
    assert 'expected "MoveLike"' in found, found
