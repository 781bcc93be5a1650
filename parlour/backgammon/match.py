"""Backgammon match play: games one after another, in a match to N points with the
Crawford rule or in a money session, under the optional cube rules. Every app starts,
scores and continues a match through this module.

Match play follows the Crawford rule as GNU Backgammon does: in the one game right
after a player first comes within one point of winning, nobody may double; from the
next game on ("post-Crawford") doubling is allowed again. A game's points are scored
in full (a 4-point gammon when 1 point was needed still scores 4): the match simply
ends when a player reaches the match length. The Jacoby rule, beavers and automatic
doubles belong to money play (:func:`check_match_rules`).

>>> match = MatchPlay(3)
>>> match.record(Side.FIRST, 2)
>>> match.crawford_game, match.is_over
(True, False)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from parlour.backgammon.cube import CUBE_CEILING, CubeOptions, is_cube_value
from parlour.backgammon.rules import BACKGAMMON, BackgammonGame, BackgammonState
from parlour.core.errors import ParlourError
from parlour.core.protocol import Side, State

#: How each money-play-only rule is named in a sentence, by its CubeOptions field.
MONEY_ONLY_RULE_NAMES = {
    "jacoby": "the Jacoby rule",
    "beavers": "beavers",
    "automatic_doubles": "automatic doubles",
}


def check_match_rules(match_length: int, options: CubeOptions) -> None:
    """Refuse, with a ValueError naming it, a money-play rule asked for in a match.

    >>> check_match_rules(5, CubeOptions(beavers=True))
    Traceback (most recent call last):
    ...
    ValueError: beavers are for money play, not a 5-point match
    """
    rules = options.money_only_rules
    if match_length and rules:
        names = [MONEY_ONLY_RULE_NAMES[rule] for rule in rules]
        listed = names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"
        verb = "is" if rules == ["jacoby"] else "are"
        raise ValueError(f"{listed} {verb} for money play, not a {match_length}-point match")


# -- the score sheet ----------------------------------------------------------------------


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
    that the Crawford game has been played. A match taken up part-way (from a
    position of gnubg's) starts at ``opening``, its first game here the Crawford
    game if ``opening_crawford``; a player already within one point of winning
    otherwise means the Crawford game was played before.

    >>> match = MatchPlay(5)
    >>> match.record(Side.SECOND, 4)
    >>> match.crawford_game
    True
    >>> match.record(Side.FIRST, 1)
    >>> match.crawford_game, match.post_crawford, match.score
    (False, True, (1, 4))
    >>> later = MatchPlay(5, opening=(4, 2))
    >>> later.crawford_game, later.post_crawford
    (False, True)
    """

    length: int
    options: CubeOptions = field(default_factory=CubeOptions)
    games: list[GameResult] = field(default_factory=list)
    opening: tuple[int, int] = (0, 0)
    opening_crawford: bool = False

    def __post_init__(self) -> None:
        if self.length < 1:
            raise ValueError("a match is played to 1 point or more")
        check_match_rules(self.length, self.options)
        if not all(0 <= points < self.length for points in self.opening):
            raise ValueError(
                f"a {self.length}-point match cannot stand at {self.opening[0]}-{self.opening[1]}"
            )
        if self.opening_crawford and self.length - 1 not in self.opening:
            raise ValueError("the Crawford game comes when a player needs one point")

    @property
    def match_length(self) -> int:
        return self.length

    @property
    def score(self) -> tuple[int, int]:
        won = list(self.opening)
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
        come within one point of winning yet (-1: before the first game here)."""
        won = list(self.opening)
        if self.length - 1 in won:
            return 0 if self.opening_crawford else -1
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


# -- the games of a match ------------------------------------------------------------------


class BackgammonMatch:
    """The games of a match to ``match_length`` points with the Crawford rule, or of
    a money session (``match_length`` 0) at ``stake`` per point, as they are played:
    each finished game is scored, and the next one starts at the match score.

    >>> match = BackgammonMatch(3)
    >>> game = match.new_game()
    >>> game.match_length, game.score, game.crawford
    (3, (0, 0), False)
    """

    def __init__(
        self,
        match_length: int = 0,
        *,
        options: CubeOptions | None = None,
        stake: int = 1,
        opening: tuple[int, int] = (0, 0),
        opening_crawford: bool = False,
    ) -> None:
        options = options or CubeOptions()
        self.game = BACKGAMMON if options == BACKGAMMON.options else BackgammonGame(options)
        self.scores: MatchPlay | MoneyPlay = (
            MatchPlay(match_length, options, opening=opening, opening_crawford=opening_crawford)
            if match_length
            else MoneyPlay(stake, options)
        )
        self.games: list[BackgammonState] = []

    @property
    def match_length(self) -> int:
        return self.scores.match_length

    @property
    def current(self) -> BackgammonState | None:
        """The game being played (or the last one played)."""
        return self.games[-1] if self.games else None

    @property
    def is_over(self) -> bool:
        """Whether the match has been won (a money session is never over)."""
        self._record_last()
        return self.scores.is_over

    def _record_last(self) -> None:
        """Score the last game if it is over and not yet scored."""
        if len(self.scores.games) < len(self.games):
            outcome = self.games[-1].outcome()
            if outcome is not None and outcome.winner is not None:
                self.scores.record(outcome.winner, outcome.points, outcome.reason)

    def new_game(self) -> BackgammonState:
        """Score the game just finished and start the next, with the match score and
        the Crawford flag set; the opening throw decides who starts."""
        self._record_last()
        if len(self.scores.games) < len(self.games):
            raise ParlourError("the game in progress must end before the next one starts")
        if self.scores.is_over:
            raise ParlourError("the match is over")
        state = self.game.new_state(
            match_length=self.match_length,
            score=self.scores.score,
            crawford=self.scores.crawford_game,
        )
        self.games.append(state)
        return state

    @classmethod
    def of_games(
        cls,
        games: Sequence[BackgammonState],
        match_length: int | None = None,
        options: CubeOptions | None = None,
    ) -> BackgammonMatch:
        """The match made of ``games`` (all but the last over), scored. Its length and
        rules are the first game's unless given (they must be given for no games);
        its score starts at the first game's (a match taken up part-way)."""
        if match_length is None or options is None:
            if not games:
                raise ValueError("a match of no games needs its length and rules")
            match_length = games[0].match_length if match_length is None else match_length
            options = games[0].options if options is None else options
        first = games[0] if games and match_length else None
        match = cls(
            match_length,
            options=options,
            opening=first.score if first else (0, 0),
            opening_crawford=first.crawford if first else False,
        )
        for game in games:
            match.games.append(game)
            match.finish()
        return match

    def next_game(self) -> BackgammonState | None:
        """The game that follows the last one when it is over, or None when the match
        is over or the last game goes on."""
        if self.is_over or (self.current is not None and not self.current.is_over()):
            return None
        return self.new_game()

    def finish(self) -> None:
        """Score the last game (when the match or session ends after it)."""
        self._record_last()


# -- the series the apps play -------------------------------------------------------------


#: The longest match offered (gnubg's Match ID has room for longer ones).
LONGEST_MATCH = 64
#: The most tied opening throws that may turn the cube, when automatic doubles are on.
MOST_AUTOMATIC_DOUBLES = 6
_RULES = ("match_length", "jacoby", "beavers", "automatic_doubles", "max_cube")


class BackgammonSeries:
    """A match to ``match_length`` points (with the Crawford rule), or a money session
    (``match_length`` 0) of as many games as the players like, under optional cube
    rules, as the apps see it (a :class:`~parlour.core.face.Series`).

    >>> match = series({"match_length": 3})
    >>> first = match.first()
    >>> first.match_length, first.score, match.rules["match_length"]
    (3, (0, 0), 3)
    """

    def __init__(self, match_length: int, options: CubeOptions) -> None:
        self.match_length = match_length
        self.options = options
        self.game: BackgammonGame = BackgammonMatch(match_length, options=options).game
        self.rules: dict[str, Any] = {
            "match_length": match_length,
            "jacoby": options.jacoby,
            "beavers": options.beavers,
            "automatic_doubles": options.automatic_doubles,
            "max_cube": options.max_cube,
        }

    def first(self) -> BackgammonState:
        return BackgammonMatch(self.match_length, options=self.options).new_game()

    def next(self, finished: Sequence[State[Any]]) -> BackgammonState | None:
        match = self._match_of(finished)
        return None if match.is_over else match.new_game()

    def _match_of(self, finished: Sequence[State[Any]]) -> BackgammonMatch:
        games = [game for game in finished if isinstance(game, BackgammonState)]
        if games:  # a match begun from a given position plays by that game's length
            return BackgammonMatch.of_games(games)
        return BackgammonMatch.of_games(games, self.match_length, self.options)

    def cannot_begin_at(self, state: State[Any]) -> str | None:
        """A series begins in its own kind of play: a position of another match
        length cannot begin it, nor one of money play with a score. A match may
        be taken up at the position's score (and Crawford game)."""

        def play(length: int) -> str:
            return "money play" if length == 0 else f"a {length}-point match"

        if not isinstance(state, BackgammonState):
            return "it is not a backgammon position"
        if state.match_length != self.match_length:
            return (
                f"it is from {play(state.match_length)}, but {play(self.match_length)} "
                f"was chosen; choose {play(state.match_length)} to play on from it"
            )
        if self.match_length == 0 and tuple(state.score) != (0, 0):
            score = "-".join(str(points) for points in state.score)
            return f"its score is {score}, and a money session here starts at 0-0"
        if state.crawford and self.match_length == 1:
            return "it is marked as the Crawford game, which a 1-point match has not"
        return None

    def summary(self, games: Sequence[State[Any]]) -> dict[str, Any]:
        """The score after the games finished of ``games`` (points won, for money),
        each finished game's result, and whether the match is over and who won it."""
        match = self._match_of(games)
        scores = match.scores
        won = list(scores.score if isinstance(scores, MatchPlay) else scores.points)
        winner = scores.winner if isinstance(scores, MatchPlay) else None
        return {
            "kind": "match" if match.match_length else "money",
            "match_length": match.match_length,
            "points": won,
            "games": [
                {"winner": int(r.winner), "points": r.points, "reason": r.reason}
                for r in scores.games
            ],
            "over": match.is_over,
            "winner": None if winner is None else int(winner),
            "crawford_next": scores.crawford_game and not match.is_over,
            **{k: v for k, v in self.rules.items() if k != "match_length"},
            "rules_in_words": self._money_rules_in_words() if not match.match_length else [],
            "notes": []
            if self.options.max_cube is None
            else [f"The cube goes no higher than {self.options.max_cube}."],
        }

    def _money_rules_in_words(self) -> list[str]:
        """The optional rules of money play in force, as a page lists them."""
        options = self.options
        words = []
        if options.jacoby:
            words.append("Jacoby rule")
        if options.beavers:
            words.append("beavers")
        if options.automatic_doubles:
            words.append(f"automatic doubles (up to {options.automatic_doubles})")
        return words


def series(rules: Mapping[str, Any]) -> BackgammonSeries:
    """The series a client asked for: ``match_length`` (0, money play, by default; or
    1 to :data:`LONGEST_MATCH` points) and the cube rules ``jacoby``, ``beavers``
    (money play only, off by default), ``automatic_doubles`` (how many tied opening
    throws may turn the cube, 0 to :data:`MOST_AUTOMATIC_DOUBLES`; money only) and
    ``max_cube`` (a power of two, or None for no limit). Raises ValueError naming
    what is wrong.

    >>> series({"match_length": 5, "jacoby": True})
    Traceback (most recent call last):
    ...
    ValueError: the Jacoby rule is for money play, not a 5-point match
    """
    unknown = sorted(set(rules) - set(_RULES))
    if unknown:
        raise ValueError(f"backgammon has no rule {unknown[0]!r} (its rules: {', '.join(_RULES)})")

    def whole(name: str, low: int, high: int, default: int) -> int:
        value = rules.get(name, default)
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise ValueError(f"{name} must be a whole number from {low} to {high}")
        return value

    def flag(name: str) -> bool:
        value = rules.get(name, False)
        if not isinstance(value, bool):
            raise ValueError(f"{name} must be true or false")
        return value

    match_length = whole("match_length", 0, LONGEST_MATCH, 0)
    jacoby, beavers = flag("jacoby"), flag("beavers")
    automatic = whole("automatic_doubles", 0, MOST_AUTOMATIC_DOUBLES, 0)
    max_cube = rules.get("max_cube")
    if max_cube is not None:
        max_cube = whole("max_cube", 1, CUBE_CEILING, 1)
        if not is_cube_value(max_cube):
            raise ValueError("max_cube must be a power of two (64 on a standard cube)")
    options = CubeOptions(
        jacoby=jacoby, beavers=beavers, automatic_doubles=automatic, max_cube=max_cube
    )
    check_match_rules(match_length, options)
    return BackgammonSeries(match_length, options)
