"""The checkers endgame database: every position of up to four pieces, or five,
solved.

For each position with four pieces or fewer on the board (five, once built) and
either side to move, the database says whether the side to move wins, loses or
draws with best play, and for a decided position in how many plies the game ends:
the winner hurrying, the loser holding out. The engine's search reads it instead of
searching on, so it converts a won ending by the shortest route and never lets one
go.

**How it is built: retrograde analysis.** Every position is numbered (below) and
its moves are generated with array operations, for many positions at once. A side
with no move has lost (in 0 plies). A position with a move to a position lost in
``n`` plies is won in ``n + 1`` (the quickest such move counts); a position all of
whose moves lead to positions won by the other side is lost in one ply more than
the longest of them. Settling positions in increasing order of plies until none is
left, every position still open is a draw: neither side can force a win from it.
Rules of play such as the 40-move rule are not part of it -- the values are the
game's own.

The table is solved a material class at a time (see "solving by material" below),
so that only one class's moves are in memory at once: the five-piece table's 216
million positions in 2.5 GB. (The first solver, :func:`solve_at_once`, held every
move of the table together and settled one ply a round; the two give the same
codes byte for byte.)

**Positions, seen by the side to move.** The board is turned so that the side to
move always moves down the board, as Black does: a position with White to move is
turned half a turn (square ``n`` becomes ``33 - n``) and the colours swapped. This
halves the table. A position is then its pieces in square order, each one of four
kinds (a man or a king of the side to move, a man or a king of the other side), and
its number is found by arithmetic rather than looked up: the combinatorial number
system ranks the set of squares, and the kinds follow, two bits a piece. Slots for
impossible positions (a man on the row where it would have been crowned, a side
with no pieces) are kept, unused, so the numbering stays simple: 9,531,136 slots
up to four pieces, 215,740,160 up to five, one byte each; the table of fewer pieces
is the start of the bigger one.

The four-piece table is built in about 20 seconds and ships in the package (2.4 MB
compressed, ``parlour/checkers/data``); ``parlour checkers-endgames`` builds it
again where it is missing. The five-piece table is too big to ship (80 MB
compressed): ``parlour checkers-endgames --pieces 5`` builds it into the cache
(``~/.cache/parlour``; about 9 minutes of one core, 2.7 GB of memory at most), and
from then on the engine reads it (:func:`shipped_database`).

>>> from parlour.checkers.notation import parse_fen
>>> db = EndgameDatabase.build(pieces=3)  # up to three pieces: a second or two
>>> position, turn = parse_fen("W:WK18:BK1,K5")  # two kings against one
>>> db.probe(position, turn)
Verdict(result='loss', plies=...)
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable, Collection
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
#: The most pieces a table is built for (``parlour checkers-endgames --pieces 5``).
MOST = 5
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
_COMB = np.array([[comb(n, k) for k in range(MOST + 2)] for n in range(SQUARES + 1)])


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


def solve_at_once(pieces: int = PIECES, chunk: int = 1 << 20) -> Codes:
    """Every position of up to ``pieces`` pieces, solved by retrograde analysis all
    at once: every move of every position in memory together, the plies of a
    position the round that settles it. The first solver, kept as the reference
    :func:`solve` is tested against (its memory grows with the whole table: four
    pieces take 1.6 GB)."""
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


# -- solving by material -------------------------------------------------------------
#
# Five pieces are 216 million slots, and their moves do not fit in memory together.
# So the table is solved a *unit* at a time: a material class (how many men and
# kings each side has, the side to move first) together with its mirror (the same
# pieces, the other side to move), as a quiet move leads from a class into its
# mirror. A capture leads to fewer pieces and a man crowned to one man fewer: solving
# the units by pieces, and among as many pieces by men, every move leads into the
# unit itself or into one solved before it, whose codes are read from the table.
#
# Within a unit the plies are settled in increasing order, as in the rounds of
# :func:`solve_at_once`, but a position's plies come from its children's, whatever
# they are: a move to a position solved before, lost in 40 plies, makes a win in 41
# however few plies the unit's own positions have settled so far. So each position
# starts with what its moves out of the unit say (the quickest win they give; for a
# position all of whose moves go to won positions, at least the longest of those),
# and each ply settled within the unit is passed back along its moves to the
# positions before it.

#: A material class: the men and kings of the side to move, then the other side's.
Material = tuple[int, int, int, int]

#: A unit's plies are kept in 16 bits: this stands for "not (yet) known".
_NEVER = np.iinfo(np.int16).max


def _mirror(material: Material) -> Material:
    men, kings, other_men, other_kings = material
    return other_men, other_kings, men, kings


def units(pieces: int = PIECES) -> list[tuple[Material, ...]]:
    """The material classes of two to ``pieces`` pieces, each with its mirror, in
    the order they are solved: fewer pieces first, and among as many pieces, fewer
    men first.

    >>> units(2)
    [((0, 1, 0, 1),), ((0, 1, 1, 0), (1, 0, 0, 1)), ((1, 0, 1, 0),)]
    """
    found: list[tuple[Material, ...]] = []
    for n in range(2, pieces + 1):
        classes = [
            (men, kings, other_men, n - men - kings - other_men)
            for men, kings, other_men in product(range(n + 1), repeat=3)
            if men + kings + other_men <= n and men + kings and n - men - kings
        ]
        seen: set[Material] = set()
        for material in sorted(classes, key=lambda m: (m[0] + m[2], m)):
            if material not in seen:
                unit = tuple(dict.fromkeys((material, _mirror(material))))
                seen.update(unit)
                found.append(unit)
    return found


def describe(unit: tuple[Material, ...]) -> str:
    """A unit in words.

    >>> describe(((1, 1, 0, 2), (0, 2, 1, 1)))
    'a man and a king against 2 kings, either side to move'
    """

    def side(men: int, kings: int) -> str:
        words = []
        if men:
            words.append("a man" if men == 1 else f"{men} men")
        if kings:
            words.append("a king" if kings == 1 else f"{kings} kings")
        return " and ".join(words)

    men, kings, other_men, other_kings = unit[0]
    words = f"{side(men, kings)} against {side(other_men, other_kings)}"
    return words + (", either side to move" if len(unit) == 2 else "")


@cache
def _kind_counts(n: int) -> Array:
    """For each way of giving ``n`` pieces their kinds (two bits a piece, as a
    slot numbers them), how many of each kind: an array of ``4**n`` rows of four."""
    kinds = np.arange(4**n)[:, None] >> (2 * np.arange(n)) & 3
    return np.stack([(kinds == kind).sum(axis=1) for kind in range(4)], axis=1)


@cache
def _square_sets(n: int) -> Masks:
    """Every set of ``n`` squares as its ``n`` one-bit masks, lowest first, in the
    order of the set's rank (the combinatorial number system, as :func:`_index`
    counts)."""
    squares = np.array(list(combinations(range(SQUARES), n)), dtype=np.int64)
    rank = sum(_COMB[squares[:, j], j + 1] for j in range(n))
    ordered = np.empty_like(squares)
    ordered[rank] = squares
    sets: Masks = np.uint64(1) << ordered.astype(np.uint64)
    return sets


class _Unit:
    """The positions of a unit, numbered from 0 within it: each set of squares in
    the order of its rank, and on each set, each way of putting the unit's pieces
    on it (its *patterns*: the kinds of a slot, two bits a piece)."""

    def __init__(self, classes: tuple[Material, ...]) -> None:
        self.classes = classes
        n = self.pieces = sum(classes[0])
        counts = _kind_counts(n)
        wanted = np.zeros(len(counts), dtype=bool)
        for material in classes:
            wanted |= (counts == material).all(axis=1)
        self.patterns = np.flatnonzero(wanted)
        #: A slot's kinds -> its pattern here, or -1 for pieces of another unit.
        self.column = np.full(len(counts), -1, dtype=np.int64)
        self.column[self.patterns] = np.arange(len(self.patterns))
        self.first = _offsets(n)[n]
        self.size = comb(SQUARES, n) * len(self.patterns)

    def boards(self, local: Array) -> tuple[Masks, Masks, Masks, Masks, npt.NDArray[np.bool_]]:
        """The positions numbered ``local`` (as :func:`_all_positions` gives them)."""
        rank, column = np.divmod(local, len(self.patterns))
        kinds = self.patterns[column]
        sets = _square_sets(self.pieces)[rank]
        boards = [np.zeros(len(local), dtype=np.uint64) for _ in range(4)]
        for j in range(self.pieces):
            kind = kinds >> (2 * j) & 3
            for k, board in enumerate(boards):
                board |= np.where(kind == k, sets[:, j], np.uint64(0))
        men, kings, other_men, other_kings = boards
        real = ((men & FAR_ROW) == 0) & ((other_men & NEAR_ROW) == 0)
        return men, kings, other_men, other_kings, real

    def slots(self, local: Array) -> Array:
        """The table's slots of the positions numbered ``local``."""
        rank, column = np.divmod(local, len(self.patterns))
        slots: Array = self.first + (rank << 2 * self.pieces) + self.patterns[column]
        return slots

    def local(self, slots: Array) -> Array:
        """The number here of the position in each slot, or -1 for one outside."""
        relative = slots - self.first
        inside = relative >= 0
        relative = np.where(inside, relative, 0)
        column = self.column[relative & (4**self.pieces - 1)]
        found: Array = np.where(
            inside & (column >= 0), (relative >> 2 * self.pieces) * len(self.patterns) + column, -1
        )
        return found


def _check_solved(children: Array, solved: dict[int, npt.NDArray[np.bool_]]) -> None:
    """Make sure every child outside the unit is in a class solved already (the
    order of :func:`units` sees to it; a mistake there would read unsolved
    positions as draws)."""
    offsets = _offsets(max(solved))
    for n, kinds_solved in solved.items():
        here = children[(children >= offsets[n]) & (children < offsets[n + 1])]
        if not kinds_solved[(here - offsets[n]) & (4**n - 1)].all():
            raise RuntimeError("a move leads to a position not solved yet")


def _solve_unit(
    unit: _Unit,
    codes: Codes,
    solved: dict[int, npt.NDArray[np.bool_]],
    chunk: int,
    report: Callable[[float, str], None],
) -> None:
    """Solve the positions of ``unit`` into ``codes``, every move out of it leading
    to a position solved already; ``report`` is told how far it has got (the part
    done, and in words)."""
    size = unit.size
    # The plies each position is known to be settled at (_NEVER: not known yet).
    due = np.full(size, _NEVER, dtype=np.int16)
    # For a loss: the longest of its moves out of the unit (to positions won, in
    # plies + 1), and how many of its moves within the unit are not known won.
    longest = np.zeros(size, dtype=np.int16)
    open_moves = np.zeros(size, dtype=np.int32)
    # Positions that cannot lose: a move out of the unit to a draw or to a loss for
    # the other side (a win, then), or not a position at all.
    cannot_lose = np.zeros(size, dtype=bool)
    edges: list[npt.NDArray[np.uint64]] = []  # the moves within: (child << 32) | parent
    for start in range(0, size, chunk):
        report(start / size * 0.8, f"moves {start / size:.0%}")
        stop = min(start + chunk, size)
        local = np.arange(start, stop)
        men, kings, other_men, other_kings, real = unit.boards(local)
        cannot_lose[local[~real]] = True
        parent, child = _moves(
            local[real], men[real], kings[real], other_men[real], other_kings[real], unit.pieces
        )
        del men, kings, other_men, other_kings
        here = unit.local(child)
        inside = here >= 0
        parent_in = parent[inside]
        open_moves[start:stop] += np.bincount(parent_in - start, minlength=stop - start).astype(
            np.int32
        )
        edges.append(
            (here[inside].astype(np.uint64) << np.uint64(32)) | parent_in.astype(np.uint64)
        )
        parent, child = parent[~inside], child[~inside]
        _check_solved(child, solved)
        # A move taking the last piece leads to a loss in 0 plies (code 1).
        code = np.where(child < 0, 1, codes[np.maximum(child, 0)]).astype(np.int16)
        lost = code % 2 == 1
        np.minimum.at(due, parent[lost], code[lost])  # a win: one ply more than the loss
        won = (code > 0) & ~lost
        np.maximum.at(longest, parent[won], code[won])
        cannot_lose[parent[~won]] = True
    report(0.8, "moves 100%")
    moves = np.concatenate(edges)
    del edges
    moves.sort()
    # The moves into each position: before[starts[i] : starts[i + 1]] are from where.
    starts = np.searchsorted(moves, np.arange(size + 1, dtype=np.uint64) << np.uint64(32))
    before = (moves & np.uint64(0xFFFFFFFF)).astype(np.int32)
    del moves
    # Lost without a move within the unit: no move at all (0 plies), or only moves out
    # of it to won positions.
    losing = ~cannot_lose & (open_moves == 0)
    due[losing] = longest[losing]
    found = np.zeros(size, dtype=np.uint8)
    while (plies := int(due.min())) != _NEVER:
        if plies > 254:
            raise ValueError("a position takes more than 254 plies: widen the codes")
        report(0.8 + 0.2 * plies / 255, f"plies {plies}")
        now = np.flatnonzero(due == plies)
        due[now] = _NEVER
        found[now] = plies + 1
        counts = starts[now + 1] - starts[now]
        ends = np.cumsum(counts)
        parents = before[np.repeat(starts[now] - ends + counts, counts) + np.arange(ends[-1])]
        parents = parents[found[parents] == 0]
        if plies % 2:  # won: each position before has one open move fewer
            np.subtract.at(open_moves, parents, 1)
            lost = parents[open_moves[parents] == 0]
            lost = lost[~cannot_lose[lost]]
            due[lost] = np.maximum(longest[lost], plies + 1)
        else:  # lost: the positions before are won, in one ply more if not sooner
            due[parents] = np.minimum(due[parents], plies + 1)
    for start in range(0, size, chunk):
        local = np.arange(start, min(start + chunk, size))
        codes[unit.slots(local)] = found[local]


def solve(
    pieces: int = PIECES,
    known: EndgameDatabase | None = None,
    chunk: int = 1 << 19,
    progress: Callable[[str], None] | None = None,
    only: Collection[Material] | None = None,
) -> Codes:
    """Every position of up to ``pieces`` pieces, solved by retrograde analysis a
    unit at a time (see above): the memory of the largest unit, not of the table.
    The positions of ``known``'s pieces are taken from it, not solved again;
    ``progress`` is told which unit is being solved and how far it has got. With
    ``only``, just the units of those classes are solved (their moves must lead to
    them or to ``known``; the other codes stay 0)."""
    codes = np.zeros(slot_count(pieces), dtype=np.uint8)
    solved = {n: np.zeros(4**n, dtype=bool) for n in range(2, pieces + 1)}
    if known is not None:
        if known.pieces > pieces:
            raise ValueError(f"a table of {known.pieces} pieces is more than {pieces}")
        codes[: len(known.codes)] = known.codes
        for n in range(2, known.pieces + 1):
            solved[n][:] = True
    todo = [
        unit
        for unit in units(pieces)
        if not solved[sum(unit[0])].all() and (only is None or not set(unit).isdisjoint(only))
    ]
    sizes = [_Unit(unit).size for unit in todo]
    total, done = sum(sizes), 0
    for number, (classes, size) in enumerate(zip(todo, sizes, strict=True), 1):
        unit = _Unit(classes)
        heading = f"{number}/{len(todo)} {describe(classes)} ({size:,} positions)"

        def report(
            part: float, words: str, heading: str = heading, size: int = size, done: int = done
        ) -> None:
            if progress is not None:
                progress(f"{(done + part * size) / total:6.1%}  {heading}: {words}")

        _solve_unit(unit, codes, solved, chunk, report)
        for material in classes:
            solved[unit.pieces] |= (_kind_counts(unit.pieces) == material).all(axis=1)
        done += size
    if progress is not None:
        progress(f"{1:6.1%}  all {len(todo)} units solved")
    return codes


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
        """Write the table to ``path``, whole or not at all: compressed (``.npz``)
        or as the bare codes (``.npy``, which :meth:`load` maps into memory)."""
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_suffix(f".{os.getpid()}.partial{path.suffix}")
        if path.suffix == ".npy":
            np.save(partial, self.codes)
        else:
            np.savez_compressed(partial, codes=self.codes, pieces=self.pieces, version=VERSION)
        partial.replace(path)

    @classmethod
    def load(cls, path: Path) -> EndgameDatabase:
        """The table saved at ``path``. A ``.npy`` file is mapped into memory, not
        read: the five-piece table's 216 MB are there at once, and processes that
        map it share one copy (its version is in its name)."""
        if path.suffix == ".npy":
            codes = np.load(path, mmap_mode="c").view(np.ndarray)  # a plain array: quick to index
            pieces = next((n for n in range(2, MOST + 1) if slot_count(n) == len(codes)), None)
            if pieces is None:
                raise ValueError(f"{path} holds {len(codes):,} codes: no table has as many")
            return cls(pieces, codes)
        with np.load(path) as data:
            if int(data["version"]) != VERSION:
                raise ValueError(f"{path} is of another version; rebuild it")
            return cls(int(data["pieces"]), data["codes"])


#: Where the shipped table lives.
SHIPPED = Path(__file__).parent / "data" / f"endgames-{PIECES}-v{VERSION}.npz"


def table_file(pieces: int) -> Path:
    """Where the table of up to ``pieces`` pieces is kept: the four-piece table is
    shipped in the package; a bigger one is too big to ship (the five-piece table
    is 216 MB, 80 MB compressed) and is built into the cache,
    ``$XDG_CACHE_HOME/parlour`` (``~/.cache/parlour``), as the bear-off database is,
    uncompressed so that it is mapped into memory rather than read.
    """
    if pieces == PIECES:
        return SHIPPED
    root = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(root) / "parlour" / f"checkers-endgames-{pieces}-v{VERSION}.npy"


@cache
def shipped_database() -> EndgameDatabase | None:
    """The biggest table there is: the five-piece one once ``parlour
    checkers-endgames --pieces 5`` has built it, else the four-piece table shipped
    with the package; None if both are missing (a checkout that has not built
    them: the engine then searches endings as it does the rest)."""
    for pieces in range(MOST, 1, -1):
        path = table_file(pieces)
        if path.exists():
            return EndgameDatabase.load(path)
    return None


class _Progress:
    """Progress on standard error: one line rewritten in place on a terminal, else
    a line every half minute."""

    def __init__(self) -> None:
        self.terminal = sys.stderr.isatty()
        self.last = time.monotonic()

    def __call__(self, text: str) -> None:
        now = time.monotonic()
        if self.terminal:
            print(f"\r{text}\033[K", end="", file=sys.stderr, flush=True)
        elif now - self.last >= 30:
            print(text, file=sys.stderr, flush=True)
            self.last = now

    def close(self) -> None:
        if self.terminal:
            print(file=sys.stderr)


def build(pieces: int, path: Path) -> None:
    """Build the table of up to ``pieces`` pieces into ``path``, reporting progress;
    the positions of a smaller table already there are taken from it."""
    known = None
    for fewer in range(pieces - 1, 1, -1):
        if table_file(fewer).exists():
            known = EndgameDatabase.load(table_file(fewer))
            break
    progress = _Progress()
    codes = solve(pieces, known, progress=progress)
    progress.close()
    EndgameDatabase(pieces, codes).save(path)


def main(pieces: int = PIECES) -> int:
    """``parlour checkers-endgames [--pieces 5]``: say what the table of up to
    ``pieces`` pieces holds, building it first if it is missing (delete the file to
    build it again)."""
    path = table_file(pieces)
    if not path.exists():
        print(f"building the checkers endgame database of up to {pieces} pieces...", flush=True)
        started = time.monotonic()
        build(pieces, path)
        print(f"built in {time.monotonic() - started:.0f} s")
    db = EndgameDatabase.load(path)
    codes = db.codes
    counts = np.bincount(codes, minlength=256)  # a code is 1 + plies: even codes are won
    won, lost = int(counts[2::2].sum()), int(counts[1::2].sum())
    longest_win = 2 * int(np.flatnonzero(counts[2::2]).max(initial=0)) + 1
    longest_loss = 2 * int(np.flatnonzero(counts[1::2]).max(initial=0))
    print(
        f"{path}: up to {db.pieces} pieces, {len(codes):,} slots, "
        f"{path.stat().st_size / 1e6:.1f} MB; {won + lost:,} positions decided "
        f"({won:,} won and {lost:,} lost for the side to move), the longest win "
        f"{longest_win} plies, the longest loss {longest_loss}"
    )
    return 0
