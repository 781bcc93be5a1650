"""The king-and-pawn ending solved: for every position of a king and a pawn against a
lone king, whether the side with the pawn wins.

A pawn ahead wins some of these endings and not others, and which is which turns on
the opposition, the key squares and who is to move -- often far beyond the search's
horizon. The database says it outright, so the engine can steer into the won ones
and away from the drawn ones.

**How it is built: retrograde analysis.** The side with the pawn is called White and
its pawn stands on files a to d (any other position is turned into one of these by
swapping the colours, or mirroring the files), so a position is the pawn's square
(24: ranks 2 to 7, files a to d), the two kings' squares and the side to move:
196,608 slots, one bit each. First the positions decided at once are marked: a pawn
that queens where the new queen (or, if a queen stalemates, a rook) cannot be taken,
a pawn that is taken, a king with no move. Then, round after round, a position with
White to move is won when one of its moves reaches a won position, and a position
with Black to move is won when every one of its moves does, or drawn as soon as one
reaches a draw. When a round changes nothing, every position still open is a draw:
White cannot force the pawn home. Slots that hold no legal position (two pieces on a
square, kings side by side, the side not to move in check) are left as draws.

The database is 24 KB and ships in the package (``parlour/chess/data``); its build
takes a few seconds (:func:`build`), and the test suite builds it again and checks
it against the shipped one and against Stockfish's verdicts.

>>> from parlour.chess.rules import CHESS
>>> opposition = CHESS.state_from_text("8/8/8/4k3/8/4K3/4P3/8 w - - 0 1")
>>> pawn_wins(opposition.board, opposition.kings, opposition.color)
False
>>> pawn_wins(opposition.board, opposition.kings, BLACK)  # Black to move gives way
True
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from importlib import resources

from parlour.chess.board import BLACK, BOARD_CELLS, PAWN, SQ64, WHITE

#: The file the database ships in.
DATABASE_FILE = "kpk-v1.bin"
#: Slots: White or Black to move, 24 pawn squares, 64 squares for each king.
SLOTS = 2 * 24 * 64 * 64

_OPEN, _WON, _DRAWN = 0, 1, 2
_KING_STEPS = ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1))


def slot(white_to_move: bool, pawn: int, white_king: int, black_king: int) -> int:
    """The slot of a position with White's pawn on files a to d (squares are 0 to 63,
    a1 = 0, b1 = 1, ..., h8 = 63).

    >>> slot(True, 8, 0, 63)  # the pawn on a2, White's king a1, Black's h8
    63
    """
    file, rank = pawn % 8, pawn // 8
    if not (file < 4 and 1 <= rank <= 6):
        raise ValueError(f"a pawn on square {pawn} is not on files a-d, ranks 2-7")
    pawn_index = (rank - 1) * 4 + file
    return ((int(not white_to_move) * 24 + pawn_index) * 64 + white_king) * 64 + black_king


def _near(a: int, b: int) -> bool:
    """Whether two squares touch (or are the same)."""
    return abs(a % 8 - b % 8) <= 1 and abs(a // 8 - b // 8) <= 1


def _king_steps(square: int) -> list[int]:
    file, rank = square % 8, square // 8
    return [
        (rank + dr) * 8 + file + df
        for dr, df in _KING_STEPS
        if 0 <= file + df < 8 and 0 <= rank + dr < 8
    ]


def _pawn_attacks(pawn: int) -> set[int]:
    """The squares White's pawn attacks."""
    file, rank = pawn % 8, pawn // 8
    return {(rank + 1) * 8 + file + df for df in (-1, 1) if 0 <= file + df < 8}


def _slides(piece_square: int, blocker: int, diagonals: bool) -> set[int]:
    """The squares a rook (or, with ``diagonals``, a queen) attacks, White's king at
    ``blocker`` standing in the way. Black's king does not block: it cannot step
    back along the line it is attacked on."""
    steps = [(0, 1), (0, -1), (1, 0), (-1, 0)]
    if diagonals:
        steps += [(1, 1), (1, -1), (-1, 1), (-1, -1)]
    attacked = set()
    for df, dr in steps:
        file, rank = piece_square % 8 + df, piece_square // 8 + dr
        while 0 <= file < 8 and 0 <= rank < 8:
            square = rank * 8 + file
            attacked.add(square)
            if square == blocker:
                break
            file, rank = file + df, rank + dr
    return attacked


def _promotion_wins(queening: int, white_king: int, black_king: int) -> bool:
    """Whether a pawn that has just queened (or become a rook, where a queen would
    stalemate) on ``queening`` wins, Black to move: unless Black's king takes it or
    has no move, a queen or a rook against a bare king always wins."""
    if _near(queening, black_king) and not _near(queening, white_king):
        return False  # taken
    for diagonals in (True, False):  # a queen, else a rook
        attacked = _slides(queening, white_king, diagonals)
        escapes = [
            s for s in _king_steps(black_king) if s not in attacked and not _near(s, white_king)
        ]
        if escapes or black_king in attacked:
            return True
    return False


def build() -> bytes:
    """The database, built by retrograde analysis (see the module's docstring): one
    bit a slot, set where White wins, in :func:`slot` order.

    >>> len(build())
    24576
    """
    value = bytearray(SLOTS)  # _OPEN, _WON or _DRAWN
    moves: list[list[int]] = [[] for _ in range(SLOTS)]
    for pawn_index in range(24):
        pawn = (pawn_index // 4 + 1) * 8 + pawn_index % 4
        attacks = _pawn_attacks(pawn)
        for white_king in range(64):
            for black_king in range(64):
                if pawn in (white_king, black_king) or _near(white_king, black_king):
                    continue
                _white_moves(value, moves, pawn, white_king, black_king, attacks)
                _black_moves(value, moves, pawn, white_king, black_king, attacks)
    changed = True
    while changed:
        changed = False
        for index in range(SLOTS):
            if value[index] != _OPEN:
                continue
            outcomes = [value[after] for after in moves[index]]
            if index < SLOTS // 2:  # White to move: one winning move will do
                if _WON in outcomes:
                    value[index] = _WON
                    changed = True
                elif all(outcome == _DRAWN for outcome in outcomes):
                    value[index] = _DRAWN
                    changed = True
            elif _DRAWN in outcomes:  # Black to move: one drawing move will do
                value[index] = _DRAWN
                changed = True
            elif all(outcome == _WON for outcome in outcomes):
                value[index] = _WON
                changed = True
    bits = bytearray(SLOTS // 8)
    for index in range(SLOTS):
        if value[index] == _WON:
            bits[index >> 3] |= 1 << (index & 7)
    return bytes(bits)


def _white_moves(
    value: bytearray,
    moves: list[list[int]],
    pawn: int,
    white_king: int,
    black_king: int,
    attacks: set[int],
) -> None:
    """Marks or links the position with White to move (if legal)."""
    index = slot(True, pawn, white_king, black_king)
    if black_king in attacks:
        value[index] = _DRAWN  # Black in check with White to move: no such position
        return
    ahead = pawn + 8
    if ahead not in (white_king, black_king):
        if ahead >= 56:
            if _promotion_wins(ahead, white_king, black_king):
                value[index] = _WON
                return
        else:
            moves[index].append(slot(False, ahead, white_king, black_king))
            if pawn < 16 and pawn + 16 not in (white_king, black_king):
                moves[index].append(slot(False, pawn + 16, white_king, black_king))
    for step in _king_steps(white_king):
        if step != pawn and not _near(step, black_king):
            moves[index].append(slot(False, pawn, step, black_king))
    if not moves[index]:
        value[index] = _DRAWN  # stalemate (or a promotion that loses the queen)


def _black_moves(
    value: bytearray,
    moves: list[list[int]],
    pawn: int,
    white_king: int,
    black_king: int,
    attacks: set[int],
) -> None:
    """Marks or links the position with Black to move."""
    index = slot(False, pawn, white_king, black_king)
    for step in _king_steps(black_king):
        if _near(step, white_king) or step in attacks:
            continue
        if step == pawn:
            value[index] = _DRAWN  # the pawn is taken
            return
        moves[index].append(slot(True, pawn, white_king, step))
    if not moves[index]:
        value[index] = _WON if black_king in attacks else _DRAWN  # mate, stalemate


@cache
def shipped_database() -> bytes:
    """The database that ships in the package (built again by :func:`build`)."""
    return resources.files("parlour.chess").joinpath("data", DATABASE_FILE).read_bytes()


def pawn_wins(board: Sequence[int], kings: Sequence[int], color: int) -> bool:
    """Whether the side with the pawn wins, on a mailbox ``board`` (as
    :class:`~parlour.chess.rules.ChessState` keeps it) holding the two kings and one
    pawn only, ``color`` to move."""
    pawn_cells = [c for c in BOARD_CELLS if board[c] & 7 == PAWN]
    if len(pawn_cells) != 1:
        raise ValueError(f"king and pawn against king has one pawn, not {len(pawn_cells)}")
    pawn_cell = pawn_cells[0]
    return lone_pawn_wins(pawn_cell, board[pawn_cell] & (WHITE | BLACK), kings, color)


def lone_pawn_wins(pawn_cell: int, pawn_color: int, kings: Sequence[int], color: int) -> bool:
    """:func:`pawn_wins` for a pawn of ``pawn_color`` on the mailbox cell
    ``pawn_cell``, the kings on theirs (White's first), ``color`` to move: for an
    evaluation that has found the pawn already."""
    # Seen with the pawn's side moving up the board, the pawn on files a to d.
    flip = 0 if pawn_color == WHITE else 56
    strong = 0 if pawn_color == WHITE else 1
    pawn = SQ64[pawn_cell] ^ flip
    strong_king = SQ64[kings[strong]] ^ flip
    weak_king = SQ64[kings[1 - strong]] ^ flip
    if pawn % 8 > 3:
        pawn, strong_king, weak_king = pawn ^ 7, strong_king ^ 7, weak_king ^ 7
    index = slot(color == pawn_color, pawn, strong_king, weak_king)
    return bool(shipped_database()[index >> 3] >> (index & 7) & 1)
