"""The doubling cube, the optional rules that touch it, and what one game scores.
(A match or money session of many games is :mod:`parlour.backgammon.match`.)

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

>>> game_points(GAMMON, Cube(2, Side.FIRST))
4
>>> is_cube_value(64), is_cube_value(48)
(True, False)
"""

from __future__ import annotations

from dataclasses import dataclass

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


def is_cube_value(value: int) -> bool:
    """Whether the doubling cube can show ``value``: a power of two up to
    :data:`CUBE_CEILING`."""
    return 1 <= value <= CUBE_CEILING and not value & (value - 1)


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
        if self.max_cube is not None and not is_cube_value(self.max_cube):
            raise ValueError(f"max_cube must be a power of two from 1 to {CUBE_CEILING}")

    @property
    def money_only_rules(self) -> list[str]:
        """The options that are on and that only money play knows, by field name."""
        on = {
            "jacoby": self.jacoby,
            "beavers": self.beavers,
            "automatic_doubles": self.automatic_doubles > 0,
        }
        return [name for name, is_on in on.items() if is_on]

    @property
    def money_only(self) -> bool:
        """Whether an option is on that only money play knows."""
        return bool(self.money_only_rules)

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
