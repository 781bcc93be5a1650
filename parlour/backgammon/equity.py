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

**Match play.** Equity becomes the chance to win the match. Up to 25 points a side
the chances before each game are Neil Kazaross's XG2 table (from rollouts by eXtreme
Gammon and GNU Backgammon; the table GNU Backgammon uses by default), shipped with
its notice in ``data/kazaross-xg2.met``: one table before and during the Crawford
game, one after it. Longer matches are reckoned by dynamic programming over a simple
model of a game (each side wins half the games, a fifth of them gammons, a few
backgammons; the cube used efficiently enough that one game rarely decides more than
the cube's value; after the Crawford game the trailer doubles at once), down to where
the table takes over.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from importlib import resources

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
    # Past the cash point the cube's holder may play on, doubling only if the game
    # comes back to the cash point: a line from a cash there to a win at p = 1.
    # Where that line, blended with the dead cube, is worth more than the point a
    # double cashes, the position is too good to double.
    played_on = 1 + (w - 1) * (p - cash) / (1 - cash) if cash < 1 else w
    # Below my take point the opponent likewise plays on for the gammon.
    doubled_out = -1 - (loss - 1) * (mine - p) / mine if mine > 0 else -loss
    if owner == "me":
        live = played_on if p >= cash else -loss + p * (1 + loss) / cash
    elif owner == "opponent":
        live = doubled_out if p <= mine else -1 + (p - mine) * (w + 1) / (1 - mine)
    else:
        if p <= mine:
            live = doubled_out
        elif p >= cash:
            live = played_on
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
    #: The opponent can never double (after the Crawford game, one point from the
    #: match, say): a double may wait a turn at no cost but a market lost.
    may_wait: bool = False

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


#: The match equity table's file, in the package.
MET_FILE = "data/kazaross-xg2.met"


@cache
def published_table() -> tuple[tuple[tuple[float, ...], ...], tuple[float, ...]]:
    """The published match equity table: before (and in) the Crawford game, the
    chances of a side needing ``i + 1`` points against one needing ``j + 1`` at
    ``[i][j]``; after it, the trailer's chances needing ``j + 1`` at ``[j]``."""
    text = resources.files("parlour.backgammon").joinpath(MET_FILE).read_text()
    pre: list[tuple[float, ...]] = []
    post: list[float] = []
    section = ""
    for line in text.splitlines():
        if not line or line.startswith("#"):
            continue
        if line in ("pre-crawford", "post-crawford"):
            section = line
            continue
        row = tuple(float(number) for number in line.split())
        if section == "pre-crawford":
            pre.append(row)
        else:
            post.extend(row)
    return tuple(pre), tuple(post)


@cache
def match_equity(away: int, opponent_away: int, post_crawford: bool = False) -> float:
    """My chance to win the match needing ``away`` points, the opponent needing
    ``opponent_away``, before a game starts (the cube in the middle);
    ``post_crawford``: the Crawford game has been played.

    >>> match_equity(1, 1), match_equity(2, 2)
    (0.5, 0.5)
    >>> match_equity(1, 2), match_equity(2, 1, post_crawford=True)  # Kazaross-XG2
    (0.67736, 0.48803)
    >>> match_equity(1, 5) > match_equity(1, 3) > match_equity(1, 2)
    True
    >>> 0.5 < match_equity(30, 40) < 1
    True
    """
    if away <= 0:
        return 1.0
    if opponent_away <= 0:
        return 0.0
    pre, post = published_table()
    if away <= len(pre) and opponent_away <= len(pre):
        if post_crawford and away == 1:
            return 1 - post[opponent_away - 1]
        if post_crawford and opponent_away == 1:
            return post[away - 1]
        return pre[away - 1][opponent_away - 1]
    # Past the table, the model game, down to where the table takes over.
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


#: How many doublings ahead the live cube of match play is followed (past them, the
#: cube is taken as dead: its value a few doublings up is small and costly to reckon).
CUBE_LOOKAHEAD = 3


@dataclass(frozen=True, slots=True)
class MatchCube:
    """The live cube of match play, for the side whose cubeless ``chances`` these are,
    needing ``away`` points against ``opponent_away``; ``alive``: either side may
    double (not in the Crawford game). The games after this one are post-Crawford
    once a side needs one point (this game is the Crawford game or after it).

    As in money play (Janowski), a live cube's match winning chance is a straight
    line in the chance to win ``p`` between the points where each side would be
    doubled out; here each point is found from the match equity table, with the
    taker's own redouble counted a few doublings up. The winning chance with the
    cube is ``CUBE_EFFICIENCY`` of the live cube's and the rest of the dead cube's,
    except where the side without the cube needs no more than a single win at its
    value: the owner's cube is then taken as fully live (see :meth:`cubeful`).
    The gammon rates stay those of ``chances`` as ``p`` varies.
    """

    chances: Chances
    away: int
    opponent_away: int
    alive: bool = True
    #: The doubling points found so far, by (cube, who doubles, lookahead): they do
    #: not depend on the win chance, so each is found once.
    _points: dict[tuple[int, str, int], float] = field(
        default_factory=dict, compare=False, hash=False, repr=False
    )

    def _me(self, away: int, opponent_away: int) -> float:
        """The match equity of a score reached from this game's."""
        post_crawford = 1 in (self.away, self.opponent_away)
        return match_equity(away, opponent_away, post_crawford)

    def _win_lose(self, cube: int) -> tuple[float, float]:
        """The match winning chance after winning, and after losing, at ``cube``,
        gammons counted as often as the chances say."""
        c = self.chances
        a, b = self.away, self.opponent_away
        win = max(c.win, 1e-9)
        lose = max(1 - c.win, 1e-9)
        won = (
            (c.win - c.win_gammon) * self._me(a - cube, b)
            + (c.win_gammon - c.win_backgammon) * self._me(a - 2 * cube, b)
            + c.win_backgammon * self._me(a - 3 * cube, b)
        ) / win
        lost = (
            (lose - c.lose_gammon) * self._me(a, b - cube)
            + (c.lose_gammon - c.lose_backgammon) * self._me(a, b - 2 * cube)
            + c.lose_backgammon * self._me(a, b - 3 * cube)
        ) / lose
        return won, lost

    def dead(self, p: float, cube: int) -> float:
        """The match winning chance at a win chance ``p``, the game played out at
        ``cube`` (a dead cube)."""
        won, lost = self._win_lose(cube)
        return p * won + (1 - p) * lost

    def live(self, p: float, cube: int, owner: str, depth: int = CUBE_LOOKAHEAD) -> float:
        """The match winning chance at ``p`` with a fully live cube at ``cube``,
        ``owner`` "me", "centred" or "opponent"."""
        if depth == 0 or not self.alive:
            return self.dead(p, cube)
        won, lost = self._win_lose(cube)
        # A side may double only if a single game at this cube leaves it short.
        i_double = owner != "opponent" and self.away > cube
        they_double = owner != "me" and self.opponent_away > cube
        low_p, low = 0.0, lost
        high_p, high = 1.0, won
        if they_double:
            low_p = self._take_point(cube, depth)
            low = self._me(self.away, self.opponent_away - cube)
            if p <= low_p:
                # Below my take point the opponent plays on, doubling me out only
                # if the game comes back to it (a line to a loss at p = 0).
                if low_p <= 0:
                    return lost
                return low - (low - lost) * (low_p - p) / low_p
        if i_double:
            high_p = self._cash_point(cube, depth)
            high = self._me(self.away - cube, self.opponent_away)
            if p >= high_p:
                # Past the cash point: play on, doubling only if the game comes back
                # to it (a line from a cash there to a win at p = 1).
                if high_p >= 1:
                    return won
                return high + (won - high) * (p - high_p) / (1 - high_p)
        if high_p <= low_p:
            return low
        return low + (high - low) * (p - low_p) / (high_p - low_p)

    def _take_point(self, cube: int, depth: int) -> float:
        """My lowest win chance at which I take the opponent's double from ``cube``:
        where owning the cube at twice the stake is worth the points a pass gives."""
        key = (cube, "they", depth)
        if key not in self._points:
            dropped = self._me(self.away, self.opponent_away - cube)
            self._points[key] = self._crossing(
                lambda q: self.live(q, 2 * cube, "me", depth - 1) - dropped
            )
        return self._points[key]

    def _cash_point(self, cube: int, depth: int) -> float:
        """My win chance from which my double from ``cube`` is a pass."""
        key = (cube, "I", depth)
        if key not in self._points:
            cashed = self._me(self.away - cube, self.opponent_away)
            self._points[key] = self._crossing(
                lambda q: self.live(q, 2 * cube, "opponent", depth - 1) - cashed
            )
        return self._points[key]

    @staticmethod
    def _crossing(rising: Callable[[float], float]) -> float:
        """Where ``rising`` (increasing in the win chance) crosses zero."""
        low, high = 0.0, 1.0
        if rising(low) >= 0:
            return low
        if rising(high) <= 0:
            return high
        for _ in range(30):
            middle = (low + high) / 2
            if rising(middle) < 0:
                low = middle
            else:
                high = middle
        return (low + high) / 2

    def cubeful(self, cube: int, owner: str, efficiency: float = CUBE_EFFICIENCY) -> float:
        """The match winning chance with the cube as it is: live and dead blended."""
        p = self.chances.win
        dead = self.dead(p, cube)
        if not self.alive:
            return dead
        if (owner == "opponent" and self.away <= cube) or (
            owner == "me" and self.opponent_away <= cube
        ):
            # The side without the cube already plays for the match (a single
            # win at this cube is enough): nothing checks the owner's redouble,
            # which comes at once or nearly, and a dead share would leave out most
            # of what it is worth (a leader's double that gnubg calls a large
            # error looked right with it: tests/backgammon/test_cube_oracle.py).
            efficiency = 1.0
        return efficiency * self.live(p, cube, owner) + (1 - efficiency) * dead

    def normalised(self, chance: float, cube: int) -> float:
        """A match winning chance as equity between losing (-1) and winning (+1) a
        single game at ``cube``, as gnubg normalises it."""
        win = self._me(self.away - cube, self.opponent_away)
        lose = self._me(self.away, self.opponent_away - cube)
        return (2 * chance - (win + lose)) / (win - lose)


def match_cube_decision(
    chances: Chances,
    away: int,
    opponent_away: int,
    cube: int,
    *,
    cube_centred: bool = True,
) -> CubeDecision:
    """The cube decision of the side on roll (the cube centred or its own), in
    normalised equity at the present cube: cubeful match winning chances with the
    live cube of :class:`MatchCube` (a pass is worth +1).

    The double that gnubg calls very bad on the second move of a 5-point match at
    0-0 (``0HPwASHg8+ABUA:cAmgAAAAAAAE``, the mover 52 % to win) is no double:

    >>> decision = match_cube_decision(
    ...     Chances(0.5215, 0.1452, 0.0080, 0.1192, 0.0049), 5, 5, 1
    ... )
    >>> decision.should_double
    False
    """
    model = MatchCube(chances, away, opponent_away)
    return CubeDecision(
        no_double=model.normalised(model.cubeful(cube, "centred" if cube_centred else "me"), cube),
        double_take=model.normalised(model.cubeful(2 * cube, "opponent"), cube),
        double_pass=model.normalised(model._me(away - cube, opponent_away), cube),
        may_wait=opponent_away <= cube < away,
    )
