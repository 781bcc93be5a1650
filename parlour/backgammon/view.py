"""What a board on screen needs from a backgammon position, as plain data, and the
turn entered one checker at a time (:func:`steps`), as a player moves on a board.

Points are numbered from the first side's point of view (its home board is 1–6):
``points[p - 1]`` is the number of checkers on point ``p``, positive for the first
side and negative for the second. Checker moves keep the text of the mover's own
numbering (``13/10``, ``bar/22``, ``6/off``), which is what move text uses; each
step offered also names its ends in the first side's numbering (``bar`` and ``off``
for the mover's bar and tray).

>>> from parlour.backgammon.rules import BACKGAMMON
>>> state = BACKGAMMON.new_state()
>>> _ = state.play("31")
>>> data = board(state)
>>> data["points"][5], data["points"][18], data["pips"], data["dice"]
(5, -5, [167, 167], [3, 1])
>>> turn = steps(state, ["8/5"])
>>> [step["text"] for step in turn["options"]][:3], turn["complete"]
(['24/23', '8/7', '6/5'], False)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from parlour.backgammon.board import BAR, OFF, CheckerMove, Position
from parlour.backgammon.cube import CUBE_CEILING, CubeOptions, MatchPlay
from parlour.backgammon.matchfile import write_mat
from parlour.backgammon.rules import (
    BackgammonGame,
    BackgammonSession,
    BackgammonState,
    Phase,
    TurnBuilder,
)
from parlour.core.errors import NotationError
from parlour.core.protocol import Side

#: Longest list of steps a client may send for one turn (a double moves four checkers).
MAX_STEPS = 4


def _absolute(point: int, mover: Side) -> int | str:
    """A point of the mover's numbering in the first side's numbering."""
    if point == BAR:
        return "bar"
    if point == OFF:
        return "off"
    return point if mover is Side.FIRST else 25 - point


def _layout(position: Position, mover: Side) -> dict[str, Any]:
    first, second = (
        (position.mover, position.opponent)
        if mover is Side.FIRST
        else (position.opponent, position.mover)
    )
    points = [first[p - 1] - second[24 - p] for p in range(1, 25)]
    pips = position.pips()
    return {
        "points": points,
        "bar": [first[24], second[24]],
        "off": [15 - sum(first), 15 - sum(second)],
        "pips": list(pips) if mover is Side.FIRST else [pips[1], pips[0]],
    }


def _step_json(step: CheckerMove, mover: Side) -> dict[str, Any]:
    return {
        "text": str(step),
        "from": _absolute(step.start, mover),
        "to": _absolute(step.end, mover),
    }


def board(state: BackgammonState) -> dict[str, Any]:
    """The checkers, dice, cube, pip counts and match score, and the steps the mover
    may start the turn with (when checkers are to be moved)."""
    mover = state.mover
    data = _layout(state.position, mover)
    data.update(
        {
            "phase": state.phase.name.lower(),
            "mover": int(mover),
            "dice": None if state.dice is None else list(state.dice),
            "cube": {
                "value": state.cube.value,
                "owner": None if state.cube.owner is None else int(state.cube.owner),
            },
            "match_length": state.match_length,
            "score": list(state.score),
            "crawford": state.crawford,
            "steps": [],
        }
    )
    if state.phase is Phase.PLAY and not state.is_over():
        data["steps"] = [_step_json(step, mover) for step in TurnBuilder(state).options()]
    return data


def _parse_step(text: str) -> CheckerMove:
    start, slash, end = text.partition("/")

    def point(word: str) -> int:
        if word == "bar":
            return BAR
        if word == "off":
            return OFF
        if word.isdigit() and 1 <= int(word) <= 24:
            return int(word)
        raise NotationError(f"{text!r} is not one checker's move (like 13/10, bar/22, 6/off)")

    if not slash:
        raise NotationError(f"{text!r} is not one checker's move (like 13/10, bar/22, 6/off)")
    first, last = point(start), point(end)
    if not first > last:
        raise NotationError(f"{text!r}: a checker moves towards its home, to a lower point")
    return CheckerMove(first, last)


def steps(state: BackgammonState, texts: list[str]) -> dict[str, Any]:
    """The turn after the checker moves ``texts`` (the mover's numbering, in order):
    the board as it would stand, the steps that may come next, whether the play is
    complete and its move text. Raises IllegalMoveError naming the rule when a step
    cannot be part of a legal play."""
    if len(texts) > MAX_STEPS:
        raise NotationError(f"a turn moves at most {MAX_STEPS} checkers")
    turn = TurnBuilder(state)
    for text in texts:
        turn.add(_parse_step(text))
    mover = state.mover
    complete = turn.complete
    data = _layout(turn.position, mover)
    data["options"] = [_step_json(step, mover) for step in turn.options()]
    data["complete"] = complete
    data["play"] = state.move_to_text(turn.play()) if complete else None
    return data


def export(
    state: BackgammonState, names: tuple[str, str], earlier: Sequence[BackgammonState] = ()
) -> tuple[str, str]:
    """The match (or money session) so far as a .mat file: (file extension, text)."""
    session = _replayed(state.match_length, state.options, [*earlier, state])
    words = tuple("".join(name.split()) or "Player" for name in names)
    return "mat", write_mat(session, (words[0], words[1]))


# -- matches and money sessions ---------------------------------------------------------

#: The longest match offered (gnubg's Match ID has room for longer ones).
LONGEST_MATCH = 64
#: The most tied opening throws that may turn the cube, when automatic doubles are on.
MOST_AUTOMATIC_DOUBLES = 6
_RULES = ("match_length", "jacoby", "beavers", "automatic_doubles", "max_cube")


def _replayed(
    match_length: int, options: CubeOptions, games: Sequence[BackgammonState]
) -> BackgammonSession:
    """A session holding ``games`` (all but the last over), scored."""
    session = BackgammonSession(match_length, options=options)
    for game in games:
        session.games.append(game)
        session.finish()
    return session


class BackgammonSeries:
    """A match to ``match_length`` points (with the Crawford rule), or a money session
    (``match_length`` 0) of as many games as the players like, under optional cube
    rules: the server's view of :class:`~parlour.backgammon.rules.BackgammonSession`.

    >>> match = series({"match_length": 3})
    >>> first = match.first()
    >>> first.match_length, first.score, match.rules["match_length"]
    (3, (0, 0), 3)
    """

    def __init__(self, match_length: int, options: CubeOptions) -> None:
        self.match_length = match_length
        self.options = options
        self.game: BackgammonGame = BackgammonSession(match_length, options=options).game
        self.rules: dict[str, Any] = {
            "match_length": match_length,
            "jacoby": options.jacoby,
            "beavers": options.beavers,
            "automatic_doubles": options.automatic_doubles,
            "max_cube": options.max_cube,
        }

    def first(self) -> BackgammonState:
        return BackgammonSession(self.match_length, options=self.options).new_game()

    def next(self, finished: Sequence[BackgammonState]) -> BackgammonState | None:
        session = _replayed(self.match_length, self.options, finished)
        return None if session.is_over else session.new_game()

    def summary(self, finished: Sequence[BackgammonState]) -> dict[str, Any]:
        """The score after the finished games (points won, for money), each game's
        result, and whether the match is over and who won it."""
        session = _replayed(self.match_length, self.options, finished)
        scores = session.scores
        won = [0, 0]
        for result in scores.games:
            won[result.winner] += result.points
        winner = scores.winner if isinstance(scores, MatchPlay) else None
        return {
            "kind": "match" if self.match_length else "money",
            "match_length": self.match_length,
            "points": won,
            "games": [
                {"winner": int(r.winner), "points": r.points, "reason": r.reason}
                for r in scores.games
            ],
            "over": session.is_over,
            "winner": None if winner is None else int(winner),
            "crawford_next": scores.crawford_game and not session.is_over,
            **{k: v for k, v in self.rules.items() if k != "match_length"},
        }


def series(rules: dict[str, Any]) -> BackgammonSeries:
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
        if max_cube & (max_cube - 1):
            raise ValueError("max_cube must be a power of two (64 on a standard cube)")
    if match_length:
        for name, on in (
            ("the Jacoby rule", jacoby),
            ("beavers", beavers),
            ("automatic doubles", automatic > 0),
        ):
            if on:
                verb = "is" if name == "the Jacoby rule" else "are"
                raise ValueError(f"{name} {verb} for money play, not a {match_length}-point match")
    options = CubeOptions(
        jacoby=jacoby, beavers=beavers, automatic_doubles=automatic, max_cube=max_cube
    )
    return BackgammonSeries(match_length, options)
