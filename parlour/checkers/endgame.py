"""The checkers endgame database: every position of up to four pieces, solved.

For each position with four pieces or fewer on the board and either side to move,
the database says whether the side to move wins, loses or draws with best play, and
for a decided position in how many plies the game ends: the winner hurrying, the
loser holding out. The engine's search reads it instead of searching on, so it
converts a won ending by the shortest route and never lets one go.

**How it is built: retrograde analysis.** Every position is numbered (below); the
moves from each are generated for all positions at once with array operations. A
side with no move has lost (in 0 plies). Then, round after round: a position with a
move to a position lost in ``t - 1`` plies is won in ``t``; a position all of whose
moves lead to positions won by the other side, the last of them settled in round
``t - 1``, is lost in ``t``. When a round settles nothing, every position left is a
draw: neither side can force a win from it. Rules of play such as the 40-move rule
are not part of it -- the values are the game's own.

**Positions, seen by the side to move.** The board is turned so that the side to
move always moves down the board, as Black does: a position with White to move is
turned half a turn (square ``n`` becomes ``33 - n``) and the colours swapped. This
halves the table. A position is then its pieces in square order, each one of four
kinds (a man or a king of the side to move, a man or a king of the other side), and
its number is found by arithmetic rather than looked up: the combinatorial number
system ranks the set of squares, and the kinds follow, two bits a piece. Slots for
impossible positions (a man on the row where it would have been crowned, a side
with no pieces) are kept, unused, so the numbering stays simple: 9,531,136 slots,
one byte each.

Building takes about 20 seconds here; the table ships in the package (2.4 MB
compressed, ``parlour/checkers/data``), and ``parlour checkers-endgames`` builds it
again where it is missing.

>>> from parlour.checkers.notation import parse_fen
>>> db = EndgameDatabase.build(pieces=3)  # up to three pieces: a second or two
>>> position, turn = parse_fen("W:WK18:BK1,K5")  # two kings against one
>>> db.probe(position, turn)
Verdict(result='loss', plies=...)
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from functools import cache
from itertools import combinations, product
from math import comb
from pathlib import Path
from typing import Literal

import numpy as np
import numpy.typing as npt

from parlour.checkers.board import BIT_SQUARE, BLACK, CROWN_ROW, SQUARE_BIT, WHITE, Position, bits
from parlour.core.protocol import Side

#: The most pieces the shipped database holds.
PIECES = 4
#: Bump when the numbering or the file's layout changes.
VERSION = 1

Array = npt.NDArray[np.int64]
Masks = npt.NDArray[np.uint64]

# -- the board, turned so that the side to move moves down -------------------------
#
# Square n (1-32) is bit n - 1. Row 0 is the top (squares 1-4); the side to move
# moves towards row 7, where its men are crowned; the other side's men go up.

SQUARES = 32
#: The four diagonals as (row, column) steps: the mover's men use the first two.
DIRECTIONS = ((1, -1), (1, 1), (-1, -1), (-1, 1))
FULL = np.uint64((1 << SQUARES) - 1)
#: The mover's crowning row (squares 29-32) and the other side's (1-4).
FAR_ROW = np.uint64(0xF << 28)
NEAR_ROW = np.uint64(0xF)


def _bit(row: int, column: int) -> int:
    """The bit of the dark square at ``row``, ``column``, or -1 off the board."""
    if 0 <= row < 8 and 0 <= column < 8 and (row + column) % 2 == 1:
        return 4 * row + column // 2
    return -1


def _tables() -> tuple[Masks, Masks, Array]:
    """For each bit and direction: the neighbouring square's mask (the square
    stepped to, or the piece jumped), the square beyond it (where a jump lands),
    and that square's bit; masks 0 and bit 0 where the board ends."""
    step = np.zeros((SQUARES, 4), dtype=np.uint64)
    land = np.zeros((SQUARES, 4), dtype=np.uint64)
    land_bit = np.zeros((SQUARES, 4), dtype=np.int64)
    for b in range(SQUARES):
        row = b // 4
        column = 2 * (b % 4) + (1 if row % 2 == 0 else 0)
        for d, (dr, dc) in enumerate(DIRECTIONS):
            near = _bit(row + dr, column + dc)
            far = _bit(row + 2 * dr, column + 2 * dc)
            if near >= 0:
                step[b, d] = 1 << near
            if near >= 0 and far >= 0:
                land[b, d] = 1 << far
                land_bit[b, d] = far
    return step, land, land_bit


STEP, LAND, LAND_BIT = _tables()

#: Bits reversed within a byte: turning the board half a turn reverses all 32.
_REVERSED_BYTE = np.array([int(f"{i:08b}"[::-1], 2) for i in range(256)], dtype=np.uint64)


def _turned(masks: Masks) -> Masks:
    """Each mask turned half a turn (bit ``b`` to bit ``31 - b``)."""
    r = _REVERSED_BYTE
    turned: Masks = (
        (r[masks & np.uint64(255)] << np.uint64(24))
        | (r[(masks >> np.uint64(8)) & np.uint64(255)] << np.uint64(16))
        | (r[(masks >> np.uint64(16)) & np.uint64(255)] << np.uint64(8))
        | r[(masks >> np.uint64(24)) & np.uint64(255)]
    )
    return turned


def _lowest(masks: Masks) -> Masks:
    return masks & (~masks + np.uint64(1))


def _bit_index(single: Masks) -> Array:
    """The index of the one bit set in each mask (powers of two are exact floats)."""
    return np.log2(np.maximum(single, np.uint64(1)).astype(np.float64)).astype(np.int64)


# -- numbering ----------------------------------------------------------------------

#: The four kinds of piece, seen by the side to move.
MOVER_MAN, MOVER_KING, OTHER_MAN, OTHER_KING = range(4)
_COMB = np.array([[comb(n, k) for k in range(PIECES + 2)] for n in range(SQUARES + 1)])


def _offsets(pieces: int) -> list[int]:
    """Where the slots of ``n`` pieces begin, for n = 0 .. pieces + 1 (the last:
    the table's size). Two pieces is the fewest a position has."""
    offsets = [0, 0, 0]
    for n in range(2, pieces + 1):
        offsets.append(offsets[-1] + comb(SQUARES, n) * 4**n)
    return offsets


def slot_count(pieces: int = PIECES) -> int:
    """The number of slots in a table of up to ``pieces`` pieces.

    >>> slot_count(4)
    9531136
    """
    return _offsets(pieces)[-1]


def _index(
    mover_men: Masks, mover_kings: Masks, other_men: Masks, other_kings: Masks, pieces: int
) -> Array:
    """The slot of each position (each side with a piece or more, at most
    ``pieces`` in all)."""
    occupied = mover_men | mover_kings | other_men | other_kings
    rank = np.zeros(len(occupied), dtype=np.int64)
    kinds = np.zeros(len(occupied), dtype=np.int64)
    count = np.zeros(len(occupied), dtype=np.int64)
    for j in range(pieces):
        low = _lowest(occupied)
        here = low != 0
        b = _bit_index(low)
        kind = (
            (mover_kings & low != 0) * MOVER_KING
            + (other_men & low != 0) * OTHER_MAN
            + (other_kings & low != 0) * OTHER_KING
        )
        rank += np.where(here, _COMB[b, j + 1], 0)
        kinds += np.where(here, kind << (2 * j), 0)
        count += here
        occupied = occupied ^ low
    offsets = np.array(_offsets(pieces), dtype=np.int64)
    return offsets[count] + rank * (np.int64(4) ** count) + kinds


def _all_positions(pieces: int) -> tuple[Masks, Masks, Masks, Masks, npt.NDArray[np.bool_]]:
    """Every slot's position (mover's men, mover's kings, other men, other kings)
    and whether it is a real one."""
    size = slot_count(pieces)
    boards = [np.zeros(size, dtype=np.uint64) for _ in range(4)]
    for n in range(2, pieces + 1):
        # Every set of n squares with every kind on each: its boards, put in the
        # slot that numbering gives them.
        squares = np.array(list(combinations(range(SQUARES), n)), dtype=np.int64)
        kinds = np.array(list(product(range(4), repeat=n)), dtype=np.int64)
        made = [
            np.asarray(
                sum(
                    np.outer(np.uint64(1) << squares[:, j].astype(np.uint64), kinds[:, j] == kind)
                    for j in range(n)
                ),
                dtype=np.uint64,
            ).ravel()
            for kind in range(4)
        ]
        men, kings, other_men, other_kings = made
        slots = _index(men, kings, other_men, other_kings, pieces)
        for board, masks in zip(boards, made, strict=True):
            board[slots] = masks
    men, kings, other_men, other_kings = boards
    real = (
        ((men | kings) != 0)
        & ((other_men | other_kings) != 0)
        & ((men & FAR_ROW) == 0)
        & ((other_men & NEAR_ROW) == 0)
    )
    return men, kings, other_men, other_kings, real


# -- moves, for many positions at once ---------------------------------------------


@dataclass
class _Pieces:
    """One piece of each of many positions, lifted off the board to be moved:
    which position, where it stands, whether a king, and the rest of the board."""

    parent: Array
    at: Array
    king: npt.NDArray[np.bool_]
    men: Masks
    kings: Masks
    other_men: Masks
    other_kings: Masks

    def take(self, chosen: npt.NDArray[np.bool_]) -> _Pieces:
        return _Pieces(
            self.parent[chosen],
            self.at[chosen],
            self.king[chosen],
            self.men[chosen],
            self.kings[chosen],
            self.other_men[chosen],
            self.other_kings[chosen],
        )

    def empty(self) -> Masks:
        return FULL & ~(self.men | self.kings | self.other_men | self.other_kings)


def _lift_each_piece(
    parent: Array, men: Masks, kings: Masks, other_men: Masks, other_kings: Masks, most: int
) -> _Pieces:
    """Every piece of the side to move, each lifted from its own position."""
    parts = []
    movers = men | kings
    for _ in range(most):
        low = _lowest(movers)
        here = low != 0
        low_here = low[here]
        parts.append(
            _Pieces(
                parent[here],
                _bit_index(low_here),
                (kings[here] & low_here) != 0,
                men[here] & ~low_here,
                kings[here] & ~low_here,
                other_men[here],
                other_kings[here],
            )
        )
        movers = movers ^ low
    return _concatenate(parts)


def _concatenate(parts: list[_Pieces]) -> _Pieces:
    return _Pieces(
        *(
            np.concatenate([getattr(part, name) for part in parts])
            for name in ("parent", "at", "king", "men", "kings", "other_men", "other_kings")
        )
    )


def _put_down(pieces: _Pieces, pieces_most: int) -> Array:
    """The slot of the position after each lifted piece is put down where it
    stands (crowned already if it is to be), seen by the other side, who moves
    next; -1 where the other side has no pieces left (it has lost)."""
    spot = np.uint64(1) << pieces.at.astype(np.uint64)
    men = pieces.men | np.where(pieces.king, np.uint64(0), spot)
    kings = pieces.kings | np.where(pieces.king, spot, np.uint64(0))
    next_men, next_kings = _turned(pieces.other_men), _turned(pieces.other_kings)
    slots = _index(next_men, next_kings, _turned(men), _turned(kings), pieces_most)
    return np.where((next_men | next_kings) != 0, slots, -1)


def _moves(
    parent: Array, men: Masks, kings: Masks, other_men: Masks, other_kings: Masks, pieces: int
) -> tuple[Array, Array]:
    """Every legal move of every position given: pairs (position, slot after the
    move), the second -1 where the move takes the last piece. Jumps are compulsory
    and go on while they can; a man crowned on a jump stops there."""
    lifted = _lift_each_piece(parent, men, kings, other_men, other_kings, pieces - 1)
    done: list[_Pieces] = []
    frontier, jumped = lifted, False
    while len(frontier.parent):
        empty = frontier.empty()
        went_on = np.zeros(len(frontier.parent), dtype=bool)
        onward: list[_Pieces] = []
        for d in range(4):
            over, land = STEP[frontier.at, d], LAND[frontier.at, d]
            can = (
                (frontier.king | (d < 2))
                & (land != 0)
                & (((frontier.other_men | frontier.other_kings) & over) != 0)
                & ((empty & land) != 0)
            )
            if not can.any():
                continue
            went_on |= can
            moved = frontier.take(can)
            moved.other_men = moved.other_men & ~over[can]
            moved.other_kings = moved.other_kings & ~over[can]
            moved.at = LAND_BIT[moved.at, d]
            crowned = ~moved.king & ((land[can] & FAR_ROW) != 0)
            moved.king = moved.king | crowned
            done.append(moved.take(crowned))
            onward.append(moved.take(~crowned))
        if jumped:
            done.append(frontier.take(~went_on))
        frontier = _concatenate(onward) if onward else lifted.take(np.zeros(0, dtype=bool))
        jumped = True
    jumps = _concatenate(done) if done else lifted.take(np.zeros(0, dtype=bool))
    # Positions with a jump have only jumps; the others step.
    must_jump = np.isin(lifted.parent, jumps.parent)
    stepping = lifted.take(~must_jump)
    empty = stepping.empty()
    steps = []
    for d in range(4):
        to = STEP[stepping.at, d]
        can = (stepping.king | (d < 2)) & (to != 0) & ((empty & to) != 0)
        moved = stepping.take(can)
        moved.at = _bit_index(to[can])
        moved.king = moved.king | ((to[can] & FAR_ROW) != 0)
        steps.append(moved)
    played = _concatenate([jumps, *steps])
    return played.parent, _put_down(played, pieces)


# -- solving ------------------------------------------------------------------------

#: A code per slot: 0 a draw (or no position), else 1 + the plies to the end of the
#: game; an odd number of plies is a win for the side to move, even a loss.
Codes = npt.NDArray[np.uint8]


def solve(pieces: int = PIECES, chunk: int = 1 << 20) -> Codes:
    """Every position of up to ``pieces`` pieces, solved by retrograde analysis."""
    men, kings, other_men, other_kings, real = _all_positions(pieces)
    size = len(real)
    parents, children = [], []
    for start in range(0, size, chunk):
        slots = np.flatnonzero(real[start : start + chunk]) + start
        parent, child = _moves(
            slots, men[slots], kings[slots], other_men[slots], other_kings[slots], pieces
        )
        order = np.argsort(parent, kind="stable")
        parents.append(parent[order])
        children.append(child[order])
    del men, kings, other_men, other_kings
    parent = np.concatenate(parents)
    child = np.concatenate(children)
    child[child < 0] = size  # one slot past the end: a side with no pieces, lost
    unknown, won, lost = 0, 1, 2
    status = np.zeros(size + 1, dtype=np.int8)
    plies = np.zeros(size + 1, dtype=np.int16)
    status[size] = lost
    has_move = np.zeros(size, dtype=bool)
    has_move[parent] = True
    status[:size][real & ~has_move] = lost  # no move: lost, in 0 plies
    status[:size][~real] = -1  # never looked at
    t = 0
    while True:
        t += 1
        open_edges = status[parent] == unknown
        parent, child = parent[open_edges], child[open_edges]
        if not len(parent):
            break
        starts = np.flatnonzero(np.r_[True, parent[1:] != parent[:-1]])
        after = status[child]
        any_lost = np.maximum.reduceat((after == lost).view(np.int8), starts).astype(bool)
        all_won = np.minimum.reduceat((after == won).view(np.int8), starts).astype(bool)
        who = parent[starts]
        settled_won, settled_lost = who[any_lost], who[all_won & ~any_lost]
        if not len(settled_won) and not len(settled_lost):
            break
        status[settled_won] = won
        status[settled_lost] = lost
        plies[settled_won] = t
        plies[settled_lost] = t
    if plies.max() > 254:
        raise ValueError("a position takes more than 254 plies: widen the codes")
    decided = (status == won) | (status == lost)
    return np.where(decided, plies + 1, 0)[:size].astype(np.uint8)


# -- reading ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Verdict:
    """What the database says for the side to move: ``win``, ``loss`` or ``draw``,
    and for a decided position the plies until the loser has no move (the winner
    taking the shortest road, the loser the longest)."""

    result: Literal["win", "loss", "draw"]
    plies: int | None

    @classmethod
    def of(cls, code: int) -> Verdict:
        """The verdict a code of the table stands for (see :data:`Codes`).

        >>> Verdict.of(0), Verdict.of(4)
        (Verdict(result='draw', plies=None), Verdict(result='win', plies=3))
        """
        if code == 0:
            return cls("draw", None)
        plies = int(code) - 1
        return cls("win" if plies % 2 else "loss", plies)


class EndgameDatabase:
    """Solved positions of up to :attr:`pieces` pieces.

    >>> from parlour.checkers.board import WHITE
    >>> from parlour.checkers.notation import parse_fen
    >>> db = EndgameDatabase.build(pieces=2)
    >>> position, turn = parse_fen("B:WK32:BK28")  # kings side by side
    >>> db.probe(position, turn), db.probe(position, WHITE)
    (Verdict(result='draw', plies=None), Verdict(result='draw', plies=None))
    """

    def __init__(self, pieces: int, codes: Codes) -> None:
        if len(codes) != slot_count(pieces):
            raise ValueError(f"a table of {pieces} pieces has {slot_count(pieces)} slots")
        self.pieces = pieces
        self.codes = codes
        self._offsets = _offsets(pieces)

    @classmethod
    def build(cls, pieces: int = PIECES) -> EndgameDatabase:
        return cls(pieces, solve(pieces))

    def slot(self, position: Position, side: Side) -> int | None:
        """Where ``position`` with ``side`` to move is kept, or None when it has
        more pieces than the table holds or a side has none."""
        black_men, black_kings, white_men, white_kings = position
        if (black_men | black_kings | white_men | white_kings).bit_count() > self.pieces:
            return None
        if side is BLACK:
            sets = (black_men, black_kings, white_men, white_kings)
        else:
            sets = (white_men, white_kings, black_men, black_kings)
        if not (sets[0] | sets[1]) or not (sets[2] | sets[3]):
            return None  # the game is over
        squares: list[tuple[int, int]] = []  # (bit here, kind)
        for kind, mask in enumerate(sets):
            for padded in bits(mask):
                square = BIT_SQUARE[padded]
                squares.append((square - 1 if side is BLACK else SQUARES - square, kind))
        squares.sort()
        rank = kinds = 0
        for j, (b, kind) in enumerate(squares):
            rank += comb(b, j + 1)
            kinds |= kind << (2 * j)
        n = len(squares)
        return self._offsets[n] + (rank << 2 * n) + kinds

    def position(self, slot: int) -> Position:
        """The position kept at ``slot``, with Black to move (the inverse of
        :meth:`slot`); ValueError for a slot that holds no position.

        >>> db = EndgameDatabase.build(pieces=2)
        >>> from parlour.checkers.board import BLACK
        >>> kings_on_6_and_27 = (0, 1 << SQUARE_BIT[6], 0, 1 << SQUARE_BIT[27])
        >>> db.position(db.slot(kings_on_6_and_27, BLACK)) == kings_on_6_and_27
        True
        """
        n = next((n for n in range(2, self.pieces + 1) if slot < self._offsets[n + 1]), None)
        if n is None or slot < 0:
            raise ValueError(f"slot {slot} is outside the table")
        rank, kinds = divmod(slot - self._offsets[n], 4**n)
        found = [0, 0, 0, 0]
        for j in range(n, 0, -1):  # the combinatorial number system, highest square first
            b = j - 1
            while comb(b + 1, j) <= rank:
                b += 1
            rank -= comb(b, j)
            kind = kinds >> (2 * (j - 1)) & 3
            found[kind] |= 1 << SQUARE_BIT[b + 1]
        men, kings, other_men, other_kings = found
        if (
            not (men | kings)
            or not (other_men | other_kings)
            or men & CROWN_ROW[BLACK]
            or other_men & CROWN_ROW[WHITE]
        ):
            raise ValueError(f"slot {slot} holds no position")
        return men, kings, other_men, other_kings

    def code(self, position: Position, side: Side) -> int | None:
        """The position's code (see :data:`Codes`), or None when the table does
        not hold it. Quick enough for every node of a search."""
        slot = self.slot(position, side)
        return None if slot is None else int(self.codes[slot])

    def probe(self, position: Position, side: Side) -> Verdict | None:
        """The verdict for ``side`` to move, or None beyond the table's pieces."""
        code = self.code(position, side)
        return None if code is None else Verdict.of(code)

    def save(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_suffix(f".{os.getpid()}.partial.npz")
        np.savez_compressed(partial, codes=self.codes, pieces=self.pieces, version=VERSION)
        partial.replace(path)  # whole or not at all

    @classmethod
    def load(cls, path: Path) -> EndgameDatabase:
        with np.load(path) as data:
            if int(data["version"]) != VERSION:
                raise ValueError(f"{path} is of another version; rebuild it")
            return cls(int(data["pieces"]), data["codes"])


#: Where the shipped table lives.
SHIPPED = Path(__file__).parent / "data" / f"endgames-{PIECES}-v{VERSION}.npz"


@cache
def shipped_database() -> EndgameDatabase | None:
    """The table shipped with the package, or None if it is missing (a checkout
    that has not built it: the engine then searches endings as it does the rest)."""
    if not SHIPPED.exists():
        return None
    return EndgameDatabase.load(SHIPPED)


def main() -> int:
    """``parlour checkers-endgames``: say what the shipped table holds, building it
    first if it is missing (delete the file to build it again)."""
    path = SHIPPED
    if not path.exists():
        print(f"building the checkers endgame database of up to {PIECES} pieces...", flush=True)
        started = time.monotonic()
        EndgameDatabase.build(PIECES).save(path)
        print(f"built in {time.monotonic() - started:.0f} s")
    db = EndgameDatabase.load(path)
    codes = db.codes
    print(
        f"{path}: up to {db.pieces} pieces, {len(codes):,} slots, "
        f"{path.stat().st_size / 1e6:.1f} MB; {int((codes > 0).sum()):,} positions decided, "
        f"the longest {int(codes.max()) - 1} plies"
    )
    return 0
