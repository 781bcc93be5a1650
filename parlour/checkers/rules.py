"""American checkers (English draughts): the board, the moves and the rules.

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

>>> state = CHECKERS.new_state()
>>> [state.move_to_text(move) for move in state.legal_moves()][:3]
['9-13', '9-14', '10-14']
>>> state.play("11-15"); state.play("24-19"); state.play("15x24")
Move(path=(11, 15))
Move(path=(24, 19))
Move(path=(15, 24))
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Self

from parlour.core.errors import IllegalMoveError
from parlour.core.protocol import Game, Outcome, Side, State

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


def _bits(mask: int) -> list[int]:
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
        return len(self.path) >= 2 and _is_jump(self.path[0], self.path[1])

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


def _step_between(a: int, b: int) -> int | None:
    """The bit-index step from square a to square b if they are diagonal
    neighbours, else None."""
    difference = SQUARE_BIT[b] - SQUARE_BIT[a]
    return difference if difference in ALL_DIRECTIONS else None


def _is_jump(a: int, b: int) -> bool:
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
    for to in _bits(down << 4 & empty):
        found.append((to - 4, to))
    for to in _bits(down << 5 & empty):
        found.append((to - 5, to))
    if up:
        for to in _bits(up >> 4 & empty):
            found.append((to + 4, to))
        for to in _bits(up >> 5 & empty):
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
    for start in _bits(jumpers):
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
    for start in _bits(jumpers):
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


def count_moves(position: Position, side: Side) -> int:
    """How many legal moves ``side`` has (jump sequences counted one by one)."""
    black_men, black_kings, white_men, white_kings = position
    if side is BLACK:
        men, kings, opponents = black_men, black_kings, white_men | white_kings
    else:
        men, kings, opponents = white_men, white_kings, black_men | black_kings
    empty = BOARD & ~(men | kings | opponents)
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


# -- the state ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Undo:
    move: Move
    position: Position
    quiet_plies: int


#: Bit masks of a move's start, end and jumped pieces, by path: computed once
#: per path, as the same moves are played again and again in a search.
_EFFECTS: dict[tuple[int, ...], tuple[int, int, int]] = {}


def _effect(move: Move) -> tuple[int, int, int]:
    taken = 0
    for square in move.captured:
        taken |= 1 << SQUARE_BIT[square]
    return 1 << SQUARE_BIT[move.start], 1 << SQUARE_BIT[move.end], taken


START: Position = (
    sum(1 << SQUARE_BIT[n] for n in range(1, 13)),
    0,
    sum(1 << SQUARE_BIT[n] for n in range(21, 33)),
    0,
)


class CheckersState(State[Move]):
    """A checkers position with the history its draw rules need.

    Draws by the rules are *claimed*, not automatic. The rule sheets in the box say
    only that a game neither side can win is drawn; the ACF (and the world
    federation's harmonised English rules) let a player show the referee that a
    position has come round for the third time, or that neither side has moved a
    man or captured for forty moves each, and the game is then declared drawn. The
    rules do not stop the game by themselves, so neither does this class:
    :meth:`claimable_draw` names the draw that may be claimed and
    :meth:`claim_draw` ends the game with it. :meth:`rules_outcome` decides only
    what the position itself decides: the side to move has no legal move and loses.

    >>> state = CheckersState.from_position((0, 1 << SQUARE_BIT[1], 1 << SQUARE_BIT[32], 0))
    >>> state.to_text()
    'B:W32:BK1'
    """

    def __init__(self) -> None:
        self.game = CHECKERS
        self.position: Position = START
        self._turn = BLACK
        #: Plies since a man moved or a piece was captured (for the 40-move rule).
        self.quiet_plies = 0
        self._history: list[_Undo] = []
        #: The position keys met so far, the current one last (for repetition).
        self._seen: list[tuple[int, int, int, int, int]] = [(*START, BLACK)]
        self._moves: list[Move] | None = None

    @classmethod
    def from_position(cls, position: Position, turn: Side = BLACK, quiet_plies: int = 0) -> Self:
        state = cls()
        state.position = position
        state._turn = turn
        state.quiet_plies = quiet_plies
        state._seen = [(*position, turn)]
        return state

    # -- the protocol ---------------------------------------------------------------

    @property
    def turn(self) -> Side:
        return self._turn

    def legal_moves(self) -> list[Move]:
        if self._declared is not None:
            return []  # resigned or drawn by agreement or claim
        return list(self._legal())

    def _legal(self) -> list[Move]:
        """The moves the rules allow in this position (cached until it changes)."""
        if self._moves is None:
            self._moves = self._generate()
        return self._moves

    def _generate(self) -> list[Move]:
        men, kings, opponents, empty = self._sides()
        paths = _capture_paths(self._turn, men, kings, opponents, empty)
        if paths:
            return sorted(Move(tuple(BIT_SQUARE[b] for b in path)) for path in paths)
        steps = _steps(self._turn, men, kings, empty)
        return sorted(Move((BIT_SQUARE[a], BIT_SQUARE[b])) for a, b in steps)

    def _sides(self) -> tuple[int, int, int, int]:
        """The mover's men and kings, the opponents' pieces, the empty squares."""
        black_men, black_kings, white_men, white_kings = self.position
        if self._turn is BLACK:
            men, kings, opponents = black_men, black_kings, white_men | white_kings
        else:
            men, kings, opponents = white_men, white_kings, black_men | black_kings
        return men, kings, opponents, BOARD & ~(men | kings | opponents)

    def push_unchecked(self, move: Move) -> None:
        black_men, black_kings, white_men, white_kings = self.position
        side = self._turn
        if side is BLACK:
            men, kings, their_men, their_kings = black_men, black_kings, white_men, white_kings
        else:
            men, kings, their_men, their_kings = white_men, white_kings, black_men, black_kings
        effect = _EFFECTS.get(move.path)
        if effect is None:
            effect = _EFFECTS[move.path] = _effect(move)
        start, end, taken = effect
        if kings & start:
            kings = kings ^ start | end
            quiet = not taken
        elif end & CROWN_ROW[side]:
            men, kings = men ^ start, kings | end
            quiet = False
        else:
            men = men ^ start | end
            quiet = False
        their_men &= ~taken
        their_kings &= ~taken
        self._history.append(_Undo(move, self.position, self.quiet_plies))
        if side is BLACK:
            self.position = (men, kings, their_men, their_kings)
        else:
            self.position = (their_men, their_kings, men, kings)
        self._turn = side.other
        self.quiet_plies = self.quiet_plies + 1 if quiet else 0
        self._seen.append((*self.position, self._turn))
        self._moves = None

    def pop(self) -> Move:
        undo = self._history.pop()
        self.position = undo.position
        self.quiet_plies = undo.quiet_plies
        self._turn = self._turn.other
        self._seen.pop()
        self._moves = None
        return undo.move

    def rules_outcome(self) -> Outcome | None:
        if self._legal():
            return None
        men, kings, _, _ = self._sides()
        reason = "no pieces left" if not men | kings else "no legal move"
        return Outcome(self._turn.other, reason)

    def claimable_draw(self) -> str | None:
        if self.is_over():
            return None
        if self.repetitions() >= 3:
            return "threefold repetition"
        if self.quiet_plies >= FORTY_MOVE_PLIES:
            return "40-move rule"
        return None

    def repetitions(self) -> int:
        """How many times the current position (side to move included) has stood
        on the board. Only positions since the last man move or capture can
        repeat, as those cannot be undone."""
        current = self._seen[-1]
        recent = self._seen[-1 - self.quiet_plies :]
        return sum(1 for key in recent[::-2] if key == current)

    def to_text(self) -> str:
        from parlour.checkers.notation import position_to_fen

        return position_to_fen(self.position, self._turn)

    def move_to_text(self, move: Move) -> str:
        return str(move)

    def parse_move(self, text: str) -> Move:
        from parlour.checkers.notation import parse_move

        return parse_move(self, text)

    def copy(self) -> Self:
        twin = type(self).from_position(self.position, self._turn, self.quiet_plies)
        twin._history = list(self._history)
        twin._seen = list(self._seen)
        twin._declared = self._declared
        return twin

    def board_text(self) -> str:
        from parlour.checkers.notation import board_picture

        return board_picture(self.position, self._turn)

    # -- pieces ---------------------------------------------------------------------

    def piece_at(self, square: int) -> str | None:
        """The piece on a square: 'b' / 'B' for a Black man / king, 'w' / 'W' for
        White's, None when empty."""
        bit = 1 << SQUARE_BIT[square]
        for letter, mask in zip("bBwW", self.position, strict=True):
            if mask & bit:
                return letter
        return None

    @property
    def move_stack(self) -> list[Move]:
        """The moves pushed so far, oldest first."""
        return [undo.move for undo in self._history]

    # -- why a move is illegal -------------------------------------------------------

    def explain_illegal(self, move: Move) -> IllegalMoveError:
        if not isinstance(move, Move) or len(move.path) < 2:
            return IllegalMoveError(f"{move!r} is not a checkers move", rule="not-a-move")
        path = move.path
        if any(not 1 <= square <= 32 for square in path):
            return IllegalMoveError("squares are numbered 1 to 32", rule="no-such-square")
        me = "Black" if self._turn is BLACK else "White"
        piece = self.piece_at(path[0])
        if piece is None:
            return IllegalMoveError(f"there is no piece on square {path[0]}", rule="empty-square")
        if (piece in "bB") != (self._turn is BLACK):
            return IllegalMoveError(
                f"the piece on {path[0]} is not yours: it is {me}'s turn", rule="not-your-piece"
            )
        is_king = piece.isupper()
        forward = FORWARD[self._turn]
        legal = self.legal_moves()
        captures = [m for m in legal if m.is_capture]
        if not move.is_capture:
            step = _step_between(path[0], path[1])
            if len(path) != 2 or step is None:
                return IllegalMoveError(
                    "a piece steps one square diagonally, or jumps over a piece",
                    rule="not-diagonal",
                )
            if not is_king and step not in forward:
                return IllegalMoveError("men move only forward", rule="men-forward")
            if self.piece_at(path[1]) is not None:
                return IllegalMoveError(f"that square is occupied: {path[1]}", rule="occupied")
            if captures:
                return _capture_required(captures)
        else:
            crown = CROWN_ROW[self._turn]
            for index, (a, b) in enumerate(itertools.pairwise(path)):
                if not _is_jump(a, b):
                    return IllegalMoveError(
                        f"{a} to {b} is not a jump: a jump goes over one diagonal neighbour",
                        rule="not-diagonal",
                    )
                step = (SQUARE_BIT[b] - SQUARE_BIT[a]) // 2
                if not is_king and step not in forward:
                    return IllegalMoveError("men move and jump only forward", rule="men-forward")
                over = BIT_SQUARE[SQUARE_BIT[a] + step]
                if over in move.captured[:index]:
                    return IllegalMoveError("a piece cannot be jumped twice", rule="jumped-twice")
                jumped = self.piece_at(over)
                if jumped is None or (jumped in "bB") == (self._turn is BLACK):
                    return IllegalMoveError(
                        f"there is no opposing piece on {over} to jump", rule="nothing-to-jump"
                    )
                if b != path[0] and self.piece_at(b) is not None:
                    return IllegalMoveError(f"that square is occupied: {b}", rule="occupied")
                if not is_king and 1 << SQUARE_BIT[b] & crown and b != path[-1]:
                    return IllegalMoveError(
                        f"the man is crowned on {b} and the move ends there",
                        rule="crowning-ends-move",
                    )
            longer = [m for m in captures if m.path[: len(path)] == path]
            if longer:
                goes_on = " or ".join(str(n) for n in sorted({m.path[len(path)] for m in longer}))
                return IllegalMoveError(
                    f"the jump must go on: {move} can continue to {goes_on}",
                    rule="multi-jump-incomplete",
                )
        return IllegalMoveError(f"{move} is not a legal move here", rule="illegal")


def _capture_required(captures: list[Move]) -> IllegalMoveError:
    if len(captures) == 1:
        text = f"{captures[0]} must be played"
    else:
        listed = ", ".join(map(str, captures[:6]))
        more = ", ..." if len(captures) > 6 else ""
        text = f"one of {listed}{more} must be played"
    return IllegalMoveError(f"a capture is available: {text}", rule="capture-compulsory")


class Checkers(Game[Move]):
    """American checkers. ``state_from_text`` reads the PDN FEN tag value.

    >>> CHECKERS.perft(CHECKERS.new_state(), 3)
    302
    """

    name = "checkers"
    title = "Checkers"
    side_names = ("Black", "White")

    def new_state(self) -> CheckersState:
        return CheckersState()

    def state_from_text(self, text: str) -> CheckersState:
        from parlour.checkers.notation import parse_fen

        position, turn = parse_fen(text)
        return CheckersState.from_position(position, turn)

    def perft(self, state: State[Move], depth: int) -> int:
        if depth < 0:
            raise ValueError("perft depth must be 0 or more")
        if not isinstance(state, CheckersState):
            return super().perft(state, depth)
        if depth > 0 and state.is_over():
            return 0
        return perft(state.position, state.turn, depth)


CHECKERS = Checkers()

__all__ = [
    "BLACK",
    "CHECKERS",
    "WHITE",
    "Checkers",
    "CheckersState",
    "Move",
    "children",
    "count_moves",
    "perft",
]
