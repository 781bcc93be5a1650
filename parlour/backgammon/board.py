"""The backgammon board and the rules of moving: which plays a roll allows.

A :class:`Position` is always seen from the player on roll (the *mover*). Each side's
checkers are counted in that side's own numbering, as GNU Backgammon keeps them: point 1
is the side's ace point, deep in its home board, point 24 is where its back checkers
start, and a 25th count is the bar. Borne-off checkers are what is missing from 15.
The mover's point ``p`` is the opponent's point ``25 - p``.

A roll is played as single checker moves, one die each (:class:`CheckerMove`, with 25
for the bar and 0 for off); a :class:`Play` is the tuple of them. :func:`legal_plays`
lists every distinct legal play of a roll, exactly as GNU Backgammon does: plays that
reach the same position count once, and only plays that use as many dice as the roll
allows (and, when only one die of two can be used, the higher where it can be) are
legal.

>>> start = Position.start()
>>> len(legal_plays(start, (3, 1))), len(legal_plays(start, (2, 2)))
(16, 75)
>>> start.apply((CheckerMove(8, 5), CheckerMove(6, 5))).pips()
(163, 167)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import compress

from parlour.core.errors import IllegalMoveError, NotationError

#: The bar and the off tray in :class:`CheckerMove` numbering.
BAR = 25
OFF = 0
#: Checkers per side.
CHECKERS = 15


@dataclass(frozen=True, slots=True, order=True)
class CheckerMove:
    """One checker moved by one die: from ``start`` to ``end`` in the mover's numbering,
    25 being the bar and 0 off the board.

    >>> str(CheckerMove(25, 22)), str(CheckerMove(6, 0)), str(CheckerMove(13, 10))
    ('bar/22', '6/off', '13/10')
    """

    start: int
    end: int

    def __str__(self) -> str:
        return f"{point_name(self.start)}/{point_name(self.end)}"


#: A whole turn: the checker moves of one roll, highest start first (as gnubg lists them).
Play = tuple[CheckerMove, ...]


def point_name(point: int) -> str:
    """How move text names a point: ``bar``, ``off`` or the number."""
    if point == BAR:
        return "bar"
    if point == OFF:
        return "off"
    return str(point)


# One shared CheckerMove per (start, end), indexed by start * 32 + end, so that the move
# generator builds plays from ready-made values instead of constructing new ones.
_MOVES: list[CheckerMove] = [CheckerMove(1, 0)] * (32 * 26)  # placeholders never used
for _start in range(1, 26):
    for _end in range(_start):
        _MOVES[_start << 5 | _end] = CheckerMove(_start, _end)


def _move(code: int) -> CheckerMove:
    return _MOVES[code]


_START_COUNTS = (0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0)


@dataclass(frozen=True, slots=True)
class Position:
    """The checkers on the board, seen from the player on roll.

    ``mover`` and ``opponent`` hold 25 counts each, in each side's own numbering:
    index ``i`` is point ``i + 1``, index 24 the bar (GNU Backgammon's board layout).

    >>> start = Position.start()
    >>> start.mover[5], start.mover[23], start.mover_off
    (5, 2, 0)
    """

    mover: tuple[int, ...]
    opponent: tuple[int, ...]

    @classmethod
    def start(cls) -> Position:
        """The opening position: 2 on the 24-point, 5 on the 13, 3 on the 8, 5 on the 6."""
        return cls(_START_COUNTS, _START_COUNTS)

    @property
    def mover_off(self) -> int:
        """Checkers the player on roll has borne off."""
        return CHECKERS - sum(self.mover)

    @property
    def opponent_off(self) -> int:
        """Checkers the opponent has borne off."""
        return CHECKERS - sum(self.opponent)

    def swapped(self) -> Position:
        """The same position seen from the other player (who is then on roll)."""
        return Position(self.opponent, self.mover)

    def pips(self) -> tuple[int, int]:
        """Pip counts (mover, opponent): how far each side's checkers have to travel."""
        return _pips(self.mover), _pips(self.opponent)

    def apply(self, play: Iterable[CheckerMove]) -> Position:
        """The position after ``play``, still seen from the same mover (the turn does
        not pass here). Hits go to the opponent's bar. The play is not checked against
        the dice; a move from an empty point raises :class:`IllegalMoveError`."""
        mover = list(self.mover)
        opponent = list(self.opponent)
        for move in play:
            start, end = move.start, move.end
            if not 0 <= end < start <= BAR:
                raise IllegalMoveError(
                    f"{start}/{end} is not a move: checkers go from a point (or the bar) "
                    "to a lower point (or off)",
                    rule="direction",
                )
            if not mover[start - 1]:
                raise IllegalMoveError(
                    f"there is no checker of yours on {point_name(start)} to move {move}",
                    rule="no-checker",
                )
            mover[start - 1] -= 1
            if end:
                mover[end - 1] += 1
                if opponent[24 - end] == 1:
                    opponent[24 - end] = 0
                    opponent[24] += 1
                elif opponent[24 - end]:
                    raise IllegalMoveError(_closed_message(end), rule="closed-point")
        return Position(tuple(mover), tuple(opponent))

    def win_kind(self) -> int:
        """0 while the mover still has checkers on the board; once all 15 are off,
        1 for a single game, 2 for a gammon (the opponent bore off none), 3 for a
        backgammon (and the opponent still has a checker on the bar or in the mover's
        home board, which is the opponent's points 19 to 24)."""
        if any(self.mover):
            return 0
        if self.opponent_off:
            return 1
        if any(self.opponent[18:25]):
            return 3
        return 2

    def validate(self) -> None:
        """Raise :class:`NotationError` naming what is impossible about this position."""
        for name, side in (("the player on roll", self.mover), ("the opponent", self.opponent)):
            if len(side) != 25:
                raise NotationError(
                    f"{name} needs 25 counts (24 points and the bar), not {len(side)}"
                )
            for index, count in enumerate(side):
                if not isinstance(count, int) or count < 0:
                    where = "the bar" if index == 24 else f"point {index + 1}"
                    raise NotationError(f"{name} has {count!r} checkers on {where}")
            if sum(side) > CHECKERS:
                raise NotationError(f"{name} has {sum(side)} checkers; a side has only 15")
        for point in range(1, 25):
            if self.mover[point - 1] and self.opponent[24 - point]:
                raise NotationError(
                    f"both players have checkers on point {point} (of the player on roll)"
                )
        if not any(self.mover) and not any(self.opponent):
            raise NotationError("both players have borne off all their checkers")


def _pips(side: Sequence[int]) -> int:
    return sum(count * (index + 1) for index, count in enumerate(side))


def _closed_message(point: int) -> str:
    return f"point {point} is closed (held by two or more opposing checkers)"


# -- the move generator ---------------------------------------------------------------
#
# The generator works on two mutable lists in the mover's numbering: ``board[p]`` is the
# mover's checkers on point p (1..24), ``board[25]`` the bar, ``board[0]`` a scratch count
# of checkers borne off this turn; ``blocks[p]`` is the opponent's checkers on the
# mover's point p. It plays each die on the lists and takes it back, and tells resulting
# positions apart by an integer key: the change of every count, four bits a point
# (counts never exceed 15, so no carry crosses a field), plus one bit for each point
# where a blot was hit.

_FIELD = [1 << (4 * point) for point in range(26)]
_HIT = [1 << (104 + point) for point in range(26)]


#: _BY_DIE[die][start]: the move of ``die`` pips from ``start``: off the board when the
#: die is as high as the point or higher (``_BY_DIE[die][0]`` is a placeholder).
_BY_DIE: list[list[CheckerMove]] = [
    [CheckerMove(max(start, 1), max(start - die, 0)) for start in range(26)] for die in range(7)
]


#: The points 24 down to 1.
_POINTS_DOWN = range(24, 0, -1)
#: Maps an opponent's count to 1 where we may land (0 or 1 checker), else 0.
_OPEN = bytes([1, 1] + [0] * 254)

#: _OFF_MOVES[start]: bearing a checker off from ``start``.
_OFF_MOVES = [CheckerMove(start, 0) if start else CheckerMove(1, 0) for start in range(26)]


def _lists(position: Position) -> tuple[list[int], list[int]]:
    board = [0, *position.mover]
    blocks = [0, *position.opponent[23::-1], 0]
    return board, blocks


def _highest(board: list[int], below: int = 25) -> int:
    """The mover's highest occupied point at or under ``below`` (0 if none)."""
    while below and not board[below]:
        below -= 1
    return below


def _sources(board: list[int], blocks: list[int], die: int) -> list[int]:
    """The points from which a checker may move ``die`` pips (25 for the bar)."""
    if board[25]:
        return [25] if blocks[25 - die] < 2 else []
    highest = _highest(board, 24)
    return _starts(board, blocks, die, highest, highest > 6)


def _starts(board: list[int], blocks: list[int], die: int, highest: int, outside: int) -> list[int]:
    """The points (none on the bar) from which a checker may move ``die`` pips, given
    the highest occupied point and whether any checker is outside home."""
    if outside:
        return [p for p in range(highest, die, -1) if board[p] and blocks[p - die] < 2]
    found = []
    for point in range(highest, 0, -1):
        if board[point]:
            if point > die:
                if blocks[point - die] < 2:
                    found.append(point)
            elif point in (die, highest):
                found.append(point)
    return found


def _plays_two_dice(
    board: list[int], blocks: list[int], high: int, low: int
) -> tuple[list[Play], int]:
    """Every distinct legal play of a roll of two different dice, ``high`` > ``low``,
    and the pips of the dice they use: each order of the dice is tried, and plays are
    told apart by the position they reach."""
    both: dict[int, tuple[int, int]] = {}
    single: dict[int, tuple[int, int]] = {}  # key -> (die, move code)
    on_bar = board[25]
    highest = 25 if on_bar else _highest(board, 24)
    outside = sum(board[7:26])
    for first, second in ((high, low), (low, high)):
        if on_bar:
            starts = [25] if blocks[25 - first] < 2 else []
        else:
            starts = _starts(board, blocks, first, highest, outside)
        for start in starts:
            end = start - first if start > first else 0
            board[start] -= 1
            board[end] += 1
            hit = end and blocks[end] == 1
            key = _FIELD[end] - _FIELD[start]
            if hit:
                blocks[end] = 0
                key += _HIT[end]
            code = start << 5 | end
            if board[25]:
                nexts = [25] if blocks[25 - second] < 2 else []
            else:
                top = highest if board[highest] and highest < 25 else _highest(board, 24)
                nexts = _starts(board, blocks, second, top, outside - (start > 6 and end <= 6))
            if nexts:
                for start2 in nexts:
                    end2 = start2 - second if start2 > second else 0
                    key2 = key + _FIELD[end2] - _FIELD[start2]
                    if end2 and blocks[end2] == 1:
                        key2 += _HIT[end2]
                    if key2 not in both:
                        both[key2] = (code, start2 << 5 | end2)
            elif not both:
                known = single.get(key)
                if known is None or known[0] < first:
                    single[key] = (first, code)
            if hit:
                blocks[end] = 1
            board[end] -= 1
            board[start] += 1
    if both:
        plays: list[Play] = []
        for code1, code2 in both.values():
            if code1 < code2:
                code1, code2 = code2, code1
            plays.append((_move(code1), _move(code2)))
        return plays, high + low
    if not single:
        return [], 0
    best = max(die for die, _ in single.values())
    return [(_move(code),) for die, code in single.values() if die == best], best


def _check_dice(dice: object) -> tuple[int, int]:
    """The two dice, or :class:`NotationError` saying what is wrong with them."""
    if not isinstance(dice, Sequence) or isinstance(dice, str) or len(dice) != 2:
        raise NotationError(f"a roll is two dice, not {dice!r}")
    first, second = dice
    for die in (first, second):
        if type(die) is not int or not 1 <= die <= 6:
            raise NotationError(f"a die shows 1 to 6, not {die!r}")
    return first, second


def legal_plays(position: Position, dice: Sequence[int]) -> list[Play]:
    """Every distinct legal play of ``dice`` (plays reaching the same position count
    once), each with its moves highest start first; ``[]`` when nothing can be played.
    The list's order is fixed for a given position and roll but otherwise unspecified
    (it follows the generator); sort it where an order matters.

    >>> sorted(" ".join(map(str, play)) for play in legal_plays(Position.start(), (6, 5)))
    ['13/7 7/2', '13/7 8/3', '13/8 13/7', '24/18 13/8', '24/18 18/13', '24/18 8/3', '8/3 8/2']
    """
    try:
        high, low = dice
    except (TypeError, ValueError):
        high = low = 0
    # Checked here rather than in _check_dice: this is the engine's hot path.
    if type(high) is not int or type(low) is not int or not (0 < high < 7 and 0 < low < 7):
        _check_dice(dice)
    return _generate(position, (high, low))[0]


def _generate(position: Position, dice: tuple[int, int]) -> tuple[list[Play], int]:
    """The legal plays and the pips of the dice each uses (gnubg keeps only the plays
    that use the most dice and then the most pips: that is the higher-die rule)."""
    high, low = dice
    if high < low:
        high, low = low, high
    mover = position.mover
    opponent = position.opponent
    # Most positions need no bearing off this turn: a checker comes in from the bar,
    # or enough checkers are outside home that none can be borne off. There no move
    # changes which points are open, and the plays can be listed directly, without
    # trying every order of the dice.
    if mover[24]:
        if high == low:
            return _plays_doubles_entering(mover, opponent, high)
        if mover[24] > 1:
            return _plays_two_dice_two_on_bar(opponent, high, low)
        plays = _plays_two_dice_entering(mover, opponent, high, low)
        if plays:
            return plays, high + low
    else:
        outside = sum(mover[6:24])
        if not outside:
            if high == low:
                return _plays_doubles_home(mover, opponent, high)
            exact = _plays_two_dice_home_exact(mover, opponent, high, low)
            if exact is not None:
                return exact, high + low
            return _plays_two_dice_home(mover, opponent, high, low)
        if high == low:
            # Four moves cannot bear off if the checkers outside need them all to
            # come home.
            if outside >= 4 or _moves_to_come_home(mover, high) >= 4:
                return _plays_doubles_open(mover, opponent, high)
            return _plays_doubles_bearing_off(mover, opponent, high)
        if outside >= 2:
            plays = _plays_two_dice_open(mover, opponent, high, low)
        else:
            plays = _plays_two_dice_last_coming_home(mover, opponent, high, low)
        if plays:
            return plays, high + low
    # No play uses both dice: try each die alone, and both orders, on the board.
    board, blocks = _lists(position)
    return _plays_two_dice(board, blocks, high, low)


# -- all checkers home: the bear-off ----------------------------------------------------
#
# With every checker in the home board, what one die can do depends only on which home
# points are occupied (six bits), which of points 1 to 5 are closed (five bits) and the
# die. Those answers are computed once each, on first need, into _HOME_OPTIONS.

_HOME_OPTIONS: list[tuple[tuple[int, int], ...] | None] = [None] * (7 << 11)
#: Maps each count to 1 if it is not zero.
_NONZERO = bytes([0] + [1] * 255)
#: The occupied-points bits of six 0/1 bytes (points 1 to 6).
_OCCUPIED_HOME = {bytes((bits >> point) & 1 for point in range(6)): bits for bits in range(64)}


def _home_options(die: int, occupied: int, closed: int) -> tuple[tuple[int, int], ...]:
    """The moves (start, end) of ``die`` with all checkers home, highest start first:
    ``occupied`` has bit p-1 for each occupied point p, ``closed`` bit q-1 for each
    point q held by two or more opposing checkers."""
    key = die << 11 | occupied << 5 | closed
    options = _HOME_OPTIONS[key]
    if options is None:
        highest = occupied.bit_length()
        found = []
        for point in range(highest, 0, -1):
            if occupied >> (point - 1) & 1:
                if point > die:
                    if not closed >> (point - die - 1) & 1:
                        found.append((point, point - die))
                elif point in (die, highest):
                    found.append((point, 0))
        options = _HOME_OPTIONS[key] = tuple(found)
    return options


def _home_masks(mover: tuple[int, ...], opponent: tuple[int, ...]) -> tuple[int, int, list[bool]]:
    """The occupied-points bits, the closed-points bits and where blots stand, for a
    mover with every checker home."""
    occupied = _OCCUPIED_HOME[bytes(mover[:6]).translate(_NONZERO)]
    closed = 0
    blots = [False] * 7
    if any(opponent[19:24]):
        for point in range(1, 6):
            count = opponent[24 - point]
            if count > 1:
                closed |= 1 << (point - 1)
            elif count:
                blots[point] = True
    return occupied, closed, blots


def _plays_two_dice_home(
    mover: tuple[int, ...], opponent: tuple[int, ...], high: int, low: int
) -> tuple[list[Play], int]:
    """Every distinct legal play of two different dice with all checkers home."""
    occupied, closed, blots = _home_masks(mover, opponent)
    counts = [0, *mover[:6]]
    both: dict[int, tuple[int, int]] = {}
    single: dict[int, tuple[int, int]] = {}  # key -> (die, move code)
    for first, second in ((high, low), (low, high)):
        for start, end in _home_options(first, occupied, closed):
            counts[start] -= 1
            counts[end] += 1
            after = occupied
            if not counts[start]:
                after &= ~(1 << (start - 1))
            if end:
                after |= 1 << (end - 1)
            key = _FIELD[end] - _FIELD[start]
            hit = blots[end]
            if hit:
                key += _HIT[end]
            code = start << 5 | end
            nexts = _HOME_OPTIONS[second << 11 | after << 5 | closed]
            if nexts is None:
                nexts = _home_options(second, after, closed)
            if nexts:
                for start2, end2 in nexts:
                    key2 = key + _FIELD[end2] - _FIELD[start2]
                    if blots[end2] and not (hit and end2 == end):
                        key2 += _HIT[end2]
                    if key2 not in both:
                        both[key2] = (code, start2 << 5 | end2)
            elif not both:
                known = single.get(key)
                if known is None or known[0] < first:
                    single[key] = (first, code)
            counts[end] -= 1
            counts[start] += 1
    if both:
        plays: list[Play] = []
        for code1, code2 in both.values():
            if code1 < code2:
                code1, code2 = code2, code1
            plays.append((_move(code1), _move(code2)))
        return plays, high + low
    if not single:
        return [], 0
    best = max(die for die, _ in single.values())
    return [(_move(code),) for die, code in single.values() if die == best], best


def _plays_two_dice_home_exact(
    mover: tuple[int, ...], opponent: tuple[int, ...], high: int, low: int
) -> list[Play] | None:
    """The plays of two different dice with all checkers home, when neither die can
    ever exceed the highest occupied point (it is at least the high die even after
    a checker leaves it): then only exact bear-offs happen, what each die may do
    from each point never changes, and the plays are listed as in an open position
    (:func:`_plays_two_dice_open`), the off tray standing for point 0. None when this
    does not apply, or when both dice cannot be used."""
    occupied = [p for p in range(6, 0, -1) if mover[p - 1]]
    if not occupied:
        return None
    top = occupied[0]
    second = top if mover[top - 1] > 1 else (occupied[1] if len(occupied) > 1 else 0)
    if high > second:
        return None
    # opponent[24 - p] is the opponent's count on our point p.
    with_high = [p for p in occupied if p == high or (p > high and opponent[24 - p + high] < 2)]
    with_low = [p for p in occupied if p == low or (p > low and opponent[24 - p + low] < 2)]
    moves_high = _BY_DIE[high]
    moves_low = _BY_DIE[low]
    plays: list[Play] = []
    for start in with_high:
        move = moves_high[start]
        above = start + low
        end = start - high
        plays += [
            (moves_low[s], move) if s > start else (move, moves_low[s])
            for s in with_low
            if s != above and s != end and s != start
        ]
        if mover[start - 1] > 1 and start in with_low:
            plays.append((moves_low[start], move))
    total = high + low
    for start in occupied:
        if start < total:
            break
        if start > total and opponent[24 - start + total] > 1:
            continue
        via_high = opponent[24 - start + high]
        via_low = opponent[24 - start + low]
        if via_high < 2:
            plays.append((moves_high[start], moves_low[start - high]))
            if via_low == 1 or (via_low == 0 and via_high == 1):
                plays.append((moves_low[start], moves_high[start - low]))
        elif via_low < 2:
            plays.append((moves_low[start], moves_high[start - low]))
    return plays or None


def _plays_doubles_home(
    mover: tuple[int, ...], opponent: tuple[int, ...], die: int
) -> tuple[list[Play], int]:
    """Every distinct legal play of a double with all checkers home, moves made from
    non-increasing points (each set of moves once)."""
    occupied, closed, _ = _home_masks(mover, opponent)
    counts = [0, *mover[:6]]
    found: list[list[Play]] = [[], [], [], [], []]
    fours = found[4]
    moves = _MOVES
    table = _HOME_OPTIONS
    base = die << 11 | closed
    # The bit a point's count adds to ``occupied`` (none for off, point 0).
    bit = (0, 1, 2, 4, 8, 16, 32)
    for a, a_end in _home_options(die, occupied, closed):
        counts[a] -= 1
        counts[a_end] += 1
        occupied_a = (occupied if counts[a] else occupied & ~bit[a]) | bit[a_end]
        move_a = moves[a << 5 | a_end]
        leaf = True
        options = table[base | occupied_a << 5] or _home_options(die, occupied_a, closed)
        for b, b_end in options:
            if b > a:
                continue
            leaf = False
            counts[b] -= 1
            counts[b_end] += 1
            occupied_b = (occupied_a if counts[b] else occupied_a & ~bit[b]) | bit[b_end]
            move_b = moves[b << 5 | b_end]
            leaf2 = True
            options_b = table[base | occupied_b << 5] or _home_options(die, occupied_b, closed)
            for c, c_end in options_b:
                if c > b:
                    continue
                leaf2 = False
                counts[c] -= 1
                counts[c_end] += 1
                occupied_c = (occupied_b if counts[c] else occupied_b & ~bit[c]) | bit[c_end]
                move_c = moves[c << 5 | c_end]
                options_c = table[base | occupied_c << 5] or _home_options(die, occupied_c, closed)
                last = [(move_a, move_b, move_c, moves[d << 5 | e]) for d, e in options_c if d <= c]
                if last:
                    fours += last
                elif not fours:
                    found[3].append((move_a, move_b, move_c))
                counts[c_end] -= 1
                counts[c] += 1
            if leaf2 and not fours and not found[3]:
                found[2].append((move_a, move_b))
            counts[b_end] -= 1
            counts[b] += 1
        if leaf and not fours and not found[3] and not found[2]:
            found[1].append((move_a,))
        counts[a_end] -= 1
        counts[a] += 1
    for used in (4, 3, 2, 1):
        if found[used]:
            return found[used], used * die
    return [], 0


def _plays_two_dice_two_on_bar(
    opponent: tuple[int, ...], high: int, low: int
) -> tuple[list[Play], int]:
    """Two or more checkers on the bar: each die enters one, if its point is open."""
    enter_high = opponent[high - 1] < 2
    enter_low = opponent[low - 1] < 2
    if enter_high and enter_low:
        return [(_BY_DIE[low][BAR], _BY_DIE[high][BAR])], high + low
    if enter_high:
        return [(_BY_DIE[high][BAR],)], high
    if enter_low:
        return [(_BY_DIE[low][BAR],)], low
    return [], 0


def _plays_two_dice_entering(
    mover: tuple[int, ...], opponent: tuple[int, ...], high: int, low: int
) -> list[Play]:
    """The plays that use both dice with one checker on the bar and no bearing off:
    it enters with one die and the other die moves any checker (it too). As in
    :func:`_plays_two_dice_open`, the entering checker going on is counted once."""
    moves_high = _BY_DIE[high]
    moves_low = _BY_DIE[low]
    plays: list[Play] = []
    if opponent[high - 1] < 2:
        entry = BAR - high
        enter = moves_high[BAR]
        for start in range(24, low, -1):
            if mover[start - 1] and start != entry and opponent[24 - start + low] < 2:
                plays.append((enter, moves_low[start]))
    if opponent[low - 1] < 2:
        entry = BAR - low
        enter = moves_low[BAR]
        for start in range(24, high, -1):
            if mover[start - 1] and start != entry and opponent[24 - start + high] < 2:
                plays.append((enter, moves_high[start]))
    _add_one_checker_plays(plays, BAR, opponent, high, low)
    return plays


def _add_one_checker_plays(
    plays: list[Play], start: int, opponent: tuple[int, ...], high: int, low: int
) -> None:
    """Add the plays of one checker from ``start`` taking both dice (no bearing off):
    through the point after the high die or after the low one; the two ways differ
    only if a blot is hit on the way."""
    if opponent[24 - start + high + low] > 1:
        return
    via_high = opponent[24 - start + high]
    via_low = opponent[24 - start + low]
    moves_high = _BY_DIE[high]
    moves_low = _BY_DIE[low]
    if via_high < 2:
        plays.append((moves_high[start], moves_low[start - high]))
        if via_low == 1 or (via_low == 0 and via_high == 1):
            plays.append((moves_low[start], moves_high[start - low]))
    elif via_low < 2:
        plays.append((moves_low[start], moves_high[start - low]))


def _plays_two_dice_open(
    mover: tuple[int, ...], opponent: tuple[int, ...], high: int, low: int
) -> list[Play]:
    """The plays that use both dice, when nothing is on the bar and nothing can be
    borne off. Then no move changes which points are open (a hit only takes a blot),
    so the plays are: two different moves, one a die, each from the points open for
    its die; or one checker taking both dice through either intermediate point.

    Two moves where one lands where the other starts reach the same position as one
    checker taking both dice, so they are left to the second kind; every other pair
    reaches a position of its own."""
    # opponent[24 - p] is the opponent's count on our point p.
    occupied = list(compress(_POINTS_DOWN, mover[23::-1]))
    with_high = [p for p in occupied if p > high and opponent[24 - p + high] < 2]
    with_low = [p for p in occupied if p > low and opponent[24 - p + low] < 2]
    moves_high = _BY_DIE[high]
    moves_low = _BY_DIE[low]
    plays: list[Play] = []
    for start in with_high:
        move = moves_high[start]
        above = start + low  # a low move from there would end where this one starts
        end = start - high  # a low move from there would start where this one ends
        plays += [
            (moves_low[s], move) if s > start else (move, moves_low[s])
            for s in with_low
            if s != above and s != end and s != start
        ]
        if mover[start - 1] > 1 and start in with_low:
            plays.append((moves_low[start], move))
    # One checker taking both dice (see _add_one_checker_plays, inlined here for speed).
    total = high + low
    for start in occupied:
        if start <= total:
            break
        if opponent[24 - start + total] > 1:
            continue
        via_high = opponent[24 - start + high]
        via_low = opponent[24 - start + low]
        if via_high < 2:
            plays.append((moves_high[start], moves_low[start - high]))
            if via_low == 1 or (via_low == 0 and via_high == 1):
                plays.append((moves_low[start], moves_high[start - low]))
        elif via_low < 2:
            plays.append((moves_low[start], moves_high[start - low]))
    return plays


def _plays_two_dice_last_coming_home(
    mover: tuple[int, ...], opponent: tuple[int, ...], high: int, low: int
) -> list[Play]:
    """The plays that use both dice when exactly one checker is outside home and none
    is on the bar. Those that bear nothing off are the plays of an open position
    (:func:`_plays_two_dice_open`). To bear off, that checker must first come home
    with one die; the other die then bears off from its own point, or from the
    highest point if it is higher than every checker."""
    plays = _plays_two_dice_open(mover, opponent, high, low)
    outsider = 24
    while not mover[outsider - 1]:
        outsider -= 1
    highest_home = 6
    while highest_home and not mover[highest_home - 1]:
        highest_home -= 1
    gone_off_without_hit = False
    for first, second in ((high, low), (low, high)):
        point = outsider - first
        if point > 6 or opponent[24 - point] > 1:
            continue
        come_home = _BY_DIE[first][outsider]
        if second == point or (second > point and highest_home <= point):
            # The checker just come home goes on and off (or one beside it, the same).
            # Through either point it is one play, unless a blot was hit on the way.
            if not opponent[24 - point]:
                if gone_off_without_hit:
                    continue
                gone_off_without_hit = True
            plays.append((come_home, _OFF_MOVES[point]))
        elif mover[second - 1]:
            plays.append((come_home, _OFF_MOVES[second]))
        elif second > highest_home > point:
            plays.append((come_home, _OFF_MOVES[highest_home]))
    return plays


def _plays_doubles_entering(
    mover: tuple[int, ...], opponent: tuple[int, ...], die: int
) -> tuple[list[Play], int]:
    """The plays of a double with checkers on the bar: they enter first, as many as
    can; the moves left (if all entered) go on as in an open position. (A checker that
    enters cannot reach home before the fourth move, so nothing is borne off.)"""
    if opponent[die - 1] > 1:
        return [], 0
    waiting = mover[24]
    enter = _BY_DIE[die][BAR]
    if waiting >= 4:
        return [(enter,) * 4], 4 * die
    board = [0, *mover]
    board[BAR] = 0
    board[BAR - die] += waiting
    open_from = [p for p in range(24, die, -1) if opponent[24 - p + die] < 2]
    found: list[list[tuple[CheckerMove, ...]]] = [[], [], [], []]
    _walk_double(board, open_from, _BY_DIE[die], die, 0, 4 - waiting, (), found)
    for used in range(4 - waiting, -1, -1):
        if found[used]:
            prefix = (enter,) * waiting
            return [prefix + rest for rest in found[used]], (waiting + used) * die
    raise AssertionError("the empty walk is always found")


def _walk_double(
    board: list[int],
    open_from: list[int],
    moves: list[CheckerMove],
    die: int,
    first: int,
    left: int,
    made: tuple[CheckerMove, ...],
    found: list[list[tuple[CheckerMove, ...]]],
) -> None:
    """Record in ``found[n]`` every way to go on with up to ``left`` more moves of
    ``die`` from the points ``open_from[first:]`` (non-increasing), stopping where
    nothing more can move; ``found[n]`` holds those of ``n`` moves."""
    leaf = True
    if left:
        for index in range(first, len(open_from)):
            start = open_from[index]
            if board[start]:
                leaf = False
                board[start] -= 1
                board[start - die] += 1
                _walk_double(
                    board, open_from, moves, die, index, left - 1, (*made, moves[start]), found
                )
                board[start - die] -= 1
                board[start] += 1
    if leaf:
        found[len(made)].append(made)


def _starting_points(
    mover: tuple[int, ...], opponent: tuple[int, ...], die: int
) -> tuple[list[int], list[bool]]:
    """For a double of ``die`` with nothing on the bar: the points a checker may move
    from, highest first (its landing point is open, and a checker is there or can
    arrive there from the point ``die`` higher during the turn), and, by point,
    whether it is one of them."""
    open_from = []
    usable = [False] * (26 + die)
    for point in range(24, die, -1):
        if opponent[24 - point + die] < 2 and (mover[point - 1] or usable[point + die]):
            usable[point] = True
            open_from.append(point)
    return open_from, usable


def _plays_doubles_open(
    mover: tuple[int, ...], opponent: tuple[int, ...], die: int
) -> tuple[list[Play], int]:
    """The plays of a double when nothing is on the bar and nothing can be borne off.
    The points a checker may move from are then fixed for the whole turn; moves are
    made from non-increasing points, so each play is made once."""
    open_from, usable = _starting_points(mover, opponent, die)
    board = [0, *mover]
    moves = _BY_DIE[die]
    found: list[list[Play]] = [[], [], [], [], []]
    fours = found[4]
    count = len(open_from)
    for i in range(count):
        a = open_from[i]
        if not board[a]:
            continue
        board[a] -= 1
        board[a - die] += 1
        move_a = moves[a]
        leaf = True
        for j in range(i, count):
            b = open_from[j]
            if not board[b]:
                continue
            leaf = False
            board[b] -= 1
            board[b - die] += 1
            move_b = moves[b]
            # The last two moves: a checker from c, then one from c or below it (c
            # itself only if it had two), or the one that just arrived from c.
            ready = [x for x in open_from[j:] if board[x]]
            leaf2 = not ready
            fours += [
                (move_a, move_b, moves[c], moves[d])
                for index, c in enumerate(ready)
                for d in (ready[index:] if board[c] > 1 else ready[index + 1 :])
            ]
            fours += [
                (move_a, move_b, moves[c], moves[c - die])
                for c in ready
                if usable[c - die] and not board[c - die]
            ]
            if not fours:
                last = len(ready) - 1
                found[3] += [
                    (move_a, move_b, moves[c])
                    for index, c in enumerate(ready)
                    if index == last and board[c] == 1 and not usable[c - die]
                ]
            if leaf2 and not fours and not found[3]:
                found[2].append((move_a, move_b))
            board[b - die] -= 1
            board[b] += 1
        if leaf and not found[4] and not found[3] and not found[2]:
            found[1].append((move_a,))
        board[a - die] -= 1
        board[a] += 1
    for used in (4, 3, 2, 1):
        if found[used]:
            return found[used], used * die
    return [], 0


#: _OFF_RUNS[point][n]: ``n`` checkers borne off from ``point``, as moves.
_OFF_RUNS = [tuple((_OFF_MOVES[point],) * n for n in range(5)) for point in range(7)]


def _bear_offs(board: list[int], die: int, left: int) -> Play:
    """The bear-offs that ``left`` more moves of ``die`` make, with every checker home
    and moves from points above the die already made: from the die's own point while a
    higher one is occupied, otherwise from the highest point down. Forced, so one way."""
    highest = 6
    while highest and not board[highest]:
        highest -= 1
    if highest > die:
        return _OFF_RUNS[die][min(board[die], left)]
    taken: Play = ()
    for point in range(highest, 0, -1):
        count = board[point]
        if count >= left:
            return taken + _OFF_RUNS[point][left]
        taken += _OFF_RUNS[point][count]
        left -= count
    return taken


def _moves_to_come_home(mover: tuple[int, ...], die: int) -> int:
    """How many moves of ``die`` the checkers outside home need to come home, at least."""
    return sum(
        -(-(point - 6) // die) * mover[point - 1] for point in range(7, 25) if mover[point - 1]
    )


def _plays_doubles_bearing_off(
    mover: tuple[int, ...], opponent: tuple[int, ...], die: int
) -> tuple[list[Play], int]:
    """The plays of a double with nothing on the bar and fewer than four checkers
    outside home, so that bearing off may start during the turn. Made in order of
    non-increasing starting points, a play is some moves from points above the die
    (which do not change which points are open), then bear-offs, which can begin only
    once every checker is home and are then forced (:func:`_bear_offs`)."""
    open_from, usable = _starting_points(mover, opponent, die)
    board = [0, *mover]
    moves = _BY_DIE[die]
    count = len(open_from)
    found: list[list[Play]] = [[], [], [], [], []]

    def walk(first: int, made: Play, outside: int) -> None:
        left = 4 - len(made)
        leaf = True
        if left == 2 and outside > 1:
            # Nothing can be borne off in the last two moves: list them as in an
            # open position (see _plays_doubles_open).
            ready = [point for point in open_from[first:] if board[point]]
            fours = found[4]
            fours += [
                (*made, moves[c], moves[d])
                for index, c in enumerate(ready)
                for d in (ready[index:] if board[c] > 1 else ready[index + 1 :])
            ]
            fours += [
                (*made, moves[c], moves[c - die])
                for c in ready
                if usable[c - die] and not board[c - die]
            ]
            if not fours and ready:
                c = ready[-1]
                if board[c] == 1 and not usable[c - die]:
                    found[3].append((*made, moves[c]))
            if not ready:
                found[2].append(made)
            return
        for index in range(first, count):
            start = open_from[index]
            if not board[start]:
                continue
            leaf = False
            end = start - die
            board[start] -= 1
            board[end] += 1
            now = (*made, moves[start])
            home = start > 6 >= end
            if left > 2:
                walk(index, now, outside - home)
            else:
                # The last move, listed without being made.
                last = [(*now, moves[point]) for point in open_from[index:] if board[point]]
                taken = _bear_offs(board, die, 1) if outside == home else ()
                if taken:
                    last.append(now + taken)
                if last:
                    found[4] += last
                else:
                    found[3].append(now)
            board[end] -= 1
            board[start] += 1
        if left and not outside:
            taken = _bear_offs(board, die, left)
            if taken:
                found[len(made) + len(taken)].append(made + taken)
                return
        if leaf:
            found[len(made)].append(made)

    walk(0, (), sum(mover[6:24]))
    for used in (4, 3, 2, 1):
        if found[used]:
            return found[used], used * die
    return [], 0


# -- moves one at a time: click-by-click entry and explanations -----------------------


def _single_moves(position: Position, die: int) -> list[CheckerMove]:
    board, blocks = _lists(position)
    return [
        CheckerMove(start, start - die if start > die else 0)
        for start in _sources(board, blocks, die)
    ]


def checker_moves(position: Position, die: int) -> list[CheckerMove]:
    """Every move of one checker by ``die`` that the board allows on its own, whether
    or not a whole legal play can contain it (the rules on using the dice aside).

    >>> [str(move) for move in checker_moves(Position.start(), 6)]
    ['24/18', '13/7', '8/2']
    """
    return _single_moves(position, die)


def _dice_list(first: int, second: int) -> tuple[int, ...]:
    return (first,) * 4 if first == second else tuple(sorted((first, second), reverse=True))


def _dice_for(position: Position, remaining: tuple[int, ...], move: CheckerMove) -> list[int]:
    """The dice among ``remaining`` with which ``move`` is legal in ``position``."""
    return [die for die in sorted(set(remaining)) if move in _single_moves(position, die)]


def _without(remaining: tuple[int, ...], die: int) -> tuple[int, ...]:
    index = remaining.index(die)
    return remaining[:index] + remaining[index + 1 :]


def _follow(
    position: Position, dice: tuple[int, int], played: Sequence[CheckerMove]
) -> list[tuple[Position, tuple[int, ...], int]]:
    """The ways ``played`` can have been made, one move after the other: each as the
    position reached, the dice left and the pips of the dice used. Raises the
    :class:`IllegalMoveError` of the first move that cannot be made."""
    ways = [(position, _dice_list(*dice), 0)]
    for move in played:
        after = []
        for where, remaining, used in ways:
            for die in _dice_for(where, remaining, move):
                after.append((where.apply((move,)), _without(remaining, die), used + die))
        if not after:
            raise _explain_move(ways[0][0], ways[0][1], move)
        # Different dice may bear off the same checker; keep each outcome once.
        ways = list(dict.fromkeys(after))
    return ways


def _explain_move(
    position: Position, remaining: tuple[int, ...], move: CheckerMove
) -> IllegalMoveError:
    """Why ``move`` cannot be made now with the dice ``remaining``."""
    start, end = move.start, move.end
    if not remaining:
        return IllegalMoveError(
            f"no dice are left to move {move}: the roll is used up", rule="no-dice-left"
        )
    if position.mover[24] and start != BAR:
        return IllegalMoveError("a checker on the bar must enter first", rule="bar-first")
    if not 1 <= start <= BAR or not 0 <= end <= 24 or not position.mover[start - 1]:
        where = "the bar" if start == BAR else f"point {start}"
        return IllegalMoveError(f"you have no checker on {where} to move", rule="no-checker")
    if end >= start:
        return IllegalMoveError(
            f"{move} goes backwards: checkers move toward your home board, to lower points",
            rule="direction",
        )
    dice_text = " and ".join(str(die) for die in sorted(set(remaining), reverse=True))
    if end == OFF:
        if any(position.mover[6:25]):
            return IllegalMoveError(
                "you may bear off only when all your checkers are home", rule="bear-off-not-home"
            )
        if start in remaining:
            return IllegalMoveError(f"{move} is not possible now", rule="illegal")
        if any(die > start for die in remaining):
            return IllegalMoveError(
                "a checker on a higher point must be moved first", rule="higher-point-first"
            )
        return IllegalMoveError(
            f"no die left bears off from point {start} (dice left: {dice_text})",
            rule="no-such-die",
        )
    distance = start - end
    if distance not in remaining:
        return IllegalMoveError(
            f"{move} needs a {distance}, and the dice left are {dice_text}", rule="no-such-die"
        )
    if position.opponent[24 - end] >= 2:
        return IllegalMoveError(_closed_message(end), rule="closed-point")
    return IllegalMoveError(f"{move} is not possible now", rule="illegal")


def _legal_targets(position: Position, dice: tuple[int, int]) -> tuple[set[Position], int, int]:
    """The positions the legal plays reach, the dice they use and the pips of those dice."""
    plays, pips = _generate(position, dice)
    if not plays:
        return set(), 0, 0
    return {position.apply(play) for play in plays}, len(plays[0]), pips


def _can_finish(
    position: Position,
    remaining: tuple[int, ...],
    targets: set[Position],
    memo: dict[tuple[Position, tuple[int, ...]], bool],
) -> bool:
    """Whether play can go on from here to one of the legal results."""
    key = (position, remaining)
    if key in memo:
        return memo[key]
    result = position in targets
    if not result:
        for die in sorted(set(remaining)):
            for move in _single_moves(position, die):
                if _can_finish(position.apply((move,)), _without(remaining, die), targets, memo):
                    result = True
                    break
            if result:
                break
    memo[key] = result
    return result


def next_steps(
    position: Position, dice: Sequence[int], played: Sequence[CheckerMove]
) -> list[CheckerMove]:
    """The checker moves that may come next after ``played`` (the moves made so far
    this turn, in order) and still lead to a legal play: what a board offers to click.
    Empty when the play is complete (or nothing can be played). Raises
    :class:`IllegalMoveError` if ``played`` itself cannot be made.

    >>> next_steps(Position.start(), (6, 5), [CheckerMove(24, 18)])
    [CheckerMove(start=18, end=13), CheckerMove(start=13, end=8), CheckerMove(start=8, end=3)]
    """
    dice = _check_dice(dice)
    targets, _, _ = _legal_targets(position, dice)
    ways = _follow(position, dice, played)
    memo: dict[tuple[Position, tuple[int, ...]], bool] = {}
    found: dict[CheckerMove, None] = {}
    for where, remaining, _ in ways:
        for die in sorted(set(remaining), reverse=True):
            for move in _single_moves(where, die):
                if move not in found and _can_finish(
                    where.apply((move,)), _without(remaining, die), targets, memo
                ):
                    found[move] = None
    return sorted(found, reverse=True)


def _is_complete(
    ways: list[tuple[Position, tuple[int, ...], int]],
    moves: int,
    targets: set[Position],
    used: int,
    pips: int,
) -> bool:
    """Whether one of the ways a play was made is a whole legal play: it reaches a
    legal result having used the dice the legal plays use, or reaches one and nothing
    more can move (bearing off the last checkers with a bigger die than needed)."""
    return any(
        where in targets and ((moves == used and spent == pips) or not _any_move(where, left))
        for where, left, spent in ways
    )


def _any_move(position: Position, remaining: tuple[int, ...]) -> bool:
    return any(_single_moves(position, die) for die in set(remaining))


def is_legal_play(position: Position, dice: Sequence[int], play: Sequence[CheckerMove]) -> bool:
    """Whether ``play`` (moves in the order made) is a complete legal play.

    >>> is_legal_play(Position.start(), (3, 1), [CheckerMove(6, 5), CheckerMove(8, 5)])
    True
    """
    dice = _check_dice(dice)
    targets, used, pips = _legal_targets(position, dice)
    if not targets:
        return not play
    try:
        ways = _follow(position, dice, play)
    except IllegalMoveError:
        return False
    return _is_complete(ways, len(play), targets, used, pips)


def explain_illegal_play(
    position: Position, dice: Sequence[int], play: Sequence[CheckerMove]
) -> IllegalMoveError:
    """The error to raise for ``play`` (moves in the order made), naming the rule it
    breaks in a player's words. (For a legal play it returns an error whose rule is
    ``"legal"``; callers ask only about plays they found illegal.)

    >>> str(explain_illegal_play(Position.start(), (6, 5), [CheckerMove(24, 18)]))
    'both dice must be used when possible'
    """
    dice = _check_dice(dice)
    targets, used, pips = _legal_targets(position, dice)
    if not targets:
        if not play:
            return IllegalMoveError("this play is legal", rule="legal")
        if position.mover[24]:
            return IllegalMoveError(
                "no checker can enter from the bar, so the turn is lost", rule="no-entry"
            )
        return IllegalMoveError("no move is possible with this roll", rule="no-legal-move")
    try:
        ways = _follow(position, dice, play)
    except IllegalMoveError as error:
        return error
    if _is_complete(ways, len(play), targets, used, pips):
        return IllegalMoveError("this play is legal", rule="legal")
    first, second = dice
    if len(play) < used:
        if first == second:
            return IllegalMoveError(
                f"as many moves as possible must be played: this double allows {used}",
                rule="use-all-dice",
            )
        return IllegalMoveError("both dice must be used when possible", rule="use-both-dice")
    if used == 1 and first != second and all(spent < pips for _, _, spent in ways):
        return IllegalMoveError(
            "the higher die must be played when only one can be", rule="higher-die"
        )
    return IllegalMoveError("this play is not legal with this roll", rule="illegal")
