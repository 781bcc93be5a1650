"""The laws of chess (FIDE): a game in progress, and how it ends.

:class:`ChessState` is the protocol's State on the board of :mod:`parlour.chess.board`
(which holds the position and generates the moves): moves pushed and popped with
their checks, checkmate, stalemate and the draws, and the position and moves as text
through :mod:`parlour.chess.notation` (FEN and SAN).

>>> state = CHESS.new_state()
>>> for text in ["e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6"]:
...     _ = state.play(text)
>>> state.move_to_text(state.parse_move("h5f7"))
'Qxf7#'
>>> state.play("Qxf7")
Move.from_uci('h5f7')
>>> state.outcome()
Outcome(winner=<Side.FIRST: 0>, reason='checkmate', points=1)
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Protocol, Self

from parlour.chess.board import (
    BISHOP,
    BLACK,
    BOARD_CELLS,
    CELL,
    DARK_CELLS,
    KING,
    KNIGHT,
    PAWN,
    PIECE_LETTERS,
    QUEEN,
    ROOK,
    STARTING_FEN,
    WHITE,
    ChessBoard,
    Move,
    public_move,
)
from parlour.chess.notation import board_fen, parse_san, read_fen, san
from parlour.core.errors import GameOverError, IllegalMoveError
from parlour.core.protocol import Game, Outcome, Side, State

#: The results a line of moves may end with, as a score sheet writes them.
_RESULTS = frozenset({"1-0", "0-1", "1/2-1/2", "½-½", "*"})


class MoveLike(Protocol):
    """What :meth:`ChessState.push` takes, as the type checker sees it: a
    :class:`Move`. Not ``Move`` itself because the compiled build checks a ``Move``
    argument on entry with a bare TypeError; a protocol is left to :meth:`push`'s own
    check, which names what is wrong, as in the other games."""

    @property
    def from_square(self) -> int: ...

    @property
    def to_square(self) -> int: ...

    @property
    def promotion(self) -> str | None: ...


class ChessState(ChessBoard, State[Move]):
    """A game of chess in progress: the board (:class:`~parlour.chess.board.ChessBoard`)
    with the protocol's moves pushed and popped, each checked, and how the game ends.

    The side to move is ``turn`` (Side.FIRST is White). Read positions with
    ``CHESS.state_from_text(fen)``; ``to_text()`` writes FEN, ``move_to_text`` SAN.
    Moves made through the board's fast path (:meth:`make`) are ordinary history:
    :meth:`pop` takes them back too.
    """

    def __init__(self) -> None:
        super().__init__()
        self.game = CHESS

    # The protocol's, named here: compiled, the board's identity would come first.
    # Equality is the protocol's test written out, as False where it says
    # NotImplemented: a compiled ``-> bool`` method may return nothing else.
    def __eq__(self, other: object) -> bool:
        return isinstance(other, State) and (self is other or self.key() == other.key())

    def __hash__(self) -> int:
        return State.__hash__(self)

    def legal_moves(self) -> list[Move]:
        if self.is_over():
            return []
        return [public_move(m) for m in self.legal()]

    def push(self, move: MoveLike) -> None:
        """Play ``move`` after checking it; IllegalMoveError names the rule broken."""
        if self.is_over():
            raise GameOverError()
        if not isinstance(move, Move):
            raise IllegalMoveError(f"{move!r} is not a chess move", rule="not-a-move")
        m = self.internal(move)
        if m not in self.legal():
            raise self.explain_illegal(move)
        self.make(m)

    def push_unchecked(self, move: Move) -> None:
        self.make(self.internal(move))

    def pop(self) -> Move:
        if not self.stack:
            raise IndexError("pop from a game with no moves played")
        return public_move(self.unmake())

    @property
    def move_stack(self) -> list[Move]:
        """The moves played since the starting position, oldest first."""
        return [public_move(entry[0]) for entry in self.stack]

    def peek(self) -> Move:
        """The last move played (IndexError if none)."""
        return public_move(self.stack[-1][0])

    def is_check(self) -> bool:
        return self.in_check()

    def is_checkmate(self) -> bool:
        return self.in_check() and not self.legal()

    def is_stalemate(self) -> bool:
        return not self.in_check() and not self.legal()

    def has_insufficient_material(self, side: Side) -> bool:
        """Whether ``side`` lacks the material to checkmate, whatever the other side
        does. The cases recognised:

        * a lone king;
        * king and one knight, when the other side has nothing but its king and
          queens (no piece of the other side can wall its own king in for the knight);
        * king and bishops, when every bishop on the board stands on squares of one
          colour and there are no knights or pawns anywhere: such bishops never attack
          the other colour, on which a mated king could stand.

        These are python-chess's cases, so the automatic draw agrees with it position
        by position.
        """
        b = self.board
        color = WHITE if side is Side.FIRST else BLACK
        own = [(b[c] & 7, c) for c in BOARD_CELLS if b[c] & color and b[c] & 7 != KING]
        if not own:
            return True
        if any(kind in (PAWN, ROOK, QUEEN) for kind, _ in own):
            return False
        other = [b[c] & 7 for c in BOARD_CELLS if b[c] & (color ^ 24)]
        if any(kind == KNIGHT for kind, _ in own):
            return len(own) == 1 and all(kind in (KING, QUEEN) for kind in other)
        bishops = [c for c in BOARD_CELLS if b[c] & 7 == BISHOP]
        on_dark = {c in DARK_CELLS for c in bishops}
        no_pawns_or_knights = all(b[c] & 7 not in (PAWN, KNIGHT) for c in BOARD_CELLS)
        return len(on_dark) == 1 and no_pawns_or_knights

    def is_insufficient_material(self) -> bool:
        """Neither side can checkmate by any legal sequence, so the game is drawn at
        once (FIDE 5.2.2). With both sides short of material this leaves exactly: two
        lone kings, king and knight against king, and kings with any bishops that all
        stand on squares of one colour."""
        return self.has_insufficient_material(Side.FIRST) and self.has_insufficient_material(
            Side.SECOND
        )

    def cannot_possibly_mate(self, side: Side) -> bool:
        """The conservative test behind FIDE 6.9 (a flag fall is a draw when the
        opponent "cannot checkmate by any possible series of legal moves"). True only
        for: a lone king; king and one knight or one bishop against a lone king; or
        no pieces but kings and bishops on the board with every bishop on squares of
        one colour. Anything else counts as able to mate, so a flag fall loses."""
        b = self.board
        color = WHITE if side is Side.FIRST else BLACK
        own = [b[c] & 7 for c in BOARD_CELLS if b[c] & color and b[c] & 7 != KING]
        other = [b[c] & 7 for c in BOARD_CELLS if b[c] & (color ^ 24) and b[c] & 7 != KING]
        if not own:
            return True
        if len(own) == 1 and own[0] in (KNIGHT, BISHOP) and not other:
            return True
        bishops = [c for c in BOARD_CELLS if b[c] & 7 == BISHOP]
        only_bishops = all(kind == BISHOP for kind in own + other)
        return only_bishops and len({c in DARK_CELLS for c in bishops}) == 1

    def repetitions(self) -> int:
        """How many times the current position has stood on the board (this time
        included) since the game began. Positions are the same when the same side is
        to move with the same pieces on the same squares and the same castling and en
        passant possibilities (the hash covers all of these)."""
        h = self.hash
        count = 1
        stack = self.stack
        # Only positions since the last capture or pawn move can be the same.
        first = max(0, len(stack) - self.halfmove)
        for i in range(len(stack) - 2, first - 1, -2):
            if stack[i][5] == h:
                count += 1
        return count

    def is_repetition(self, count: int = 3) -> bool:
        return self.repetitions() >= count

    def to_svg(self, *, flipped: bool = False) -> str:
        """The position as an SVG diagram, White at the bottom unless ``flipped``."""
        from parlour.chess.svg import draw  # drawing is rarely needed: load it then

        return draw(self, flipped=flipped)

    def key(self) -> Hashable:
        """The position (FEN), any declared ending, and the positions since the
        last capture or pawn move as a multiset: what repetition counts."""
        since = self.stack[max(0, len(self.stack) - self.halfmove) :]
        return (self.game.name, self.to_text(), self._declared, tuple(sorted(e[5] for e in since)))

    def rules_outcome(self) -> Outcome | None:
        if not self.legal():
            if self.in_check():
                return Outcome(self.turn.other, "checkmate")
            if self.is_insufficient_material():
                return Outcome(None, "insufficient material", 0)
            return Outcome(None, "stalemate", 0)
        if self.is_insufficient_material():
            return Outcome(None, "insufficient material", 0)
        if self.halfmove >= 150:
            return Outcome(None, "seventy-five-move rule", 0)
        if self.repetitions() >= 5:
            return Outcome(None, "fivefold repetition", 0)
        return None

    def claimable_draw(self) -> str | None:
        """A draw the player to move may claim now: threefold repetition (the position
        has stood three times) or the fifty-move rule (fifty moves by each side with no
        capture or pawn move). Only draws that have happened count; a claim on a move
        still to be played is made by playing it first."""
        if self.is_over():
            return None
        if self.repetitions() >= 3:
            return "threefold repetition"
        if self.halfmove >= 100:
            return "fifty-move rule"
        return None

    def flag(self, side: Side) -> Outcome:
        """``side``'s clock has run out. It loses on time, unless the opponent cannot
        checkmate by any legal sequence (:meth:`cannot_possibly_mate`): then a draw."""
        if self.is_over():
            raise GameOverError()
        if self.cannot_possibly_mate(side.other):
            self._declared = Outcome(None, "time out against a side that cannot mate", 0)
        else:
            self._declared = Outcome(side.other, "loss on time")
        return self._declared

    # -- text ------------------------------------------------------------------------

    def to_text(self) -> str:
        return board_fen(self)

    def move_to_text(self, move: Move) -> str:
        return san(self, move)

    def split_line(self, text: str) -> list[str]:
        """As every game's, leaving out a result at the end (``1-0``), as a line
        copied from a score sheet may carry."""
        words = super().split_line(text)
        if words and words[-1] in _RESULTS:
            words.pop()
        return words

    def first_move_number(self) -> int:
        return self.fullmove_number

    def parse_move(self, text: str) -> Move:
        return parse_san(self, text)

    def board_text(self) -> str:
        """The board as a picture: White at the bottom, files and ranks labelled,
        upper case for White's pieces, ``.`` for an empty square."""
        lines = []
        for rank in range(7, -1, -1):
            row = []
            for file in range(8):
                p = self.board[CELL[8 * rank + file]]
                letter = PIECE_LETTERS[p & 7] if p else "."
                row.append(letter.upper() if p & WHITE else letter)
            lines.append(f"{rank + 1} | {' '.join(row)}")
        lines.append("  +----------------")
        lines.append("    a b c d e f g h")
        if not self.is_over():
            side = "White" if self.color == WHITE else "Black"
            lines.append(f"{side} to move" + (" (check)" if self.in_check() else ""))
        return "\n".join(lines)

    def copy(self) -> Self:
        twin = type(self).__new__(type(self))
        twin.game = self.game
        twin.board = list(self.board)
        twin.color = self.color
        twin.kings = list(self.kings)
        twin.castling = self.castling
        twin.ep = self.ep
        twin.halfmove = self.halfmove
        twin.start_fullmove = self.start_fullmove
        twin.start_color = self.start_color
        twin.hash = self.hash
        twin.stack = list(self.stack)
        twin._declared = self._declared
        twin._legal_key = (-1, -1)
        twin._legal = []
        return twin

    def __repr__(self) -> str:
        return f"<ChessState {self.to_text()!r}>"


class ChessGame(Game[Move]):
    """Chess by the FIDE Laws."""

    name = "chess"
    title = "Chess"
    side_names = ("White", "Black")

    def new_state(self) -> ChessState:
        return self.state_from_text(STARTING_FEN)

    def state_from_text(self, text: str) -> ChessState:
        return parse_fen(text)

    def perft(self, state: State[Move], depth: int) -> int:
        """The leaf count through the fast path (the last ply counted, not made)."""
        if depth < 0:
            raise ValueError("perft depth must be 0 or more")
        if not isinstance(state, ChessState):
            return super().perft(state, depth)
        return state.perft(depth, bulk=True)


CHESS = ChessGame()


def parse_fen(text: str) -> ChessState:
    """Read a position in Forsyth-Edwards Notation, checking that it can occur (see
    :func:`parlour.chess.notation.read_fen`).

    >>> parse_fen("8/8/8/8/8/8/8/8 w - - 0 1")
    Traceback (most recent call last):
    ...
    parlour.core.errors.NotationError: FEN: White has no king
    """
    return read_fen(text, ChessState())
