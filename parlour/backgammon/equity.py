"""What a position is worth with the cube in play: money equity and match winning
chances, and the cube decisions that follow from them.

**Money play.** The network gives cubeless chances: ``p`` to win, and how much a
win or a loss is worth on average (``W`` and ``L`` points, gammons included). With
a *live* cube, in a game whose chances drift without jumps, the owner of the cube
doubles the opponent out the moment the opponent's take becomes wrong, so the
equity is a straight line between the points where each side cashes. Solving for
those points gives each side's take point:

    a = (W - 1/2) / (W + 1),  b = (L - 1/2) / (L + 1)
    opponent's take point  t_o = a (1 - b) / (1 - a b)
    my take point          t_m = b (1 - a) / (1 - a b)

(with W = L = 1 both are 20 %, the classic live-cube take point). Past my cash point
I may also keep the cube and play on for a gammon: a position *too good to double*
is worth its dead-cube equity when that is more than the point a double would cash.
A real cube is neither dead nor fully live: as Janowski proposed, the cubeful equity
is a blend, ``x * live + (1 - x) * dead``, with a cube efficiency ``x`` of about two
thirds.

**Match play.** Equity becomes the chance to win the match. The match equity table
here is our own, computed by dynamic programming from a simple model of a game
(each side wins half the games, a fifth of them gammons, a few backgammons; before
the Crawford game the cube is used efficiently enough that one game rarely decides
more than the cube's value; after it the trailer doubles at once). It is close to,
but not the same as, the rollout-based tables of strong programs.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

#: Equities closer than this are equal (rounding, not judgement).
TIE = 1e-9
#: Janowski's cube efficiency for ordinary positions.
CUBE_EFFICIENCY = 0.68

# The model of one game behind the match equity table.
GAMMON_RATE = 0.20
BACKGAMMON_RATE = 0.01

#: Longest match the table covers.
LONGEST_MATCH = 64


@dataclass(frozen=True, slots=True)
class Chances:
    """Cubeless chances for one side: ``win`` counts every win, ``win_gammon``
    gammons and backgammons, ``win_backgammon`` backgammons only; likewise lost."""

    win: float
    win_gammon: float
    win_backgammon: float
    lose_gammon: float
    lose_backgammon: float

    @property
    def equity(self) -> float:
        """Cubeless money equity: points won per game at stake 1."""
        return (
            2 * self.win
            - 1
            + self.win_gammon
            - self.lose_gammon
            + self.win_backgammon
            - self.lose_backgammon
        )

    @property
    def win_value(self) -> float:
        """The average points of a win (1 to 3)."""
        if self.win <= 1e-9:
            return 1.0
        return (self.win + self.win_gammon + self.win_backgammon) / self.win

    @property
    def loss_value(self) -> float:
        lose = 1 - self.win
        if lose <= 1e-9:
            return 1.0
        return (lose + self.lose_gammon + self.lose_backgammon) / lose

    def single_only(self) -> Chances:
        """The same chances with gammons counting single (the Jacoby rule)."""
        return Chances(self.win, 0.0, 0.0, 0.0, 0.0)

    def flipped(self) -> Chances:
        """The opponent's chances."""
        return Chances(
            1 - self.win,
            self.lose_gammon,
            self.lose_backgammon,
            self.win_gammon,
            self.win_backgammon,
        )


# -- money --------------------------------------------------------------------------


def take_points(chances: Chances) -> tuple[float, float]:
    """Live-cube take points: (mine, the opponent's), each as the taker's own
    chance to win below which a take is wrong."""
    a = (chances.win_value - 0.5) / (chances.win_value + 1)
    b = (chances.loss_value - 0.5) / (chances.loss_value + 1)
    return b * (1 - a) / (1 - a * b), a * (1 - b) / (1 - a * b)


def money_equity(chances: Chances, owner: str, efficiency: float = CUBE_EFFICIENCY) -> float:
    """Cubeful money equity per unit of cube for the side whose chances these are.

    ``owner`` is "me", "centred" or "opponent"."""
    p, w, loss = chances.win, chances.win_value, chances.loss_value
    dead = p * (w + loss) - loss
    mine, theirs = take_points(chances)
    cash = 1 - theirs  # where I double the opponent out
    # Past the cash point the cube's holder cashes, or plays on if that is worth more.
    cashed = max(1.0, dead)
    if owner == "me":
        live = cashed if p >= cash else -loss + p * (1 + loss) / cash
    elif owner == "opponent":
        live = -1.0 if p <= mine else -1 + (p - mine) * (w + 1) / (1 - mine)
    else:
        if p <= mine:
            live = -1.0
        elif p >= cash:
            live = cashed
        else:
            live = -1 + 2 * (p - mine) / (cash - mine)
    return efficiency * live + (1 - efficiency) * dead


@dataclass(frozen=True, slots=True)
class CubeDecision:
    """Equities of the three ways a double can go, per unit of the current cube,
    for the side that may double."""

    no_double: float
    double_take: float
    double_pass: float = 1.0

    @property
    def should_double(self) -> bool:
        """Double when it gains; and when the opponent should pass and cashing is
        worth just what playing on is (a certain single win): a position is *too
        good* only when playing on is worth strictly more, as gnubg counts it."""
        if self.double_pass <= self.double_take:
            return self.double_pass >= self.no_double - TIE
        return self.double_take > self.no_double

    @property
    def should_take(self) -> bool:
        return self.double_take < self.double_pass

    @property
    def should_beaver(self) -> bool:
        """The taker gains by taking at twice the stake: the doubler is worse than
        even after the take."""
        return self.double_take < 0

    def words(self, *, beavers: bool = True) -> str:
        """The decision as players say it: "double, take"; a beaver is named only
        where ``beavers`` are allowed."""
        double = "double" if self.should_double else "no double"
        take = "take" if self.should_take else "pass"
        if self.should_take and self.should_beaver and beavers:
            take = "beaver"
        return f"{double}, {take}"


def money_cube_decision(chances: Chances, cube_centred: bool) -> CubeDecision:
    """The cube decision of the side on roll, whose chances these are."""
    no_double = money_equity(chances, "centred" if cube_centred else "me")
    return CubeDecision(no_double=no_double, double_take=2 * money_equity(chances, "opponent"))


# -- match --------------------------------------------------------------------------


def _game_outcomes(gammon_rate: float, backgammon_rate: float) -> list[tuple[float, int]]:
    """(probability, points at stake 1) for one side in the model game."""
    single = (1 - gammon_rate) / 2
    gammon = (gammon_rate - backgammon_rate) / 2
    backgammon = backgammon_rate / 2
    return [(single, 1), (gammon, 2), (backgammon, 3), (single, -1), (gammon, -2), (backgammon, -3)]


@cache
def match_equity(away: int, opponent_away: int, post_crawford: bool = False) -> float:
    """My chance to win the match needing ``away`` points, the opponent needing
    ``opponent_away``, before a game starts (the cube in the middle).

    >>> round(match_equity(1, 1), 3), round(match_equity(2, 2), 3)
    (0.5, 0.5)
    >>> match_equity(1, 5) > match_equity(1, 3) > match_equity(1, 2)
    True
    """
    if away <= 0:
        return 1.0
    if opponent_away <= 0:
        return 0.0
    if away == 1 and opponent_away == 1:
        return 0.5
    outcomes = _game_outcomes(GAMMON_RATE, BACKGAMMON_RATE)
    if away == 1 or opponent_away == 1:
        if not post_crawford:
            # the Crawford game: no cube; afterwards play goes on post-Crawford
            return sum(
                p * _after_game(away, opponent_away, points, post_crawford=True)
                for p, points in outcomes
            )
        # post-Crawford: the trailer doubles at once; the leader takes (a free drop
        # aside), so every game is played for two points
        return sum(
            p * _after_game(away, opponent_away, 2 * points, post_crawford=True)
            for p, points in outcomes
        )
    # before the Crawford game: the cube is turned once, efficiently, so a game
    # decides about two points (the cube) or more when gammons come in
    return sum(p * _after_game(away, opponent_away, 2 * points) for p, points in outcomes)


def _after_game(
    away: int, opponent_away: int, points: int, *, post_crawford: bool = False
) -> float:
    if points > 0:
        return match_equity(max(away - points, 0), opponent_away, post_crawford)
    return match_equity(away, max(opponent_away + points, 0), post_crawford)


def match_winning_chance(
    chances: Chances,
    away: int,
    opponent_away: int,
    cube: int,
    *,
    post_crawford: bool = False,
) -> float:
    """My match winning chance if the game is played out at ``cube`` (a dead cube)."""
    after = match_equity
    win_single = chances.win - chances.win_gammon
    win_gammon = chances.win_gammon - chances.win_backgammon
    lose = 1 - chances.win
    lose_single = lose - chances.lose_gammon
    lose_gammon = chances.lose_gammon - chances.lose_backgammon
    return (
        win_single * after(away - cube, opponent_away, post_crawford)
        + win_gammon * after(away - 2 * cube, opponent_away, post_crawford)
        + chances.win_backgammon * after(away - 3 * cube, opponent_away, post_crawford)
        + lose_single * after(away, opponent_away - cube, post_crawford)
        + lose_gammon * after(away, opponent_away - 2 * cube, post_crawford)
        + chances.lose_backgammon * after(away, opponent_away - 3 * cube, post_crawford)
    )


def match_cube_decision(
    chances: Chances, away: int, opponent_away: int, cube: int, *, post_crawford: bool
) -> CubeDecision:
    """The cube decision in match winning chances, for the side on roll."""
    crawford_next = post_crawford or away == 1 or opponent_away == 1
    return CubeDecision(
        no_double=match_winning_chance(
            chances, away, opponent_away, cube, post_crawford=crawford_next
        ),
        double_take=match_winning_chance(
            chances, away, opponent_away, 2 * cube, post_crawford=crawford_next
        ),
        double_pass=match_equity(away - cube, opponent_away, crawford_next),
    )
