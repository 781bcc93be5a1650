"""Parlour in the terminal: a Textual app for chess, checkers and backgammon.

``parlour play GAME`` starts it (``--plain`` keeps the line-by-line mode). The app
(:mod:`parlour.tui.app`) is shared by the games; each game brings a board widget;
:mod:`parlour.tui.session` holds the game apart from the screen, with save and
resume.
"""

from __future__ import annotations

from pathlib import Path

from parlour.tui.session import Options, Session


def run(session: Session, *, save_path: Path | None = None, tutor: str = "") -> int:
    """Run the app on ``session`` until the player quits (``save_path``: where F5
    saves, the file the game was resumed from; ``tutor``: the judgement from which
    the tutor warns before a move, "" for none)."""
    from parlour.tui.app import ParlourApp

    ParlourApp(session, save_path=save_path, tutor=tutor).run()
    return 0


__all__ = ["Options", "Session", "run"]
