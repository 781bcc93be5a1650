"""The chess board: squares a-h and 1-8 written round the edge, White at the bottom
(Black at the bottom when flipped, or when the person plays Black).

The board is drawn from the position's FEN and the legal moves' UCI text. A move is
made by clicking a piece and then one of the squares marked for it; a pawn reaching
the last rank asks which piece it becomes (or type ``e8=N``). The king of the side
to move is marked when in check, and the last move's two squares are tinted.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.widgets import Static

from parlour.chess.rules import ChessState
from parlour.core.protocol import Side
from parlour.tui.board import Board, Cell
from parlour.tui.choice import Choice, ChoiceScreen
from parlour.tui.parts import GameUI
from parlour.tui.session import Session

FILES = "abcdefgh"
#: Solid figures for both sides, told apart by colour.
GLYPHS = {"k": "♚", "q": "♛", "r": "♜", "b": "♝", "n": "♞", "p": "♟"}
WHITE_PIECE = "bold #ffffff"
BLACK_PIECE = "bold #101010"
#: The pieces a pawn may become, strongest first, by their UCI letters (which are
#: also the keys that choose them).
PROMOTION_ORDER = "qrbn"
PROMOTION_NAMES = {"q": "Queen", "r": "Rook", "b": "Bishop", "n": "Knight"}


def board_from_fen(fen: str) -> dict[str, str]:
    """The pieces of a FEN's first field by square name: ``{"e1": "K", ...}``.

    >>> board_from_fen("8/8/8/8/8/8/8/4K2k w - - 0 1")
    {'e1': 'K', 'h1': 'k'}
    """
    pieces: dict[str, str] = {}
    for row, rank_text in enumerate(fen.split()[0].split("/")):
        column = 0
        for char in rank_text:
            if char.isdigit():
                column += int(char)
            else:
                pieces[f"{FILES[column]}{8 - row}"] = char
                column += 1
    return pieces


class ChessBoard(Board):
    """A chess board that turns clicks into UCI move text (``e2e4``, ``e7e8q``)."""

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
    """

    def __init__(self, session: Session, **kwargs: Any) -> None:
        super().__init__(session, **kwargs)
        #: The square of the piece picked up, or None.
        self.picked: str | None = None

    def compose(self) -> ComposeResult:
        files = FILES[::-1] if self.flipped else FILES
        ranks = "12345678" if self.flipped else "87654321"

        def file_row() -> ComposeResult:
            yield Static("", classes="label")
            for letter in files:
                yield Static(letter, classes="label")
            yield Static("", classes="label")

        yield from file_row()
        for rank in ranks:
            yield Static(rank, classes="label")
            for letter in files:
                name = letter + rank
                shade = "dark" if (FILES.index(letter) + int(rank)) % 2 == 1 else "light"  # a1 dark
                yield Cell(name, id=f"sq-{name}", classes=shade)
            yield Static(rank, classes="label")
        yield from file_row()

    def on_mount(self) -> None:
        self.redraw()

    # -- drawing --------------------------------------------------------------------

    def uci_moves(self) -> list[str]:
        return [str(move) for move in self.session.state.legal_moves()]

    def targets(self) -> set[str]:
        """The squares the picked piece may move to."""
        if self.picked is None:
            return set()
        return {uci[2:4] for uci in self.uci_moves() if uci[:2] == self.picked}

    @property
    def state(self) -> ChessState:
        state = self.session.state
        assert isinstance(state, ChessState)
        return state

    def redraw(self) -> None:
        state = self.state
        pieces = board_from_fen(state.to_text())
        targets = self.targets()
        stack = state.move_stack
        last = {stack[-1].uci()[:2], stack[-1].uci()[2:4]} if stack else set()
        check = None
        outcome = state.outcome()
        if (outcome is None or outcome.reason == "checkmate") and state.is_check():
            king = "K" if state.turn is Side.FIRST else "k"
            check = next((name for name, piece in pieces.items() if piece == king), None)
        for cell in self.query(Cell):
            name = cell.key
            piece = pieces.get(name)
            if piece is not None:
                style = WHITE_PIECE if piece.isupper() else BLACK_PIECE
                cell.update(Text(GLYPHS[piece.lower()], style=style))
            elif name in targets:
                cell.update(Text("•", style="bold #ffffff"))
            else:
                cell.update("")
            cell.set_class(name in last, "last")
            cell.set_class(name in targets, "target")
            cell.set_class(name == self.picked, "selected")
            cell.set_class(name == check, "check")

    def clear_selection(self) -> None:
        self.picked = None
        if self.is_mounted:
            self.redraw()

    # -- clicks ---------------------------------------------------------------------

    def clicked(self, key: Any, button: int) -> None:
        name = str(key)
        state = self.session.state
        piece = board_from_fen(state.to_text()).get(name)
        mine = piece is not None and piece.isupper() == (state.turn is Side.FIRST)
        if mine:
            self.picked = name
            if self.targets():
                self.say(f"{name} picked up: click where it goes")
            else:
                self.say(f"the piece on {name} has no legal move", error=True)
                self.picked = None
            self.redraw()
        elif self.picked is None:
            self.say(f"click one of your own pieces first ({name} is not one)", error=True)
        else:
            moves = [uci for uci in self.uci_moves() if uci[:4] == self.picked + name]
            if len(moves) > 1:
                self.ask_promotion(self.picked + name, [uci[4] for uci in moves])
            else:
                # Legal or not, the rules read it: an illegal move is explained.
                self.notify_move(self.picked + name)

    def ask_promotion(self, journey: str, pieces: list[str]) -> None:
        """Ask which piece the pawn going ``journey`` (``a7a8``) becomes, among the
        legal ``pieces`` (UCI letters); Escape puts the pawn back where it was."""
        choices = [
            Choice(piece, PROMOTION_NAMES[piece], piece)
            for piece in PROMOTION_ORDER
            if piece in pieces
        ]

        def promote(piece: str | None) -> None:
            if piece is None:
                self.clear_selection()
                self.say("promotion cancelled: the pawn stays where it was")
            else:
                self.notify_move(journey + piece)

        self.app.push_screen(ChoiceScreen("Promote the pawn to:", choices), promote)


def game_ui() -> GameUI:
    return GameUI(board=ChessBoard)
