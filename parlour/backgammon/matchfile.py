"""Match records in the Jellyfish / GNU Backgammon ``.mat`` text format, both ways.

A file holds one match (or money session)::

     5 point match

     Game 1
     Alice : 0                      Bob : 0
      1)                             31: 8/5 6/5
      2) 64: 24/18 13/9               Doubles => 2
      3)  Takes                      52: 13/8 24/22
     ...
                                      Wins 2 points

Each numbered line holds a turn of the first player (left column, 28 characters
wide) and of the second (right column). A roll is written ``64:`` followed by the
checker moves, one die each, in the mover's own numbering (25 the bar, 0 off),
``*`` marking a hit; nothing after the roll means the player could not move. Cube
actions are `` Doubles => 2``, `` Takes``, `` Drops`` and `` Beavers => 4`` (the
doubler's take of a beaver is not written, as gnubg writes it); a
game ends with `` Wins N points`` in the winner's column. A game that ends without
a bear-off or a drop was resigned; the format keeps no trace of resignation offers
that were declined or of tied opening throws (tied throws that turned the cube are
read back from the value of the first double).

The format has no place for the optional cube rules either. Lines starting with
``;`` are comments to other programs (gnubg writes ``; [EventDate "2026.11.22"]``
there), so we record the rules that are on as such tags, ``; [Jacoby "On"]``,
``; [Beavers "On"]``, ``; [AutomaticDoubles "2"]`` and ``; [CubeLimit "64"]``,
and read them back.

>>> match = BackgammonMatch(1)
>>> game = match.new_game()
>>> for text in ["13", "8/5 6/5", "resign gammon", "accept"]:
...     _ = game.play(text)
>>> match.finish()
>>> print(write_mat(match, ("Alice", "Bob")))
 1 point match
<BLANKLINE>
 Game 1
 Alice : 0                      Bob : 0
  1)                             31: 8/5 6/5
                                  Wins 2 points and the match
<BLANKLINE>
<BLANKLINE>
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from parlour.backgammon.board import CheckerMove, Play, Position
from parlour.backgammon.cube import CubeOptions
from parlour.backgammon.match import BackgammonMatch
from parlour.backgammon.rules import (
    Action,
    BackgammonState,
    Phase,
    Resign,
    Throw,
)
from parlour.core.errors import NotationError, ParlourError
from parlour.core.protocol import Side
from parlour.core.sections import lines_of

#: Width of the first player's column, as Jellyfish and gnubg write it.
COLUMN = 28


@dataclass
class MatchFile:
    """A match read from a ``.mat`` file: the games replayed through the rules, and
    the players' names (first side, second side)."""

    match: BackgammonMatch
    names: tuple[str, str]


# -- writing ------------------------------------------------------------------------


def _play_text(dice: tuple[int, int], position: Position, play: Play) -> str:
    """``64: 24/18 13/9*``: the roll, then each checker move with hits marked."""
    high, low = max(dice), min(dice)
    words = [f"{high}{low}:"]
    for move in play:
        hit = move.end > 0 and position.opponent[24 - move.end] == 1
        words.append(f"{move.start}/{move.end}{'*' if hit else ''}")
        position = position.apply((move,))
    return " ".join(words)


def _wins_text(points: int) -> str:
    return f" Wins {points} point{'s' if points != 1 else ''}"


def game_entries(game: BackgammonState) -> list[tuple[Side, str]]:
    """The entries of one game in the order made: (side, text) for each roll and
    play, cube action and the final ``Wins``."""
    replay = game.game.new_state(
        match_length=game.match_length, score=game.score, crawford=game.crawford
    )
    entries: list[tuple[Side, str]] = []
    for move in game.moves:
        actor = replay.turn
        if isinstance(move, tuple):
            dice = replay.dice
            assert dice is not None
            entries.append((replay.mover, _play_text(dice, replay.position, move)))
        elif move is Action.DOUBLE:
            entries.append((replay.mover, f" Doubles => {replay.cube.value * 2}"))
        elif move is Action.BEAVER:
            entries.append((replay.mover.other, f" Beavers => {replay.cube.value * 4}"))
        elif move is Action.TAKE:
            # A beaver taken is not written: gnubg and Jellyfish take beavers silently.
            if replay.phase is not Phase.BEAVERED:
                assert isinstance(actor, Side)
                entries.append((actor, " Takes"))
        elif move is Action.DROP:
            assert isinstance(actor, Side)
            entries.append((actor, " Drops"))
        replay.push(move)
    outcome = game.outcome()
    if outcome is not None and outcome.winner is not None:
        text = _wins_text(outcome.points)
        # The game that wins a match says so, as Jellyfish and gnubg write it.
        if game.match_length and game.score[outcome.winner] + outcome.points >= game.match_length:
            text += " and the match"
        entries.append((outcome.winner, text))
    return entries


def _lines(entries: list[tuple[Side, str]]) -> list[str]:
    """Lay entries out in two columns: a first-side entry starts a new line, a
    second-side entry fills the right column (or starts a line with the left empty).
    A line holding only the ``Wins`` entry has no number."""
    rows: list[list[str]] = []
    for side, text in entries:
        if not rows or (any(rows[-1]) if side is Side.FIRST else rows[-1][1]):
            rows.append(["", ""])
        rows[-1][side] = text
    lines = []
    number = 0
    for left, right in rows:
        only_wins = all(not cell or cell.startswith(" Wins") for cell in (left, right))
        if only_wins:
            prefix = "     "
        else:
            number += 1
            prefix = f"{number:3d}) "
        # A space always follows the left entry, even one wider than its column.
        lines.append((prefix + (left + " " if left else "").ljust(COLUMN) + right).rstrip())
    return lines


def write_mat(
    match: BackgammonMatch, names: tuple[str, str] = ("White", "Black"), *, date: str | None = None
) -> str:
    """The match's games as ``.mat`` text (a money session is a "0 point match"), with
    the ``date`` it was played (``2026.11.25``) as GNU Backgammon's EventDate tag."""
    for name in names:
        if not name or any(ch.isspace() for ch in name) or ":" in name:
            raise ValueError(f"player names in a .mat file are single words: {name!r}")
    tags = _option_tags(match.scores.options, money=not match.match_length)
    if date is not None:
        tags.insert(0, ("EventDate", date))
    out = [f'; [{tag} "{value}"]' for tag, value in tags]
    out += [f" {match.match_length} point match", ""]
    for number, game in enumerate(match.games, start=1):
        if not game.moves:
            continue
        score = game.score if match.match_length else _money_points(match, number - 1)
        out.append(f" Game {number}")
        out.append(f" {names[0]} : {score[0]}".ljust(32) + f"{names[1]} : {score[1]}")
        out.extend(_lines(game_entries(game)))
        out.append("")
    return "\n".join(out) + "\n"


def _option_tags(options: CubeOptions, *, money: bool) -> list[tuple[str, str]]:
    """The cube rules as comment tags. Money play always says whether the Jacoby rule
    is on: GNU Backgammon imports a money session with its own setting otherwise (on,
    by default)."""
    tags = []
    if money:
        tags.append(("Jacoby", "On" if options.jacoby else "Off"))
    if options.beavers:
        tags.append(("Beavers", "On"))
    if options.automatic_doubles:
        tags.append(("AutomaticDoubles", str(options.automatic_doubles)))
    if options.max_cube is not None:
        tags.append(("CubeLimit", str(options.max_cube)))
    return tags


_TAG = re.compile(r'^;\s*\[\s*(\w+)\s+"([^"]*)"\s*\]\s*$')


def _options_from_tags(tags: dict[str, tuple[int, str]]) -> CubeOptions:
    """The cube rules named by the comment tags (see the module's docstring)."""

    def number(tag: str) -> int | None:
        if tag not in tags:
            return None
        line, value = tags[tag]
        if not value.isdigit():
            raise _error(line, f"the {tag} tag needs a whole number, not {value!r}")
        return int(value)

    try:
        return CubeOptions(
            jacoby=tags.get("Jacoby", (0, ""))[1].lower() == "on",
            beavers=tags.get("Beavers", (0, ""))[1].lower() == "on",
            automatic_doubles=number("AutomaticDoubles") or 0,
            max_cube=number("CubeLimit"),
        )
    except ValueError as error:
        raise NotationError(f"the rules in the file's tags: {error}") from None


def _money_points(match: BackgammonMatch, games_before: int) -> tuple[int, int]:
    won = [0, 0]
    for result in match.scores.games[:games_before]:
        won[result.winner] += result.points
    return won[0], won[1]


# -- reading ------------------------------------------------------------------------

_LENGTH = re.compile(r"^\s*(\d+)\s+point\s+match\s*$", re.IGNORECASE)
_GAME = re.compile(r"^\s*Game\s+(\d+)\s*$", re.IGNORECASE)
_SCORE = re.compile(r"^\s*(\S+)\s*:\s*(\d+)\s+(\S+)\s*:\s*(\d+)\s*$")
_NUMBERED = re.compile(r"^\s*(\d+)\)")
_ROLL = re.compile(r"^([1-6])([1-6]):$")
_STEP = re.compile(r"^(\d+|bar)/(\d+|off)\*?$", re.IGNORECASE)
_CUBE = re.compile(r"^(Doubles|Beavers)\s*=>\s*(\d+)$", re.IGNORECASE)
_WINS = re.compile(r"^Wins\s+(\d+)\s+points?(\s+and\s+the\s+match)?$", re.IGNORECASE)


@dataclass
class _Entry:
    line: int
    column: Side | None  # known for the opening roll and for Wins
    kind: str  # roll, double, beaver, take, drop, wins
    dice: tuple[int, int] = (0, 0)
    steps: tuple[CheckerMove, ...] = ()
    value: int = 0


def _error(line: int, why: str) -> NotationError:
    return NotationError(f"line {line}: {why}")


def _tokens(text: str) -> list[str]:
    """Split a column's text into entries: a roll with its moves, or a cube word."""
    found: list[str] = []
    for word in text.split():
        if _ROLL.match(word) or word.lower() in ("doubles", "beavers", "takes", "drops", "wins"):
            found.append(word)
        elif found:
            found[-1] += " " + word
        else:
            found.append(word)
    return found


def _parse_entry(text: str, line: int, column: Side | None) -> _Entry:
    head, _, rest = text.partition(" ")
    roll = _ROLL.match(head)
    if roll:
        steps = []
        for word in rest.split():
            step = _STEP.match(word)
            if not step:
                raise _error(line, f"cannot read the checker move {word!r} (expected like 13/7*)")
            start = 25 if step.group(1).lower() == "bar" else int(step.group(1))
            end = 0 if step.group(2).lower() == "off" else int(step.group(2))
            if not 0 <= end < start <= 25:
                raise _error(line, f"{word!r} is not a move from a point to a lower one")
            steps.append(CheckerMove(start, end))
        dice = (int(roll.group(1)), int(roll.group(2)))
        return _Entry(line, column, "roll", dice=dice, steps=tuple(steps))
    cube = _CUBE.match(text)
    if cube:
        return _Entry(line, column, cube.group(1).lower()[:-1], value=int(cube.group(2)))
    word = text.strip().lower()
    if word in ("takes", "drops"):
        return _Entry(line, column, word[:-1])
    wins = _WINS.match(text.strip())
    if wins:
        return _Entry(line, column, "wins", value=int(wins.group(1)))
    raise _error(
        line,
        f"cannot read {text!r}: expected a roll like '64: 24/18 13/9', "
        "'Doubles => 2', 'Takes', 'Drops', 'Beavers => 4' or 'Wins N points'",
    )


def _line_entries(raw: str, number: int) -> list[_Entry]:
    """The entries of one move line, with the column of each where it matters."""
    numbered = _NUMBERED.match(raw)
    body_start = numbered.end() + 1 if numbered else 5
    if not numbered and raw[:body_start].strip():
        raise _error(number, f"cannot read {raw.strip()!r}: expected a numbered move line")
    body = raw[body_start:]
    entries = []
    offset = 0
    for token in _tokens(body):
        at = body.index(token.split()[0], offset)
        offset = at + len(token.split()[0])
        column = Side.FIRST if at < COLUMN else Side.SECOND
        entries.append(_parse_entry(token, number, column))
    return entries


def read_mat(text: str | Iterable[str], *, options: CubeOptions | None = None) -> MatchFile:
    """Read ``.mat`` text (or an open file) and replay every game through the rules.
    NotationError names the game and the line of anything unreadable or illegal
    (``game 2, line 15: ...``); a match's games hang together by their score, so a
    file is read whole.

    ``options`` are the optional cube rules the match was played with; without
    them, the rules named by the file's tags (as :func:`write_mat` writes them), or
    none."""
    layout = _MatLayout()
    for number, raw in enumerate(lines_of(text), start=1):
        layout.read_line(number, raw)
    length = layout.finish()
    if options is None:
        options = _options_from_tags(layout.tags)
    try:
        match = BackgammonMatch(length, options=options)
    except ValueError as error:
        raise NotationError(f"a {length}-point match: {error}") from None
    for game_number, (line, score, entries) in enumerate(layout.games, start=1):
        try:
            _play_game(match, line, score, entries)
        except NotationError as error:
            raise NotationError(f"game {game_number}, {error}") from None
    if match.games and match.games[-1].is_over():
        match.finish()
    return MatchFile(match, layout.names or ("White", "Black"))


class _MatLayout:
    """What the lines of a .mat file say, before any move is played: the match
    length, the option tags, the players' names and each game's entries."""

    def __init__(self) -> None:
        self.length: int | None = None
        self.tags: dict[str, tuple[int, str]] = {}
        self.names: tuple[str, str] | None = None
        #: Each game: the line of its "Game N" header, its score line's score, entries.
        self.games: list[tuple[int, tuple[int, int], list[_Entry]]] = []
        self._expect_score = False

    def read_line(self, number: int, raw: str) -> None:
        stripped = raw.strip()
        tag = _TAG.match(stripped)
        if tag and self.length is None:
            self.tags[tag.group(1)] = (number, tag.group(2))
        if not stripped or stripped.startswith((";", "#")):
            return
        if self._expect_score:
            self._read_score(number, raw, stripped)
        elif match_length := _LENGTH.match(raw):
            if self.length is not None or self.games:
                raise _error(number, "the match length must come once, before the games")
            self.length = int(match_length.group(1))
        elif _GAME.match(raw):
            if self.length is None:
                raise _error(number, "the match length line ('5 point match') must come first")
            self.games.append((number, (0, 0), []))
            self._expect_score = True
        elif not self.games:
            raise _error(number, f"cannot read {stripped!r} before the first 'Game 1' line")
        else:
            self.games[-1][2].extend(_line_entries(raw, number))

    def _read_score(self, number: int, raw: str, stripped: str) -> None:
        found = _SCORE.match(raw)
        if not found:
            raise _error(number, f"expected the score line 'name : 0   name : 0', got {stripped!r}")
        these = (found.group(1), found.group(3))
        if self.names is None:
            self.names = these
        elif these != self.names:
            names = self.names
            raise _error(
                number,
                f"the players are {names[0]} and {names[1]}, not {these[0]} and {these[1]}",
            )
        self.games[-1] = (self.games[-1][0], (int(found.group(2)), int(found.group(4))), [])
        self._expect_score = False

    def finish(self) -> int:
        """The match length, once every line is read; NotationError if the file
        stopped short."""
        if self._expect_score:
            raise _error(self.games[-1][0], "the file ends before this game's score line")
        if self.length is None:
            raise NotationError("this is not a .mat file: no 'N point match' line")
        return self.length


def _play_game(
    match: BackgammonMatch, line: int, score: tuple[int, int], entries: list[_Entry]
) -> None:
    """Start the next game of ``match`` and replay its entries, checking its score line."""
    if match.current is not None and not match.current.is_over():
        raise _error(line, "the game before this one did not end (no 'Wins' line)")
    match.finish()
    if match.is_over:
        raise _error(line, "the match was already won before this game")
    state = match.new_game()
    if match.match_length and state.score != score:
        raise _error(
            line + 1,
            f"the score line says {score[0]}-{score[1]}, but the games before make it "
            f"{state.score[0]}-{state.score[1]}",
        )
    _replay(state, entries)


def _replay(state: BackgammonState, entries: list[_Entry]) -> None:
    """Push the moves the entries describe; errors name the line."""
    first_double = next(
        (entry for entry in entries if entry.kind in ("double", "beaver", "take", "drop")), None
    )
    if first_double is not None and first_double.kind == "double" and first_double.value > 2:
        _automatic_doubles(state, first_double)
    for entry in entries:
        try:
            _apply(state, entry)
        except ParlourError as error:
            if isinstance(error, NotationError) and str(error).startswith("line "):
                raise
            raise _error(entry.line, str(error)) from None


def _automatic_doubles(state: BackgammonState, entry: _Entry) -> None:
    """Tied opening throws that turned the cube are not written; push them back
    from the first double's value."""
    value = entry.value
    while state.cube.value * 2 < value:
        before = state.cube.value
        state.push(Throw((1, 1)))
        if state.cube.value == before:
            raise _error(entry.line, f"the first double is to {value}, but the cube is at {before}")


def _apply(state: BackgammonState, entry: _Entry) -> None:
    if state.is_over():
        if entry.kind == "wins":
            outcome = state.outcome()
            assert outcome is not None
            if outcome.points != entry.value or (
                entry.column is not None and entry.column != outcome.winner
            ):
                raise _error(
                    entry.line,
                    f"the game ended with {outcome.points} points to "
                    f"{state.game.side_name(outcome.winner or Side.FIRST)} ({outcome.reason})",
                )
            return
        raise _error(entry.line, "the game is already over")
    if state.phase is Phase.BEAVERED and entry.kind not in ("take", "drop"):
        state.push(Action.TAKE)  # a beaver taken is not written
    if entry.kind == "roll":
        if state.phase is Phase.OPENING:
            first, second = entry.dice
            if first == second:
                raise _error(entry.line, "an opening roll cannot be a double")
            high, low = max(entry.dice), min(entry.dice)
            starter = entry.column or Side.FIRST
            state.push(Throw((high, low) if starter is Side.FIRST else (low, high)))
        else:
            if state.phase is Phase.CUBE:
                state.push(Action.ROLL)
            if state.phase is not Phase.THROW:
                raise _error(entry.line, f"a roll is not possible here ({state.phase.value})")
            high, low = max(entry.dice), min(entry.dice)
            state.push(Throw((high, low)))
        _play(state, entry)
    elif entry.kind == "double":
        if state.cube.value * 2 != entry.value:
            raise _error(
                entry.line,
                f"a double from a cube of {state.cube.value} is to {state.cube.value * 2}, "
                f"not {entry.value}",
            )
        state.push(Action.DOUBLE)
    elif entry.kind == "beaver":
        state.push(Action.BEAVER)
    elif entry.kind == "take":
        state.push(Action.TAKE)
    elif entry.kind == "drop":
        state.push(Action.DROP)
    else:
        _resigned(state, entry)


def _play(state: BackgammonState, entry: _Entry) -> None:
    """Push the play the steps make (in any order)."""
    if not entry.steps:
        state.push(())
        return
    text = " ".join(f"{step.start}/{step.end}" for step in entry.steps)
    state.push(state.parse_move(text))


def _resigned(state: BackgammonState, entry: _Entry) -> None:
    """``Wins`` before the game was over: the loser resigned at the start of a turn."""
    winner = entry.column
    if winner is None:
        raise _error(entry.line, "cannot tell who won")
    loser = winner.other
    if state.phase is not Phase.CUBE or state.mover != loser:
        raise _error(
            entry.line,
            f"{state.game.side_name(winner)} wins without a bear-off or a drop, but "
            f"{state.game.side_name(loser)} could resign only at the start of a turn of theirs",
        )
    value = state.cube.value
    for level in (1, 2, 3):
        trial = state.copy()
        trial.push(Resign(level))
        trial.push(Action.ACCEPT)
        outcome = trial.outcome()
        if outcome is not None and outcome.points == entry.value:
            state.push(Resign(level))
            state.push(Action.ACCEPT)
            return
    raise _error(entry.line, f"{entry.value} points is not a resignation with the cube at {value}")
