"""The doubling cube, the optional rules that touch it, and how games are scored:
one game at a time, in a money session or in a match to N points.

The stake of a game starts at one point. A player may double it at the start of
their own turn, before rolling, when the cube is in the middle or on their side.
The opponent takes (and owns the cube, so only they may redouble) or drops (and
loses the stake before the double). At the end the winner scores the cube times 1
for a single game, 2 for a gammon, 3 for a backgammon.

The optional rules are named and off by default (:class:`CubeOptions`):

* ``jacoby`` -- in money play a gammon or backgammon counts as a single game while
  the cube stays in the middle (nobody doubled);
* ``beavers`` -- in money play a doubled player may redouble at once and keep the
  cube; the doubler then takes or drops the beaver like any double;
* ``automatic_doubles`` -- in money play, a tied opening throw doubles the stake
  with the cube left in the middle, at most this many times a game;
* ``max_cube`` -- the cube stops at this value (64 on a standard cube).

Match play follows the Crawford rule as GNU Backgammon does: in the one game right
after a player first comes within one point of winning, nobody may double; from the
next game on ("post-Crawford") doubling is allowed again. A game's points are scored
in full (a 4-point gammon when 1 point was needed still scores 4): the match simply
ends when a player reaches the match length.

>>> game_points(GAMMON, Cube(2, Side.FIRST))
4
>>> match = MatchPlay(3)
>>> match.record(Side.FIRST, 2)
>>> match.crawford_game, match.is_over
(True, False)
"""

from __future__ import annotations

from dataclasses import dataclass, field

from parlour.core.errors import IllegalMoveError
from parlour.core.protocol import Side

#: The three ways to win a game, as the multiple of the cube they score.
SINGLE = 1
GAMMON = 2
BACKGAMMON = 3
WIN_NAMES = {SINGLE: "single game", GAMMON: "gammon", BACKGAMMON: "backgammon"}

#: The largest cube the gnubg Match ID can record (its cube field is a 4-bit power
#: of two); the cube never goes beyond it, whatever the options say.
CUBE_CEILING = 2**15


@dataclass(frozen=True, slots=True)
class CubeOptions:
    """The optional cube rules, each off by default.

    >>> CubeOptions(jacoby=True, max_cube=64)
    CubeOptions(jacoby=True, beavers=False, automatic_doubles=0, max_cube=64)
    """

    #: Gammons and backgammons count single while the cube is in the middle (money only).
    jacoby: bool = False
    #: A doubled player may beaver: redouble at once and keep the cube (money only).
    beavers: bool = False
    #: How many tied opening throws may double the stake in one game (0: the rule is off;
    #: money only).
    automatic_doubles: int = 0
    #: The highest value the cube may reach (None: no cap; 64 on a standard cube).
    max_cube: int | None = None

    def __post_init__(self) -> None:
        if self.automatic_doubles < 0:
            raise ValueError("automatic_doubles is a count: 0 or more")
        if self.max_cube is not None and (
            self.max_cube < 1 or self.max_cube & (self.max_cube - 1) or self.max_cube > CUBE_CEILING
        ):
            raise ValueError(f"max_cube must be a power of two from 1 to {CUBE_CEILING}")

    @property
    def money_only(self) -> bool:
        """Whether an option is on that only money play knows."""
        return self.jacoby or self.beavers or self.automatic_doubles > 0

    @property
    def cube_limit(self) -> int:
        """The highest cube value allowed."""
        return CUBE_CEILING if self.max_cube is None else self.max_cube


@dataclass(frozen=True, slots=True)
class Cube:
    """The doubling cube: its value and who owns it (None: in the middle).

    >>> Cube().doubled_by(Side.FIRST)
    Cube(value=2, owner=<Side.SECOND: 1>)
    """

    value: int = 1
    owner: Side | None = None

    @property
    def centred(self) -> bool:
        return self.owner is None

    def doubled_by(self, doubler: Side) -> Cube:
        """The cube after ``doubler`` doubles and the opponent takes."""
        return Cube(self.value * 2, doubler.other)

    def beavered_by(self, beaverer: Side) -> Cube:
        """The cube after a double is beavered by ``beaverer`` and the doubler takes:
        four times the stake before the double, owned by the beaverer."""
        return Cube(self.value * 4, beaverer)


def double_refusal(
    cube: Cube,
    side: Side,
    options: CubeOptions,
    *,
    crawford_game: bool = False,
) -> IllegalMoveError | None:
    """Why ``side`` may not double now, as an error to raise; None when it may.

    Only the cube's side of the question: the caller checks that it is the start of
    ``side``'s own turn, before rolling.

    >>> print(double_refusal(Cube(2, Side.SECOND), Side.FIRST, CubeOptions()))
    the cube is on your opponent's side: only its owner may redouble
    """
    if crawford_game:
        return IllegalMoveError(
            "this is the Crawford game: nobody may double in it", rule="crawford-game"
        )
    if cube.owner is not None and cube.owner != side:
        return IllegalMoveError(
            "the cube is on your opponent's side: only its owner may redouble", rule="cube-owner"
        )
    if cube.value * 2 > options.cube_limit:
        return IllegalMoveError(
            f"the cube is at its limit of {options.cube_limit}", rule="cube-limit"
        )
    return None


def effective_win(kind: int, cube: Cube, options: CubeOptions, *, money: bool) -> int:
    """The win kind that scores: the Jacoby rule counts a gammon or backgammon as a
    single game in money play while the cube is still in the middle."""
    if options.jacoby and money and cube.centred and kind > SINGLE:
        return SINGLE
    return kind


def game_points(
    kind: int, cube: Cube, options: CubeOptions | None = None, *, money: bool = True
) -> int:
    """What the winner scores: the win kind (1 single, 2 gammon, 3 backgammon) times
    the cube, after the Jacoby rule when it is on.

    >>> game_points(BACKGAMMON, Cube(4, Side.SECOND))
    12
    >>> game_points(GAMMON, Cube(), CubeOptions(jacoby=True))
    1
    """
    if kind not in WIN_NAMES:
        raise ValueError(f"a win is 1 (single), 2 (gammon) or 3 (backgammon), not {kind}")
    return effective_win(kind, cube, options or CubeOptions(), money=money) * cube.value


def win_reason(kind: int, cube: Cube, options: CubeOptions, *, money: bool) -> str:
    """The outcome's reason for a game won by bearing off: "gammon", or "gammon
    (counted single: Jacoby rule)" when the Jacoby rule reduced it."""
    name = WIN_NAMES[kind]
    if effective_win(kind, cube, options, money=money) != kind:
        return f"{name} (counted single: Jacoby rule)"
    return name


@dataclass(frozen=True, slots=True)
class GameResult:
    """One finished game of a session: who won, how many points and why."""

    winner: Side
    points: int
    reason: str = ""


@dataclass
class MoneyPlay:
    """A money session: games one after another at ``stake`` per point, with running
    totals. Each game starts afresh with the cube at 1 in the middle.

    >>> session = MoneyPlay(stake=5)
    >>> session.record(Side.FIRST, 2)
    >>> session.record(Side.SECOND, 4)
    >>> session.points, session.balance(Side.FIRST)
    ((2, 4), -10)
    """

    stake: int = 1
    options: CubeOptions = field(default_factory=CubeOptions)
    games: list[GameResult] = field(default_factory=list)

    match_length = 0
    crawford_game = False

    @property
    def points(self) -> tuple[int, int]:
        """The points each side has won so far (FIRST, SECOND)."""
        won = [0, 0]
        for game in self.games:
            won[game.winner] += game.points
        return won[0], won[1]

    @property
    def score(self) -> tuple[int, int]:
        """Money play keeps no match score: the Match ID of each game shows 0-0."""
        return 0, 0

    def balance(self, side: Side) -> int:
        """What ``side`` has won (or, negative, lost) so far, in money."""
        points = self.points
        return (points[side] - points[side.other]) * self.stake

    @property
    def is_over(self) -> bool:
        """A money session goes on as long as the players like."""
        return False

    def record(self, winner: Side, points: int, reason: str = "") -> None:
        """Add a finished game."""
        if points < 1:
            raise ValueError("a game is won by 1 point or more")
        self.games.append(GameResult(winner, points, reason))


@dataclass
class MatchPlay:
    """A match to ``length`` points with the Crawford rule.

    ``score`` is the match score before the next game; ``crawford_game`` says that
    the next game is the Crawford game (nobody may double in it); ``post_crawford``
    that the Crawford game has been played.

    >>> match = MatchPlay(5)
    >>> match.record(Side.SECOND, 4)
    >>> match.crawford_game
    True
    >>> match.record(Side.FIRST, 1)
    >>> match.crawford_game, match.post_crawford, match.score
    (False, True, (1, 4))
    """

    length: int
    options: CubeOptions = field(default_factory=CubeOptions)
    games: list[GameResult] = field(default_factory=list)

    def __post_init__(self) -> None:
        if self.length < 1:
            raise ValueError("a match is played to 1 point or more")
        if self.options.money_only:
            raise ValueError("the Jacoby rule, beavers and automatic doubles are for money play")

    @property
    def match_length(self) -> int:
        return self.length

    @property
    def score(self) -> tuple[int, int]:
        won = [0, 0]
        for game in self.games:
            won[game.winner] += game.points
        return won[0], won[1]

    @property
    def winner(self) -> Side | None:
        """The side that has reached the match length, if either has."""
        for side in (Side.FIRST, Side.SECOND):
            if self.score[side] >= self.length:
                return side
        return None

    @property
    def is_over(self) -> bool:
        return self.winner is not None

    def _crawford_index(self) -> int | None:
        """The number of the game (0-based) that is the Crawford game, if a side has
        come within one point of winning yet."""
        won = [0, 0]
        for index, game in enumerate(self.games):
            won[game.winner] += game.points
            if max(won) >= self.length:
                return None
            if self.length - 1 in won:
                return index + 1
        return None

    @property
    def crawford_game(self) -> bool:
        """Whether the next game is the Crawford game."""
        return not self.is_over and self._crawford_index() == len(self.games)

    @property
    def post_crawford(self) -> bool:
        """Whether the Crawford game has been played (doubling is allowed again)."""
        index = self._crawford_index()
        return index is not None and index < len(self.games)

    def record(self, winner: Side, points: int, reason: str = "") -> None:
        """Add a finished game."""
        if self.is_over:
            raise ValueError("the match is over")
        if points < 1:
            raise ValueError("a game is won by 1 point or more")
        self.games.append(GameResult(winner, points, reason))


Session = MoneyPlay | MatchPlay
