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

import datetime
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from parlour.backgammon.board import (
    BAR,
    OFF,
    CheckerMove,
    Position,
    checker_moves,
    explain_illegal_play,
)
from parlour.backgammon.match import BackgammonMatch, BackgammonSeries, series
from parlour.backgammon.matchfile import read_mat, write_mat
from parlour.backgammon.rules import BACKGAMMON, BackgammonState, Phase, TurnBuilder
from parlour.core.errors import NotationError
from parlour.core.face import BasicFace, BoardData, Export, MoveRow, PageData, Recorded
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


def describe(state: BackgammonState) -> list[str]:
    """Each side's checkers point by point in its own numbering (its ace point 1),
    on the bar and borne off.

    >>> from parlour.backgammon.rules import BACKGAMMON
    >>> describe(BACKGAMMON.new_state())[0]
    'White: 2 on 24, 5 on 13, 3 on 8, 5 on 6; none on the bar; none off.'
    """
    layout = _layout(state.position, state.mover)
    points = layout["points"]
    lines = []
    for side in Side:
        own = [  # (its own point number, checkers), highest first
            (p if side is Side.FIRST else 25 - p, abs(count))
            for p, count in enumerate(points, start=1)
            if (count > 0) == (side is Side.FIRST) and count
        ]
        own.sort(reverse=True)
        where = ", ".join(f"{count} on {point}" for point, count in own) or "none on the points"
        bar, off = layout["bar"][int(side)], layout["off"][int(side)]
        lines.append(
            f"{state.game.side_name(side)}: {where}; {bar or 'none'} on the bar; "
            f"{off or 'none'} off."
        )
    return lines


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
    data["notes"] = {}
    data["last_play"] = _last_play(state)
    if state.phase is Phase.PLAY and not state.is_over():
        turn = TurnBuilder(state)
        data["steps"] = [_step_json(step, mover) for step in turn.options()]
        data["notes"] = _point_notes(data, turn, data["steps"])
    return data


def _last_play(state: BackgammonState) -> list[int | str]:
    """Where the last play of the game put checkers (first side's numbering)."""
    probe = state.copy()
    while probe.moves:
        move = probe.pop()
        if isinstance(move, tuple) and move:
            return [_absolute(step.end, probe.mover) for step in move if step.end != OFF]
    return []


_HELD = (
    "That checker cannot move with the dice left (the points it would reach are closed, "
    "or it may not bear off yet)."
)


def _point_notes(
    layout: Mapping[str, Any], turn: TurnBuilder, options: list[dict[str, Any]]
) -> dict[str, str]:
    """Why no checker moves from each point the mover may not move from now (first
    side's numbering), in a player's words, for a board to say when it is clicked:
    for a checker the dice could move, the rule that forbids it (the higher die, say)."""
    mover = turn.state.mover
    sources = {str(option["from"]) for option in options}
    forbidden = {}  # a checker the board lets move by a die left, though the rules do not
    for die in sorted(set(dice_left(turn.dice, turn.steps)), reverse=True):
        for move in checker_moves(turn.position, die):
            where = str(_absolute(move.start, mover))
            if where in sources or where in forbidden:
                continue
            error = explain_illegal_play(turn.start, turn.dice, [*turn.steps, move])
            if error.rule not in ("legal", "illegal"):
                forbidden[where] = f"Not {move}: {error}."
    notes = {}
    for point in range(1, 25):
        if str(point) in sources:
            continue
        count = layout["points"][point - 1]
        if not count:
            notes[str(point)] = "There is no checker there."
        elif (count > 0) != (mover is Side.FIRST):
            notes[str(point)] = "Those checkers are your opponent's."
        elif layout["bar"][mover]:
            notes[str(point)] = "A checker on the bar must come in before any other checker moves."
        else:
            notes[str(point)] = forbidden.get(str(point), _HELD)
    return notes


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


def dice_left(dice: tuple[int, int], moves: list[CheckerMove]) -> list[int]:
    """The dice not yet used by ``moves`` (four of a double), largest first: each
    move uses the die of its distance, or, bearing off from below it, the smallest
    larger die left.

    >>> dice_left((6, 4), [CheckerMove(13, 7)]), dice_left((2, 2), [CheckerMove(8, 6)])
    ([4], [2, 2, 2])
    >>> dice_left((6, 5), [CheckerMove(3, 0)])
    [6]
    """
    left = [dice[0]] * 4 if dice[0] == dice[1] else sorted(dice, reverse=True)
    for move in moves:
        distance = move.start - move.end
        if distance in left:
            left.remove(distance)
        else:
            larger = [die for die in left if die > distance]
            if larger:
                left.remove(min(larger))
    return left


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
    assert state.dice is not None
    data["dice_left"] = dice_left(state.dice, turn.steps)
    data["play"] = state.move_to_text(turn.play()) if complete else None
    data["notes"] = _point_notes(data, turn, data["options"])
    data["info"] = _info(state, data)
    return data


_MONEY = {"match_length": 0}
#: The optional rules on the home page's form (the series checks them again).
RULE_CHOICES: list[dict[str, Any]] = [
    {
        "name": "match_length",
        "label": "Play",
        "about": "a match to a number of points, or money play",
        "kind": "choice",
        "choices": [[0, "money play"]]
        + [[n, f"a {n}-point match"] for n in (1, 3, 5, 7, 9, 11, 13, 15, 17, 21, 25)],
        "default": 0,
        "only_with": None,
    },
    {
        "name": "jacoby",
        "label": "Jacoby rule",
        "about": "gammons count single until the cube is turned",
        "kind": "flag",
        "default": False,
        "only_with": _MONEY,
    },
    {
        "name": "beavers",
        "label": "Beavers",
        "about": "a doubled player may redouble at once and keep the cube",
        "kind": "flag",
        "default": False,
        "only_with": _MONEY,
    },
    {
        "name": "automatic_doubles",
        "label": "Automatic doubles",
        "about": "a tied opening throw doubles the stake",
        "kind": "choice",
        "choices": [[0, "off"], [1, "up to 1"], [2, "up to 2"], [3, "up to 3"]],
        "default": 0,
        "only_with": _MONEY,
    },
    {
        "name": "max_cube",
        "label": "Cube limit",
        "about": "the highest value the cube may reach",
        "kind": "choice",
        "choices": [[64, "64 (a standard cube)"], [None, "none"]],
        # The form starts at the cube players hold in their hands.
        "default": 64,
        "only_with": None,
    },
]

#: The moves that are words, as buttons say them; a primary button is the usual answer.
ACTION_LABELS = {
    "roll": ("Roll the dice", True),
    "double": ("Double", False),
    "take": ("Take", True),
    "drop": ("Drop (pass)", False),
    "beaver": ("Beaver", False),
    "accept": ("Accept the resignation", False),
    "decline": ("Decline the resignation", False),
}
#: Asked before resigning outright.
RESIGN_QUESTION = (
    "Resign outright? You concede the whole game: a gammon or a backgammon if you have "
    "borne off no checker yet, times the cube."
)


def _info(state: BackgammonState, layout: Mapping[str, Any]) -> list[dict[str, str]]:
    """The panel's lines: the pip counts (of ``layout``, the board as it stands with
    any checkers moved this turn), the cube, the Crawford game, the dice rolled."""
    names = state.game.side_names
    pips = layout["pips"]
    cube = state.cube
    owner = " (in the middle)" if cube.owner is None else f" (owned by {names[cube.owner]})"
    lines = [
        {"id": "pips", "text": f"Pips: {names[0]} {pips[0]}, {names[1]} {pips[1]}"},
        {"id": "cube", "text": f"Cube: {cube.value}{owner}"},
    ]
    turned = _automatic_doubles(state)
    if turned:
        times = "once" if turned == 1 else "twice" if turned == 2 else f"{turned} times"
        lines.append(
            {
                "id": "automatic-double",
                "text": f"The opening throw was tied {times}: by the automatic doubles rule "
                f"the cube starts this game at {2**turned}, in the middle.",
            }
        )
    if state.crawford and not state.is_over():
        lines.append({"id": "crawford", "text": "The Crawford game: no doubling."})
    if state.dice is not None and state.phase is Phase.PLAY:
        dice = state.dice
        lines.append({"id": "dice", "text": f"{names[state.mover]} rolled {dice[0]}-{dice[1]}"})
        partly = _partly_playable(state)
        if partly:
            lines.append({"id": "dice-rule", "text": partly})
    return lines


def _partly_playable(state: BackgammonState) -> str | None:
    """What the rules let be played of a roll that cannot be played in full, in a
    player's words (None when all of it can be, or none of it)."""
    assert state.dice is not None
    first, second = state.dice
    plays = [move for move in state.legal_moves() if isinstance(move, tuple)]
    used = max((len(play) for play in plays), default=0)
    if used == 0 or used == (4 if first == second else 2):
        return None
    if first == second:
        return f"Only {used} of the four {first}s can be played."
    left = dice_left(state.dice, list(plays[0]))[0]
    played = first + second - left
    if played > left and checker_moves(state.position, left):
        return (
            f"Only one die can be played: the {played}. When either could be played "
            "but not both, the higher one must be."
        )
    return f"Only one die can be played: the {played}."


def _automatic_doubles(state: BackgammonState) -> int:
    """How many times tied opening throws turned this game's cube (the cube when
    the opening ended, or as it stands while the opening goes on)."""
    nodes = [node for _, node in state._history] + [state._node]
    opened = next((node for node in nodes if node.phase is not Phase.OPENING), state._node)
    return opened.cube.value.bit_length() - 1 if opened.cube.owner is None else 0


def _notice(state: BackgammonState) -> str | None:
    """What the player to act is asked: to answer a double, a beaver or an offer to
    resign."""
    names = state.game.side_names
    value = state.cube.value
    if state.phase is Phase.RESIGNING:
        offer = next((str(m) for m in reversed(state.moves) if str(m).startswith("resign")), "")
        level = f" ({offer.removeprefix('resign ')})" if offer else ""
        return (
            f"{names[state.mover]} offers to resign{level}: accept to win that much now, "
            "or decline and play on."
        )
    if state.phase is Phase.BEAVERED:
        return "Your double was beavered: take at four times the stake, or drop."
    if state.phase is Phase.DOUBLED:
        points = "point" if value == 1 else "points"
        return (
            f"{names[state.mover]} doubles to {value * 2}: take, or drop and lose {value} {points}."
        )
    return None


def page(state: BackgammonState) -> dict[str, Any]:
    """The panel's lines, the cube and dice decisions as buttons, the offers to resign
    and what the player to act is asked."""
    legal = [] if state.is_over() else [str(move) for move in state.legal_moves()]
    actions = [
        {"move": move, "label": ACTION_LABELS[move][0], "primary": ACTION_LABELS[move][1]}
        for move in legal
        if move in ACTION_LABELS
    ]
    offers = [
        {"move": move, "label": move.removeprefix("resign ").capitalize(), "primary": False}
        for move in legal
        if move.startswith("resign ")
    ]
    return {
        "prompt": "e.g. 24/18 13/11",
        "info": _info(state, _layout(state.position, state.mover)),
        "actions": actions,
        "offers": offers,
        "offer_question": "Offer to resign: your opponent wins this much if they accept "
        "(times the cube).",
        "notice": _notice(state),
        "resign_question": RESIGN_QUESTION,
        "bottom": 0,
    }


def move_rows(
    record: Sequence[Mapping[str, Any]], names: Sequence[str], mover: Side
) -> list[dict[str, Any]]:
    """The move list a turn a line: a roll and its throw make one line ("White rolls
    6-4"), the opening throw its own, a play or a cube action one each.

    >>> record = [{"version": 1, "side": None, "text": "31"},
    ...           {"version": 2, "side": 0, "text": "8/5 6/5"}]
    >>> [row["cells"][0]["text"] for row in move_rows(record, ("White", "Black"), Side.SECOND)]
    ['Opening throw: White 3, Black 1', 'White: 8/5 6/5']
    """
    rows: list[dict[str, Any]] = []
    rolling: dict[str, Any] | None = None  # a roll waiting for its throw
    for index, entry in enumerate(record):
        text, side = entry["text"], entry["side"]
        if side is None:
            dice = f"{text[0]}-{text[1]}"
            if rolling is not None:
                rolling["cells"][0]["text"] += f" {dice}"
                row = rolling
                rolling = None
            elif all(earlier["side"] is None for earlier in record[:index]):
                # Each side throws one die: say whose was whose, and a tie.
                first, second = text[0], text[1]
                words = f"Opening throw: {names[0]} {first}, {names[1]} {second}"
                if first == second:
                    words += " (a tie: thrown again)"
                row = _row(words, None, "throw")
                rows.append(row)
            else:  # a throw with no roll before it: the doubler's, after a take
                following = next(
                    (m["side"] for m in record[index + 1 :] if m["side"] is not None), None
                )
                who = names[mover if following is None else following]
                row = _row(f"{who} rolls {dice}", None, "throw")
                rows.append(row)
            row["cells"][0]["version"] = entry["version"]
        elif text == "roll":
            rolling = _row(f"{names[side]} rolls", None, "throw")
            rows.append(rolling)
        else:
            rolling = None
            rows.append(_row(f"{names[side]}: {text}", entry["version"], "move"))
    return rows


def _row(text: str, version: int | None, kind: str) -> dict[str, Any]:
    return {"number": None, "cells": [{"text": text, "version": version}], "kind": kind}


class BackgammonFace(BasicFace):
    """Backgammon on screen: the points, bar, trays, dice and cube; a turn entered one
    checker at a time (:meth:`steps`); matches and money sessions under the optional
    cube rules (:mod:`parlour.backgammon.match`); games written as a .mat file."""

    export_suffix = "mat"
    export_kind = ".mat"
    prompt = "e.g. 24/18 13/11"
    rule_choices = RULE_CHOICES

    def board(self, state: State[Any]) -> BoardData:
        assert isinstance(state, BackgammonState)
        return board(state)

    def describe(self, state: State[Any]) -> list[str]:
        assert isinstance(state, BackgammonState)
        return describe(state)

    def steps(self, state: State[Any], texts: list[str]) -> dict[str, Any]:
        """The turn after the checker moves ``texts``: see :func:`steps`."""
        assert isinstance(state, BackgammonState)
        return steps(state, texts)

    def page(self, state: State[Any]) -> PageData:
        assert isinstance(state, BackgammonState)
        return page(state)

    def move_rows(self, state: State[Any], record: Sequence[Mapping[str, Any]]) -> list[MoveRow]:
        assert isinstance(state, BackgammonState)
        return move_rows(record, state.game.side_names, state.mover)

    def series(self, rules: Mapping[str, Any] | None) -> BackgammonSeries:
        return series(rules or {})

    def export(self, games: Sequence[State[Any]], names: tuple[str, str]) -> Export:
        """The match (or money session) so far as a .mat file."""
        played = [game for game in games if isinstance(game, BackgammonState)]
        match = BackgammonMatch.of_games(played)
        words = tuple("".join(name.split()) or "Player" for name in names)
        date = datetime.date.today().strftime("%Y.%m.%d")
        return Export("mat", write_mat(match, (words[0], words[1]), date=date))

    def read_each(self, text: str) -> Iterator[Recorded]:
        """The match (or money session) of a .mat text, under the cube rules its
        tags name."""
        read = read_mat(text)
        match = read.match
        rules = BackgammonSeries(match.match_length, match.game.options).rules
        yield Recorded(list(match.games), read.names, rules)


BACKGAMMON_FACE = BackgammonFace(BACKGAMMON)
