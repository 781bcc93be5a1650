"""How a game shows itself to the apps: its *face*.

The rules (:mod:`parlour.core.protocol`) say what may be played; the face says what a
board on screen needs to draw a position, which optional rules and series of games
(a backgammon match) the game offers, and how a sequence of games is written to a file.
The web server, the terminal app and the command line speak to every game through its
rules, its face and its engine, found by name in :mod:`parlour.core.registry`, and
import nothing else of a game package.

A game that brings no face of its own gets :class:`BasicFace`: a generic drawing (the
position's text picture and the legal moves by their text), one game at a time under
the standard rules, and no file format.

>>> from parlour.core.registry import get_face
>>> face = get_face("checkers")
>>> series = face.series({})
>>> state = series.first()
>>> face.board(state)["kind"], series.next([state]) is None
('checkers', True)
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from parlour.core.errors import NotationError
from parlour.core.protocol import Game, Side, State

#: What a board on screen needs, as plain data (JSON-ready): a ``kind`` naming the
#: drawing ("chess", "checkers", "backgammon", or "text" for the generic one) and
#: whatever that drawing reads.
BoardData = dict[str, Any]
#: What a game's page shows beside the board, as plain data: ``prompt`` (an example
#: of a typed move), ``info`` (lines for the panel, each ``{"id", "text"}``),
#: ``actions`` (moves offered as buttons now, each ``{"move", "label", "primary"}``),
#: ``offers`` (moves asked about in a question, as actions) with the ``offer_question``,
#: ``notice`` (what the player to act is asked, or None), ``resign_question`` (asked
#: before resigning outright) and ``bottom`` (the side drawn at the bottom of an
#: unturned board).
PageData = dict[str, Any]
#: One optional rule on a form: its ``name`` (the rule's key), ``label`` and ``about``
#: (words for people), ``kind`` ("choice" among ``choices``, each ``[value, words]``,
#: or "flag"), ``default``, and ``only_with`` (other rules' values it needs, such as
#: ``{"match_length": 0}`` for a rule of money play), or None.
RuleChoice = dict[str, Any]
#: A line of a move list: its ``number`` ("1." or None), its ``cells`` (each
#: ``{"text", "version"}``, version None for a cell that is not a position to look
#: back at) and its ``kind`` ("move" or "throw").
MoveRow = dict[str, Any]


@dataclass(frozen=True, slots=True)
class Export:
    """A sequence of games written in the game's file format."""

    #: The file name's extension, without the dot: "pgn", "pdn", "mat".
    suffix: str
    text: str


@dataclass(frozen=True, slots=True)
class Recorded:
    """One series of games read from a game file (a chess game, a backgammon match):
    the games, each as the state after its last move (all but the last over), the
    players' names (first side, second side) and the optional rules the series was
    played under, as :meth:`GameFace.series` reads them; ``tags`` are the file's
    own header tags, kept for a program that writes the game back (annotated)."""

    games: list[State[Any]]
    names: tuple[str, str]
    rules: dict[str, Any]
    tags: Mapping[str, str] = field(default_factory=dict)


def end_as_recorded(state: State[Any], winner: Side | None, reason: str) -> None:
    """End ``state`` off the board as a game record says it ended, when its
    position has not ended it: a win by the loser's resignation (or, in chess, by
    the loser's flag when ``reason`` speaks of time), a draw by claim when one is
    claimable and by agreement otherwise.

    >>> from parlour.core.registry import get_game
    >>> state = get_game("chess").new_state()
    >>> end_as_recorded(state, Side.SECOND, "resignation")
    >>> state.outcome()
    Outcome(winner=<Side.SECOND: 1>, reason='resignation', points=1)
    """
    if state.is_over():
        return
    if winner is not None:
        flag = getattr(state, "flag", None)
        if "time" in reason and callable(flag):
            flag(winner.other)
        else:
            state.resign(winner.other)
    elif state.claimable_draw() is not None and reason != "agreement":
        state.claim_draw()
    else:
        state.agree_draw()


def record_game(
    state: State[Any],
    ending: tuple[Side | None, str] | None,
    names: tuple[str, str],
    tags: Mapping[str, str] | None = None,
) -> Recorded:
    """A game read from a file (``state``: after its last move), as a series of its
    own, ended as the file's result says: ``ending`` is the winner (None for a
    draw) and how it was reached, or None for a game left unfinished."""
    if ending is not None:
        end_as_recorded(state, *ending)
    return Recorded([state], names, {}, dict(tags or {}))


def tag_name(tags: Mapping[str, str], tag: str) -> str:
    """A player's name from a file's tag (``White``), or the tag's own name where
    the file leaves it unknown (``?``)."""
    name = tags.get(tag, "?").strip()
    return tag if name in ("", "?") else name


class Series(Protocol):
    """Games played one after another under one set of rules: a backgammon match,
    say, or one game on its own (:class:`OneGame`). A series holds no games itself;
    its user keeps the finished ones and asks what follows them."""

    @property
    def game(self) -> Game[Any]:
        """The game with this series' optional rules."""
        ...

    @property
    def rules(self) -> dict[str, Any]:
        """The optional rules, normalised: plain values to store and to show."""
        ...

    def first(self) -> State[Any]:
        """The first game's starting position."""
        ...

    def next(self, finished: Sequence[State[Any]]) -> State[Any] | None:
        """The game that follows ``finished`` (every game so far, each over), or None
        when the series is over."""
        ...

    def summary(self, games: Sequence[State[Any]]) -> dict[str, Any] | None:
        """What a page shows of the series after ``games`` (every game so far, the
        last perhaps still in play, which counts once it is over): the score, the
        games finished, or None for a lone game. A backgammon match taken up
        part-way counts from its first game's score."""
        ...

    def cannot_begin_at(self, state: State[Any]) -> str | None:
        """Why the series cannot begin at the set-up position ``state`` (a
        backgammon position of another match, say), or None when it can."""
        ...


class OneGame:
    """A game on its own under its standard rules: the series of a game that has no
    optional rules."""

    def __init__(self, game: Game[Any]) -> None:
        self.game = game
        self.rules: dict[str, Any] = {}

    def first(self) -> State[Any]:
        return self.game.new_state()

    def next(self, finished: Sequence[State[Any]]) -> State[Any] | None:
        return None

    def summary(self, games: Sequence[State[Any]]) -> dict[str, Any] | None:
        return None

    def cannot_begin_at(self, state: State[Any]) -> str | None:
        return None


class GameFace(Protocol):
    """What the apps need of a game beyond its rules."""

    @property
    def game(self) -> Game[Any]:
        """The game (under its standard rules) this face shows."""
        ...

    @property
    def export_suffix(self) -> str | None:
        """The extension of the game's file format ("pgn"), or None without one."""
        ...

    def board(self, state: State[Any]) -> BoardData:
        """What a board on screen needs to draw ``state`` and to offer its moves."""
        ...

    def series(self, rules: Mapping[str, Any] | None) -> Series:
        """The game under the optional ``rules`` a player asked for (None or empty:
        the standard rules), possibly as a series of games. Raises ValueError naming
        what is wrong with the rules."""
        ...

    def export(self, games: Sequence[State[Any]], names: tuple[str, str]) -> Export | None:
        """The ``games`` of one series (all but the last over) in the game's file
        format, with the players' ``names``; None for a game without one."""
        ...

    @property
    def export_kind(self) -> str | None:
        """The file format's name for people ("PGN"), or None without one."""
        ...

    def read_games(self, text: str) -> list[Recorded]:
        """Every series of games in ``text``, a file in the game's format (what
        :meth:`export` writes, and what other programs write); NotationError naming
        the game and the line or move of anything unreadable or illegal."""
        ...

    def read_each(self, text: str) -> Iterator[Recorded]:
        """The series of ``text`` one at a time, as :meth:`read_games` reads them:
        the NotationError of a bad one is raised when it is reached, after those
        before it (a program can use the good games of a file with a bad one)."""
        ...

    @property
    def rule_choices(self) -> list[RuleChoice]:
        """The optional rules a player may choose before a game, for a form: each
        names its rule (the key :meth:`series` reads) and how it is chosen."""
        ...

    def page(self, state: State[Any]) -> PageData:
        """What a game's page shows beside the board of ``state`` (see
        :class:`BasicFace`)."""
        ...

    def move_rows(self, state: State[Any], record: Sequence[Mapping[str, Any]]) -> list[MoveRow]:
        """The lines of a move list for ``record`` (the moves of the game that is now
        ``state``, each ``{"version", "side", "text"}``, side None for the dice)."""
        ...

    def describe(self, state: State[Any]) -> list[str]:
        """The position in words, a line a side, for a player who cannot see the
        board (a screen reader reads it)."""
        ...


@runtime_checkable
class StepwiseFace(GameFace, Protocol):
    """The face of a game whose turn a player enters one piece at a time on the board
    (a backgammon play of up to four checker moves)."""

    def steps(self, state: State[Any], texts: list[str]) -> dict[str, Any]:
        """The turn after the partial moves ``texts``: the board as it would stand,
        what may come next and whether the turn is complete. Raises IllegalMoveError
        naming the rule when a step cannot be part of a legal turn."""
        ...


class BasicFace:
    """The face of a game that brings none: a generic drawing and one game at a time.
    Games subclass it and override what they do better."""

    #: The extension of the game's file format; None: :meth:`export` writes nothing.
    export_suffix: str | None = None

    def __init__(self, game: Game[Any]) -> None:
        self._game = game

    @property
    def game(self) -> Game[Any]:
        return self._game

    def board(self, state: State[Any]) -> BoardData:
        """The position's text picture and the legal moves by their text."""
        moves = [] if state.is_over() else [state.move_to_text(m) for m in state.legal_moves()]
        return {"kind": "text", "picture": state.board_text(), "moves": moves}

    def series(self, rules: Mapping[str, Any] | None) -> Series:
        if rules:
            raise ValueError(
                f"{self._game.title} has no optional rules (asked for: {', '.join(rules)})"
            )
        return OneGame(self._game)

    def export(self, games: Sequence[State[Any]], names: tuple[str, str]) -> Export | None:
        return None

    def read_games(self, text: str) -> list[Recorded]:
        return list(self.read_each(text))

    def read_each(self, text: str) -> Iterator[Recorded]:
        raise NotationError(f"{self._game.title} has no file format to read")

    #: The file format's name for people; None without one.
    export_kind: str | None = None
    #: An example of a move as a player types it.
    prompt = "a move"
    #: The optional rules a player may choose: none.
    rule_choices: list[RuleChoice] = []  # noqa: RUF012 (never changed)

    def page(self, state: State[Any]) -> PageData:
        """An example of a typed move, and no more: a game whose moves are all made on
        the board needs no buttons of its own."""
        return {
            "prompt": self.prompt,
            "info": [],
            "actions": [],
            "offers": [],
            "offer_question": None,
            "notice": None,
            "resign_question": "Resign this game?",
            "bottom": 0,
        }

    def describe(self, state: State[Any]) -> list[str]:
        """The position as the game writes it: games describe theirs better."""
        return [f"The position: {state.to_text()}"]

    def move_rows(self, state: State[Any], record: Sequence[Mapping[str, Any]]) -> list[MoveRow]:
        """Two moves a line, numbered, as a chess score sheet is written.

        >>> record = [{"version": 1, "side": 0, "text": "e4"}]
        >>> record.append({"version": 2, "side": 1, "text": "e5"})
        >>> row = BasicFace(None).move_rows(None, record)[0]  # type: ignore[arg-type]
        >>> row["number"], [cell["text"] for cell in row["cells"]]
        ('1.', ['e4', 'e5'])
        """
        rows = []
        for index in range(0, len(record), 2):
            pair = record[index : index + 2]
            rows.append(
                {
                    "number": f"{index // 2 + 1}.",
                    "cells": [{"text": m["text"], "version": m["version"]} for m in pair],
                    "kind": "move",
                }
            )
        return rows
