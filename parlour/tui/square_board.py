"""An 8x8 board for the games played on squares (chess and checkers), drawn from what
the game's face says of a position (:mod:`parlour.core.face`), as the web app's
``squares.js`` is: the pieces by square, every legal move as its path of squares and
its text, the last move, a king in check. The board knows no rules.

A move is made by clicking one of one's pieces and then where it goes: the squares it
may reach are marked. A move through several squares (a checkers multi-jump) is made
by clicking its landing squares in turn, or only its last square when just one path
ends there; when several moves share one path (a pawn's promotions) the game asks
which. A click the legal moves do not explain is sent as a move all the same, so the
rules say why it is not one, as they do for a typed move.

Each game's board says only what is its own: the name of the square at each place,
how its pieces look, whose a piece is, and how to ask between moves on one path.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.widgets import Static

from parlour.core.errors import ParlourError
from parlour.core.face import BoardData
from parlour.core.protocol import Side
from parlour.core.registry import get_face
from parlour.tui.board import Board, Cell

#: A legal move as the board reads the face's data: its path of square keys, its
#: text, and the whole entry.
SquareMove = tuple[tuple[str, ...], str, dict[str, Any]]


class SquareBoard(Board):
    """A board of 8x8 squares that turns clicks into the text of legal moves."""

    #: Square names written round the edge (chess), or not (checkers).
    edge_labels = False

    def __init__(self, session: Any, **kwargs: Any) -> None:
        super().__init__(session, **kwargs)
        #: The squares clicked so far for the move being made (the piece's first).
        self.path: list[str] = []

    # -- what each game says ------------------------------------------------------------

    def square_key(self, row: int, column: int) -> str | None:
        """The key of the square at ``row`` (0 at the top, unflipped) and ``column``
        (0 on the left), as the face names it; None for a square not played on."""
        raise NotImplementedError

    def side_of(self, piece: str) -> Side:
        """Whose ``piece`` (as the face writes it) is."""
        raise NotImplementedError

    def draw(self, key: str, piece: str | None, target: bool) -> Text:
        """What the square ``key`` shows: its piece, or a mark where the picked piece
        may go."""
        raise NotImplementedError

    def moves_of(self, data: BoardData) -> list[SquareMove]:
        """The legal moves in the face's data, each with its path of squares."""
        raise NotImplementedError

    def where(self, key: str) -> str:
        """The square ``key`` in words, for the status line."""
        return key

    def attempt(self, path: list[str]) -> str:
        """The text of a move along ``path`` that no legal move explains, for the
        rules to say why it is refused."""
        raise NotImplementedError

    def why_no_move(self, key: str, data: BoardData) -> str:
        """Why the piece on ``key`` has no legal move now."""
        return f"the piece on {self.where(key)} has no legal move"

    def ask(self, moves: list[SquareMove]) -> None:
        """Ask which of ``moves``, on one path, is meant; by default the first."""
        self.notify_move(moves[0][1])

    # -- the squares --------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        places = [(7 - r, 7 - c) if self.flipped else (r, c) for r in range(8) for c in range(8)]
        keys = [self.square_key(row, column) for row, column in places]
        if self.edge_labels:
            columns = [str(keys[c])[0] for c in range(8)]
            yield from self._label_row(columns)
        for row in range(8):
            rank = str(keys[8 * row])[1:] if self.edge_labels else ""
            if self.edge_labels:
                yield Static(rank, classes="label")
            for column in range(8):
                key = keys[8 * row + column]
                real_row, real_column = places[8 * row + column]
                shade = "dark" if (real_row + real_column) % 2 == 1 else "light"
                if key is None:
                    yield Cell(None, classes=shade)
                else:
                    yield Cell(key, id=f"sq-{key}", classes=shade)
            if self.edge_labels:
                yield Static(rank, classes="label")
        if self.edge_labels:
            yield from self._label_row(columns)

    @staticmethod
    def _label_row(columns: list[str]) -> ComposeResult:
        yield Static("", classes="label")
        for letter in columns:
            yield Static(letter, classes="label")
        yield Static("", classes="label")

    def on_mount(self) -> None:
        self.redraw()

    # -- drawing ------------------------------------------------------------------------

    def data(self) -> BoardData:
        """The face's description of the position on the board now."""
        return get_face(self.session.game).board(self.session.state)

    def candidates(self, moves: list[SquareMove]) -> list[SquareMove]:
        """The legal moves that begin with the squares clicked so far."""
        if not self.path:
            return []
        prefix = tuple(self.path)
        return [move for move in moves if move[0][: len(prefix)] == prefix]

    def targets(self, moves: list[SquareMove] | None = None) -> set[str]:
        """The squares to click next: each candidate's next square and its last."""
        if moves is None:
            moves = self.moves_of(self.data())
        marks: set[str] = set()
        for path, _, _ in self.candidates(moves):
            if len(path) > len(self.path):
                marks.add(path[len(self.path)])
                marks.add(path[-1])
        return marks

    def redraw(self) -> None:
        data = self.data()
        pieces: dict[str, str] = data.get("pieces", {})
        targets = self.targets(self.moves_of(data))
        # The coach's marks stand for the last move while a position is analysed.
        last = set() if self.played or self.better else set(map(str, data.get("last") or ()))
        check = data.get("check")
        for cell in self.query(Cell):
            key = cell.key
            if key is None:
                continue
            cell.update(self.draw(key, pieces.get(key), key in targets))
            cell.set_class(key in last, "last")
            cell.set_class(key in targets, "target")
            cell.set_class(key in self.path, "selected")
            cell.set_class(key == check, "check")
            cell.set_class(key in self.played, "played")
            cell.set_class(key in self.better, "better")

    def cells_of(self, text: str) -> set[Any]:
        state = self.session.state
        try:
            wanted = state.move_to_text(state.parse_move(text))
        except ParlourError:
            return set()
        for path, move_text, _ in self.moves_of(self.data()):
            if move_text == wanted:
                return set(path)
        return set()

    def clear_selection(self) -> None:
        self.path = []
        if self.is_mounted:
            self.redraw()

    # -- clicks -------------------------------------------------------------------------

    def clicked(self, key: Any, button: int) -> None:
        if key is None:
            self.say("pieces stand on the dark squares only", error=True)
            return
        data = self.data()
        piece = data.get("pieces", {}).get(key)
        mine = piece is not None and self.side_of(piece) is self.session.state.turn
        if mine and key not in self.path[1:]:
            self.pick(key, data)
        elif not self.path:
            if piece is None:
                self.say(f"{self.where(key)} is empty: click one of your pieces first", error=True)
            else:
                self.say(f"the piece on {self.where(key)} is not yours", error=True)
        else:
            self.land(key, self.moves_of(data))

    def pick(self, key: str, data: BoardData) -> None:
        """Pick up the piece on ``key`` and show where it may go."""
        self.path = [key]
        if not self.candidates(self.moves_of(data)):
            self.path = []
            self.say(self.why_no_move(key, data), error=True)
        else:
            self.say(f"{self.where(key)} picked up: click where it goes")
        self.redraw()

    def land(self, key: str, moves: list[SquareMove]) -> None:
        """A click on ``key`` after a piece was picked up."""
        candidates = self.candidates(moves)
        longer = (*self.path, key)
        exact = [move for move in candidates if move[0] == longer]
        going_on = [move for move in candidates if len(move[0]) > len(longer)]
        going_on = [move for move in going_on if move[0][: len(longer)] == longer]
        ending = [move for move in candidates if move[0][-1] == key]
        if exact and not going_on:
            self.choose(exact)
        elif going_on:
            self.path.append(key)
            self.say(f"jump on: click the next landing square after {self.where(key)}")
            self.redraw()
        elif len({path for path, _, _ in ending}) == 1:
            self.choose(ending)
        elif ending:
            self.say(f"several moves end on {self.where(key)}: click their squares in turn")
        else:
            self.notify_move(self.attempt(list(longer)))

    def choose(self, moves: list[SquareMove]) -> None:
        """Play the one move of ``moves``, or ask which when they share a path."""
        if len(moves) == 1:
            self.notify_move(moves[0][1])
        else:
            self.ask(moves)
