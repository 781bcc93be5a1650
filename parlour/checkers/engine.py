"""The checkers computer opponent: alpha-beta over bitboards and a checkers evaluation.

The search is the shared one (:mod:`parlour.ai.search`); this module gives it a
board it can walk quickly (:class:`SearchBoard`, positions as four ints, moves as
``(start bit, end bit, jumped pieces)``) and an evaluation that knows the game:

* material, a king worth a little more than a man (more in the centre), and when
  one side is ahead, a bonus that grows as pieces come off, so the side ahead
  trades down;
* men: advancement (the tempo count, row by row), the centre, the back-rank
  guard (men on 1 and 3 for Black, 30 and 32 for White keep the other side's men
  from crowning), runaway men with an open road to the king row;
* kings: the centre; mobility for everyone;
* the endgame: a side ahead hunts the other's kings (its kings close in) and is
  paid for every enemy king out of the double corners -- the one place where a
  lone king can shuttle forever -- and on the edges; the side behind, scoring the
  same position, runs for the double corner. That is what converts two kings
  against one and three against two instead of circling into a draw.

How much each term counts (:class:`Weights`) was fitted by logistic regression to
the results of the engine's own games, the endgame's hunt apart.

Positions of four pieces or fewer (five, where ``parlour checkers-endgames
--pieces 5`` has built that table) are not evaluated but looked up in the endgame
database (:mod:`parlour.checkers.endgame`): a win or loss there scores as a mate in
as many plies as the database says, so the search takes the shortest win and never
lets one go, and a drawn ending scores 0. The beginner levels search endings like
the rest, mistakes and all.

The first moves come from the opening book (:mod:`parlour.checkers.openings`) from
level 5 up: searched far deeper ahead of time than play allows. Levels 1 to 6 search
to a fixed depth (1 to 3 with deliberate mistakes), every move that far; 7 to 10 for
a fixed time, where the search also reduces late quiet moves (searches them a ply
shallower unless they prove better) and so sees further; how strong each one
measured is in :attr:`CheckersEngine.level_strengths`.

Where ``parlour compile`` has built it, the search runs in C
(:class:`NativeSearch`, over :mod:`parlour.checkers.native`): the same search as
the shared one over a :class:`SearchBoard`, node for node (the same moves, scores,
node counts and lines at a set depth), only many times as many nodes a second, so
a timed level sees several plies further. Elsewhere, or with ``PARLOUR_PURE=1``,
the Python search plays.

Captures are compulsory, so where one is available quiescence search must play
it (it may not "stand pat"), and a position that repeats within the search, or
reaches the 40-move limit, scores as a draw: the side ahead avoids it, the side
behind seeks it. No legal move loses, scored mate-style so the quickest win is
preferred.

>>> from parlour.checkers.rules import CHECKERS
>>> engine = CheckersEngine()
>>> state = CHECKERS.state_from_text("B:W18,19:B14")  # 14x23 is compulsory
>>> str(engine.choose_move(state, level=1))
'14x23'
"""

from __future__ import annotations

import itertools
import math
import random
import threading
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import ClassVar, Self

from parlour.ai.search import FULL_DEPTH, MATE, MATE_BOUND, AlphaBeta, SearchResult, mate_in
from parlour.checkers.board import (
    BIT_SQUARE,
    BLACK,
    BOARD,
    CROWN_ROW,
    SQUARE_BIT,
    WHITE,
    Move,
    Position,
    _capture_paths,
    _count_steps,
    _jumpers,
    _steps,
    bits,
)
from parlour.checkers.endgame import EndgameDatabase, shipped_database
from parlour.checkers.openings import OpeningBook, shipped_book
from parlour.checkers.rules import CheckersState
from parlour.core.engine import Analysis, Engine, Hint, Line
from parlour.core.judgement import logistic_chances
from parlour.core.protocol import Side, State

try:
    from parlour.checkers import native

    #: Whether the search written in C (:mod:`parlour.checkers.native`) is built and
    #: in use (``parlour compile``; never where the package runs pure).
    NATIVE = True
except ImportError:  # not built, or set aside by parlour.compiled: the Python search
    NATIVE = False

#: A move inside the search: start bit, end bit, the mask of the pieces jumped.
Step = tuple[int, int, int]
#: A position with its side to move: the transposition-table and repetition key.
Key = tuple[int, int, int, int, int]

FORTY_MOVE_PLIES = 80

# -- the squares ----------------------------------------------------------------------


def _row_column(square: int) -> tuple[int, int]:
    """Row 0 (Black's back row, squares 1-4) to 7, and column 0 (a) to 7 (h)."""
    row, index = divmod(square - 1, 4)
    return row, 2 * index + (1 if row % 2 == 0 else 0)


def _mask(squares: Iterable[int]) -> int:
    return sum(1 << SQUARE_BIT[n] for n in squares)


def _king_distance(a: int, b: int) -> int:
    """How many king steps from square a to square b (both dark squares)."""
    (ra, ca), (rb, cb) = _row_column(a), _row_column(b)
    return max(abs(ra - rb), abs(ca - cb))


SQUARES = range(1, 33)
#: King steps between the squares on two bits (35 x 35, 0 for the padding bits).
DISTANCE: tuple[tuple[int, ...], ...] = tuple(
    tuple(_king_distance(a, b) if a and b else 0 for b in BIT_SQUARE) for a in BIT_SQUARE
)

DOUBLE_CORNERS = (1, 5, 28, 32)
SINGLE_CORNERS = (4, 29)

# -- the evaluation -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Weights:
    """The evaluation's numbers, in hundredths of a man (a man is 100).

    Fitted to the results of 1,000 engine games by logistic regression
    (``training/checkers_tune.py``; the fit and the match that kept it are in
    docs/benchmarks.md). The endgame's hunt is as it was made by hand: technique
    the games say little about.

    >>> Weights().king > Weights().man
    True
    """

    man: int = 100
    king: int = 111
    #: A man's worth for its row as it advances (row 0 is its home row; no man
    #: stands on row 7: it is crowned there).
    advance: tuple[int, ...] = (0, 8, -5, 4, 3, 12, 21, 0)
    #: A man on one of the four centre squares (14, 15, 18, 19), where it can be
    #: attacked from every side, and on one of the four beside them on its
    #: diagonals (10, 11, 22, 23).
    centre: int = -5
    near_centre: int = 6
    #: A man on a side edge between the home rows: it cannot be jumped there.
    edge: int = 6
    #: A king's worth by how far it is from the centre: the four middle squares,
    #: the next ring, the one after, the edge.
    king_centre: tuple[int, ...] = (13, 5, 4, 0)
    #: When ahead, the lead times this over the pieces left: trading down pays.
    trade_down: int = 13
    #: Each man of the back-rank guard (1 and 3, or 30 and 32) while the other
    #: side has men to crown.
    guard: int = 58
    #: Each step a side's pieces can make.
    mobility: int = 7
    #: A man with an open road to its king row: this, and ``runaway_row`` for each
    #: row it stands on (from row 4, where a runaway is first looked for, the sum
    #: is positive).
    runaway: int = -16
    runaway_row: int = 8
    #: In the endgame, for the side ahead: the other's kings in a double corner,
    #: one step from one, two steps (more: nothing), each such king's cost to the
    #: side ahead; on an edge and in a single corner, what the side ahead gains
    #: back for each.
    refuge: tuple[int, ...] = (30, 20, 10)
    refuge_edge: int = 8
    refuge_single_corner: int = 8
    #: Each king step between a king of the side ahead and its nearest target.
    hunt: int = 6


def _chunked(values: dict[int, int]) -> tuple[tuple[int, ...], ...]:
    """Tables that sum ``values[square]`` over the squares of a bitboard in five
    lookups: one per seven-bit slice of the 35-bit layout."""
    per_bit = [0] * 35
    for square, value in values.items():
        per_bit[SQUARE_BIT[square]] = value
    tables = []
    for chunk in range(5):
        bits = per_bit[7 * chunk : 7 * chunk + 7]
        tables.append(
            tuple(sum(v for i, v in enumerate(bits) if index >> i & 1) for index in range(128))
        )
    return tuple(tables)


def _sum_over(table: tuple[tuple[int, ...], ...], board: int) -> int:
    t0, t1, t2, t3, t4 = table
    return (
        t0[board & 127]
        + t1[board >> 7 & 127]
        + t2[board >> 14 & 127]
        + t3[board >> 21 & 127]
        + t4[board >> 28 & 127]
    )


CENTRE = (14, 15, 18, 19)
NEAR_CENTRE = (10, 11, 22, 23)


def is_edge(square: int) -> bool:
    """Whether a man here stands on a side edge between the home rows."""
    row, column = _row_column(square)
    return column in (0, 7) and 0 < row < 6


def off_centre(square: int) -> int:
    """0 for the four middle squares, up to 3 for the edge."""
    row, column = _row_column(square)
    return max(abs(2 * row - 7), abs(2 * column - 7)) // 2


def corner_distance(square: int) -> int:
    """King steps to the nearest double corner."""
    return min(_king_distance(square, corner) for corner in DOUBLE_CORNERS)


def is_open_edge(square: int) -> bool:
    """Whether a king here is on the board's edge outside the double corners."""
    row, column = _row_column(square)
    return square not in DOUBLE_CORNERS and (row in (0, 7) or column in (0, 7))


def _cone(square: int, down: bool) -> int:
    """The squares ahead of a man on ``square`` that an enemy must stand on (or
    reach) to stop it: the widening triangle up to its king row."""
    row, column = _row_column(square)
    cone = 0
    for other in SQUARES:
        r, c = _row_column(other)
        ahead = r - row if down else row - r
        if ahead > 0 and abs(c - column) <= ahead + 1:
            cone |= 1 << SQUARE_BIT[other]
    return cone


BLACK_CONES = {SQUARE_BIT[n]: _cone(n, down=True) for n in SQUARES}
WHITE_CONES = {SQUARE_BIT[n]: _cone(n, down=False) for n in SQUARES}
#: Men close enough to their king row to be looked at as runaways.
BLACK_RUNAWAY_ROWS = _mask(n for n in SQUARES if _row_column(n)[0] >= 4)
WHITE_RUNAWAY_ROWS = _mask(n for n in SQUARES if _row_column(n)[0] <= 3)
ROW_OF_BIT = {SQUARE_BIT[n]: _row_column(n)[0] for n in SQUARES}
#: The back-rank guard: Black's men on 1 and 3, White's on 30 and 32.
BLACK_GUARD = _mask((1, 3))
WHITE_GUARD = _mask((30, 32))


class Evaluation:
    """The static evaluation for one set of :class:`Weights`, its square tables
    worked out once: call it on a position for its score in hundredths of a man,
    from Black's side.

    >>> evaluate = Evaluation(Weights())
    >>> evaluate((0, 0, 0, 0))
    0
    """

    def __init__(self, weights: Weights) -> None:
        self.weights = w = weights

        def man(square: int) -> int:
            row = _row_column(square)[0]
            centre = w.centre if square in CENTRE else w.near_centre if square in NEAR_CENTRE else 0
            return w.man + w.advance[row] + centre + (w.edge if is_edge(square) else 0)

        def refuge(square: int) -> int:
            near = corner_distance(square)
            value = w.refuge[near] if near < len(w.refuge) else 0
            if is_open_edge(square):
                value -= w.refuge_edge
            if square in SINGLE_CORNERS:
                value -= w.refuge_single_corner
            return value

        # White's squares mirror Black's: the board turned half round maps n to 33 - n.
        self.black_men = _chunked({n: man(n) for n in SQUARES})
        self.white_men = _chunked({n: man(33 - n) for n in SQUARES})
        self.kings = _chunked({n: w.king + w.king_centre[off_centre(n)] for n in SQUARES})
        #: How safe a lone king is here from a stronger force: high in and beside
        #: a double corner, low on the edges and in the single corners.
        self.refuge = _chunked({n: refuge(n) for n in SQUARES})
        self.black_runaway = {
            bit: w.runaway + w.runaway_row * row for bit, row in ROW_OF_BIT.items()
        }
        self.white_runaway = {
            bit: w.runaway + w.runaway_row * (7 - row) for bit, row in ROW_OF_BIT.items()
        }

    def __call__(self, position: Position) -> int:
        w = self.weights
        black_men, black_kings, white_men, white_kings = position
        kings = self.kings
        black = _sum_over(self.black_men, black_men) + _sum_over(kings, black_kings)
        white = _sum_over(self.white_men, white_men) + _sum_over(kings, white_kings)
        score = black - white

        black_count = black_men.bit_count() + black_kings.bit_count()
        white_count = white_men.bit_count() + white_kings.bit_count()
        pieces = black_count + white_count
        material = w.man * (black_men.bit_count() - white_men.bit_count()) + w.king * (
            black_kings.bit_count() - white_kings.bit_count()
        )
        if pieces:
            # Ahead, trade down: the same lead counts for more with fewer pieces left.
            bonus = abs(material) * w.trade_down // pieces  # (rounded alike for both)
            score += bonus if material > 0 else -bonus

        # The back-rank guard matters while the other side has men to crown.
        if white_men:
            score += w.guard * (black_men & BLACK_GUARD).bit_count()
        if black_men:
            score -= w.guard * (white_men & WHITE_GUARD).bit_count()

        empty = BOARD & ~(black_men | black_kings | white_men | white_kings)
        score += w.mobility * (
            _count_steps(BLACK, black_men, black_kings, empty)
            - _count_steps(Side.SECOND, white_men, white_kings, empty)
        )

        # Runaway men: no enemy man in the cone ahead and no enemy king to come back.
        if not white_kings:
            for bit in bits(black_men & BLACK_RUNAWAY_ROWS):
                if not BLACK_CONES[bit] & white_men:
                    score += self.black_runaway[bit]
        if not black_kings:
            for bit in bits(white_men & WHITE_RUNAWAY_ROWS):
                if not WHITE_CONES[bit] & black_men:
                    score -= self.white_runaway[bit]

        if material and (pieces <= 8 or not black_men or not white_men):
            if material > 0:
                score += self._hunt(black_kings, white_men, white_kings)
            else:
                score -= self._hunt(white_kings, black_men, black_kings)
        return score

    def native_tables(self) -> dict[str, int | tuple[int, ...]]:
        """The numbers the C search (:mod:`parlour.checkers.native`) evaluates with,
        flat: each square table as its value on each of the 35 bits of the padded
        layout (0 on the padding), the runaway cones and values per bit, the king
        distances bit by bit (35 x 35), the masks and the weights used directly.
        The C side copies them once, so its scores are these tables' to the point.

        >>> tables = evaluate.native_tables()
        >>> len(tables["kings"]), len(tables["distance"]), tables["man"]
        (35, 1225, 100)
        """

        def per_bit(table: tuple[tuple[int, ...], ...]) -> tuple[int, ...]:
            # a chunk's entry for a single bit is that bit's own value
            return tuple(table[bit // 7][1 << bit % 7] for bit in range(35))

        w = self.weights
        return {
            "black_men": per_bit(self.black_men),
            "white_men": per_bit(self.white_men),
            "kings": per_bit(self.kings),
            "refuge": per_bit(self.refuge),
            "black_runaway": tuple(self.black_runaway.get(bit, 0) for bit in range(35)),
            "white_runaway": tuple(self.white_runaway.get(bit, 0) for bit in range(35)),
            "black_cones": tuple(BLACK_CONES.get(bit, 0) for bit in range(35)),
            "white_cones": tuple(WHITE_CONES.get(bit, 0) for bit in range(35)),
            "distance": tuple(DISTANCE[a][b] for a in range(35) for b in range(35)),
            "black_runaway_rows": BLACK_RUNAWAY_ROWS,
            "white_runaway_rows": WHITE_RUNAWAY_ROWS,
            "black_guard": BLACK_GUARD,
            "white_guard": WHITE_GUARD,
            "man": w.man,
            "king": w.king,
            "trade_down": w.trade_down,
            "guard": w.guard,
            "mobility": w.mobility,
            "hunt": w.hunt,
        }

    def _hunt(self, kings: int, their_men: int, their_kings: int) -> int:
        """The endgame, scored for the side ahead: each of its kings is paid for
        being close to the nearest enemy piece, and it is paid for each enemy king
        out of the double corners (see :attr:`refuge`). The side behind scores
        nothing here, so it gains by what the side ahead loses: shelter in a double
        corner. That is what converts two kings against one and three against two
        instead of circling into a draw."""
        score = -_sum_over(self.refuge, their_kings)
        targets = bits(their_men | their_kings)
        if targets:
            hunt = self.weights.hunt
            for king in bits(kings):
                distances = DISTANCE[king]
                score -= hunt * min(distances[target] for target in targets)
        return score


#: The engine's weights.
WEIGHTS = Weights()
#: The static score of a position with the engine's weights, from Black's side.
evaluate = Evaluation(WEIGHTS)


# -- the board the search walks --------------------------------------------------------


class SearchBoard:
    """A position the shared alpha-beta can walk: make/unmake on four ints.

    It keeps the keys of the positions since the last man move or capture,
    from the game and from the search path, to score repetitions as draws.
    """

    __slots__ = (
        "_counts",
        "_moves",
        "_stack",
        "endgames",
        "evaluation",
        "key",
        "position",
        "quiet",
        "side",
    )

    def __init__(
        self,
        position: Position,
        side: Side,
        quiet_plies: int = 0,
        history: list[Key] | None = None,
        endgames: EndgameDatabase | None = None,
        evaluation: Evaluation = evaluate,
    ) -> None:
        self.position = position
        self.evaluation = evaluation
        #: Where positions of few pieces are looked up rather than searched.
        self.endgames = endgames
        self.side = side
        self.quiet = quiet_plies
        self.key: Key = (*position, side)
        self._stack: list[tuple[Position, Side, int, Key, list[Step] | None]] = []
        self._counts: dict[Key, int] = {}
        for key in history or [self.key]:
            self._counts[key] = self._counts.get(key, 0) + 1
        if self.key not in self._counts:
            self._counts[self.key] = 1
        self._moves: list[Step] | None = None

    @classmethod
    def from_state(
        cls,
        state: CheckersState,
        endgames: EndgameDatabase | None = None,
        evaluation: Evaluation = evaluate,
    ) -> Self:
        quiet = state.quiet_plies
        history = state._seen[-1 - quiet :]
        return cls(state.position, state.turn, quiet, list(history), endgames, evaluation)

    def _sides(self) -> tuple[int, int, int]:
        """The mover's men and kings, and the other side's pieces."""
        black_men, black_kings, white_men, white_kings = self.position
        if self.side is BLACK:
            return black_men, black_kings, white_men | white_kings
        return white_men, white_kings, black_men | black_kings

    def moves(self) -> list[Step]:
        if self._moves is None:
            self._moves = self._generate()
        return self._moves

    def _generate(self) -> list[Step]:
        men, kings, opponents = self._sides()
        empty = BOARD & ~(men | kings | opponents)
        side = self.side
        paths = _capture_paths(side, men, kings, opponents, empty)
        if paths:
            found: dict[Step, None] = {}
            for path in paths:
                taken = 0
                for a, b in itertools.pairwise(path):
                    taken |= 1 << ((a + b) >> 1)
                found[(path[0], path[-1], taken)] = None
            # the most pieces first
            return sorted(found, key=lambda step: -step[2].bit_count())
        crown = CROWN_ROW[side]
        steps = [(a, b, 0) for a, b in _steps(side, men, kings, empty)]
        # crowning first
        steps.sort(key=lambda step: not (crown >> step[1] & 1 and men >> step[0] & 1))
        return steps

    def must_capture(self) -> bool:
        men, kings, opponents = self._sides()
        empty = BOARD & ~(men | kings | opponents)
        return bool(_jumpers(self.side, men, kings, opponents, empty))

    def noisy_moves(self) -> list[Step]:
        moves = self.moves()
        return moves if moves and moves[0][2] else []

    def may_stand_pat(self) -> bool:
        return not self.must_capture()

    def make(self, move: Step) -> None:
        start_bit, end_bit, taken = move
        black_men, black_kings, white_men, white_kings = self.position
        side = self.side
        if side is BLACK:
            men, kings, their_men, their_kings = black_men, black_kings, white_men, white_kings
        else:
            men, kings, their_men, their_kings = white_men, white_kings, black_men, black_kings
        start, end = 1 << start_bit, 1 << end_bit
        if kings & start:
            kings = kings ^ start | end
            quiet = not taken
        elif end & CROWN_ROW[side]:
            men, kings = men ^ start, kings | end
            quiet = False
        else:
            men = men ^ start | end
            quiet = False
        if taken:
            their_men &= ~taken
            their_kings &= ~taken
        self._stack.append((self.position, side, self.quiet, self.key, self._moves))
        if side is BLACK:
            self.position = (men, kings, their_men, their_kings)
        else:
            self.position = (their_men, their_kings, men, kings)
        self.side = side = WHITE if side is BLACK else BLACK  # not Side.other: a Python call
        self.quiet = self.quiet + 1 if quiet else 0
        self.key = key = (*self.position, side)
        self._counts[key] = self._counts.get(key, 0) + 1
        self._moves = None

    def unmake(self) -> None:
        count = self._counts[self.key]
        if count == 1:
            del self._counts[self.key]
        else:
            self._counts[self.key] = count - 1
        self.position, self.side, self.quiet, self.key, self._moves = self._stack.pop()

    def evaluate(self) -> int:
        score = self.evaluation(self.position)
        return score if self.side is BLACK else -score

    def terminal_score(self, ply: int) -> int | None:
        men, kings, opponents = self._sides()
        empty = BOARD & ~(men | kings | opponents)
        side = self.side
        if not _count_steps(side, men, kings, empty) and not _jumpers(
            side, men, kings, opponents, empty
        ):
            return -(MATE - ply)
        if not ply:
            return None  # the root is searched: the search is there to choose its move
        if self._counts[self.key] > 1 or self.quiet >= FORTY_MOVE_PLIES:
            return 0
        endgames = self.endgames
        # the piece count first: the table's own check is a Python call at every node
        if endgames is not None and (men | kings | opponents).bit_count() <= endgames.pieces:
            code = endgames.code(self.position, side)
            if code is not None:
                return _endgame_score(code, ply)
        return None

    def hash_key(self) -> Key:
        return self.key

    @property
    def at_root(self) -> bool:
        """Whether no move has been made on the board since it was set up."""
        return not self._stack

    def history(self) -> list[Key]:
        """The keys of the positions the board counts for repetitions (the game's
        since the last man move or capture, and those the moves made on it reached),
        each as many times as it has stood."""
        return [key for key, count in self._counts.items() for _ in range(count)]


def _endgame_score(code: int, ply: int) -> int:
    """The search's score for a position the endgame database holds: a draw is 0,
    a win or loss in ``n`` plies scores as a mate found ``n`` plies further on, so
    the search takes the shortest win and holds out longest in a loss."""
    if not code:
        return 0
    plies = code - 1
    return MATE - ply - plies if plies % 2 else -(MATE - ply - plies)


# -- levels --------------------------------------------------------------------------


class _RootOnly(SearchBoard):
    """A search board whose first moves are only those ``allowed`` (UCI's
    searchmoves, for scoring a move played by the same search as the best)."""

    __slots__ = ("allowed",)

    allowed: set[Step]

    def moves(self) -> list[Step]:
        found = super().moves()
        if not self.at_root:
            return found
        return [step for step in found if step in self.allowed]


class NativeSearch:
    """The search of :class:`~parlour.ai.search.AlphaBeta` over a :class:`SearchBoard`,
    run by the C extension :mod:`parlour.checkers.native` (where ``parlour compile``
    built it): the same nodes in the same order, so the same moves, scores, node
    counts and lines, many times faster.

    It stands in for AlphaBeta: the same settings, set the same way (the engine
    changes them between searches), and its transposition table is kept from search
    to search (:meth:`clear` for a new game). It searches boards of its own
    evaluation and endgame database only: the C side holds their tables.
    """

    def __init__(
        self,
        evaluation: Evaluation,
        endgames: EndgameDatabase | None,
        *,
        max_depth: int = FULL_DEPTH,
        time_limit: float | None = None,
        node_limit: int | None = None,
        table_size: int = 1 << 20,
        quiescence: bool = True,
        late_move_reductions: bool = False,
        stop: threading.Event | None = None,
        on_iteration: Callable[[SearchResult[Step]], None] | None = None,
    ) -> None:
        self.evaluation = evaluation
        self.endgames = endgames
        self.max_depth = max_depth
        self.time_limit = time_limit
        self.node_limit = node_limit
        self.quiescence = quiescence
        self.late_move_reductions = late_move_reductions
        self.stop = stop or threading.Event()
        self.on_iteration = on_iteration
        self._searcher = native.Searcher(
            evaluation.native_tables(),
            table_size,
            None if endgames is None else endgames.codes,
            0 if endgames is None else endgames.pieces,
        )

    @property
    def table_size(self) -> int:
        """Positions the table may hold as a search begins before it is cleared."""
        return self._searcher.table_size

    @table_size.setter
    def table_size(self, size: int) -> None:
        self._searcher.table_size = size

    def clear(self) -> None:
        self._searcher.clear()

    def search(self, position: SearchBoard) -> SearchResult[Step]:
        """Search ``position`` as :meth:`AlphaBeta.search
        <parlour.ai.search.AlphaBeta.search>` does: the position with the repetitions
        it counts, the first moves of a :class:`_RootOnly` board, the limits set."""
        if position.evaluation is not self.evaluation or position.endgames is not self.endgames:
            raise ValueError("the board's evaluation and endgame database are not the searcher's")
        allowed = position.allowed if isinstance(position, _RootOnly) and position.at_root else None
        on_iteration = self.on_iteration
        found = self._searcher.search(
            position.position,
            position.side,
            position.quiet,
            position.history(),
            max_depth=self.max_depth,
            time_limit=self.time_limit,
            node_limit=self.node_limit,
            quiescence=self.quiescence,
            late_move_reductions=self.late_move_reductions,
            stop=self.stop,
            on_iteration=None if on_iteration is None else lambda told: on_iteration(_result(told)),
            allowed=allowed,
        )
        return _result(found)


def _result(found: native.Found) -> SearchResult[Step]:
    best_move, score, depth, nodes, seconds, line = found
    return SearchResult(best_move, score, depth, nodes, seconds, line)


#: What the engine searches with: the C search where it is built, else AlphaBeta.
Searcher = AlphaBeta[Step] | NativeSearch


@dataclass(frozen=True, slots=True)
class Level:
    """How one level plays: a search depth and time, and for the low levels a
    margin within which a weaker move may be chosen at random, with a chance of
    looking at the whole list of moves more carelessly."""

    depth: int
    seconds: float
    margin: int = 0
    slip: float = 0.0
    #: Whether it plays the opening book's moves.
    book: bool = True


LEVELS: dict[int, Level] = {
    1: Level(depth=2, seconds=0.1, margin=120, slip=0.3, book=False),
    2: Level(depth=2, seconds=0.1, margin=70, slip=0.15, book=False),
    3: Level(depth=3, seconds=0.15, margin=40, slip=0.08, book=False),
    4: Level(depth=4, seconds=0.2, book=False),
    5: Level(depth=6, seconds=0.3),
    6: Level(depth=8, seconds=0.3),
    7: Level(depth=FULL_DEPTH, seconds=0.3),
    8: Level(depth=FULL_DEPTH, seconds=1.0),
    9: Level(depth=FULL_DEPTH, seconds=2.0),
    10: Level(depth=FULL_DEPTH, seconds=4.0),
}

HINT_SECONDS = 1.0

#: The slope of the winning-chances curve per point of score (a man is 100),
#: fitted by maximum likelihood on engine games (training/checkers_curve.py;
#: the fit and its data are in docs/benchmarks.md). Scores beyond
#: :data:`SCORE_CEILING` count as that much.
CHANCES_PER_POINT = 0.0117
SCORE_CEILING = 1000


class CheckersEngine(Engine[Move]):
    """The checkers computer opponent, levels 1 (a beginner) to 10.

    One engine keeps its transposition table from move to move; use one per game.
    """

    strongest = 10
    default_level = 6
    #: Measured by benchmarks/checkers_levels.py (each level against the one below
    #: over 48 games of ACF ballots, colours swapped; the top two over 24 and 32) and
    #: against py-draughts' engine at 0.1 s a move: the Elo figures are the sums of
    #: the steps, level 1 at 0 (docs/benchmarks.md, "The levels"; levels 1 to 6 and
    #: the anchors measured again with the tuned evaluation; levels 7 to 10 over the
    #: level below again with the search in C).
    level_strengths: ClassVar[Mapping[int, str]] = {
        1: "a beginner: looks two plies ahead and often plays a weaker move; "
        "14 % against py-draughts' engine (0.1 s a move)",
        2: "two plies ahead, fewer careless moves; 280 Elo above level 1; "
        "20 % against py-draughts' engine (0.1 s a move)",
        3: "three plies ahead, now and then a careless move; 587 Elo above level 1; "
        "44 % against py-draughts' engine (0.1 s a move)",
        4: "four plies ahead, no deliberate mistakes; 1057 Elo above level 1; "
        "77 % against py-draughts' engine (0.1 s a move)",
        5: "six plies ahead, and the opening book; 1312 Elo above level 1; "
        "97 % against py-draughts' engine (0.1 s a move)",
        6: "eight plies ahead, and the opening book; 1466 Elo above level 1; "
        "95 % against py-draughts' engine (0.1 s a move)",
        7: "the full search for 0.3 s a move, with the opening book and the "
        "endgame database; 1860 Elo above level 1",
        8: "the full search for 1 s a move; 2032 Elo above level 1",
        9: "the full search for 2 s a move; 2090 Elo above level 1",
        10: "the strongest: the full search for 4 s a move; 2163 Elo above level 1",
    }
    #: A 60-move game (121 positions) analysed within two minutes.
    analysis_seconds = 0.75

    def __init__(
        self,
        endgames: bool = True,
        book: bool = True,
        weights: Weights = WEIGHTS,
        *,
        native: bool = True,
    ) -> None:
        #: The static evaluation the search uses.
        self.evaluation = evaluate if weights == WEIGHTS else Evaluation(weights)
        #: The solved endings of few pieces (None: searched like the rest; the
        #: beginner levels always search them, mistakes and all).
        self.endgames = shipped_database() if endgames else None
        #: Whether the searches run in C (:class:`NativeSearch`: the same search,
        #: faster), as they do where it is built unless ``native`` is False.
        self.native = native and NATIVE
        self.searcher = self._searcher(self.endgames, table_size=1 << 18)
        #: The first moves, searched deeply ahead of time (levels 5 and up).
        self.book = shipped_book() if book else OpeningBook({})

    def _searcher(
        self,
        endgames: EndgameDatabase | None,
        *,
        max_depth: int = FULL_DEPTH,
        time_limit: float | None = None,
        node_limit: int | None = None,
        table_size: int,
        late_move_reductions: bool = False,
        stop: threading.Event | None = None,
    ) -> Searcher:
        """A search of boards with this engine's evaluation and ``endgames``: in C
        where it is built, else the shared AlphaBeta."""
        if self.native:
            return NativeSearch(
                self.evaluation,
                endgames,
                max_depth=max_depth,
                time_limit=time_limit,
                node_limit=node_limit,
                table_size=table_size,
                late_move_reductions=late_move_reductions,
                stop=stop,
            )
        return AlphaBeta(
            max_depth=max_depth,
            time_limit=time_limit,
            node_limit=node_limit,
            table_size=table_size,
            late_move_reductions=late_move_reductions,
            stop=stop,
        )

    def time_limit(self, level: int) -> float:
        return LEVELS[self.check_level(level)].seconds

    # -- searching -----------------------------------------------------------------

    def search(
        self,
        state: CheckersState,
        seconds: float | None = None,
        depth: int = FULL_DEPTH,
        nodes: int | None = None,
    ) -> SearchResult[Step]:
        """Search ``state`` to ``depth`` plies or until ``seconds`` or ``nodes`` run
        out; the result's moves are the search's own ``(start bit, end bit,
        jumped)`` steps (see :meth:`to_move`).

        Only a search that time or nodes end reduces late moves: one to a set depth
        (the lower levels, "eight plies ahead") looks at every move that far."""
        searcher = self.searcher
        searcher.time_limit = seconds
        searcher.late_move_reductions = depth >= FULL_DEPTH
        if self.endgames is not None and self.endgames.code(state.position, state.turn) is not None:
            depth = 1  # every move leads into the database: one ply sees it all
        searcher.max_depth = depth
        searcher.node_limit = nodes
        return searcher.search(SearchBoard.from_state(state, self.endgames, self.evaluation))

    @staticmethod
    def to_move(state: CheckersState, step: Step) -> Move:
        """The rules' move for a search step (the first of equivalent jump paths)."""
        start_bit, end_bit, taken = step
        for move in state.legal_moves():
            if (
                SQUARE_BIT[move.start] == start_bit
                and SQUARE_BIT[move.end] == end_bit
                and _mask(move.captured) == taken
            ):
                return move
        raise ValueError(f"{step} is not a legal move here")

    def choose_move(
        self,
        state: State[Move],
        level: int | None = None,
        rng: random.Random | None = None,
        *,
        seconds: float | None = None,
    ) -> Move:
        state = _checkers_state(state)
        plan = LEVELS[self.check_level(self.default_level if level is None else level)]
        if seconds is not None and seconds < plan.seconds:
            plan = replace(plan, seconds=seconds)
        legal = state.legal_moves()
        if not legal:
            raise ValueError("the game is over: there is no move to choose")
        if len(legal) == 1:
            return legal[0]
        if plan.margin:
            return self._weaker_move(state, plan, rng or random.Random())
        if plan.book and (known := self.book.move(state)) is not None:
            return known
        # The search looks at the clock every thousand nodes or so: aim a little
        # short of the level's limit so that a move never takes longer.
        result = self.search(state, seconds=plan.seconds * 0.85, depth=plan.depth)
        assert result.best_move is not None
        return self.to_move(state, result.best_move)

    def _weaker_move(self, state: CheckersState, plan: Level, rng: random.Random) -> Move:
        """A beginner's move: every move scored by a shallow search, then one
        chosen at random among those close to the best (now and then among a
        wider set: a careless look at the board)."""
        board = SearchBoard.from_state(state, evaluation=self.evaluation)
        steps = board.moves()
        searcher = self._searcher(
            None,
            max_depth=max(plan.depth - 1, 1),
            time_limit=plan.seconds * 0.85 / len(steps),
            table_size=1 << 16,
        )
        scored: list[tuple[int, Step]] = []
        for step in steps:
            board.make(step)
            terminal = board.terminal_score(1)
            score = terminal if terminal is not None else searcher.search(board).score
            board.unmake()
            scored.append((-score, step))
        best = max(score for score, _ in scored)
        margin = plan.margin * (3 if rng.random() < plan.slip else 1)
        candidates = sorted(step for score, step in scored if score >= best - margin)
        return self.to_move(state, rng.choice(candidates))

    def winning_chances(self, score: float) -> float:
        """The mover's winning chances (-1 to +1) for a score: the logistic curve
        fitted on engine games; a win the search sees counts as certain.

        >>> engine = CheckersEngine()
        >>> engine.winning_chances(0), engine.winning_chances(MATE - 9)
        (0.0, 1.0)
        """
        if abs(score) >= MATE_BOUND:
            return math.copysign(1.0, score)
        return logistic_chances(score, CHANCES_PER_POINT, SCORE_CEILING)

    def score_text(self, score: float) -> str:
        """Men (a king is about 1.1), or ``#5`` for a win in 5 moves the search
        sees (``#-5``: a loss)."""
        moves = mate_in(score)
        return f"{score / WEIGHTS.man:+.2f}" if moves is None else f"#{moves}"

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
        """The position searched within ``seconds`` (or ``nodes``: the other lines
        then get a tenth of them each), ``moves`` (if given) alone at the root, to
        ``depth`` at most. With more than one line the other moves are then each
        searched a ply shallower, with the time left shared among them, and the
        best of them listed.

        >>> from parlour.checkers.rules import CHECKERS
        >>> found = CheckersEngine().analyse(CHECKERS.new_state(), seconds=0.3, lines=3)
        >>> len(found.lines), found.depth > 3
        (3, True)
        """
        state = _checkers_state(state)
        if state.is_over():
            return None
        started = time.perf_counter()
        searcher = self.searcher
        searcher.stop = stop or threading.Event()
        if moves is not None:
            return self._analyse_moves(state, moves, seconds, nodes, depth or FULL_DEPTH, started)
        try:
            share = 0.6 if lines > 1 else 1
            result = self.search(
                state,
                seconds=None if nodes else seconds * share,
                depth=depth or FULL_DEPTH,
                nodes=nodes,
            )
            assert result.best_move is not None
            found = [self._line(state, result.score, result.principal_variation)]
            if lines > 1:
                left = seconds - (time.perf_counter() - started)
                found += self._other_lines(state, result, lines - 1, left, nodes)
        finally:
            searcher.stop = threading.Event()
        elapsed = time.perf_counter() - started
        best = found[0].score
        return Analysis(state.turn, best, tuple(found), result.depth, result.nodes, elapsed)

    def _analyse_moves(
        self,
        state: CheckersState,
        moves: Sequence[Move],
        seconds: float,
        nodes: int | None,
        depth: int,
        started: float,
    ) -> Analysis[Move]:
        """The search of ``state`` with only ``moves`` at the root, in a table of
        its own (a score found with moves left out must not stand for the
        position's in the game's table)."""
        wanted = {(SQUARE_BIT[m.start], SQUARE_BIT[m.end], _mask(m.captured)) for m in moves}
        board = _RootOnly.from_state(state, self.endgames, self.evaluation)
        board.allowed = wanted
        searcher = self._searcher(
            self.endgames,
            max_depth=depth,
            time_limit=None if nodes else seconds,
            node_limit=nodes,
            table_size=1 << 18,
            late_move_reductions=depth >= FULL_DEPTH,  # as the search of every move
            stop=self.searcher.stop,
        )
        try:
            result = searcher.search(board)
        finally:
            self.searcher.stop = threading.Event()
        if result.best_move is None:
            raise ValueError("none of the moves to analyse is legal here")
        line = self._line(state, result.score, result.principal_variation or [result.best_move])
        elapsed = time.perf_counter() - started
        return Analysis(state.turn, line.score, (line,), result.depth, result.nodes, elapsed)

    def _line(self, state: CheckersState, score: int, steps: Iterable[Step]) -> Line[Move]:
        probe = state.copy()
        moves: list[Move] = []
        for step in steps:
            move = self.to_move(probe, step)
            moves.append(move)
            probe.push_unchecked(move)
        moves += self._database_line(probe)
        return Line(moves[0], str(moves[0]), float(score), tuple(str(m) for m in moves))

    def _database_line(self, state: CheckersState, most: int = 40) -> list[Move]:
        """Where a line ends in a won or lost ending the database holds, its play
        to the end (or ``most`` plies of it): the winner's quickest moves, the
        loser's longest defence. Nothing for a draw, which has no end to show."""
        db = self.endgames
        if db is None:
            return []
        probe = state.copy()
        line: list[Move] = []
        while len(line) < most and not probe.is_over():
            code = db.code(probe.position, probe.turn)
            if not code:
                break
            wanted = code - 1  # the code of a move on the best road: one ply fewer
            for move in probe.legal_moves():
                probe.push_unchecked(move)
                after = db.code(probe.position, probe.turn)
                probe.pop()
                if after == wanted or (after is None and wanted == 1):
                    break  # after None: the last piece taken, lost in 0 plies
            else:
                break
            line.append(move)
            probe.push_unchecked(move)
        return line

    def _other_lines(
        self,
        state: CheckersState,
        best: SearchResult[Step],
        count: int,
        seconds: float,
        nodes: int | None = None,
    ) -> list[Line[Move]]:
        """The best ``count`` moves after the best one, each scored by a search of
        the position it leads to, one ply shallower than the main search."""
        board = SearchBoard.from_state(state, self.endgames, self.evaluation)
        others = [step for step in board.moves() if step != best.best_move]
        if not others:
            return []
        searcher = self._searcher(
            self.endgames,
            max_depth=max(best.depth - 1, 1),
            time_limit=None if nodes else max(seconds, 0.05) / len(others),
            node_limit=nodes // 10 if nodes else None,
            table_size=1 << 16,
            stop=self.searcher.stop,
        )
        scored: list[tuple[int, list[Step]]] = []
        for step in others:
            board.make(step)
            terminal = board.terminal_score(1)
            if terminal is not None:
                scored.append((-terminal, [step]))
            else:
                reply = searcher.search(board)
                scored.append((-reply.score, [step, *reply.principal_variation]))
            board.unmake()
        scored.sort(key=lambda item: -item[0])
        return [self._line(state, score, steps) for score, steps in scored[:count]]

    def hint(self, state: State[Move]) -> Hint[Move]:
        state = _checkers_state(state)
        legal = state.legal_moves()
        if not legal:
            raise ValueError("the game is over: there is no move to suggest")
        result = self.search(state, seconds=HINT_SECONDS * 0.85)
        assert result.best_move is not None
        move = self.to_move(state, result.best_move)
        return Hint(move, str(move), assess(state, result), float(result.score))


def _checkers_state(state: State[Move]) -> CheckersState:
    if not isinstance(state, CheckersState):
        raise TypeError("the checkers engine plays checkers positions only")
    return state


# -- words -----------------------------------------------------------------------------

_NUMBERS = ("no", "a", "two", "three", "four", "five", "six", "seven", "eight", "nine")


def _pieces(n: int, noun: str) -> str:
    """'a man', 'two men', 'three kings'."""
    word = _NUMBERS[n] if n < len(_NUMBERS) else str(n)
    if n == 1:
        return f"{word} {noun}"
    return f"{word} {'men' if noun == 'man' else noun + 's'}"


def describe_material(position: Position, side: Side) -> str:
    """How the material stands for ``side``, in a player's words; "" when level.

    >>> describe_material((0b1, 0, 0, 0), BLACK)
    'a man up'
    >>> describe_material((0, 0b11, 0, 0b100), BLACK)
    'two kings against one'
    """
    black_men, black_kings, white_men, white_kings = position
    mine = (black_men.bit_count(), black_kings.bit_count())
    theirs = (white_men.bit_count(), white_kings.bit_count())
    if side is not BLACK:
        mine, theirs = theirs, mine
    men, kings = mine[0] - theirs[0], mine[1] - theirs[1]
    if men == 0 and kings == 0:
        return ""
    if mine[0] == 0 and theirs[0] == 0:  # kings alone
        their_kings = "nothing" if theirs[1] == 0 else ("one", *_NUMBERS[2:])[theirs[1] - 1]
        return f"{_pieces(mine[1], 'king')} against {their_kings}"
    if (men >= 0 and kings >= 0) or (men <= 0 and kings <= 0):
        parts = [_pieces(abs(kings), "king")] if kings else []
        parts += [_pieces(abs(men), "man")] if men else []
        return " and ".join(parts) + (" up" if men + kings > 0 else " down")
    if kings > 0:
        return f"{_pieces(kings, 'king')} for {_pieces(-men, 'man')}"
    return f"{_pieces(men, 'man')} for {_pieces(-kings, 'king')}"


def assess(state: CheckersState, result: SearchResult[Step]) -> str:
    """The search's verdict in a player's words: "Black wins in 5 moves", "White
    is winning: two kings against one", "Black is a man up", "about even"."""
    score = result.score
    mover, other = state.turn, state.turn.other
    if abs(score) >= MATE_BOUND:
        moves = abs(result.mate_in or 0)
        winner = mover if score > 0 else other
        return f"{_name(winner)} wins in {moves} move{'s' if moves != 1 else ''}"
    leader, lead = (mover, score) if score >= 0 else (other, -score)
    material = describe_material(state.position, leader)
    if lead < 25:
        return "about even"
    if lead >= 200:
        return f"{_name(leader)} is winning" + (f": {material}" if material else "")
    if material.endswith(" up"):
        return f"{_name(leader)} is {material}"
    if lead >= 60:
        return f"{_name(leader)} is better" + (f": {material}" if material else "")
    return f"{_name(leader)} is slightly better"


def _name(side: Side) -> str:
    return "Black" if side is BLACK else "White"
