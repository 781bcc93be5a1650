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

from parlour.core.errors import IllegalMoveError, NotationError

#: The bar and the off tray in :class:`CheckerMove` numbering.
BAR = 25
OFF = 0
#: Checkers per side.
CHECKERS = 15
#: Points, not counting the bar.
POINTS = 24


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
_MOVES: list[CheckerMove | None] = [None] * (32 * 26)
for _start in range(1, 26):
    for _end in range(_start):
        _MOVES[_start << 5 | _end] = CheckerMove(_start, _end)


def _move(code: int) -> CheckerMove:
    move = _MOVES[code]
    assert move is not None
    return move


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
            if not 0 <= end < start <= BAR or not mover[start - 1]:
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


def _lists(position: Position) -> tuple[list[int], list[int]]:
    board = [0, *position.mover]
    blocks = [0, *position.opponent[23::-1], 0]
    return board, blocks


def _sources(board: list[int], blocks: list[int], die: int) -> list[int]:
    """The points from which a checker may move ``die`` pips (25 for the bar)."""
    if board[25]:
        return [25] if blocks[25 - die] < 2 else []
    highest = 24
    while highest and not board[highest]:
        highest -= 1
    found = []
    if highest > 6:
        for point in range(highest, die, -1):
            if board[point] and blocks[point - die] < 2:
                found.append(point)
    else:
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
    and the pips of the dice they use."""
    both: dict[int, tuple[int, int]] = {}
    single: dict[int, tuple[int, int]] = {}  # key -> (die, move code)
    for first, second in ((high, low), (low, high)):
        for start in _sources(board, blocks, first):
            end = start - first if start > first else 0
            board[start] -= 1
            board[end] += 1
            hit = end and blocks[end] == 1
            key = _FIELD[end] - _FIELD[start]
            if hit:
                blocks[end] = 0
                key += _HIT[end]
            code = start << 5 | end
            nexts = _sources(board, blocks, second)
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


def _plays_doubles(board: list[int], blocks: list[int], die: int) -> tuple[list[Play], int]:
    """Every distinct legal play of a double. Moves are made from non-increasing
    points, so each set of checker moves is reached once (and so is each position)."""
    best: list[tuple[int, ...]] = []
    most = 0
    codes: list[int] = []

    def extend(top: int) -> None:
        nonlocal most, best
        made = len(codes)
        starts = [p for p in _sources(board, blocks, die) if p <= top] if made < 4 else []
        if not starts:
            if made > most:
                most = made
                best = [tuple(codes)]
            elif made == most and made:
                best.append(tuple(codes))
            return
        for start in starts:
            end = start - die if start > die else 0
            board[start] -= 1
            board[end] += 1
            hit = end and blocks[end] == 1
            if hit:
                blocks[end] = 0
            codes.append(start << 5 | end)
            extend(start)
            codes.pop()
            if hit:
                blocks[end] = 1
            board[end] -= 1
            board[start] += 1

    extend(25)
    return [tuple(_move(code) for code in sequence) for sequence in best], most * die


def _check_dice(dice: tuple[int, int]) -> tuple[int, int]:
    if len(dice) != 2:
        raise NotationError(f"a roll is two dice, not {len(dice)}")
    first, second = dice
    for die in (first, second):
        if not isinstance(die, int) or not 1 <= die <= 6:
            raise NotationError(f"a die shows 1 to 6, not {die!r}")
    return first, second


def legal_plays(position: Position, dice: tuple[int, int]) -> list[Play]:
    """Every distinct legal play of ``dice`` (plays reaching the same position count
    once), each highest start first; ``[]`` when nothing can be played.

    >>> [" ".join(map(str, play)) for play in legal_plays(Position.start(), (6, 5))][:2]
    ['24/18 18/13', '24/18 13/8']
    """
    return _generate(position, _check_dice(dice))[0]


def _generate(position: Position, dice: tuple[int, int]) -> tuple[list[Play], int]:
    """The legal plays and the pips of the dice each uses (gnubg keeps only the plays
    that use the most dice and then the most pips: that is the higher-die rule)."""
    first, second = dice
    board, blocks = _lists(position)
    if first == second:
        return _plays_doubles(board, blocks, first)
    if first < second:
        first, second = second, first
    return _plays_two_dice(board, blocks, first, second)


# -- moves one at a time: click-by-click entry and explanations -----------------------


def _single_moves(position: Position, die: int) -> list[CheckerMove]:
    board, blocks = _lists(position)
    return [
        CheckerMove(start, start - die if start > die else 0)
        for start in _sources(board, blocks, die)
    ]


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
    position: Position, dice: tuple[int, int], played: Sequence[CheckerMove]
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


def is_legal_play(position: Position, dice: tuple[int, int], play: Sequence[CheckerMove]) -> bool:
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
    position: Position, dice: tuple[int, int], play: Sequence[CheckerMove]
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
