"""American checkers (English draughts): the board and the moves on it.

The board is the 32 dark squares of an 8x8 board, numbered 1-32 as in every
checkers book: Black's men start on 1-12 at the top and move first, down the
board; White's start on 21-32 and move up. Square 1 is b8 and 32 is g1 (a1 is
dark), so Black's double corner is 1/5 and White's is 28/32::

        1   2   3   4            Black's men start here
      5   6   7   8
        9  10  11  12
     13  14  15  16
       17  18  19  20
     21  22  23  24
       25  26  27  28            White's men start here
     29  30  31  32

The rules, as the American Checkers Federation plays them: men step one square
diagonally forward and jump forward; kings step and jump one square in all four
diagonal directions. A jump is compulsory, a multi-jump must be finished, and the
player chooses freely among the capture sequences (no majority rule). A man that
reaches the far row is crowned and its move ends there, even in the middle of a
jump. A side with no legal move -- no pieces, or all blocked -- loses.

**Representation.** Each side's men and kings are bitboards on Python ints, in a
"padded" layout: square ``n`` on row ``r`` (0 at the top) and column ``c`` sits at
bit ``(9*r + c) // 2``, as if the board were nine columns wide. Then the four
diagonal steps are the same shift everywhere (down-left +4, down-right +5,
up-left -5, up-right -4), and a step off the left or right edge lands on one of
the unused bits 8, 17, 26, which the board mask drops. Whole-board shifts find
every step or jump of one direction at once; the jump sequences themselves walk
small per-square tables.

A game in progress (the protocol's State: moves pushed with their checks, the end of
the game, the draws) is :mod:`parlour.checkers.rules`; text is
:mod:`parlour.checkers.notation`; both stand on this module.

>>> [str(move) for move in legal_moves(START, BLACK)][:3]
['9-13', '9-14', '10-14']
>>> perft(START, BLACK, 3)
302
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

from parlour.core.protocol import Side

BLACK = Side.FIRST
WHITE = Side.SECOND

#: The number of plies without a man move or a capture after which the 40-move
#: rule may be invoked: forty moves by each side.
FORTY_MOVE_PLIES = 80


# -- the padded bit layout ----------------------------------------------------------


def _bit_of(square: int) -> int:
    row, index = divmod(square - 1, 4)
    column = 2 * index + (1 if row % 2 == 0 else 0)
    return (9 * row + column) // 2


#: Bit index of each square (index 0 unused).
SQUARE_BIT: tuple[int, ...] = (-1, *(_bit_of(n) for n in range(1, 33)))
#: Square number of each bit index (0 for the padding bits).
BIT_SQUARE: tuple[int, ...] = tuple(
    SQUARE_BIT.index(b) if b in SQUARE_BIT[1:] else 0 for b in range(35)
)
#: Every playable bit.
BOARD = sum(1 << SQUARE_BIT[n] for n in range(1, 33))
#: Where each side's men are crowned: Black on 29-32, White on 1-4.
CROWN_ROW = (
    sum(1 << SQUARE_BIT[n] for n in range(29, 33)),
    sum(1 << SQUARE_BIT[n] for n in range(1, 5)),
)
#: Bit-index steps of the four diagonals; Black's men use the first two, White's
#: men the last two, kings all four.
DOWN_LEFT, DOWN_RIGHT, UP_LEFT, UP_RIGHT = 4, 5, -5, -4
FORWARD = ((DOWN_LEFT, DOWN_RIGHT), (UP_LEFT, UP_RIGHT))
ALL_DIRECTIONS = (DOWN_LEFT, DOWN_RIGHT, UP_LEFT, UP_RIGHT)


def _on_board(bit: int) -> bool:
    return 0 <= bit < 35 and bool(BOARD >> bit & 1)


def _jump_table(directions: tuple[int, ...]) -> tuple[tuple[tuple[int, int, int], ...], ...]:
    """For each bit: the jumps in ``directions`` as (jumped bit mask, landing bit
    index, landing bit mask), only those that stay on the board."""
    table = []
    for bit in range(35):
        jumps = []
        if _on_board(bit):
            for step in directions:
                over, land = bit + step, bit + 2 * step
                if _on_board(over) and _on_board(land):
                    jumps.append((1 << over, land, 1 << land))
        table.append(tuple(jumps))
    return tuple(table)


MAN_JUMPS = (_jump_table(FORWARD[BLACK]), _jump_table(FORWARD[WHITE]))
KING_JUMPS = _jump_table(ALL_DIRECTIONS)


def bits(mask: int) -> list[int]:
    """The indices of the set bits of ``mask``, lowest first."""
    found = []
    while mask:
        low = mask & -mask
        found.append(low.bit_length() - 1)
        mask ^= low
    return found


# -- moves --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, order=True)
class Move:
    """A move: the squares the piece stands on, from its start to where it stops.

    A step has two squares (``11-15``); a jump sequence has every landing square
    (``15x24x31``), so two sequences between the same squares over different
    pieces are different moves. What is captured follows from the path.

    >>> Move((22, 15)).is_capture, Move((22, 15)).captured
    (True, (18,))
    >>> Move((11, 15)).is_capture
    False
    """

    path: tuple[int, ...]

    @property
    def start(self) -> int:
        return self.path[0]

    @property
    def end(self) -> int:
        return self.path[-1]

    @property
    def is_capture(self) -> bool:
        """Whether the move jumps (its first leg spans two rows)."""
        return len(self.path) >= 2 and is_jump(self.path[0], self.path[1])

    @property
    def captured(self) -> tuple[int, ...]:
        """The squares of the pieces jumped, in order (empty for a step)."""
        if not self.is_capture:
            return ()
        return tuple(
            BIT_SQUARE[(SQUARE_BIT[a] + SQUARE_BIT[b]) // 2]
            for a, b in zip(self.path, self.path[1:], strict=False)
        )

    def __str__(self) -> str:
        return ("x" if self.is_capture else "-").join(map(str, self.path))


def step_between(a: int, b: int) -> int | None:
    """The bit-index step from square a to square b if they are diagonal
    neighbours, else None."""
    difference = SQUARE_BIT[b] - SQUARE_BIT[a]
    return difference if difference in ALL_DIRECTIONS else None


def is_jump(a: int, b: int) -> bool:
    if not (1 <= a <= 32 and 1 <= b <= 32):
        return False
    difference = SQUARE_BIT[b] - SQUARE_BIT[a]
    if difference % 2 or difference // 2 not in ALL_DIRECTIONS:
        return False
    return _on_board(SQUARE_BIT[a] + difference // 2)


# -- move generation on bitboards ----------------------------------------------------
#
# These functions work on plain ints so that perft and the engine can use them
# without a State. ``men``/``kings`` are the side to move's pieces. Pieces that
# may go down the board (bit steps +4, +5) are Black's men and every king; up the
# board (-4, -5), White's men and every king.


def _movers(side: Side, men: int, kings: int) -> tuple[int, int]:
    """The pieces that may go down the board and those that may go up."""
    if side is BLACK:
        return men | kings, kings
    return kings, men | kings


def _steps(side: Side, men: int, kings: int, empty: int) -> list[tuple[int, int]]:
    """Every non-capturing step as (from bit, to bit)."""
    down, up = _movers(side, men, kings)
    found = []
    for to in bits(down << 4 & empty):
        found.append((to - 4, to))
    for to in bits(down << 5 & empty):
        found.append((to - 5, to))
    if up:
        for to in bits(up >> 4 & empty):
            found.append((to + 4, to))
        for to in bits(up >> 5 & empty):
            found.append((to + 5, to))
    return found


def _count_steps(side: Side, men: int, kings: int, empty: int) -> int:
    """How many non-capturing steps there are, without listing them."""
    down, up = _movers(side, men, kings)
    count = (down << 4 & empty).bit_count() + (down << 5 & empty).bit_count()
    if up:
        count += (up >> 4 & empty).bit_count() + (up >> 5 & empty).bit_count()
    return count


def _jumpers(side: Side, men: int, kings: int, opponents: int, empty: int) -> int:
    """The pieces that have at least one jump (whole-board test): a piece on bit
    i, an opponent on i + s and an empty square on i + 2s."""
    down, up = _movers(side, men, kings)
    found = down & (opponents >> 4 & empty >> 8 | opponents >> 5 & empty >> 10)
    if up:
        found |= up & (opponents << 4 & empty << 8 | opponents << 5 & empty << 10)
    return found


def _capture_paths(
    side: Side, men: int, kings: int, opponents: int, empty: int
) -> list[tuple[int, ...]]:
    """Every complete jump sequence as a tuple of bit indices, start first."""
    jumpers = _jumpers(side, men, kings, opponents, empty)
    paths: list[tuple[int, ...]] = []
    crown = CROWN_ROW[side]
    for start in bits(jumpers):
        is_king = bool(kings >> start & 1)
        table = KING_JUMPS if is_king else MAN_JUMPS[side]
        # The moving piece leaves its square, so a king may come back to it.
        _extend(table, (start,), start, opponents, empty | 1 << start, is_king, crown, paths)
    return paths


def _extend(
    table: tuple[tuple[tuple[int, int, int], ...], ...],
    path: tuple[int, ...],
    at: int,
    opponents: int,
    empty: int,
    is_king: bool,
    crown: int,
    paths: list[tuple[int, ...]],
) -> None:
    went_on = False
    for over, land, land_mask in table[at]:
        if opponents & over and empty & land_mask:
            went_on = True
            longer = (*path, land)
            if not is_king and land_mask & crown:
                paths.append(longer)  # crowned: the move ends here
            else:
                # A jumped piece is taken off at once; with one-square kings this
                # cannot change which jumps follow (a piece is never jumped twice,
                # and the squares of jumped pieces are never landing squares).
                _extend(table, longer, land, opponents ^ over, empty, is_king, crown, paths)
    if not went_on and len(path) > 1:
        paths.append(path)


def _count_captures(side: Side, men: int, kings: int, opponents: int, empty: int) -> int:
    """How many complete jump sequences there are (0 when no jump is possible)."""
    jumpers = _jumpers(side, men, kings, opponents, empty)
    if not jumpers:
        return 0
    total = 0
    crown = CROWN_ROW[side]
    for start in bits(jumpers):
        is_king = bool(kings >> start & 1)
        table = KING_JUMPS if is_king else MAN_JUMPS[side]
        total += _count_from(table, start, opponents, empty | 1 << start, is_king, crown)
    return total


def _count_from(
    table: tuple[tuple[tuple[int, int, int], ...], ...],
    at: int,
    opponents: int,
    empty: int,
    is_king: bool,
    crown: int,
) -> int:
    total = 0
    for over, land, land_mask in table[at]:
        if opponents & over and empty & land_mask:
            if not is_king and land_mask & crown:
                total += 1
            else:
                total += _count_from(table, land, opponents ^ over, empty, is_king, crown) or 1
    return total


Position = tuple[int, int, int, int]  # black men, black kings, white men, white kings


def turned(position: Position) -> Position:
    """The position turned half a turn with the colours swapped: Black's piece on
    square ``n`` becomes White's on ``33 - n``. The same game with the other side to
    move (a position's mirror for tables that keep one side to move).

    >>> turned((1 << SQUARE_BIT[9], 0, 0, 1 << SQUARE_BIT[32])) == (
    ...     0, 1 << SQUARE_BIT[1], 1 << SQUARE_BIT[24], 0)
    True
    """

    def turn(mask: int) -> int:
        return sum(1 << SQUARE_BIT[33 - BIT_SQUARE[b]] for b in bits(mask))

    black_men, black_kings, white_men, white_kings = position
    return turn(white_men), turn(white_kings), turn(black_men), turn(black_kings)


def children(position: Position, side: Side) -> list[Position]:
    """Every position one legal move of ``side`` leads to (one per move, so two
    jump sequences to the same result give two entries)."""
    black_men, black_kings, white_men, white_kings = position
    if side is BLACK:
        men, kings, their_men, their_kings = black_men, black_kings, white_men, white_kings
    else:
        men, kings, their_men, their_kings = white_men, white_kings, black_men, black_kings
    opponents = their_men | their_kings
    empty = BOARD & ~(men | kings | opponents)
    crown = CROWN_ROW[side]
    found: list[tuple[int, int, int, int]] = []
    paths = _capture_paths(side, men, kings, opponents, empty)
    if paths:
        for path in paths:
            start, end = 1 << path[0], 1 << path[-1]
            taken = 0
            for a, b in itertools.pairwise(path):
                taken |= 1 << ((a + b) >> 1)
            if kings & start:
                new_men, new_kings = men, kings ^ start | end
            elif end & crown:
                new_men, new_kings = men ^ start, kings | end
            else:
                new_men, new_kings = men ^ start | end, kings
            found.append((new_men, new_kings, their_men & ~taken, their_kings & ~taken))
    else:
        for frm, to in _steps(side, men, kings, empty):
            start, end = 1 << frm, 1 << to
            if kings & start:
                new_men, new_kings = men, kings ^ start | end
            elif end & crown:
                new_men, new_kings = men ^ start, kings | end
            else:
                new_men, new_kings = men ^ start | end, kings
            found.append((new_men, new_kings, their_men, their_kings))
    if side is BLACK:
        return found
    return [(bm, bk, wm, wk) for wm, wk, bm, bk in found]


def sides(position: Position, side: Side) -> tuple[int, int, int, int]:
    """``side``'s men and kings, the other side's pieces, and the empty squares."""
    black_men, black_kings, white_men, white_kings = position
    if side is BLACK:
        men, kings, opponents = black_men, black_kings, white_men | white_kings
    else:
        men, kings, opponents = white_men, white_kings, black_men | black_kings
    return men, kings, opponents, BOARD & ~(men | kings | opponents)


def count_moves(position: Position, side: Side) -> int:
    """How many legal moves ``side`` has (jump sequences counted one by one)."""
    men, kings, opponents, empty = sides(position, side)
    captures = _count_captures(side, men, kings, opponents, empty)
    return captures or _count_steps(side, men, kings, empty)


def perft(position: Position, side: Side, depth: int) -> int:
    """The number of leaf nodes of the legal-move tree ``depth`` plies deep, every
    jump sequence counted separately (as OEIS A133046 counts them)."""
    if depth == 0:
        return 1
    if depth == 1:
        return count_moves(position, side)
    other = side.other
    if depth == 2:
        return sum(count_moves(child, other) for child in children(position, side))
    return sum(perft(child, other, depth - 1) for child in children(position, side))


#: The position a game starts from: Black's men on 1-12, White's on 21-32.
START: Position = (
    sum(1 << SQUARE_BIT[n] for n in range(1, 13)),
    0,
    sum(1 << SQUARE_BIT[n] for n in range(21, 33)),
    0,
)


def legal_moves(position: Position, side: Side) -> list[Move]:
    """The moves the rules allow ``side`` in ``position``, in order: the jump
    sequences when there is a jump (a jump is compulsory), else the steps."""
    men, kings, opponents, empty = sides(position, side)
    paths = _capture_paths(side, men, kings, opponents, empty)
    if paths:
        return sorted(Move(tuple(BIT_SQUARE[b] for b in path)) for path in paths)
    return sorted(Move((BIT_SQUARE[a], BIT_SQUARE[b])) for a, b in _steps(side, men, kings, empty))
