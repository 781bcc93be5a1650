"""The chess engine: alpha-beta search over the rules' fast mailbox board.

Why not :mod:`parlour.ai.search`: in Python every call per node costs strength, and
the shared search reaches the position only through a small interface (moves,
make, unmake, evaluate), each one a method call, with the evaluation computed from
scratch. Here the search is written against :class:`ChessState`'s fast path
directly, and the evaluation is *incremental*: the middlegame and endgame
piece-square sums and the game phase travel down the tree as arguments, each move
changing them by a few table look-ups. That roughly doubles the nodes per second.

The search:

* iterative deepening with principal variation search (null windows after the first
  move), check extensions, null-move pruning, late-move reductions, and near the
  leaves reverse futility, futility and late-move pruning;
* a transposition table on the Zobrist hash (depth, score, bound, best move), mate
  scores stored relative to the node;
* move ordering: the table's move, captures by most valuable victim / least
  valuable attacker, queen promotions, two killer moves per ply, the counter-move
  (the quiet move that last refuted the move just played), then the history table
  (credit for a quiet refutation, as much taken from the quiet moves tried before it);
* quiescence search over captures and queen promotions, with delta pruning, and
  over every evasion when a capture gives check (so mates there are seen);
* a repetition on the path, or the fifty-move count, scores as a draw;
* a time limit checked every few thousand nodes, a node limit, and a stop flag
  (the UCI front end sets it from another thread).

The evaluation: material and tapered piece-square tables (middlegame and endgame
values blended by how much material is left), written for this engine from
ordinary chess knowledge: knights and bishops toward the centre, rooks on the
seventh, pawns worth more as they advance (much more in the endgame), the king
tucked away behind its pawns while queens are on and marching to the centre in the
endgame; the pawn structure (passed pawns by rank, doubled and isolated pawns),
scored once per arrangement of pawns and looked up by a pawn key carried through
the search; plus the bishop pair and a small bonus for the side to move. With
little material left, :func:`ending` scales the score towards a draw in the endings
that are drawn though one side is ahead (a lone minor piece, a rook against a minor
piece, the wrong bishop, bishops of opposite colours), shows the search how to
drive a bare king to the edge, so that bishop and knight mate too, and reads king
and pawn against king from its database (:mod:`parlour.chess.endgame`).

Where ``parlour compile`` has built it, the same search runs in C
(:mod:`parlour.chess.native`, through :class:`NativeSearcher`, which
:func:`new_searcher` and so :class:`ChessEngine` and the UCI front end choose):
node for node the search below, with the same moves, scores and lines, many times
as many nodes a second. :class:`Searcher` is the Python one everywhere.

>>> from parlour.chess.rules import CHESS
>>> state = CHESS.state_from_text("6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1")
>>> engine = ChessEngine()
>>> state.move_to_text(engine.choose_move(state, level=3))
'Ra8#'
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import ClassVar

from parlour.chess.board import (
    BISHOP,
    BLACK,
    BOARD_CELLS,
    CASTLE,
    CASTLING_KEPT,
    CASTLING_ROOK,
    CELL,
    EN_PASSANT,
    FILE_OF,
    KING,
    KNIGHT,
    PAWN,
    PROMOTE,
    QUEEN,
    RANK_OF,
    ROOK,
    WHITE,
    ZOBRIST,
    ZOBRIST_BLACK,
    ZOBRIST_CASTLING,
    ZOBRIST_EP,
    InternalMove,
    Move,
    public_move,
)
from parlour.chess.endgame import lone_pawn_wins, shipped_database
from parlour.chess.openings import OpeningBook, shipped_book
from parlour.chess.rules import ChessState
from parlour.core.engine import Analysis, Engine, Hint, Line, move_texts
from parlour.core.errors import GameOverError, IllegalMoveError
from parlour.core.judgement import mate_as_centipawns, winning_chances
from parlour.core.protocol import Side, State

try:
    from parlour.chess import native

    #: Whether the search written in C (:mod:`parlour.chess.native`) is built and in
    #: use (``parlour compile``; never where the package runs pure).
    NATIVE = True
except ImportError:  # not built, or set aside by parlour.compiled: the Python search
    NATIVE = False

# -- scores ---------------------------------------------------------------------------

#: A mate at the root; a mate in n plies scores MATE - n.
MATE = 100_000
#: Scores beyond this (in absolute value) are mates.
MATE_BOUND = MATE - 1_000
INFINITY = MATE + 1
EXACT, LOWER, UPPER = 0, 1, 2
MAX_PLY = 100

# -- evaluation tables -----------------------------------------------------------------
# Each table is drawn as a board seen from White: the first row is rank 8, the last
# rank 1. Values are centipawns added to the piece's material.

MATERIAL_MG = (0, 85, 325, 335, 480, 960, 0)
MATERIAL_EG = (0, 110, 300, 320, 520, 940, 0)
#: How much of the "middlegame" each piece is: 24 with all pieces on the board.
PHASE = (0, 0, 1, 1, 2, 4, 0, 0)

_PAWN_MG = """
  0   0   0   0   0   0   0   0
 45  50  50  55  55  50  50  45
 12  15  22  32  32  22  15  12
  4   6  12  26  26  12   6   4
  0   2   8  22  22   6   0   0
  4  -2  -6   4   4  -8  -2   4
  4   8   8 -18 -18  10  10   4
  0   0   0   0   0   0   0   0
"""
_PAWN_EG = """
  0   0   0   0   0   0   0   0
 95  95  90  85  85  90  95  95
 55  55  48  42  42  48  55  55
 30  28  22  18  18  22  28  30
 14  12   8   6   6   8  12  14
  4   4   0   0   0   0   4   4
  0   0   0   0   0   0   0   0
  0   0   0   0   0   0   0   0
"""
_KNIGHT_MG = """
-55 -38 -28 -28 -28 -28 -38 -55
-36 -18   0   4   4   0 -18 -36
-26   4  14  18  18  14   4 -26
-26   6  18  24  24  18   6 -26
-26   2  16  22  22  16   2 -26
-28   6  12  14  14  12   6 -28
-38 -16   0   6   6   0 -16 -38
-52 -30 -28 -26 -26 -28 -30 -52
"""
_KNIGHT_EG = """
-45 -30 -22 -20 -20 -22 -30 -45
-30 -14  -4   2   2  -4 -14 -30
-22  -2   8  12  12   8  -2 -22
-20   2  12  18  18  12   2 -20
-20   2  12  18  18  12   2 -20
-22  -2   8  12  12   8  -2 -22
-30 -14  -4   2   2  -4 -14 -30
-45 -30 -22 -20 -20 -22 -30 -45
"""
_BISHOP_MG = """
-18 -10  -8  -8  -8  -8 -10 -18
-10   2   2   2   2   2   2 -10
 -8   2   6  10  10   6   2  -8
 -8   6   6  12  12   6   6  -8
 -8   2  12  12  12  12   2  -8
 -8  10  10  10  10  10  10  -8
 -8  12   2   2   2   2  12  -8
-18  -8 -12  -8  -8 -12  -8 -18
"""
_BISHOP_EG = """
-14  -8  -6  -4  -4  -6  -8 -14
 -8  -2   0   2   2   0  -2  -8
 -6   0   6   8   8   6   0  -6
 -4   2   8  12  12   8   2  -4
 -4   2   8  12  12   8   2  -4
 -6   0   6   8   8   6   0  -6
 -8  -2   0   2   2   0  -2  -8
-14  -8  -6  -4  -4  -6  -8 -14
"""
_ROOK_MG = """
  4   6   6   8   8   6   6   4
 18  22  22  22  22  22  22  18
 -4   0   2   2   2   2   0  -4
 -6  -2   0   0   0   0  -2  -6
 -6  -2   0   0   0   0  -2  -6
 -6  -2   0   0   0   0  -2  -6
 -8  -4   0   0   0   0  -4  -8
 -4  -2   2   8   8   6  -2  -4
"""
_ROOK_EG = """
  6   6   6   6   6   6   6   6
 12  12  12  12  12  12  12  12
  2   2   2   2   2   2   2   2
  0   0   0   0   0   0   0   0
  0   0   0   0   0   0   0   0
 -2  -2  -2  -2  -2  -2  -2  -2
 -4  -4  -4  -4  -4  -4  -4  -4
 -4  -2   0   0   0   0  -2  -4
"""
_QUEEN_MG = """
-18 -10  -8  -4  -4  -8 -10 -18
-10  -4   0   0   0   0  -4 -10
 -8   0   4   4   4   4   0  -8
 -4   0   4   6   6   4   0  -4
 -4   0   4   6   6   4   0  -4
 -8   2   4   4   4   4   2  -8
-10  -2   2   0   0   0  -2 -10
-18 -10  -8  -2  -6  -8 -10 -18
"""
_QUEEN_EG = """
-20 -12  -8  -6  -6  -8 -12 -20
-12  -4   0   4   4   0  -4 -12
 -8   0   8  10  10   8   0  -8
 -6   4  10  14  14  10   4  -6
 -6   4  10  14  14  10   4  -6
 -8   0   8  10  10   8   0  -8
-12  -4   0   4   4   0  -4 -12
-20 -12  -8  -6  -6  -8 -12 -20
"""
_KING_MG = """
-60 -60 -60 -70 -70 -60 -60 -60
-55 -55 -60 -70 -70 -60 -55 -55
-50 -50 -55 -65 -65 -55 -50 -50
-45 -50 -55 -60 -60 -55 -50 -45
-35 -40 -45 -55 -55 -45 -40 -35
-18 -24 -28 -36 -36 -28 -24 -18
 12  12  -6 -22 -22  -8  14  14
 18  32  14 -12   0  -8  34  22
"""
_KING_EG = """
-55 -38 -28 -22 -22 -28 -38 -55
-35 -14  -4   2   2  -4 -14 -35
-26  -2  14  20  20  14  -2 -26
-24   2  20  28  28  20   2 -24
-24   2  20  28  28  20   2 -24
-26  -4  12  18  18  12  -4 -26
-36 -18  -6   0   0  -6 -18 -36
-55 -40 -30 -26 -26 -30 -40 -55
"""


def _parse_table(text: str) -> list[int]:
    """A drawn table (rank 8 first) as 64 values indexed a1 = 0 .. h8 = 63."""
    rows = [[int(v) for v in line.split()] for line in text.strip().splitlines()]
    assert len(rows) == 8 and all(len(row) == 8 for row in rows)
    return [rows[7 - (sq >> 3)][sq & 7] for sq in range(64)]


_TABLES = {
    PAWN: (_PAWN_MG, _PAWN_EG),
    KNIGHT: (_KNIGHT_MG, _KNIGHT_EG),
    BISHOP: (_BISHOP_MG, _BISHOP_EG),
    ROOK: (_ROOK_MG, _ROOK_EG),
    QUEEN: (_QUEEN_MG, _QUEEN_EG),
    KING: (_KING_MG, _KING_EG),
}

#: Piece code -> mailbox cell -> value from White's side (Black's pieces negative),
#: material included; zero for empty and border cells.
PST_MG: list[list[int]] = [[0] * 120 for _ in range(32)]
PST_EG: list[list[int]] = [[0] * 120 for _ in range(32)]
for _kind, (_mg_text, _eg_text) in _TABLES.items():
    _mg, _eg = _parse_table(_mg_text), _parse_table(_eg_text)
    for _sq in range(64):
        _mirror = _sq ^ 56  # the same square seen from Black's side
        PST_MG[WHITE | _kind][CELL[_sq]] = MATERIAL_MG[_kind] + _mg[_sq]
        PST_EG[WHITE | _kind][CELL[_sq]] = MATERIAL_EG[_kind] + _eg[_sq]
        PST_MG[BLACK | _kind][CELL[_sq]] = -(MATERIAL_MG[_kind] + _mg[_mirror])
        PST_EG[BLACK | _kind][CELL[_sq]] = -(MATERIAL_EG[_kind] + _eg[_mirror])

#: Phase weight of each piece code.
PIECE_PHASE = [PHASE[code & 7] if code & (WHITE | BLACK) else 0 for code in range(32)]
#: Rough values for ordering captures (victim first) and for delta pruning.
ORDER_VALUE = [(0, 100, 320, 330, 500, 950, 2000, 0)[code & 7] for code in range(32)]
TEMPO = 12
#: Per ply of depth left: how far the static score must stand beyond the window for
#: the search to trust it near the leaves (reverse futility and futility pruning).
FUTILITY_MARGIN = 110
#: Per depth left (1 to 3): after how many moves the rest of the quiet moves at a
#: null-window node are not searched at all (late-move pruning).
LATE_MOVE_COUNT = (0, 5, 9, 16)
#: Aspiration: from this depth, the root is searched first within this many
#: centipawns either side of the last iteration's score; the window grows fourfold
#: at each failure and opens fully past the limit.
ASPIRATION_DEPTH = 5
ASPIRATION_WIDTH = 35
ASPIRATION_LIMIT = 1000
#: More moves than any chess position has.
MAX_MOVES = 256
BISHOP_PAIR = 30


def evaluate_terms(state: ChessState) -> tuple[int, int, int]:
    """The incremental part of the evaluation from scratch: (middlegame sum,
    endgame sum, phase), sums from White's side."""
    mg = eg = phase = 0
    b = state.board
    for c in BOARD_CELLS:
        p = b[c]
        if p:
            mg += PST_MG[p][c]
            eg += PST_EG[p][c]
            phase += PIECE_PHASE[p]
    return mg, eg, phase


# -- pawn structure ---------------------------------------------------------------
# Pawns move seldom, so their structure is scored once per arrangement and kept in a
# table keyed by a Zobrist key over the pawns alone (the search carries the key
# along like the piece-square sums).

#: A passed pawn's bonus by its rank counted from its own side (0 = first rank).
PASSED_MG = (0, 0, 4, 8, 16, 30, 50, 0)
PASSED_EG = (0, 6, 10, 18, 32, 55, 85, 0)
DOUBLED_MG, DOUBLED_EG = -10, -18
ISOLATED_MG, ISOLATED_EG = -10, -14
_PAWN_TABLE_SIZE = 50_000
_pawn_table: dict[int, tuple[int, int]] = {}


def pawn_key(state: ChessState) -> int:
    """The Zobrist key of the pawns alone, from scratch."""
    key = 0
    b = state.board
    for c in BOARD_CELLS:
        if b[c] & 7 == PAWN:
            key ^= ZOBRIST[b[c]][c]
    return key


def pawn_structure(board: list[int]) -> tuple[int, int]:
    """Passed, doubled and isolated pawns: (middlegame, endgame) from White's side."""
    # Per file (padded by one on each side): how many pawns of each colour, White's
    # rearmost rank and Black's rearmost (highest) rank, which decide passed pawns.
    white_count = [0] * 10
    black_count = [0] * 10
    white_rear = [8] * 10
    black_rear = [-1] * 10
    white_pawns = []
    black_pawns = []
    for sq in range(64):
        p = board[CELL[sq]]
        if p & 7 != PAWN:
            continue
        f, r = (sq & 7) + 1, sq >> 3
        if p & WHITE:
            white_count[f] += 1
            white_rear[f] = min(white_rear[f], r)
            white_pawns.append((f, r))
        else:
            black_count[f] += 1
            black_rear[f] = max(black_rear[f], r)
            black_pawns.append((f, r))
    mg = eg = 0
    for f, r in white_pawns:
        if max(black_rear[f - 1], black_rear[f], black_rear[f + 1]) <= r:
            mg += PASSED_MG[r]
            eg += PASSED_EG[r]
        if not white_count[f - 1] and not white_count[f + 1]:
            mg += ISOLATED_MG
            eg += ISOLATED_EG
    for f, r in black_pawns:
        if min(white_rear[f - 1], white_rear[f], white_rear[f + 1]) >= r:
            mg -= PASSED_MG[7 - r]
            eg -= PASSED_EG[7 - r]
        if not black_count[f - 1] and not black_count[f + 1]:
            mg -= ISOLATED_MG
            eg -= ISOLATED_EG
    for f in range(1, 9):
        if white_count[f] > 1:
            mg += DOUBLED_MG * (white_count[f] - 1)
            eg += DOUBLED_EG * (white_count[f] - 1)
        if black_count[f] > 1:
            mg -= DOUBLED_MG * (black_count[f] - 1)
            eg -= DOUBLED_EG * (black_count[f] - 1)
    return mg, eg


# -- endings the material misjudges ----------------------------------------------
# With little material left, some endings are drawn though one side is well ahead on
# the count: a lone minor piece (or two knights) cannot force mate; without pawns, a
# lead of no more than a minor piece (a rook against a bishop, rook and bishop against
# a rook) seldom wins; bishops of opposite colours hold many pawns down; and rook's
# pawns whose queening square the bishop does not cover (or with no bishop at all)
# cannot be forced home past a king that has reached the corner. The blended score is
# scaled down for those. A bare king, on the other hand, is mated only once it is
# driven to the edge (to a corner of the bishop's colour by bishop and knight), which
# lies beyond the horizon at first: a small bonus for each step it is pushed, and for
# each step the attacker's king comes nearer, shows the search the way. King and pawn
# against king is won or drawn by the opposition, often past the horizon: the
# database says which. Looked at only when the phase is low, so the middlegame pays
# nothing for it.

#: The phase (out of 24) at and below which the endings are looked for: at most a
#: queen and two rooks' worth of pieces left on the board, both sides together.
ENDING_PHASE = 8
#: Each piece's worth in pawns for the endings' tests (a minor 3, a rook 5, a queen 9).
ENDING_WORTH = (0, 0, 3, 3, 5, 9, 0, 0)
#: The scales out of 16: a side that cannot win; no pawns and ahead by at most a minor
#: piece; bishops of opposite colours and nothing else but pawns.
SCALE_CANNOT_WIN = 0
SCALE_MINOR_AHEAD = 2
SCALE_OPPOSITE_BISHOPS = 8
#: Centipawns for each step the bare king stands from the centre (or, against bishop
#: and knight, each king move nearer a corner of the bishop's colour), and each step
#: the kings are closer.
MOP_UP_EDGE = 10
MOP_UP_CORNER = 20
MOP_UP_KINGS = 4
#: Centipawns added for the side whose lone pawn wins against a bare king (the pawn's
#: advance, already scored, shows the way; a queen is still worth more).
KPK_WON = 400


def ending(board: Sequence[int], kings: Sequence[int], score: int, color: int) -> int:
    """``score`` (White's blended score, times 24) corrected for the ending on the
    board, ``color`` to move: scaled towards a draw where the side ahead cannot win,
    a gradient towards the mate added against a bare king, and a king and pawn
    against a king judged by the database (:mod:`parlour.chess.endgame`).

    >>> from parlour.chess.rules import CHESS
    >>> lone_bishop = CHESS.state_from_text("8/8/3k4/8/8/2BK4/8/8 w - - 0 1")
    >>> ending(lone_bishop.board, lone_bishop.kings, 24 * 300, lone_bishop.color)
    0
    >>> opposition = CHESS.state_from_text("8/8/8/4k3/8/4K3/4P3/8 w - - 0 1")
    >>> ending(opposition.board, opposition.kings, 24 * 150, WHITE), ending(
    ...     opposition.board, opposition.kings, 24 * 150, BLACK
    ... ) == 24 * (150 + KPK_WON)
    (0, True)
    """
    # By side (White 0, Black 1): pawns, the pieces' worth, knights, bishops, the
    # shades of the bishops' squares (bit 0 dark, bit 1 light) and the pawns' files.
    pawns = [0, 0]
    worth = [0, 0]
    knights = [0, 0]
    bishops = [0, 0]
    shades = [0, 0]
    files = [0, 0]
    pawn_cell = 0
    for cell in BOARD_CELLS:
        piece = board[cell]
        kind = piece & 7
        if not piece or kind == KING:
            continue
        side = piece >> 4
        file, rank = FILE_OF[cell], RANK_OF[cell]
        if kind == PAWN:
            pawns[side] += 1
            files[side] |= 1 << file
            pawn_cell = cell
            continue
        worth[side] += ENDING_WORTH[kind]
        if kind == KNIGHT:
            knights[side] += 1
        elif kind == BISHOP:
            bishops[side] += 1
            shades[side] |= 1 << ((file + rank) & 1)
    if pawns[0] + pawns[1] == 1 and not worth[0] and not worth[1]:
        # A king and pawn against a king: won or drawn, the database says which.
        if not lone_pawn_wins(pawn_cell, board[pawn_cell] & (WHITE | BLACK), kings, color):
            return 0
        return score + 24 * KPK_WON if pawns[0] else score - 24 * KPK_WON
    if not score:
        return 0
    strong = 0 if score > 0 else 1
    weak = 1 - strong
    scale = 16
    if not pawns[strong]:
        if worth[strong] <= 3 or (
            knights[strong] == 2 and worth[strong] == 6 and not worth[weak] and not pawns[weak]
        ):
            scale = SCALE_CANNOT_WIN
        elif worth[strong] - worth[weak] <= 3:
            scale = SCALE_MINOR_AHEAD
    elif files[strong] in (1, 128) and worth[strong] == 3 * bishops[strong] <= 3:
        # Rook's pawns with a bishop or none: the corner they queen on.
        file = 0 if files[strong] == 1 else 7
        rank = 7 if strong == 0 else 0
        wrong = not bishops[strong] or shades[strong] != 1 << ((file + rank) & 1)
        king_file, king_rank = FILE_OF[kings[weak]], RANK_OF[kings[weak]]
        if wrong and abs(king_file - file) <= 1 and abs(king_rank - rank) <= 1:
            scale = SCALE_CANNOT_WIN
    if scale == 16 and worth == [3, 3] and bishops == [1, 1] and shades[0] != shades[1]:
        scale = SCALE_OPPOSITE_BISHOPS
    if scale != 16:
        # Floor division from the stronger side's view, so both colours round alike.
        return score * scale // 16 if strong == 0 else -(-score * scale // 16)
    if pawns[weak] or worth[weak] or worth[strong] < 5:
        return score
    # A bare king against pieces that can mate it (with pawns alone, or a lone minor
    # piece and pawns, the way to win is to queen, not to chase the king): drive it
    # to the edge, or to a corner of the bishop's colour.
    weak_file, weak_rank = FILE_OF[kings[weak]], RANK_OF[kings[weak]]
    strong_file, strong_rank = FILE_OF[kings[strong]], RANK_OF[kings[strong]]
    if knights[strong] == 1 and bishops[strong] == 1 and worth[strong] == 6 and not pawns[strong]:
        # In king moves (not file plus rank steps, which make the whole long
        # diagonal through the wrong corners as far as the centre).
        corners = ((0, 0), (7, 7)) if shades[strong] == 1 else ((0, 7), (7, 0))
        nearest = min(max(abs(weak_file - f), abs(weak_rank - r)) for f, r in corners)
        bonus = MOP_UP_CORNER * (7 - nearest)
    else:
        from_centre = max(3 - weak_file, weak_file - 4) + max(3 - weak_rank, weak_rank - 4)
        bonus = MOP_UP_EDGE * from_centre
    bonus += MOP_UP_KINGS * (14 - abs(weak_file - strong_file) - abs(weak_rank - strong_rank))
    return score + 24 * bonus if strong == 0 else score - 24 * bonus


def evaluate(state: ChessState) -> int:
    """The static evaluation in centipawns from the side to move's point of view."""
    mg, eg, phase = evaluate_terms(state)
    return _blend(state, mg, eg, phase, pawn_key(state))


def _blend(state: ChessState, mg: int, eg: int, phase: int, pawns: int) -> int:
    structure = _pawn_table.get(pawns)
    if structure is None:
        if len(_pawn_table) >= _PAWN_TABLE_SIZE:
            _pawn_table.clear()
        structure = _pawn_table[pawns] = pawn_structure(state.board)
    if phase > 24:
        phase = 24
    score = (mg + structure[0]) * phase + (eg + structure[1]) * (24 - phase)
    if phase <= ENDING_PHASE:
        score = ending(state.board, state.kings, score, state.color)
    # Divided after taking the mover's side, so both colours round alike.
    return (score if state.color == WHITE else -score) // 24 + TEMPO


def _bishop_pair(state: ChessState) -> int:
    """Bishop-pair bonus from White's side (computed once per search: the root's pair
    status changes rarely enough that the leaves do without it)."""
    b = state.board
    white = sum(1 for c in BOARD_CELLS if b[c] == WHITE | BISHOP)
    black = sum(1 for c in BOARD_CELLS if b[c] == BLACK | BISHOP)
    return BISHOP_PAIR * ((white >= 2) - (black >= 2))


def native_tables() -> dict[str, tuple[int, ...]]:
    """The numbers the C search (:mod:`parlour.chess.native`) plays with, each
    table flattened (a piece's row of 120 cells after another), so that no number
    is written twice; ``constants`` are MATE, MATE_BOUND, MAX_PLY and MAX_MOVES,
    which the C checks against its own.

    >>> tables = native_tables()
    >>> len(tables["pst_mg"]), tables["castling_rook_from"][27], tables["tempo"]
    (3840, 28, (12,))
    """
    rook_from = [0] * 120
    rook_to = [0] * 120
    for king_to, (rook_cell, rook_target) in CASTLING_ROOK.items():
        rook_from[king_to] = rook_cell
        rook_to[king_to] = rook_target
    return {
        "zobrist": tuple(key for row in ZOBRIST for key in row),
        "zobrist_castling": tuple(ZOBRIST_CASTLING),
        "zobrist_ep": tuple(ZOBRIST_EP),
        "zobrist_black": (ZOBRIST_BLACK,),
        "pst_mg": tuple(value for row in PST_MG for value in row),
        "pst_eg": tuple(value for row in PST_EG for value in row),
        "piece_phase": tuple(PIECE_PHASE),
        "order_value": tuple(ORDER_VALUE),
        "castling_kept": tuple(CASTLING_KEPT),
        "castling_rook_from": tuple(rook_from),
        "castling_rook_to": tuple(rook_to),
        "passed_mg": PASSED_MG,
        "passed_eg": PASSED_EG,
        "doubled_mg": (DOUBLED_MG,),
        "doubled_eg": (DOUBLED_EG,),
        "isolated_mg": (ISOLATED_MG,),
        "isolated_eg": (ISOLATED_EG,),
        "tempo": (TEMPO,),
        "futility_margin": (FUTILITY_MARGIN,),
        "late_move_count": LATE_MOVE_COUNT,
        "ending_worth": ENDING_WORTH,
        "ending": (
            ENDING_PHASE,
            SCALE_CANNOT_WIN,
            SCALE_MINOR_AHEAD,
            SCALE_OPPOSITE_BISHOPS,
            MOP_UP_EDGE,
            MOP_UP_CORNER,
            MOP_UP_KINGS,
            KPK_WON,
        ),
        "kpk": tuple(shipped_database()),
        "constants": (MATE, MATE_BOUND, MAX_PLY, MAX_MOVES),
    }


# -- the search ---------------------------------------------------------------------


class _Stop(Exception):
    """Raised inside the search when time, nodes or the stop flag end it."""


@dataclass(frozen=True, slots=True)
class SearchInfo:
    """What one finished iteration found (the UCI front end prints it)."""

    depth: int
    seldepth: int
    score: int
    nodes: int
    seconds: float
    pv: tuple[Move, ...]
    #: Which line this is, best first, when several are searched (MultiPV).
    multipv: int = 1

    @property
    def mate_in(self) -> int | None:
        """Moves to mate (negative: being mated), or None when no mate is seen."""
        return mate_in(self.score)


@dataclass(frozen=True, slots=True)
class SearchResult:
    """What a search found. Two results are equal when all but the time they took
    is (the C and the Python search, node for node, find equal results)."""

    move: Move
    score: int
    depth: int
    nodes: int
    seconds: float = field(compare=False)
    pv: tuple[Move, ...]
    #: Exact scores of every root move (only for the weakened levels' searches).
    root_scores: tuple[tuple[Move, int], ...] = ()
    #: The best lines found, best first: (first move, score, principal variation);
    #: as many as were asked for (``multipv``) and the position has moves.
    lines: tuple[tuple[Move, int, tuple[Move, ...]], ...] = ()


def _root_moves(state: ChessState, searchmoves: Iterable[Move] | None) -> list[InternalMove]:
    """The moves a search of ``state`` starts from: every legal move, or those of
    ``searchmoves``. GameOverError in a finished game, IllegalMoveError when none
    of ``searchmoves`` is legal."""
    roots = state.generate()
    if not roots:
        raise GameOverError("the game is over: there is no move to search")
    if searchmoves is not None:
        wanted = set(searchmoves)
        roots = [m for m in roots if public_move(m) in wanted]
        if not roots:
            raise IllegalMoveError("none of the moves to search is legal here")
    return roots


#: The most positions a search's transposition table holds. The table grows as a
#: search goes (0.1 to 0.28 positions a node) and is cleared only between
#: searches, so without a ceiling an analysis left running (``go infinite``) would
#: take memory without end (1.2 GB after 75 s of the search in C, and growing).
#: Level 10's ten seconds store up to about 7 million; ten million keep the search
#: in C's table within 384 MB (576 MB for the moment it doubles). Once full, the
#: search in C puts a new position in place of the one in its first slot; the
#: Python stores no new one but the root's (it would take it some twenty minutes to
#: fill the table), so the two agree node for node only below the ceiling.
TABLE_CEILING = 10_000_000


class Searcher:
    """One search context: its transposition table, killers and history survive
    between moves of a game (the table is cleared when it grows past its size,
    ``hash_entries``, and holds at most ``table_ceiling`` positions)."""

    def __init__(self, hash_entries: int = 400_000) -> None:
        self.hash_entries = hash_entries
        self.table_ceiling = TABLE_CEILING
        self.table: dict[int, tuple[int, int, int, InternalMove | None]] = {}
        self.history: dict[tuple[int, int], int] = {}
        #: The quiet move that last refuted each move, by (piece, cell it moved to).
        self.counters: dict[tuple[int, int], InternalMove] = {}
        self.killers: list[list[InternalMove | None]] = [[None, None] for _ in range(MAX_PLY)]
        self.nodes = 0
        self.seldepth = 0
        self.deadline = float("inf")
        self.node_limit = 0
        self.stop_event: threading.Event | None = None
        self.state: ChessState = ChessState()
        self.bonus = 0
        #: The unfinished iteration's best (score, move) so far, once its first root
        #: move has been searched (what a stopped iteration still has to offer).
        self.partial: tuple[int, InternalMove] | None = None

    def clear(self) -> None:
        """Forget everything learned (a new game)."""
        self.table.clear()
        self.history.clear()
        self.counters.clear()

    # -- the public call -----------------------------------------------------------

    def search(
        self,
        state: ChessState,
        *,
        seconds: float | None = None,
        depth: int | None = None,
        nodes: int | None = None,
        stop: threading.Event | None = None,
        on_iteration: Callable[[SearchInfo], None] | None = None,
        exact_root: bool = False,
        margin: int = 0,
        use_all_time: bool = False,
        multipv: int = 1,
        searchmoves: Iterable[Move] | None = None,
    ) -> SearchResult:
        """Search ``state`` (a private copy is used) until ``seconds``, ``depth`` or
        ``nodes`` is reached or ``stop`` is set (if time runs out before even depth 1
        is done, the first legal move is returned, with depth 0). ``exact_root``
        scores every root move within ``margin`` of the best exactly (``root_scores``,
        for the weak levels' deliberate choices).

        Without ``use_all_time`` no iteration starts after about half the time (it
        would rarely finish, and a player waits less); with it (UCI ``movetime``: the
        time is spent either way) the search goes on to the deadline, and an
        unfinished iteration's best move is played once the previous best has been
        searched again and another move has proved better.

        ``multipv`` lines are searched, each the best after the ones before it are
        left out (:attr:`SearchResult.lines`, and ``on_iteration`` is told of each);
        ``searchmoves`` restricts the search to those first moves (IllegalMoveError
        when none of them is legal here)."""
        state = state.copy()
        roots = _root_moves(state, searchmoves)
        multipv = max(1, min(multipv, len(roots)))
        start = self._begin(state, seconds, nodes, stop)
        mg, eg, phase = evaluate_terms(state)
        pawns = pawn_key(state)
        self.bonus = _bishop_pair(state)
        mg += self.bonus
        eg += self.bonus
        max_depth = min(depth or MAX_PLY - 10, MAX_PLY - 10)

        best = roots[0]
        best_score = 0
        best_pv: tuple[Move, ...] = (public_move(best),)
        reached = 0
        root_scores: tuple[tuple[Move, int], ...] = ()
        lines: list[tuple[int, InternalMove, tuple[Move, ...]]] = []
        found: list[tuple[int, InternalMove, tuple[Move, ...]]] = []
        for d in range(1, max_depth + 1):
            self.seldepth = 0
            self.partial = None
            try:
                if multipv > 1:
                    found = self._root_lines(d, roots, mg, eg, phase, pawns, multipv)
                    score, move = found[0][0], found[0][1]
                    chosen = [m for _, m, _ in found]
                    roots = chosen + [m for m in roots if m not in chosen]
                elif exact_root:
                    scored = self._root_exact(d, roots, mg, eg, phase, pawns, margin)
                    scored.sort(key=lambda item: -item[1])
                    score = scored[0][1]
                    move = scored[0][0]
                    roots = [m for m, _ in scored] + [m for m in roots if m not in dict(scored)]
                    root_scores = tuple((public_move(m), s) for m, s in scored)
                else:
                    guess = best_score if d > 1 else 0
                    score, move = self._root_in_window(d, roots, mg, eg, phase, pawns, guess)
            except _Stop:
                # A stopped iteration's best so far stands for the single line only:
                # with several, it may be the best of the moves left for a later line.
                partial = self._stopped_best() if multipv == 1 else None
                if partial is not None and partial[1] != best:
                    best_score, best = partial
                    best_pv = (public_move(best),)
                    lines = []
                break
            best, best_score, reached = move, score, d
            roots.remove(move)
            roots.insert(0, move)
            elapsed = time.perf_counter() - start
            lines = found if multipv > 1 else [(score, move, self._pv(move))]
            best_pv = lines[0][2]
            if on_iteration is not None:
                seldepth = max(self.seldepth, d)
                for number, (line_score, _, pv) in enumerate(lines, start=1):
                    on_iteration(
                        SearchInfo(d, seldepth, line_score, self.nodes, elapsed, pv, number)
                    )
            if multipv == 1 and abs(score) >= MATE_BOUND and d >= 2 * (MATE - abs(score)) + 2:
                break  # a mate found and proved shortest enough: nothing more to learn
            if seconds is not None and not use_all_time and elapsed > seconds * 0.55:
                break  # the next iteration would not finish
        return SearchResult(
            public_move(best),
            best_score,
            reached,
            self.nodes,
            time.perf_counter() - start,
            best_pv,
            root_scores,
            tuple((public_move(m), line_score, pv) for line_score, m, pv in lines)
            or ((public_move(best), best_score, best_pv),),
        )

    # -- internals -------------------------------------------------------------------

    def _begin(
        self,
        state: ChessState,
        seconds: float | None,
        nodes: int | None,
        stop: threading.Event | None,
    ) -> float:
        """Set up a search of ``state`` within its limits; return when it started."""
        self.state = state
        start = time.perf_counter()
        self.deadline = start + seconds if seconds is not None else float("inf")
        self.node_limit = nodes or 0
        self.stop_event = stop
        self.nodes = 0
        self.killers = [[None, None] for _ in range(MAX_PLY)]
        if len(self.table) > self.hash_entries:
            self.table.clear()
        for key in self.history:
            self.history[key] >>= 3
        return start

    def _check_limits(self) -> None:
        if time.perf_counter() > self.deadline:
            raise _Stop
        if self.node_limit and self.nodes >= self.node_limit:
            raise _Stop
        if self.stop_event is not None and self.stop_event.is_set():
            raise _Stop

    def _pv(self, first: InternalMove) -> tuple[Move, ...]:
        """The principal variation: the best move, then the table's moves while they
        are legal (and without repeating a position)."""
        state = self.state
        line = [public_move(first)]
        state.make(first)
        seen = {state.hash}
        made = 1
        while made < 30:
            entry = self.table.get(state.hash)
            if entry is None or entry[3] is None or entry[3] not in state.generate():
                break
            state.make(entry[3])
            made += 1
            line.append(public_move(entry[3]))
            if state.hash in seen:
                break
            seen.add(state.hash)
        for _ in range(made):
            state.unmake()
        return tuple(line)

    def _root_in_window(
        self,
        depth: int,
        roots: list[InternalMove],
        mg: int,
        eg: int,
        phase: int,
        pawns: int,
        guess: int,
    ) -> tuple[int, InternalMove]:
        """The root searched first in a narrow window around ``guess`` (the previous
        iteration's score), which most iterations stay inside, so that more of the
        tree is cut; widened and searched again on the side it failed, the move
        that failed high tried first."""
        if depth < ASPIRATION_DEPTH or abs(guess) >= MATE_BOUND:
            return self._root(depth, roots, mg, eg, phase, pawns)
        width = ASPIRATION_WIDTH
        alpha, beta = guess - width, guess + width
        while True:
            score, move = self._root(depth, roots, mg, eg, phase, pawns, alpha, beta)
            if alpha < score < beta:
                return score, move
            width *= 4
            if score <= alpha:
                alpha = -INFINITY if width > ASPIRATION_LIMIT else alpha - width
            else:
                beta = INFINITY if width > ASPIRATION_LIMIT else beta + width
                roots.remove(move)
                roots.insert(0, move)

    def _root(
        self,
        depth: int,
        roots: list[InternalMove],
        mg: int,
        eg: int,
        phase: int,
        pawns: int,
        alpha: int = -INFINITY,
        beta: int = INFINITY,
    ) -> tuple[int, InternalMove]:
        """The best root move and its score within (alpha, beta): at most ``alpha``
        when every move fails low (the first move then stands), at least ``beta``
        when one fails high (that one); stored in the table only when exact."""
        floor = alpha
        best = roots[0]
        state = self.state
        for i, m in enumerate(roots):
            dmg, deg, dph, dpk = self._delta(m)
            cmg, ceg, cph, cpk = mg + dmg, eg + deg, phase + dph, pawns ^ dpk
            state.make(m)
            try:
                if i == 0:
                    score = -self._search(depth - 1, -beta, -alpha, 1, cmg, ceg, cph, cpk)
                else:
                    score = -self._search(depth - 1, -alpha - 1, -alpha, 1, cmg, ceg, cph, cpk)
                    if score > alpha:
                        score = -self._search(depth - 1, -beta, -alpha, 1, cmg, ceg, cph, cpk)
            finally:
                state.unmake()
            if score > alpha:
                alpha, best = score, m
                self.partial = (alpha, best)
                if alpha >= beta:
                    return alpha, best
        if alpha > floor:
            self.table[state.hash] = (depth, alpha, EXACT, best)
        return alpha, best

    def _stopped_best(self) -> tuple[int, InternalMove] | None:
        """The score and move that beat the previous best in the iteration just
        stopped, if one did. (Read through a method: mypy narrows the attribute to
        None from its reset at the iteration's start, and a compiled build would
        check it as such.)"""
        return self.partial

    def _root_lines(
        self,
        depth: int,
        roots: list[InternalMove],
        mg: int,
        eg: int,
        phase: int,
        pawns: int,
        count: int,
    ) -> list[tuple[int, InternalMove, tuple[Move, ...]]]:
        """The ``count`` best lines at ``depth``, best first: each the best root move
        once the moves of the lines before it are left out, with its score and
        principal variation (read at once, before the next line overwrites it)."""
        found: list[tuple[int, InternalMove, tuple[Move, ...]]] = []
        left = list(roots)
        for _ in range(count):
            score, move = self._root(depth, left, mg, eg, phase, pawns)
            found.append((score, move, self._pv(move)))
            left.remove(move)
        found.sort(key=lambda line: -line[0])
        self._store_root(depth, found[0][0], found[0][1])
        return found

    def _store_root(self, depth: int, score: int, move: InternalMove) -> None:
        """The root's table entry: its exact score and best move."""
        self.table[self.state.hash] = (depth, score, EXACT, move)

    def _root_exact(
        self,
        depth: int,
        roots: list[InternalMove],
        mg: int,
        eg: int,
        phase: int,
        pawns: int,
        margin: int,
    ) -> list[tuple[InternalMove, int]]:
        """Every root move's score, exact for the moves within ``margin`` of the best;
        the others are only shown to be worse than that (a bound is enough)."""
        state = self.state
        scored = []
        best = -INFINITY
        for m in roots:
            dmg, deg, dph, dpk = self._delta(m)
            floor = best - margin - 1 if best > -INFINITY else -INFINITY
            state.make(m)
            try:
                score = -self._search(
                    depth - 1, -INFINITY, -floor, 1, mg + dmg, eg + deg, phase + dph, pawns ^ dpk
                )
            finally:
                state.unmake()
            best = max(best, score)
            scored.append((m, score))
        return [(m, score) for m, score in scored if score >= best - margin]

    def _delta(self, m: InternalMove) -> tuple[int, int, int, int]:
        """How the move changes the middlegame sum, the endgame sum and the phase,
        and what it XORs into the pawn key."""
        fr, to, flag = m
        b = self.state.board
        piece = b[fr]
        captured = b[to]
        pm, pe = PST_MG[piece], PST_EG[piece]
        dmg = pm[to] - pm[fr]
        deg = pe[to] - pe[fr]
        dph = dpk = 0
        if piece & 7 == PAWN:
            dpk = ZOBRIST[piece][fr] ^ ZOBRIST[piece][to]
        if captured:
            dmg -= PST_MG[captured][to]
            deg -= PST_EG[captured][to]
            dph = -PIECE_PHASE[captured]
            if captured & 7 == PAWN:
                dpk ^= ZOBRIST[captured][to]
        if flag:
            if flag >= PROMOTE:
                new = (flag - PROMOTE) | (piece & (WHITE | BLACK))
                dmg += PST_MG[new][to] - pm[to]
                deg += PST_EG[new][to] - pe[to]
                dph += PIECE_PHASE[new]
                dpk ^= ZOBRIST[piece][to]  # the pawn does not arrive: it is promoted
            elif flag == EN_PASSANT:
                victim_cell = to - 10 if piece & WHITE else to + 10
                victim = b[victim_cell]
                dmg -= PST_MG[victim][victim_cell]
                deg -= PST_EG[victim][victim_cell]
                dpk ^= ZOBRIST[victim][victim_cell]
            elif flag == CASTLE:
                rook_from, rook_to = CASTLING_ROOK[to]
                rook = b[rook_from]
                dmg += PST_MG[rook][rook_to] - PST_MG[rook][rook_from]
                deg += PST_EG[rook][rook_to] - PST_EG[rook][rook_from]
        return dmg, deg, dph, dpk

    def _is_repetition(self) -> bool:
        """Whether the position stood before since the last capture or pawn move
        (in the game or on the search path): a repetition is a draw for the search."""
        state = self.state
        stack = state.stack
        h = state.hash
        first = max(0, len(stack) - state.halfmove)
        for i in range(len(stack) - 2, first - 1, -2):  # noqa: SIM110 (faster than any())
            if stack[i][5] == h:
                return True
        return False

    def _is_draw(self, phase: int) -> bool:
        """Whether the position is drawn for the search: the fifty-move count run out,
        a repetition, or (with at most one minor piece left) no mate possible -- a lone
        minor piece cannot win, and the search must not think it can."""
        state = self.state
        if state.halfmove >= 4 and (state.halfmove >= 100 or self._is_repetition()):
            return True
        return phase <= 1 and state.is_insufficient_material()

    def _search(
        self, depth: int, alpha: int, beta: int, ply: int, mg: int, eg: int, phase: int, pawns: int
    ) -> int:
        """Negamax principal variation search: the score of the side to move."""
        state = self.state
        if self._is_draw(phase):
            return 0
        in_check = state.in_check()
        if in_check:
            depth += 1
        if depth <= 0:
            return self._quiesce(alpha, beta, ply, mg, eg, phase, pawns)
        self.nodes += 1
        if not self.nodes & 2047:
            self._check_limits()
        if ply >= MAX_PLY - 2:
            return _blend(state, mg, eg, phase, pawns)

        # Mate distance: no line from here can beat a mate already found nearer the root.
        mate_alpha = max(alpha, -MATE + ply)
        mate_beta = min(beta, MATE - ply - 1)
        if mate_alpha >= mate_beta:
            return mate_alpha

        key = state.hash
        known, tt_move = self._probe(key, depth, alpha, beta, ply)
        if known is not None:
            return known

        # After this many moves, quiet moves giving no check are not searched.
        quiet_limit = MAX_MOVES
        if beta - alpha == 1 and not in_check:
            cutoff, quiet_limit = self._before_moves(depth, alpha, beta, ply, mg, eg, phase, pawns)
            if cutoff is not None:
                return cutoff

        moves = state.generate()
        if not moves:
            return -MATE + ply if in_check else 0

        scored = self._ordered(moves, tt_move, ply)
        tried: list[tuple[bool, InternalMove]] = []  # searched, each marked quiet or not

        original_alpha = alpha
        best_score = -INFINITY
        best_move = None
        delta = self._delta
        for searched, (s, m) in enumerate(scored):
            dmg, deg, dph, dpk = delta(m)
            # The child's incremental sums, the same for every (re-)search of it.
            cmg, ceg, cph, cpk = mg + dmg, eg + deg, phase + dph, pawns ^ dpk
            quiet = s < 790_000 and not state.board[m[1]]
            state.make(m)
            if quiet and searched >= quiet_limit and not state.in_check():
                state.unmake()
                continue
            try:
                if searched == 0:
                    score = -self._search(depth - 1, -beta, -alpha, ply + 1, cmg, ceg, cph, cpk)
                else:
                    # Late quiet moves are searched shallower first (not when either
                    # side is in check).
                    reduction = 0
                    if quiet and searched >= 3 and depth >= 3 and not in_check:
                        reduction = 0 if state.in_check() else 1 if searched < 8 else 2
                    score = self._search_later(
                        depth - 1, reduction, alpha, beta, ply, (cmg, ceg, cph, cpk)
                    )
            finally:
                state.unmake()
            if score > best_score:
                best_score = score
                best_move = m
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        if quiet:
                            self._remember_refutation(m, ply, depth, tried)
                        break
            tried.append((quiet, m))

        self._store(key, depth, best_score, original_alpha, beta, ply, best_move)
        return best_score

    def _search_later(
        self,
        depth: int,
        reduction: int,
        alpha: int,
        beta: int,
        ply: int,
        sums: tuple[int, int, int, int],
    ) -> int:
        """A move after the first, already made, from its parent's point of view: a
        null window first (``reduction`` plies shallower), searched again in full only
        when it may beat alpha."""
        search = self._search
        score = -search(depth - reduction, -alpha - 1, -alpha, ply + 1, *sums)
        if score > alpha and reduction:
            score = -search(depth, -alpha - 1, -alpha, ply + 1, *sums)
        if alpha < score < beta:
            score = -search(depth, -beta, -alpha, ply + 1, *sums)
        return score

    def _probe(
        self, key: int, depth: int, alpha: int, beta: int, ply: int
    ) -> tuple[int | None, InternalMove | None]:
        """What the table knows of this position: the score it gives this node
        outright (an entry deep enough, at a null window; mate scores are stored as
        distances from their node, so they are moved to this ply), and its best move."""
        entry = self.table.get(key)
        if entry is None:
            return None, None
        e_depth, score, bound, move = entry
        if e_depth < depth or beta - alpha != 1:
            return None, move
        if score >= MATE_BOUND:
            score -= ply
        elif score <= -MATE_BOUND:
            score += ply
        if (
            bound == EXACT
            or (bound == LOWER and score >= beta)
            or (bound == UPPER and score <= alpha)
        ):
            return score, move
        return None, move

    def _ordered(
        self,
        moves: list[InternalMove],
        tt_move: InternalMove | None,
        ply: int,
    ) -> list[tuple[int, InternalMove]]:
        """The moves with their ordering keys, best first: the table's move, captures
        by most valuable victim and least valuable attacker, a queen promotion, the
        killers, the counter-move, captures that likely lose material (a bigger
        piece taking a defended smaller one), then quiet moves by their history."""
        b = self.state.board
        history = self.history
        attacked = self.state.attacked
        enemy = self.state.color ^ 24
        killers = self.killers[ply]
        counter_key = self._last_move_key(ply)
        counter = self.counters.get(counter_key) if counter_key else None
        scored = []
        for m in moves:
            fr, to, flag = m
            victim = b[to]
            if m == tt_move:
                s = 10_000_000
            elif victim:
                attacker = ORDER_VALUE[b[fr]]
                s = ORDER_VALUE[victim] * 16 - attacker // 16
                losing = attacker > ORDER_VALUE[victim] + 50 and attacked(to, enemy)
                s += 700_000 if losing else 1_000_000
            elif flag >= PROMOTE:
                s = 900_000 if flag == PROMOTE + QUEEN else -1000
            elif m == killers[0]:
                s = 800_000
            elif m == killers[1]:
                s = 790_000
            elif m == counter:
                s = 780_000
            else:
                s = history.get((b[fr], to), 0)
            scored.append((s, m))
        scored.sort(reverse=True)
        return scored

    def _last_move_key(self, ply: int) -> tuple[int, int] | None:
        """The move just played in the search, as the counter-moves know it: the
        piece and the cell it went to; None at the root and after a pass."""
        last_to = self.state.stack[-1][0][1] if ply else 0
        return (self.state.board[last_to], last_to) if last_to else None

    def _remember_refutation(
        self, m: InternalMove, ply: int, depth: int, tried: list[tuple[bool, InternalMove]]
    ) -> None:
        """A quiet move that refuted a position: a killer at this ply, the counter-move
        to the move before, and history credit growing with the depth it was found
        at; the quiet moves searched before it (those of ``tried`` marked quiet),
        which did not refute it, lose as much."""
        counter_key = self._last_move_key(ply)
        if counter_key:
            self.counters[counter_key] = m
        killers = self.killers[ply]
        if killers[0] != m:
            killers[1] = killers[0]
            killers[0] = m
        board = self.state.board
        history = self.history
        credit = depth * depth
        hkey = (board[m[0]], m[1])
        history[hkey] = history.get(hkey, 0) + credit
        for quiet, (fr, to, _) in tried:
            if quiet:
                hkey = (board[fr], to)
                history[hkey] = history.get(hkey, 0) - credit

    def _store(
        self,
        key: int,
        depth: int,
        best_score: int,
        original_alpha: int,
        beta: int,
        ply: int,
        best_move: InternalMove | None,
    ) -> None:
        """Keep the result in the table: mate scores as distances from this node, and
        whether the score is exact or only a bound."""
        stored = best_score
        if stored >= MATE_BOUND:
            stored += ply
        elif stored <= -MATE_BOUND:
            stored -= ply
        if best_score >= beta:
            bound = LOWER
        elif best_score > original_alpha:
            bound = EXACT
        else:
            bound = UPPER
        if len(self.table) >= self.table_ceiling and key not in self.table:
            return
        self.table[key] = (depth, stored, bound, best_move)

    def _before_moves(
        self, depth: int, alpha: int, beta: int, ply: int, mg: int, eg: int, phase: int, pawns: int
    ) -> tuple[int | None, int]:
        """At a null-window node not in check, before any move is searched: the score
        to return at once (or None), and after how many moves the quiet moves that
        give no check are no longer searched.

        Near the leaves the static score decides what a shallow search would hardly
        change: far above beta, the node fails high (reverse futility); far below
        alpha, quiet moves after the first are not searched (futility); otherwise
        quiet moves late in the order are seldom best, and are left out after a
        few (late-move pruning). Not near mate scores. From three plies up, the
        null move: if passing still leaves the side to move above beta, a real
        move will too (not in pawn endings, where zugzwang is common)."""
        quiet_limit = MAX_MOVES
        if depth <= 3 and abs(beta) < MATE_BOUND:
            static = _blend(self.state, mg, eg, phase, pawns)
            if static - FUTILITY_MARGIN * depth >= beta:
                return static, quiet_limit
            if static + FUTILITY_MARGIN * depth <= alpha:
                quiet_limit = 1
            else:
                quiet_limit = LATE_MOVE_COUNT[depth]
        if depth >= 3 and phase >= 3:
            return self._null_move_cutoff(depth, beta, ply, mg, eg, phase, pawns), quiet_limit
        return None, quiet_limit

    def _null_move_cutoff(
        self, depth: int, beta: int, ply: int, mg: int, eg: int, phase: int, pawns: int
    ) -> int | None:
        """The score to return when the side to move, standing above beta, stays at or
        above it even after passing; None when the position must be searched."""
        if _blend(self.state, mg, eg, phase, pawns) < beta:
            return None
        score = self._null_search(depth, beta, ply, mg, eg, phase, pawns)
        if score < beta:
            return None
        return beta if score >= MATE_BOUND else score

    def _null_search(
        self, depth: int, beta: int, ply: int, mg: int, eg: int, phase: int, pawns: int
    ) -> int:
        """Search after passing the move (the board's stack gets a marker entry so the
        repetition scan and the fifty-move count stop at the pass)."""
        state = self.state
        saved = (state.ep, state.halfmove, state.hash)
        h = state.hash ^ ZOBRIST_BLACK
        if state.ep:
            h ^= ZOBRIST_EP[state.ep]
        state.stack.append(((0, 0, 0), 0, state.castling, state.ep, state.halfmove, state.hash))
        state.ep = 0
        state.halfmove = 0
        state.hash = h
        state.color ^= 24
        try:
            reduction = 3 if depth >= 6 else 2
            return -self._search(
                depth - 1 - reduction, -beta, -beta + 1, ply + 1, mg, eg, phase, pawns
            )
        finally:
            state.color ^= 24
            state.ep, state.halfmove, state.hash = saved
            state.stack.pop()

    def _quiesce(
        self, alpha: int, beta: int, ply: int, mg: int, eg: int, phase: int, pawns: int
    ) -> int:
        """Captures (and queen promotions) only, until the position is quiet; in
        check, every evasion (standing pat is no option then, and a capture that
        mates must be seen as mate)."""
        self.nodes += 1
        if not self.nodes & 2047:
            self._check_limits()
        if ply > self.seldepth:
            self.seldepth = ply
        state = self.state
        if ply >= MAX_PLY - 2:
            return _blend(state, mg, eg, phase, pawns)
        if state.in_check():
            return self._quiesce_evasions(alpha, beta, ply, mg, eg, phase, pawns)
        stand = _blend(state, mg, eg, phase, pawns)
        if stand >= beta:
            return stand
        if stand > alpha:
            alpha = stand
        b = state.board
        captures = []
        enemy = state.color ^ 24
        attacked = state.attacked
        for m in state.generate():
            fr, to, flag = m
            victim = b[to]
            if victim:
                gain = ORDER_VALUE[victim]
                if flag >= PROMOTE:
                    if flag != PROMOTE + QUEEN:
                        continue
                    gain += 800
                # Delta pruning: even winning this piece outright cannot reach alpha.
                if stand + gain + 200 < alpha:
                    continue
                # A bigger piece taking a defended smaller one loses material: such
                # captures are left to the full-width search.
                if ORDER_VALUE[b[fr]] > gain + 50 and attacked(to, enemy):
                    continue
                captures.append((gain * 16 - ORDER_VALUE[b[fr]] // 16, m))
            elif flag == PROMOTE + QUEEN:
                captures.append((800 * 16, m))
            elif flag == EN_PASSANT:
                captures.append((100 * 16 - 6, m))
        if not captures:
            return alpha
        captures.sort(reverse=True)
        # Standing pat is the score to beat (a capture need not be made).
        return self._best_reply(captures, alpha, beta, alpha, ply, mg, eg, phase, pawns)

    def _quiesce_evasions(
        self, alpha: int, beta: int, ply: int, mg: int, eg: int, phase: int, pawns: int
    ) -> int:
        """Quiescence in check: no legal move is mate; otherwise the best evasion,
        captures of the checking piece tried first."""
        state = self.state
        moves = state.generate()
        if not moves:
            return -MATE + ply
        b = state.board
        ordered = sorted(
            ((ORDER_VALUE[b[m[1]]] * 16 - ORDER_VALUE[b[m[0]]] // 16, m) for m in moves),
            reverse=True,
        )
        # In check there is no standing pat: an evasion must be played.
        return self._best_reply(ordered, alpha, beta, -MATE + ply, ply, mg, eg, phase, pawns)

    def _best_reply(
        self,
        ordered: list[tuple[int, InternalMove]],
        alpha: int,
        beta: int,
        best: int,
        ply: int,
        mg: int,
        eg: int,
        phase: int,
        pawns: int,
    ) -> int:
        """Quiescence's loop over its ``ordered`` moves: the best score found, or
        ``best`` if no move beats it; stops at the first move reaching ``beta``."""
        state = self.state
        delta = self._delta
        for _, m in ordered:
            dmg, deg, dph, dpk = delta(m)
            state.make(m)
            try:
                score = -self._quiesce(
                    -beta, -alpha, ply + 1, mg + dmg, eg + deg, phase + dph, pawns ^ dpk
                )
            finally:
                state.unmake()
            if score > best:
                best = score
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        break
        return best


class NativeSearcher(Searcher):
    """:class:`Searcher` with its hot part run by the C extension
    :mod:`parlour.chess.native` (where ``parlour compile`` built it): the same
    search, node for node -- the same moves, scores, node counts and principal
    variations -- many times as fast. The iterations, the time, MultiPV and the
    result stay in :meth:`Searcher.search`; each iteration's root search
    (``_root``, ``_root_exact``), the principal variation, the table and the
    history are the C object's, kept from search to search as the Python ones are.
    """

    def __init__(self, hash_entries: int = 400_000) -> None:
        super().__init__(hash_entries)
        self.native = native.Searcher(native_tables())

    def clear(self) -> None:
        self.native.clear()

    def _begin(
        self,
        state: ChessState,
        seconds: float | None,
        nodes: int | None,
        stop: threading.Event | None,
    ) -> float:
        start = super()._begin(state, seconds, nodes, stop)
        self.native.begin(
            state.board,
            state.color,
            state.kings,
            state.castling,
            state.ep,
            state.halfmove,
            state.hash,
            [entry[5] for entry in state.stack],
            None if seconds is None else self.deadline - time.perf_counter(),
            nodes or 0,
            stop,
            self.hash_entries,
            self.table_ceiling,
        )
        return start

    def _root(
        self,
        depth: int,
        roots: list[InternalMove],
        mg: int,
        eg: int,
        phase: int,
        pawns: int,
        alpha: int = -INFINITY,
        beta: int = INFINITY,
    ) -> tuple[int, InternalMove]:
        found = self.native.root(depth, roots, mg, eg, phase, pawns, self.seldepth, alpha, beta)
        self._counted()
        partial = self.native.partial
        if partial is not None:
            self.partial = partial
        if found is None:
            raise _Stop
        return found

    def _root_exact(
        self,
        depth: int,
        roots: list[InternalMove],
        mg: int,
        eg: int,
        phase: int,
        pawns: int,
        margin: int,
    ) -> list[tuple[InternalMove, int]]:
        scores = self.native.root_exact(depth, roots, mg, eg, phase, pawns, margin, self.seldepth)
        self._counted()
        if scores is None:
            raise _Stop
        best = max(scores)
        scored = zip(roots, scores, strict=True)
        return [(m, score) for m, score in scored if score >= best - margin]

    def _counted(self) -> None:
        self.nodes = self.native.nodes
        self.seldepth = self.native.seldepth

    def _pv(self, first: InternalMove) -> tuple[Move, ...]:
        return tuple(public_move(m) for m in self.native.pv(first))

    def _store_root(self, depth: int, score: int, move: InternalMove) -> None:
        self.native.store_root(depth, score, move)


def new_searcher(hash_entries: int = 400_000, *, native: bool = True) -> Searcher:
    """A search context: the search in C where it is built (:data:`NATIVE`) unless
    ``native`` is False, else the Python one. Both find the same."""
    if native and NATIVE:
        return NativeSearcher(hash_entries)
    return Searcher(hash_entries)


# -- the engine ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Level:
    """How one level searches: at most ``seconds`` a move; levels 1-3 to a fixed
    ``depth``, picking any move within ``margin`` centipawns of the best; levels 4-9
    a fixed number of ``nodes`` a move (so that their measured strength does not
    depend on the machine or its load, nor on which search runs: the C one finds
    the same moves as the Python one, only sooner), and the top level as deep as
    its time allows."""

    seconds: float
    depth: int | None = None
    margin: int = 0
    nodes: int | None = None
    #: Whether it plays the opening book's moves (:mod:`parlour.chess.openings`).
    book: bool = True


#: The levels. Levels 4 to 6 search about as many nodes as the Python search
#: reached in the 0.4, 0.9 and 1.5 s a move at which they were measured against
#: Stockfish (its 75,000 to 95,000 nodes a second on a quiet machine, most
#: searches stopping at 55 to 75 % of their time when the next iteration would not
#: finish); level 7 what the C search reached in 0.5 s, level 8 in 3 s and level 9
#: in 6 s on a quiet machine of 2026 (docs/benchmarks.md), before it became about
#: 1.4 times as fast (the same nodes, found sooner); a slower machine stops at the
#: time instead.
LEVELS: dict[int, Level] = {
    1: Level(0.3, depth=1, margin=220, book=False),
    2: Level(0.4, depth=2, margin=120, book=False),
    3: Level(0.5, depth=2, margin=50, book=False),
    4: Level(1.0, nodes=15_000),
    5: Level(1.0, nodes=50_000),
    6: Level(2.0, nodes=80_000),
    7: Level(3.0, nodes=640_000),
    8: Level(6.0, nodes=5_800_000),
    9: Level(10.0, nodes=11_600_000),
    10: Level(10.0),
}


def deliberate_choice(result: SearchResult, margin: int, rng: random.Random) -> Move:
    """A weak level's move from a search with exact root scores (``exact_root``):
    any root move within ``margin`` centipawns of the best, taken at random, but a
    mate the search sees is played outright (even a beginner takes a mate in one),
    and so is the best move when the search scored no root move.

    >>> from parlour.chess.rules import CHESS
    >>> state = CHESS.state_from_text("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")
    >>> result = new_searcher(native=False).search(state, depth=2, exact_root=True, margin=300)
    >>> deliberate_choice(result, 300, random.Random(1)).uci()
    'a1a8'
    """
    if not result.root_scores:
        return result.move
    best = result.root_scores[0][1]
    if abs(best) >= MATE_BOUND:
        return result.move
    return rng.choice([m for m, score in result.root_scores if score >= best - margin])


def mate_in(score: int) -> int | None:
    """Moves to mate for a score (negative: the side to move is mated), or None.

    >>> mate_in(MATE - 3), mate_in(-MATE + 2), mate_in(-(MATE - 1)), mate_in(150)
    (2, -1, -1, None)
    """
    if score >= MATE_BOUND:
        return (MATE - score + 1) // 2
    if score <= -MATE_BOUND:
        return -((MATE + score + 1) // 2)  # a mating score seen from the other side too
    return None


def _pawns(cp: int) -> str:
    n = round(cp / 100)
    return "a pawn" if n <= 1 else f"{n} pawns"


def assess(score: int, white_to_move: bool) -> str:
    """A score (centipawns from the side to move, mates as :data:`MATE` - plies) in a
    player's words.

    >>> assess(130, True)
    'White is a pawn up'
    >>> assess(MATE - 5, False)
    'Black is winning: mate in 3'
    >>> assess(-20, True)
    'about even'
    """
    white_score = score if white_to_move else -score
    leader = "White" if white_score > 0 else "Black"
    size = abs(white_score)
    if size >= MATE_BOUND:
        moves = (MATE - size + 1) // 2
        return f"{leader} is winning: mate in {moves}"
    if size < 40:
        return "about even"
    if size < 90:
        return f"{leader} is slightly better"
    if size < 450:
        return f"{leader} is {_pawns(size)} up"
    if size < 900:
        return f"{leader} is clearly winning: about {_pawns(size)} up"
    return f"{leader} is winning"


class ChessEngine(Engine[Move]):
    """The computer opponent for chess, levels 1 (a beginner) to 10.

    Levels 1-3 search shallowly, score every move and pick at random among those
    within a margin of the best: sensible moves with deliberate mistakes, always
    legal. Levels 4-10 play the opening book's moves while the game is in it (one
    of the few good moves of each position, at random, so that no two games need
    be alike), then their best within a growing number of nodes or time a move."""

    strongest = 10
    default_level = 5
    #: Measured by benchmarks/chess_match.py (docs/benchmarks.md, "The levels on
    #: Stockfish's scale" and after): level 4 against Stockfish 15.1 held to UCI_Elo
    #: 1350 and 1600 at 0.4 s a move (40 games each, 1600 twice), the levels below
    #: it each against the one above (40 games), level 5 against level 4 (18 games)
    #: and Stockfish at 2000 (22) and at 1800 (40, 0.5 s a move), level 6 against
    #: level 5 (8) and Stockfish at 1800 (22, and 40 at 0.5 s); levels 4 to 6 are the
    #: maximum-likelihood fit of all those games together; level 7 against
    #: Stockfish at 2000 (100 games, 0.5 s a move), level 8 the same way (48 games),
    #: levels 9 and 10 against Stockfish at 2200 (22 and 11 games, 0.5 s a move).
    #: Level 9's games alone put it below level 8, which it cannot be (it searches
    #: twice the nodes), so the two share the fit of their games together (the
    #: maximum-likelihood fit with the stronger never below the weaker); level 10's
    #: own fit is level with it. Each level below 4 won (nearly) no game against the
    #: one above, so their figures are upper bounds.
    level_strengths: ClassVar[Mapping[int, str]] = {
        1: "a beginner: looks one ply ahead and plays any move within about two pawns "
        "of the best; lost all 40 games to level 2: under 550 on Stockfish's UCI_Elo "
        "scale",
        2: "two plies ahead, any move within about a pawn of the best; lost 37 of 40 "
        "games to level 3: under 950 on Stockfish's UCI_Elo scale",
        3: "two plies ahead, any move within half a pawn of the best; lost all 40 games "
        "to level 4: under 1400 on Stockfish's UCI_Elo scale",
        4: "the full search to 15,000 nodes a move: about 1775 on Stockfish's UCI_Elo "
        "scale (92 % against Stockfish at UCI_Elo 1350, 81 % and 75 % at 1600, 0.4 s a "
        "move)",
        5: "the full search to 50,000 nodes a move: about 1825 on Stockfish's UCI_Elo "
        "scale (62.5 % against Stockfish at UCI_Elo 1800, 0.5 s a move, over 40 games; "
        "9 % at UCI_Elo 2000, 0.9 s a move, over 22)",
        6: "the full search to 80,000 nodes a move: about 1875 on Stockfish's UCI_Elo "
        "scale (59 % against Stockfish at UCI_Elo 1800, 0.5 s a move, over 40 games; "
        "50 % at 1.5 s a move over 22)",
        7: "the full search to 640,000 nodes a move (about 0.25 s of the search in C): "
        "about 1900 on Stockfish's UCI_Elo scale (37.5 % against Stockfish at UCI_Elo "
        "2000, 0.5 s a move, over 100 games)",
        8: "the full search to 5,800,000 nodes a move (about 2 s of the search in C): "
        "about 2025 on Stockfish's UCI_Elo scale (58 % against Stockfish at UCI_Elo "
        "2000, 0.5 s a move, over 48 games; with level 9's games, which do not tell "
        "the two apart)",
        9: "the full search to 11,600,000 nodes a move (about 4 s of the search in C): "
        "about 2025 on Stockfish's UCI_Elo scale (20 % against Stockfish at UCI_Elo "
        "2200, 0.5 s a move, over 40 games; with level 8's games, which do not tell "
        "the two apart)",
        10: "the strongest: the full search for 10 s a move: about 2100 on Stockfish's "
        "UCI_Elo scale (36 % against Stockfish at UCI_Elo 2200, 0.5 s a move, over 40 "
        "games)",
    }

    def __init__(self, *, native: bool = True, book: bool = True) -> None:
        #: The search in C where it is built (:class:`NativeSearcher`), unless
        #: ``native`` is False.
        self.searcher = new_searcher(native=native)
        #: The opening book levels 4-10 play from: None until first used, then
        #: the shipped one (:func:`.openings.shipped_book`); empty without ``book``.
        self.book: OpeningBook | None = None if book else OpeningBook({})
        self.lock = threading.Lock()

    def time_limit(self, level: int) -> float:
        self.check_level(level)
        return LEVELS[level].seconds

    def _chess_state(self, state: State[Move]) -> ChessState:
        if not isinstance(state, ChessState):
            raise TypeError(f"the chess engine plays chess, not {type(state).__name__}")
        if state.is_over():
            raise GameOverError("the game is over: there is no move to choose")
        return state

    def choose_move(
        self,
        state: State[Move],
        level: int | None = None,
        rng: random.Random | None = None,
        *,
        seconds: float | None = None,
    ) -> Move:
        chess_state = self._chess_state(state)
        level = self.check_level(self.default_level if level is None else level)
        rng = rng or random.Random()
        chosen = LEVELS[level]
        margin = chosen.margin
        seconds = chosen.seconds if seconds is None else min(chosen.seconds, seconds)
        with self.lock:
            if margin:
                result = self.searcher.search(
                    chess_state, seconds=seconds, depth=chosen.depth, exact_root=True, margin=margin
                )
                return deliberate_choice(result, margin, rng)
            if chosen.book:
                if self.book is None:
                    self.book = shipped_book()
                known = self.book.move(chess_state, rng)
                if known is not None:
                    return known
            return self.searcher.search(chess_state, seconds=seconds, nodes=chosen.nodes).move

    def winning_chances(self, score: float) -> float:
        """lichess's curve over centipawns; a mate as lichess weighs it.

        >>> engine = ChessEngine()
        >>> round(engine.winning_chances(100), 3), round(engine.winning_chances(MATE - 3), 3)
        (0.182, 0.951)
        """
        mate = mate_in(int(score))
        return winning_chances(score if mate is None else mate_as_centipawns(mate))

    def score_text(self, score: float) -> str:
        """Pawns as a PGN ``[%eval]`` writes them, or ``#3`` / ``#-3`` for a mate."""
        mate = mate_in(int(score))
        return f"{score / 100:+.2f}" if mate is None else f"#{mate}"

    def analyse(
        self,
        state: State[Move],
        *,
        seconds: float = 1.0,
        lines: int = 1,
        stop: threading.Event | None = None,
        nodes: int | None = None,
        moves: Sequence[Move] | None = None,
        depth: int | None = None,
    ) -> Analysis[Move] | None:
        """The position searched for ``seconds`` (all of them: an analysis has no
        opponent waiting) or ``nodes``, its ``lines`` best moves by MultiPV
        (among ``moves`` only, if given).

        >>> from parlour.chess.rules import CHESS
        >>> state = CHESS.state_from_text("6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1")
        >>> found = ChessEngine().analyse(state, seconds=0.2, lines=2)
        >>> found.lines[0].pv[0], found.lines[0].score == MATE - 1, len(found.lines)
        ('Ra8#', True, 2)
        """
        if state.is_over():
            return None
        chess_state = self._chess_state(state)
        with self.lock:
            result = self.searcher.search(
                chess_state,
                seconds=None if nodes else seconds,
                nodes=nodes,
                depth=depth,
                stop=stop,
                use_all_time=True,
                multipv=lines,
                searchmoves=moves,
            )
        found = tuple(
            Line(
                move, chess_state.move_to_text(move), score, move_texts(chess_state, pv or (move,))
            )
            for move, score, pv in result.lines
        )
        side = Side.FIRST if chess_state.color == WHITE else Side.SECOND
        return Analysis(side, found[0].score, found, result.depth, result.nodes, result.seconds)

    def hint(self, state: State[Move]) -> Hint[Move]:
        chess_state = self._chess_state(state)
        with self.lock:
            result = self.searcher.search(chess_state, seconds=LEVELS[self.default_level].seconds)
        return Hint(
            result.move,
            chess_state.move_to_text(result.move),
            assess(result.score, chess_state.color == WHITE),
            result.score,
        )


__all__ = [
    "MATE",
    "NATIVE",
    "ChessEngine",
    "NativeSearcher",
    "SearchInfo",
    "SearchResult",
    "Searcher",
    "assess",
    "deliberate_choice",
    "evaluate",
    "mate_in",
    "native_tables",
    "new_searcher",
]
