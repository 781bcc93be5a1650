"""The chess board: squares a-h and 1-8 written round the edge, White at the bottom
(Black at the bottom when flipped, or when the person plays Black).

The board is the shared square board (:mod:`parlour.tui.square_board`) drawn from
the chess face's description of the position. A move is made by clicking a piece and
then one of the squares marked for it; a pawn reaching the last rank asks which piece
it becomes (or type ``e8=N``). The king of the side to move is marked when in check,
and the last move's two squares are tinted.
"""

from __future__ import annotations

from rich.text import Text

from parlour.core.face import BoardData
from parlour.core.protocol import Side
from parlour.tui.choice import Choice, ChoiceScreen
from parlour.tui.parts import GameUI
from parlour.tui.square_board import SquareBoard, SquareMove

FILES = "abcdefgh"
#: Black's pieces as solid figures, White's as outlined ones, so that the sides are
#: told apart by shape as well as by colour (on a terminal without colours, or by a
#: player who does not see them).
GLYPHS = {"k": "♚", "q": "♛", "r": "♜", "b": "♝", "n": "♞", "p": "♟"}
WHITE_GLYPHS = {"k": "♔", "q": "♕", "r": "♖", "b": "♗", "n": "♘", "p": "♙"}
WHITE_PIECE = "bold #ffffff"
BLACK_PIECE = "bold #101010"
#: The pieces a pawn may become, strongest first, by their UCI letters (which are
#: also the keys that choose them).
PROMOTION_ORDER = "qrbn"
PROMOTION_NAMES = {"q": "Queen", "r": "Rook", "b": "Bishop", "n": "Knight"}


class ChessBoard(SquareBoard):
    """A chess board: pieces by their figures, promotions asked for."""

    edge_labels = True
    DEFAULT_CSS = """
    ChessBoard {
        layout: grid;
        grid-size: 10 10;
        grid-columns: 2 7 7 7 7 7 7 7 7 2;
        grid-rows: 1 3 3 3 3 3 3 3 3 1;
        width: 60;
        height: 26;
    }
    ChessBoard Cell { width: 7; height: 3; text-wrap: nowrap; content-align: center middle; }
    ChessBoard.compact {
        grid-columns: 2 3 3 3 3 3 3 3 3 2; grid-rows: 1 1 1 1 1 1 1 1 1 1; width: 28; height: 10;
    }
    ChessBoard.compact Cell { width: 3; height: 1; }
    ChessBoard .label { color: #cbd5e0; content-align: center middle; width: 100%; }
    ChessBoard .light { background: #b08a5c; }
    ChessBoard .dark { background: #7a5532; }
    ChessBoard .light.last { background: #a8a848; }
    ChessBoard .dark.last { background: #8a8a30; }
    ChessBoard .target { background: #4a7fb0; }
    ChessBoard .selected { background: #d9a520; }
    ChessBoard .check { background: #d03c32; }
    ChessBoard .played { background: #b05a3c; }
    ChessBoard .better { background: #2e9e8f; }
    """

    def square_key(self, row: int, column: int) -> str:
        return f"{FILES[column]}{8 - row}"

    def side_of(self, piece: str) -> Side:
        return Side.FIRST if piece.isupper() else Side.SECOND

    def draw(self, key: str, piece: str | None, target: bool) -> Text:
        if piece is not None:
            if piece.isupper():
                return Text(WHITE_GLYPHS[piece.lower()], style=WHITE_PIECE)
            return Text(GLYPHS[piece], style=BLACK_PIECE)
        return Text("•" if target else "", style="bold #ffffff")

    def moves_of(self, data: BoardData) -> list[SquareMove]:
        return [((move["from"], move["to"]), move["text"], move) for move in data["moves"]]

    def attempt(self, path: list[str]) -> str:
        return "".join(path)  # from and to squares: UCI, which the rules read

    def ask(self, moves: list[SquareMove]) -> None:
        """Ask which piece the pawn becomes, among the legal promotions; Escape puts
        the pawn back where it was."""
        by_piece = {move[2]["promotion"]: move[1] for move in moves}
        choices = [
            Choice(piece, PROMOTION_NAMES[piece], piece)
            for piece in PROMOTION_ORDER
            if piece in by_piece
        ]

        def promote(piece: str | None) -> None:
            if piece is None:
                self.clear_selection()
                self.say("promotion cancelled: the pawn stays where it was")
            else:
                self.notify_move(by_piece[piece])

        self.app.push_screen(ChoiceScreen("Promote the pawn to:", choices), promote)


def game_ui() -> GameUI:
    return GameUI(board=ChessBoard)
