"""The chessboard: how a position is held, and the moves on it.

The board is a 10x12 *mailbox*: a list of 120 cells in which the 64 squares sit inside
a border two cells deep. A piece stepping off the board lands on a border cell, so
move generation never checks coordinates, only what stands on the target cell. Pieces
are small integers (a colour bit or'ed with a kind), which keeps making and unmaking a
move down to a few list stores; that speed is what a search engine plays with.

Moves come in two forms:

* :class:`Move` -- the public value: from-square, to-square and the promotion piece,
  squares numbered 0 (a1) to 63 (h8) as in python-chess. ``Move.from_uci("e7e8q")``.
* an internal tuple ``(from_cell, to_cell, flag)`` on mailbox cells, used by the fast
  path (:meth:`ChessBoard.perft`, the engine) that makes and unmakes without checks.

This module knows the moves and why a move is not one; how a game of chess goes on and
ends (the protocol's State) is :mod:`parlour.chess.rules`, reading and writing
positions and moves :mod:`parlour.chess.notation`; both stand on this one.

>>> board = ChessBoard()
>>> board.put(square("e1"), WHITE | KING); board.put(square("e8"), BLACK | KING)
>>> board.put(square("a7"), WHITE | PAWN)
>>> sorted(public_move(m).uci() for m in board.legal() if m[0] == CELL[square("a7")])
['a7a8b', 'a7a8n', 'a7a8q', 'a7a8r']
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from parlour.core.errors import IllegalMoveError, NotationError
from parlour.core.protocol import Side

#: The position a game of chess starts from, in FEN.
STARTING_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

# -- pieces -------------------------------------------------------------------------

EMPTY = 0
PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING = 1, 2, 3, 4, 5, 6
WHITE, BLACK = 8, 16
#: The border around the board: neither empty nor anyone's piece.
OFF = 32

PIECE_LETTERS = " pnbrqk"
KIND_NAMES = ("", "pawn", "knight", "bishop", "rook", "queen", "king")
#: Promotion letter -> piece kind.
PROMOTION_KINDS = {"n": KNIGHT, "b": BISHOP, "r": ROOK, "q": QUEEN}

# -- squares ------------------------------------------------------------------------

FILES = "abcdefgh"
RANKS = "12345678"
SQUARE_NAMES = [f + r for r in RANKS for f in FILES]


def square(name: str) -> int:
    """The square number (a1 = 0, h8 = 63) of a name like ``"e4"``.

    >>> square("e4")
    28
    """
    if len(name) != 2 or name[0] not in FILES or name[1] not in RANKS:
        raise NotationError(f"{name!r} is not a square: use a file a-h and a rank 1-8")
    return FILES.index(name[0]) + 8 * RANKS.index(name[1])


def square_name(sq: int) -> str:
    """``square_name(28) == "e4"``."""
    return SQUARE_NAMES[sq]


#: Square number (0..63) -> mailbox cell, and back (-1 for border cells).
CELL = [21 + (sq & 7) + 10 * (sq >> 3) for sq in range(64)]
SQ64 = [-1] * 120
for _sq, _cell in enumerate(CELL):
    SQ64[_cell] = _sq
#: Rank (0..7) of each mailbox cell, -1 on the border.
RANK_OF = [(SQ64[c] >> 3) if SQ64[c] >= 0 else -1 for c in range(120)]
FILE_OF = [(SQ64[c] & 7) if SQ64[c] >= 0 else -1 for c in range(120)]

N, S, E, W = 10, -10, 1, -1
ROOK_DIRS = (N, S, E, W)
BISHOP_DIRS = (N + E, N + W, S + E, S + W)
QUEEN_DIRS = ROOK_DIRS + BISHOP_DIRS
KNIGHT_DIRS = (21, 19, 12, 8, -8, -12, -19, -21)
#: The lines a rook, a bishop and a queen slide along, by kind.
SLIDER_DIRS = {ROOK: ROOK_DIRS, BISHOP: BISHOP_DIRS, QUEEN: QUEEN_DIRS}
#: A pawn's step, starting rank and last rank, by the colour of its enemy.
PAWN_GEOMETRY = {BLACK: (10, 1, 7), WHITE: (-10, 6, 0)}
#: The pieces a pawn may promote to, in the order the moves are listed.
PROMOTION_ORDER = (QUEEN, ROOK, BISHOP, KNIGHT)

# Move flags of the internal tuple (from_cell, to_cell, flag).
NORMAL, DOUBLE_STEP, EN_PASSANT, CASTLE = 0, 1, 2, 3
#: A promotion's flag is PROMOTE + the new piece's kind.
PROMOTE = 10

# Castling rights, one bit each, and the cells involved.
WHITE_KINGSIDE, WHITE_QUEENSIDE, BLACK_KINGSIDE, BLACK_QUEENSIDE = 1, 2, 4, 8
E1, F1, G1, H1, D1, C1, B1, A1 = 25, 26, 27, 28, 24, 23, 22, 21
E8, F8, G8, H8, D8, C8, B8, A8 = 95, 96, 97, 98, 94, 93, 92, 91
#: King's destination cell -> (rook from, rook to) for the four castlings.
CASTLING_ROOK = {G1: (H1, F1), C1: (A1, D1), G8: (H8, F8), C8: (A8, D8)}
#: Rights kept after a move from or to each cell (a king or rook leaving, a rook taken).
CASTLING_KEPT = [15] * 120
CASTLING_KEPT[E1] = 15 & ~(WHITE_KINGSIDE | WHITE_QUEENSIDE)
CASTLING_KEPT[H1] = 15 & ~WHITE_KINGSIDE
CASTLING_KEPT[A1] = 15 & ~WHITE_QUEENSIDE
CASTLING_KEPT[E8] = 15 & ~(BLACK_KINGSIDE | BLACK_QUEENSIDE)
CASTLING_KEPT[H8] = 15 & ~BLACK_KINGSIDE
CASTLING_KEPT[A8] = 15 & ~BLACK_QUEENSIDE

BOARD_CELLS = tuple(CELL)
DARK_CELLS = frozenset(c for c in CELL if (FILE_OF[c] + RANK_OF[c]) % 2 == 0)

# -- Zobrist keys: one random number per (piece, cell), castling rights, en passant
# file and side; a position's hash is the XOR of its features, kept up to date in
# make/unmake. It identifies positions for repetition (and for an engine's table).
_rng = random.Random(0x5EED_C4E55)
ZOBRIST = [[_rng.getrandbits(64) for _ in range(120)] for _ in range(OFF)]
ZOBRIST_CASTLING = [_rng.getrandbits(64) for _ in range(16)]
ZOBRIST_EP = [_rng.getrandbits(64) if SQ64[c] >= 0 else 0 for c in range(120)]
ZOBRIST_BLACK = _rng.getrandbits(64)

# -- value types ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Piece:
    """A piece: its kind (``"pawn"`` .. ``"king"``) and its side.

    >>> Piece("knight", Side.SECOND).symbol()
    'n'
    """

    kind: str
    side: Side

    def symbol(self) -> str:
        """The FEN letter: upper case for White."""
        letter = PIECE_LETTERS[KIND_NAMES.index(self.kind)]
        return letter.upper() if self.side is Side.FIRST else letter


@dataclass(frozen=True, slots=True)
class Move:
    """A move: from-square, to-square (0 = a1 .. 63 = h8) and, for a pawn reaching
    the last rank, the piece it becomes (``"q"``, ``"r"``, ``"b"`` or ``"n"``).
    Castling is the king's two-square move (``e1g1``).

    >>> Move.from_uci("e7e8q")
    Move.from_uci('e7e8q')
    >>> Move(square("g1"), square("f3")).uci()
    'g1f3'
    """

    from_square: int
    to_square: int
    promotion: str | None = None

    def __post_init__(self) -> None:
        if not (
            isinstance(self.from_square, int)
            and isinstance(self.to_square, int)
            and 0 <= self.from_square < 64
            and 0 <= self.to_square < 64
        ):
            raise NotationError("a move's squares are numbers from 0 (a1) to 63 (h8)")
        if self.promotion is not None and self.promotion not in PROMOTION_KINDS:
            raise NotationError("a pawn promotes to q, r, b or n")

    def uci(self) -> str:
        """The move in UCI long algebraic notation."""
        return (
            SQUARE_NAMES[self.from_square] + SQUARE_NAMES[self.to_square] + (self.promotion or "")
        )

    @classmethod
    def from_uci(cls, text: str) -> Move:
        """Read a UCI move (``e2e4``, ``e7e8q``); NotationError if malformed."""
        if len(text) not in (4, 5):
            raise NotationError(f"{text!r} is not a UCI move: write it like e2e4 or e7e8q")
        promotion = text[4:].lower() or None
        if promotion is not None and promotion not in PROMOTION_KINDS:
            raise NotationError(f"{text!r}: a pawn promotes to q, r, b or n, not {text[4:]!r}")
        try:
            return cls(square(text[0:2]), square(text[2:4]), promotion)
        except NotationError:
            raise NotationError(
                f"{text!r} is not a UCI move: write it like e2e4 or e7e8q"
            ) from None

    def sort_key(self) -> tuple[int, int, str]:
        return (self.from_square, self.to_square, self.promotion or "")

    # Written out, not left to the dataclass: compiled by mypyc, a class that defines
    # an ordering of its own would otherwise compare and hash by identity.
    def __eq__(self, other: object) -> bool:
        return isinstance(other, Move) and self.sort_key() == other.sort_key()

    def __hash__(self) -> int:
        return hash(self.sort_key())

    def __lt__(self, other: Move) -> bool:
        return self.sort_key() < other.sort_key()

    def __repr__(self) -> str:
        return f"Move.from_uci({self.uci()!r})"

    def __str__(self) -> str:
        return self.uci()


InternalMove = tuple[int, int, int]
_PUBLIC: dict[InternalMove, Move] = {}


def public_move(m: InternalMove) -> Move:
    """The :class:`Move` of an internal move tuple (cached: there are few of them)."""
    move = _PUBLIC.get(m)
    if move is None:
        fr, to, flag = m
        promotion = PIECE_LETTERS[flag - PROMOTE] if flag >= PROMOTE else None
        move = Move(SQ64[fr], SQ64[to], promotion)
        _PUBLIC[m] = move
    return move


#: Each side's castlings: the right, the king's from and to cells, the cells that must
#: be empty, and those the king crosses and lands on (which no enemy may attack).
CASTLINGS = {
    WHITE: (
        (WHITE_KINGSIDE, E1, G1, (F1, G1), (F1, G1)),
        (WHITE_QUEENSIDE, E1, C1, (D1, C1, B1), (D1, C1)),
    ),
    BLACK: (
        (BLACK_KINGSIDE, E8, G8, (F8, G8), (F8, G8)),
        (BLACK_QUEENSIDE, E8, C8, (D8, C8, B8), (D8, C8)),
    ),
}

# -- the board ----------------------------------------------------------------------


class ChessBoard:
    """A chess position with the moves that made it: one mutable board, moves made
    and unmade.

    The fast path, for search: :meth:`generate` (legal moves as internal tuples),
    :meth:`make` and :meth:`unmake` (no checks), :attr:`hash` (Zobrist, kept up to
    date), :meth:`in_check` and :meth:`attacked`. :meth:`explain_illegal` says why a
    move is not among the legal ones.
    """

    def __init__(self) -> None:
        self.board = [OFF] * 120
        for c in BOARD_CELLS:
            self.board[c] = EMPTY
        #: WHITE or BLACK: the colour bit of the side to move.
        self.color = WHITE
        #: Cells of the white and the black king.
        self.kings = [0, 0]
        #: Castling rights still held, a set of bits.
        self.castling = 0
        #: The cell a pawn may be taken on en passant, only when such a capture is legal.
        self.ep = 0
        self.halfmove = 0
        self.start_fullmove = 1
        self.start_color = WHITE
        self.hash = 0
        #: One entry per move made: (move, captured piece, castling, ep, halfmove, hash).
        self.stack: list[tuple[InternalMove, int, int, int, int, int]] = []
        #: The legal moves of the last position asked about by the public methods.
        self._legal_key: tuple[int, int] = (-1, -1)
        self._legal: list[InternalMove] = []

    def put(self, sq: int, piece: int) -> None:
        """Set up: put ``piece`` (a colour bit or'ed with a kind) on square ``sq``,
        keeping the kings' cells and the hash up to date."""
        cell = CELL[sq]
        self.board[cell] = piece
        if piece & 7 == KING:
            self.kings[(piece & (WHITE | BLACK)) >> 4] = cell
        self.hash = self.compute_hash()

    # -- setting up ------------------------------------------------------------------

    def compute_hash(self) -> int:
        """The Zobrist hash computed from scratch (make/unmake keep it up to date)."""
        h = 0
        for c in BOARD_CELLS:
            if self.board[c]:
                h ^= ZOBRIST[self.board[c]][c]
        h ^= ZOBRIST_CASTLING[self.castling]
        if self.ep:
            h ^= ZOBRIST_EP[self.ep]
        if self.color == BLACK:
            h ^= ZOBRIST_BLACK
        return h

    # -- attacks ---------------------------------------------------------------------

    def attacked(self, cell: int, by: int) -> bool:
        """Whether the side with colour bit ``by`` attacks ``cell``."""
        b = self.board
        if by == WHITE:
            if b[cell - 9] == WHITE | PAWN or b[cell - 11] == WHITE | PAWN:
                return True
        elif b[cell + 9] == BLACK | PAWN or b[cell + 11] == BLACK | PAWN:
            return True
        knight = by | KNIGHT
        for d in KNIGHT_DIRS:
            if b[cell + d] == knight:
                return True
        king = by | KING
        for d in QUEEN_DIRS:
            if b[cell + d] == king:
                return True
        rook, queen, bishop = by | ROOK, by | QUEEN, by | BISHOP
        for d in ROOK_DIRS:
            t = cell + d
            p = b[t]
            while p == EMPTY:
                t += d
                p = b[t]
            if p == rook or p == queen:  # noqa: SIM109 (faster than building a tuple)
                return True
        for d in BISHOP_DIRS:
            t = cell + d
            p = b[t]
            while p == EMPTY:
                t += d
                p = b[t]
            if p == bishop or p == queen:  # noqa: SIM109
                return True
        return False

    def checkers(self) -> list[int]:
        """The squares (0 = a1) of the pieces giving check to the side to move."""
        b = self.board
        color = self.color
        enemy = color ^ 24
        king = self.kings[color >> 4]
        found = []
        for d in (9, 11) if color == WHITE else (-9, -11):
            if b[king + d] == enemy | PAWN:
                found.append(king + d)
        for d in KNIGHT_DIRS:
            if b[king + d] == enemy | KNIGHT:
                found.append(king + d)
        for dirs, slider in ((ROOK_DIRS, enemy | ROOK), (BISHOP_DIRS, enemy | BISHOP)):
            for d in dirs:
                t = king + d
                while b[t] == EMPTY:
                    t += d
                if b[t] == slider or b[t] == enemy | QUEEN:
                    found.append(t)
        return sorted(SQ64[c] for c in found)

    def in_check(self) -> bool:
        """Whether the side to move is in check."""
        color = self.color
        return self.attacked(self.kings[color >> 4], color ^ 24)

    def _ep_is_legal(self, fr: int, to: int) -> bool:
        """Whether the en passant capture fr -> to leaves the capturer's king safe
        (the two pawns leave one rank at once, which can open a line to the king)."""
        b = self.board
        pawn = b[fr]
        color = pawn & 24
        victim_cell = to - 10 if color == WHITE else to + 10
        victim = b[victim_cell]
        b[fr] = EMPTY
        b[victim_cell] = EMPTY
        b[to] = pawn
        safe = not self.attacked(self.kings[color >> 4], color ^ 24)
        b[fr] = pawn
        b[victim_cell] = victim
        b[to] = EMPTY
        return safe

    def legal_ep_cell(self, passed: int, pawn_cell: int) -> int:
        """After a double step to ``pawn_cell`` over ``passed``, the cell to record for
        en passant: ``passed`` if the other side has a legal capture there, else 0
        (FEN and repetition then ignore it)."""
        b = self.board
        mover = b[pawn_cell] & (WHITE | BLACK)
        enemy_pawn = (mover ^ (WHITE | BLACK)) | PAWN
        for fr in (pawn_cell - 1, pawn_cell + 1):
            if b[fr] == enemy_pawn and self._ep_is_legal(fr, passed):
                return passed
        return 0

    # -- move generation -------------------------------------------------------------

    def generate(self) -> list[InternalMove]:
        """Every legal move of the side to move, as internal tuples.

        Pins and checks are found first by looking out from the king along the eight
        lines, so most moves need no trial make: a pinned piece keeps to its line, in
        check a move must take the checker or block, and the king asks whether its
        target is attacked. Only en passant, rare and subtle, is tried on the board."""
        b = self.board
        color = self.color
        enemy = color ^ 24
        king_cell = self.kings[color >> 4]
        checks, block, pins = self._checks_and_pins(king_cell, enemy)
        moves = self._king_steps(king_cell, enemy)
        if checks > 1:
            return moves
        if checks == 0 and self.castling:
            self._castlings(moves)
        append = moves.append
        pawn_moves = self._pawn_moves
        for fr in BOARD_CELLS:
            p = b[fr]
            if not p & color:
                continue
            kind = p & 7
            pin = pins.get(fr, 0) if pins else 0
            if kind == PAWN:
                pawn_moves(fr, pin, enemy, append)
            elif kind == KNIGHT:
                if pin:
                    continue  # a pinned knight can never keep to its line
                for d in KNIGHT_DIRS:
                    t = fr + d
                    q = b[t]
                    if q == EMPTY or q & enemy:
                        append((fr, t, NORMAL))
            elif kind != KING:
                dirs = SLIDER_DIRS[kind]
                if pin:
                    dirs = tuple(d for d in dirs if d == pin or d == -pin)
                for d in dirs:
                    t = fr + d
                    q = b[t]
                    while q == EMPTY:
                        append((fr, t, NORMAL))
                        t += d
                        q = b[t]
                    if q & enemy:
                        append((fr, t, NORMAL))
        if block is not None:
            # In check: besides the king, only moves that take the checker or block
            # the line (en passant was tried on the board already).
            return [m for m in moves if m[0] == king_cell or m[1] in block or m[2] == EN_PASSANT]
        return moves

    def _checks_and_pins(
        self, king_cell: int, enemy: int
    ) -> tuple[int, set[int] | None, dict[int, int]]:
        """How many pieces give check; the cells a move must reach to answer a single
        check (the checker's, or between it and the king); and each pinned piece's
        cell with the direction of its pin."""
        b = self.board
        checks = 0
        block: set[int] | None = None
        pins: dict[int, int] = {}
        e_rook, e_bishop, e_queen = enemy | ROOK, enemy | BISHOP, enemy | QUEEN
        for d in QUEEN_DIRS:
            t = king_cell + d
            p = b[t]
            while p == EMPTY:
                t += d
                p = b[t]
            if p == OFF:
                continue
            line_piece = e_bishop if d in BISHOP_DIRS else e_rook
            if p & enemy:
                if p in (e_queen, line_piece):
                    checks += 1
                    block = set(range(king_cell + d, t + d, d))
            else:
                t2 = t + d
                p2 = b[t2]
                while p2 == EMPTY:
                    t2 += d
                    p2 = b[t2]
                if p2 in (e_queen, line_piece):
                    pins[t] = d
        e_knight = enemy | KNIGHT
        for d in KNIGHT_DIRS:
            if b[king_cell + d] == e_knight:
                checks += 1
                block = {king_cell + d}
        e_pawn = enemy | PAWN
        for d in (9, 11) if enemy == BLACK else (-9, -11):
            if b[king_cell + d] == e_pawn:
                checks += 1
                block = {king_cell + d}
        return checks, block, pins

    def _king_steps(self, king_cell: int, enemy: int) -> list[InternalMove]:
        """The king's steps to squares not attacked once it has left its own."""
        b = self.board
        moves = []
        king = b[king_cell]
        b[king_cell] = EMPTY  # so that a slider's line through the king is seen
        for d in QUEEN_DIRS:
            t = king_cell + d
            p = b[t]
            if (p == EMPTY or p & enemy) and not self.attacked(t, enemy):
                moves.append((king_cell, t, NORMAL))
        b[king_cell] = king
        return moves

    def _pawn_moves(
        self, fr: int, pin: int, enemy: int, append: Callable[[InternalMove], None]
    ) -> None:
        """The moves of the pawn on ``fr`` (pinned along direction ``pin``, or 0)."""
        b = self.board
        forward, start_rank, last_rank = PAWN_GEOMETRY[enemy]
        t = fr + forward
        if (not pin or pin == forward or pin == -forward) and b[t] == EMPTY:
            if RANK_OF[t] == last_rank:
                for kind in PROMOTION_ORDER:
                    append((fr, t, PROMOTE + kind))
            else:
                append((fr, t, NORMAL))
                if RANK_OF[fr] == start_rank and b[t + forward] == EMPTY:
                    append((fr, t + forward, DOUBLE_STEP))
        for d in (forward - 1, forward + 1):
            if pin and pin != d and pin != -d:
                continue
            t = fr + d
            if b[t] & enemy:
                if RANK_OF[t] == last_rank:
                    for kind in PROMOTION_ORDER:
                        append((fr, t, PROMOTE + kind))
                else:
                    append((fr, t, NORMAL))
            elif t == self.ep and self._ep_is_legal(fr, t):
                append((fr, t, EN_PASSANT))

    def legal(self) -> list[InternalMove]:
        """:meth:`generate`, remembered for the position (the public methods ask for
        the same moves several times per position: outcome, SAN, parsing)."""
        key = (self.hash, len(self.stack))
        if key != self._legal_key:
            self._legal = self.generate()
            self._legal_key = key
        return self._legal

    def _castlings(self, moves: list[InternalMove]) -> None:
        """Add the castlings of the side to move (not in check, which the caller
        knows): the right still held, the squares between king and rook empty, and no
        square the king crosses or lands on attacked."""
        b = self.board
        enemy = self.color ^ 24
        for right, king_from, king_to, empty, crossed in CASTLINGS[self.color]:
            if (
                self.castling & right
                and all(b[cell] == EMPTY for cell in empty)
                and not any(self.attacked(cell, enemy) for cell in crossed)
            ):
                moves.append((king_from, king_to, CASTLE))

    # -- make and unmake -------------------------------------------------------------

    def make(self, m: InternalMove) -> None:
        """Play an internal move known to be legal (no checks: the fast path)."""
        fr, to, flag = m
        b = self.board
        piece = b[fr]
        captured = b[to]
        color = self.color
        castling = self.castling
        ep = self.ep
        h = self.hash
        self.stack.append((m, captured, castling, ep, self.halfmove, h))
        zp = ZOBRIST[piece]
        h ^= zp[fr] ^ zp[to] ^ ZOBRIST_BLACK
        if captured:
            h ^= ZOBRIST[captured][to]
            self.halfmove = 0
        elif piece & 7 == PAWN:
            self.halfmove = 0
        else:
            self.halfmove += 1
        b[to] = piece
        b[fr] = EMPTY
        if ep:
            h ^= ZOBRIST_EP[ep]
            ep = 0
        if flag:
            if flag == DOUBLE_STEP:
                ep = self.legal_ep_cell((fr + to) >> 1, to)
                if ep:
                    h ^= ZOBRIST_EP[ep]
            elif flag == EN_PASSANT:
                victim_cell = to - 10 if color == WHITE else to + 10
                h ^= ZOBRIST[b[victim_cell]][victim_cell]
                b[victim_cell] = EMPTY
            elif flag == CASTLE:
                rook_from, rook_to = CASTLING_ROOK[to]
                rook = b[rook_from]
                b[rook_to] = rook
                b[rook_from] = EMPTY
                zr = ZOBRIST[rook]
                h ^= zr[rook_from] ^ zr[rook_to]
            else:
                promoted = (flag - PROMOTE) | color
                b[to] = promoted
                h ^= zp[to] ^ ZOBRIST[promoted][to]
        if piece & 7 == KING:
            self.kings[color >> 4] = to
        if castling:
            kept = castling & CASTLING_KEPT[fr] & CASTLING_KEPT[to]
            if kept != castling:
                h ^= ZOBRIST_CASTLING[castling] ^ ZOBRIST_CASTLING[kept]
                self.castling = kept
        self.ep = ep
        self.color = color ^ 24
        self.hash = h

    def unmake(self) -> InternalMove:
        """Take back the last move made; return it."""
        m, captured, self.castling, self.ep, self.halfmove, self.hash = self.stack.pop()
        fr, to, flag = m
        b = self.board
        color = self.color ^ 24
        self.color = color
        piece = b[to]
        if flag:
            if flag >= PROMOTE:
                piece = PAWN | color
            elif flag == EN_PASSANT:
                b[to - 10 if color == WHITE else to + 10] = PAWN | (color ^ 24)
            elif flag == CASTLE:
                rook_from, rook_to = CASTLING_ROOK[to]
                b[rook_from] = b[rook_to]
                b[rook_to] = EMPTY
        b[fr] = piece
        b[to] = captured
        if piece & 7 == KING:
            self.kings[color >> 4] = fr
        return m

    def perft(self, depth: int, *, bulk: bool = False) -> int:
        """Leaf nodes of the legal-move tree ``depth`` plies deep.

        By default every move is made and unmade down to the leaves (the fair speed
        comparison); ``bulk=True`` counts the last ply's moves without making them."""
        if depth == 0:
            return 1
        moves = self.generate()
        if depth == 1 and bulk:
            return len(moves)
        total = 0
        make, unmake = self.make, self.unmake
        if depth == 1:
            for m in moves:
                make(m)
                unmake()
                total += 1
            return total
        for m in moves:
            make(m)
            total += self.perft(depth - 1, bulk=bulk)
            unmake()
        return total

    # -- the side to move and public moves ------------------------------------------

    @property
    def turn(self) -> Side:
        return Side.FIRST if self.color == WHITE else Side.SECOND

    def internal(self, move: Move) -> InternalMove:
        """The internal tuple of a public move in this position (no legality check)."""
        fr, to = CELL[move.from_square], CELL[move.to_square]
        piece = self.board[fr]
        kind = piece & 7
        flag = NORMAL
        if move.promotion is not None:
            flag = PROMOTE + PROMOTION_KINDS.get(move.promotion, 0)
        elif kind == PAWN:
            if to - fr in (20, -20):
                flag = DOUBLE_STEP
            elif (to - fr) % 10 != 0 and self.board[to] == EMPTY:
                flag = EN_PASSANT
        elif kind == KING and to - fr in (2, -2):
            flag = CASTLE
        return (fr, to, flag)

    def explain_illegal(self, move: Move) -> IllegalMoveError:
        """Why ``move`` is illegal here, in a player's words, with a stable rule key."""
        b = self.board
        fr, to = CELL[move.from_square], CELL[move.to_square]
        piece, target = b[fr], b[to]
        color = self.color
        side_name = "White" if color == WHITE else "Black"
        if not piece:
            return IllegalMoveError(
                f"there is no piece on {SQUARE_NAMES[move.from_square]}", rule="no-piece"
            )
        if not piece & color:
            return IllegalMoveError(
                f"the piece on {SQUARE_NAMES[move.from_square]} is not yours: "
                f"it is {side_name}'s move",
                rule="not-your-piece",
            )
        kind = piece & 7
        name = KIND_NAMES[kind]
        if fr == to:
            return IllegalMoveError("a move must leave its square", rule="piece-movement")
        # Castling first: O-O with the knight still home is blocked castling, not a
        # capture of one's own knight.
        if kind == KING and to - fr in (2, -2) and fr == (E1 if color == WHITE else E8):
            return self._explain_castling(fr, to)
        if target & color:
            return IllegalMoveError("you cannot capture your own piece", rule="own-piece")
        problem = self._geometry_problem(fr, to, kind)
        if problem is not None:
            return problem
        last_rank = 7 if color == WHITE else 0
        if kind == PAWN and RANK_OF[to] == last_rank:
            if move.promotion is None:
                return IllegalMoveError(
                    "choose a piece to promote to: queen, rook, bishop or knight",
                    rule="promotion-choice",
                )
        elif move.promotion is not None:
            return IllegalMoveError(
                f"only a pawn reaching the last rank is promoted, not this {name}",
                rule="no-promotion",
            )
        if self.in_check():
            return IllegalMoveError(
                "your king is in check and would still be in check", rule="king-in-check"
            )
        return IllegalMoveError("your king would be in check", rule="king-in-check")

    def _geometry_problem(self, fr: int, to: int, kind: int) -> IllegalMoveError | None:
        """Whether the piece can make this journey at all, ignoring its king."""
        b = self.board
        delta = to - fr
        name = KIND_NAMES[kind]
        cannot = IllegalMoveError(f"a {name} cannot move like that", rule="piece-movement")
        if kind == PAWN:
            forward = 10 if self.color == WHITE else -10
            start_rank = 1 if self.color == WHITE else 6
            if delta == forward:
                if b[to]:
                    return IllegalMoveError(
                        "a pawn cannot capture straight ahead", rule="pawn-blocked"
                    )
                return None
            if delta == 2 * forward:
                if RANK_OF[fr] != start_rank:
                    return IllegalMoveError(
                        "a pawn steps two squares only from its starting square",
                        rule="pawn-double-step",
                    )
                if b[fr + forward] or b[to]:
                    return IllegalMoveError(
                        "a pawn cannot step over or onto a piece", rule="pawn-blocked"
                    )
                return None
            if delta in (forward - 1, forward + 1):
                if b[to]:
                    return None
                if self.ep == to:
                    return None
                victim = to - forward
                just_stepped = bool(self.stack) and self.stack[-1][0] == (
                    victim + 2 * forward,
                    victim,
                    DOUBLE_STEP,
                )
                if b[victim] == (self.color ^ 24) | PAWN and RANK_OF[fr] == (
                    4 if self.color == WHITE else 3
                ):
                    if just_stepped:
                        return None  # en passant, but the king would be exposed
                    return IllegalMoveError(
                        "en passant is only possible right after the double step",
                        rule="en-passant-timing",
                    )
                return IllegalMoveError(
                    "a pawn moves diagonally only to capture", rule="pawn-capture"
                )
            return cannot
        if kind == KNIGHT:
            return None if delta in KNIGHT_DIRS else cannot
        if kind == KING:
            return None if delta in QUEEN_DIRS else cannot
        dirs = {ROOK: ROOK_DIRS, BISHOP: BISHOP_DIRS, QUEEN: QUEEN_DIRS}[kind]
        for d in dirs:
            t = fr + d
            while b[t] == EMPTY and t != to:
                t += d
            if t == to:
                return None
            if b[t] != OFF:
                # Is the target further along this line, behind the piece on t?
                u = t + d
                while b[u] != OFF and u != to:
                    u += d
                if u == to:
                    return IllegalMoveError(
                        f"a {name} cannot jump over pieces", rule="path-blocked"
                    )
        return cannot

    def _explain_castling(self, fr: int, to: int) -> IllegalMoveError:
        b = self.board
        kingside = to > fr
        color = self.color
        enemy = color ^ 24
        right = {
            (WHITE, True): WHITE_KINGSIDE,
            (WHITE, False): WHITE_QUEENSIDE,
            (BLACK, True): BLACK_KINGSIDE,
            (BLACK, False): BLACK_QUEENSIDE,
        }[color, kingside]
        wing = "kingside" if kingside else "queenside"
        rook_from = CASTLING_ROOK[to][0]
        if not self.castling & right:
            if any(entry[0][0] == fr for entry in self.stack):
                return IllegalMoveError("the king has moved: no castling", rule="castling-rights")
            if any(rook_from in entry[0][:2] for entry in self.stack):
                return IllegalMoveError(
                    f"the {wing} rook has moved or been taken: no castling on that side",
                    rule="castling-rights",
                )
            return IllegalMoveError(
                f"no castling {wing}: the king or that rook has moved", rule="castling-rights"
            )
        step = 1 if kingside else -1
        t = fr + step
        while t != rook_from:
            if b[t]:
                return IllegalMoveError(
                    "castling needs every square between king and rook empty",
                    rule="castling-blocked",
                )
            t += step
        if self.attacked(fr, enemy):
            return IllegalMoveError("castling out of check is not allowed", rule="castling-check")
        if self.attacked(fr + step, enemy):
            return IllegalMoveError(
                "castling through an attacked square is not allowed", rule="castling-through"
            )
        if self.attacked(to, enemy):
            return IllegalMoveError("your king would be in check", rule="king-in-check")
        return IllegalMoveError("castling is not possible now", rule="castling")

    # -- the position --------------------------------------------------------------

    def piece_at(self, sq: int) -> Piece | None:
        """The piece on square ``sq`` (0 = a1), or None."""
        p = self.board[CELL[sq]]
        if not p:
            return None
        return Piece(KIND_NAMES[p & 7], Side.FIRST if p & WHITE else Side.SECOND)

    @property
    def halfmove_clock(self) -> int:
        """Plies since the last capture or pawn move (the fifty-move rule's count)."""
        return self.halfmove

    @property
    def fullmove_number(self) -> int:
        plies = len(self.stack) + (1 if self.start_color == BLACK else 0)
        return self.start_fullmove + plies // 2

    @property
    def ep_square(self) -> int | None:
        """The square a pawn may be taken on en passant now (only if legally), or None."""
        return SQ64[self.ep] if self.ep else None
