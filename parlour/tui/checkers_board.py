"""The checkers board: the 32 dark squares with their numbers 1-32, Black at the top
as in the books (the board turns round with flip).

A move is made by clicking a piece and then where it goes: the squares it may reach
are marked. A multi-jump is made by clicking its landing squares in turn, or only
its last square when just one jump sequence ends there.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.app import ComposeResult

from parlour.checkers.rules import BLACK, CheckersState, Move
from parlour.tui.board import Board, Cell

#: A piece is a disc two rows high; a king wears a crown in the middle.
DISC_TOP, DISC_BOTTOM = "▗▄▄▄▖", "▝▀▀▀▘"
CROWN = "♛"
PIECE_COLOUR = {"b": "#141414", "w": "#f4efe4"}


def square_at(row: int, column: int) -> int | None:
    """The number of the square at ``row`` (0 at the top, Black's side) and
    ``column`` (0 on the left, seen by Black's opponent), or None for a light one."""
    if (row + column) % 2 == 0:
        return None
    return 4 * row + column // 2 + 1


class CheckersBoard(Board):
    """A checkers board that turns clicks into PDN move text."""

    DEFAULT_CSS = """
    CheckersBoard {
        layout: grid;
        grid-size: 8 8;
        grid-columns: 7;
        grid-rows: 3;
        width: 56;
        height: 24;
    }
    CheckersBoard Cell { width: 7; height: 3; text-wrap: nowrap; }
    CheckersBoard.compact { grid-columns: 4; grid-rows: 1; width: 32; height: 8; }
    CheckersBoard.compact Cell { width: 4; height: 1; }
    CheckersBoard .light { background: #e9dcc0; }
    CheckersBoard .dark { background: #5f8a4a; }
    CheckersBoard .last { background: #8fa84a; }
    CheckersBoard .target { background: #3f6fa0; }
    CheckersBoard .selected { background: #c9a227; }
    """

    def __init__(self, session: Any, **kwargs: Any) -> None:
        super().__init__(session, **kwargs)
        #: The squares clicked so far for the move being made (start first).
        self.path: list[int] = []

    @property
    def state(self) -> CheckersState:
        state = self.session.state
        assert isinstance(state, CheckersState)
        return state

    def compose(self) -> ComposeResult:
        for row in range(8):
            for column in range(8):
                r, c = (7 - row, 7 - column) if self.flipped else (row, column)
                square = square_at(r, c)
                if square is None:
                    yield Cell(None, classes="light")
                else:
                    yield Cell(square, id=f"sq-{square}", classes="dark")

    def on_mount(self) -> None:
        self.redraw()

    # -- drawing --------------------------------------------------------------------

    def candidates(self) -> list[Move]:
        """The legal moves that begin with the squares clicked so far."""
        if not self.path:
            return []
        prefix = tuple(self.path)
        return [m for m in self.state.legal_moves() if m.path[: len(prefix)] == prefix]

    def targets(self) -> set[int]:
        """The squares to click next: the next landing square of each candidate move,
        and its last square."""
        marks: set[int] = set()
        for move in self.candidates():
            if len(move.path) > len(self.path):
                marks.add(move.path[len(self.path)])
                marks.add(move.end)
        return marks

    def redraw(self) -> None:
        state = self.state
        targets = self.targets()
        stack = state.move_stack
        last = set(stack[-1].path) if stack else set()
        for cell in self.query(Cell):
            square = cell.key
            if square is None:
                continue
            piece = state.piece_at(square)
            cell.set_class(square in last, "last")
            cell.set_class(square in targets, "target")
            cell.set_class(square in self.path, "selected")
            if self.compact:  # one row: the piece, or else the square's number
                if piece is None:
                    number_style = "bold #ffffff" if square in targets else "#c8dcbc"
                    cell.update(Text(f"{square:>3}", style=number_style))
                else:
                    glyph = CROWN if piece.isupper() else "●"
                    cell.update(Text(f" {glyph}", style=f"bold {PIECE_COLOUR[piece.lower()]}"))
                continue
            text = Text(f"{square:<2}\n", style="#e4eedc")
            if piece is not None:
                colour = PIECE_COLOUR[piece.lower()]
                text.append(" " + DISC_TOP + "\n ", style=colour)
                if piece.isupper():  # a king: the crown on the disc
                    other = PIECE_COLOUR["w" if piece in "bB" else "b"]
                    text.append(DISC_BOTTOM[:2], style=colour)
                    text.append(CROWN, style=f"bold {other} on {colour}")
                    text.append(DISC_BOTTOM[3:], style=colour)
                else:
                    text.append(DISC_BOTTOM, style=colour)
            elif square in targets:
                text.append("\n   ◆", style="bold #ffffff")
            cell.update(text)

    def clear_selection(self) -> None:
        self.path = []
        if self.is_mounted:
            self.redraw()

    # -- clicks ---------------------------------------------------------------------

    def clicked(self, key: Any, button: int) -> None:
        if key is None:
            self.say("pieces move on the dark squares only", error=True)
            return
        square = int(key)
        state = self.state
        piece = state.piece_at(square)
        mine = piece is not None and (piece in "bB") == (state.turn is BLACK)
        if mine and square not in self.path[1:]:
            self.pick(square)
            return
        if not self.path:
            if piece is None:
                self.say(f"square {square} is empty: click one of your pieces first", error=True)
            else:
                self.say(f"the piece on {square} is not yours", error=True)
            return
        self.land(square)

    def pick(self, square: int) -> None:
        """Pick up the piece on ``square`` and show where it may go."""
        self.path = [square]
        if not self.candidates():
            self.path = []
            captures = [m for m in self.state.legal_moves() if m.is_capture]
            if captures:
                listed = ", ".join(str(m) for m in captures[:4])
                self.say(f"a capture is available: {listed} (jumping is compulsory)", error=True)
            else:
                self.say(f"the piece on {square} has no legal move", error=True)
        else:
            self.say(f"{square} picked up: click where it goes")
        self.redraw()

    def land(self, square: int) -> None:
        """A click on a square after a piece was picked up."""
        candidates = self.candidates()
        longer = (*self.path, square)
        exact = [m for m in candidates if m.path == longer]
        going_on = [m for m in candidates if m.path[: len(longer)] == longer and m not in exact]
        ending = [m for m in candidates if m.end == square]
        if exact and not going_on:
            self.notify_move(str(exact[0]))
        elif going_on:
            self.path.append(square)
            self.say(f"jump on: click the next landing square after {square}")
            self.redraw()
        elif len(ending) == 1:
            self.notify_move(str(ending[0]))
        elif ending:
            self.say(f"several jumps end on {square}: click their landing squares in turn")
        else:
            # Not legal: let the rules say why, as they do for a typed move.
            separator = "x" if abs(square - self.path[-1]) > 5 else "-"
            self.notify_move(separator.join(map(str, longer)))
