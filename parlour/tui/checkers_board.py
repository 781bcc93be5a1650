"""The checkers board: the 32 dark squares with their numbers 1-32, Black at the top
as in the books (the board turns round with flip).

The board is the shared square board (:mod:`parlour.tui.square_board`) drawn from
the checkers face's description of the position. A move is made by clicking a piece
and then where it goes: the squares it may reach are marked. A multi-jump is made by
clicking its landing squares in turn, or only its last square when just one jump
sequence ends there.
"""

from __future__ import annotations

from rich.text import Text

from parlour.core.face import BoardData
from parlour.core.protocol import Side
from parlour.tui.square_board import SquareBoard, SquareMove

#: A piece is a disc two rows high, solid for Black and outlined for White (so that
#: the sides differ in shape as well as colour); a king wears a crown in the middle.
DISC_TOP, DISC_BOTTOM = "▗▄▄▄▖", "▝▀▀▀▘"
RING_TOP, RING_BOTTOM = "╭───╮", "╰───╯"
CROWN = "♛"
#: On the small board, a piece is one figure beside its square's number.
SMALL = {"b": "●", "w": "○", "B": "♛", "W": "♕"}
PIECE_COLOUR = {"b": "#141414", "w": "#f4efe4"}


def square_at(row: int, column: int) -> int | None:
    """The number of the square at ``row`` (0 at the top, Black's side) and
    ``column`` (0 on the left, seen by Black's opponent), or None for a light one.

    >>> square_at(0, 1), square_at(7, 6), square_at(0, 0)
    (1, 32, None)
    """
    if (row + column) % 2 == 0:
        return None
    return 4 * row + column // 2 + 1


class CheckersBoard(SquareBoard):
    """A checkers board: numbered squares, men and crowned kings."""

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
    CheckersBoard .played { background: #b05a3c; }
    CheckersBoard .better { background: #2e9e8f; }
    CheckersBoard .selected { background: #c9a227; }
    """

    def square_key(self, row: int, column: int) -> str | None:
        square = square_at(row, column)
        return None if square is None else str(square)

    def side_of(self, piece: str) -> Side:
        return Side.FIRST if piece in "bB" else Side.SECOND

    def where(self, key: str) -> str:
        return f"square {key}"

    def moves_of(self, data: BoardData) -> list[SquareMove]:
        return [(tuple(map(str, move["path"])), move["text"], move) for move in data["moves"]]

    def why_no_move(self, key: str, data: BoardData) -> str:
        if data.get("must_capture"):
            listed = ", ".join(move["text"] for move in data["moves"][:4])
            return f"a capture is available: {listed} (jumping is compulsory)"
        return super().why_no_move(key, data)

    def attempt(self, path: list[str]) -> str:
        squares = list(map(int, path))
        separator = "x" if abs(squares[-1] - squares[-2]) > 5 else "-"
        return separator.join(path)

    def draw(self, key: str, piece: str | None, target: bool) -> Text:
        if self.compact:  # one row: the piece's figure, then the square's number
            number = Text(f"{key:>3}", style="bold #ffffff" if target else "#c8dcbc")
            if piece is None:
                return Text(" ") + number
            figure = Text(SMALL[piece], style=f"bold {PIECE_COLOUR[piece.lower()]}")
            return figure + number
        text = Text(f"{key:<2}\n", style="#e4eedc")
        if piece is not None:
            colour = PIECE_COLOUR[piece.lower()]
            top, bottom = (DISC_TOP, DISC_BOTTOM) if piece in "bB" else (RING_TOP, RING_BOTTOM)
            text.append(" " + top + "\n ", style=colour)
            if piece.isupper():  # a king: the crown on the disc
                crown = f"bold {PIECE_COLOUR['w']} on {colour}" if piece == "B" else colour
                text.append(bottom[:2], style=colour)
                text.append(CROWN, style=crown)
                text.append(bottom[3:], style=colour)
            else:
                text.append(bottom, style=colour)
        elif target:
            text.append("\n   ◆", style="bold #ffffff")
        return text
