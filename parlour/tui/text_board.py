"""The board of a game that brings no drawing of its own: its face's text picture
(:class:`~parlour.core.face.BasicFace`), with the legal moves listed under it as
buttons to click; moves may also be typed, as in every game.
"""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.widgets import Button, Static

from parlour.core.registry import get_face
from parlour.tui.board import Board


class TextBoard(Board):
    """A position drawn as text, and its moves as buttons."""

    DEFAULT_CSS = """
    TextBoard { width: 52; height: auto; }
    TextBoard #text-picture { width: 100%; padding: 1 2; }
    TextBoard #text-moves { layout: grid; grid-size: 3; grid-gutter: 0 1; height: auto; }
    TextBoard #text-moves Button { width: 100%; }
    """

    #: How many times the moves were drawn: their buttons' ids are new each time,
    #: as the old buttons leave the screen after the new ones come.
    drawn = 0

    def compose(self) -> ComposeResult:
        yield Static(id="text-picture")
        yield Horizontal(id="text-moves")

    def on_mount(self) -> None:
        self.redraw()

    def redraw(self) -> None:
        data = get_face(self.session.game).board(self.session.state)
        self.query_one("#text-picture", Static).update(str(data.get("picture", "")))
        moves = self.query_one("#text-moves", Horizontal)
        moves.remove_children()
        self.drawn += 1
        if self.interactive:
            moves.mount_all(
                Button(text, name=text, id=f"move-{self.drawn}-{number}")
                for number, text in enumerate(data.get("moves", []))
            )

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.name:
            self.notify_move(event.button.name)

    def clicked(self, key: Any, button: int) -> None:
        """A text board has no cells to click."""
