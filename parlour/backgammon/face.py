"""How the apps show backgammon (its :class:`~parlour.core.face.GameFace`): what a board
on screen needs from a position, as plain data, the turn entered one checker at a time
(:func:`steps`), as a player moves on a board, and a match written as a .mat file.

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

from collections.abc import Mapping, Sequence
from typing import Any

from parlour.backgammon.board import BAR, OFF, CheckerMove, Position
from parlour.backgammon.match import BackgammonMatch, BackgammonSeries, series
from parlour.backgammon.matchfile import write_mat
from parlour.backgammon.rules import BACKGAMMON, BackgammonState, Phase, TurnBuilder
from parlour.core.errors import NotationError
from parlour.core.face import BasicFace, BoardData, Export
from parlour.core.protocol import Side, State

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


def board(state: BackgammonState) -> BoardData:
    """The checkers, dice, cube, pip counts and match score, and the steps the mover
    may start the turn with (when checkers are to be moved)."""
    mover = state.mover
    data = _layout(state.position, mover)
    data.update(
        {
            "kind": "backgammon",
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


class BackgammonFace(BasicFace):
    """Backgammon on screen: the points, bar, trays, dice and cube; a turn entered one
    checker at a time (:meth:`steps`); matches and money sessions under the optional
    cube rules (:mod:`parlour.backgammon.match`); games written as a .mat file."""

    export_suffix = "mat"

    def board(self, state: State[Any]) -> BoardData:
        assert isinstance(state, BackgammonState)
        return board(state)

    def steps(self, state: State[Any], texts: list[str]) -> dict[str, Any]:
        """The turn after the checker moves ``texts``: see :func:`steps`."""
        assert isinstance(state, BackgammonState)
        return steps(state, texts)

    def series(self, rules: Mapping[str, Any] | None) -> BackgammonSeries:
        return series(rules or {})

    def export(self, games: Sequence[State[Any]], names: tuple[str, str]) -> Export:
        """The match (or money session) so far as a .mat file."""
        played = [game for game in games if isinstance(game, BackgammonState)]
        match = BackgammonMatch.of_games(played)
        words = tuple("".join(name.split()) or "Player" for name in names)
        return Export("mat", write_mat(match, (words[0], words[1])))


BACKGAMMON_FACE = BackgammonFace(BACKGAMMON)
