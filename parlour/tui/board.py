"""What every board widget shares: clickable cells, and the messages a board sends
the app when a player has made a move with the mouse or needs to be told something.

A board never plays a move itself. It turns clicks into the move's text in the
game's notation (``e2e4``, ``9x18x27``, ``8/5 6/5``) and the app plays that text
through the protocol's ``parse_move``, so a click and a typed move are refused
with the same explanation.
"""

from __future__ import annotations

from typing import Any

from textual import events
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Static

from parlour.tui.session import Session


class Cell(Static):
    """One square, point, bar or tray of a board: it tells its board when it is
    clicked (with which mouse button)."""

    class Clicked(Message):
        def __init__(self, cell: Cell, button: int) -> None:
            super().__init__()
            self.cell = cell
            self.button = button

    def __init__(self, key: Any, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        #: What the cell stands for on its board: a square number, a square name...
        self.key = key

    def on_click(self, event: events.Click) -> None:
        event.stop()
        self.post_message(self.Clicked(self, event.button))


class Board(Widget):
    """The base of the three boards."""

    class MoveText(Message):
        """A move made with the mouse, as text in the game's notation."""

        def __init__(self, text: str) -> None:
            super().__init__()
            self.text = text

    class Notice(Message):
        """Something to show in the status line (a refused click, a hint to go on)."""

        def __init__(self, text: str, *, error: bool = False) -> None:
            super().__init__()
            self.text = text
            self.error = error

    class Changed(Message):
        """The board changed in a way the side panel shows (a checker moved)."""

    def __init__(self, session: Session, *, flipped: bool = False, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.session = session
        self.flipped = flipped
        #: Whether the player at the keyboard may make moves with the mouse now.
        self.interactive = True
        #: Drawn small, for a terminal of 80 by 24.
        self.compact = False
        #: The coach's marks on a position under analysis: the cells of the move
        #: played there, and of the better move.
        self.played: set[Any] = set()
        self.better: set[Any] = set()

    def set_compact(self, compact: bool) -> None:
        """Draw the board small (or full size again)."""
        if compact != self.compact:
            self.compact = compact
            self.set_class(compact, "compact")
            self.redraw()

    def redraw(self) -> None:
        """Draw the position of :attr:`session` again (after any change)."""
        raise NotImplementedError

    def clear_selection(self) -> None:
        """Forget a piece picked up but not moved."""

    def cells_of(self, text: str) -> set[Any]:
        """The cells a move (its text in the game's notation, legal in the position
        shown) starts from, passes and ends on; none for a board that cannot say."""
        return set()

    def show_moves(self, played: str | None, better: str | None) -> None:
        """Mark the move ``played`` and the ``better`` one on the position shown (the
        coach's analysis); None marks nothing."""
        self.played = self.cells_of(played) if played else set()
        self.better = self.cells_of(better) if better else set()
        if self.is_mounted:
            self.redraw()

    async def flip(self) -> None:
        """Turn the board round."""
        self.flipped = not self.flipped
        await self.recompose()
        self.redraw()

    def undo_step(self) -> bool:
        """Take back part of a move being made (a checker moved this turn in
        backgammon); False when there is none."""
        return False

    def buttons(self) -> list[tuple[str, str]]:
        """Buttons for the move being made: (label, command)."""
        return []

    def confirm(self) -> str | None:
        """The move being made, as text, when it is complete and waits for the
        player to confirm it (backgammon); None otherwise."""
        return None

    def on_cell_clicked(self, message: Cell.Clicked) -> None:
        message.stop()
        if not self.interactive:
            self.post_message(self.Notice("wait: it is not your turn", error=True))
            return
        self.clicked(message.cell.key, message.button)

    def clicked(self, key: Any, button: int) -> None:
        """A click on the cell standing for ``key``."""
        raise NotImplementedError

    def notify_move(self, text: str) -> None:
        self.clear_selection()
        self.post_message(self.MoveText(text))

    def say(self, text: str, *, error: bool = False) -> None:
        self.post_message(self.Notice(text, error=error))
