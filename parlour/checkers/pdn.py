"""PDN game files for checkers: games with their tags, comments and results, read
and written (moves and positions in text are :mod:`parlour.checkers.notation`).

>>> from parlour.checkers.rules import CHECKERS
>>> state = CHECKERS.new_state()
>>> state.play("11-15"); state.play("23-19")
Move(path=(11, 15))
Move(path=(23, 19))
>>> text = write_pdn(PdnGame.from_state(state))
>>> [move.path for move in read_pdn_game(text).moves]
[(11, 15), (23, 19)]
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Iterable
from dataclasses import dataclass, field

from parlour.checkers.board import BLACK, WHITE, Move
from parlour.checkers.notation import SIDE_NAME, parse_fen
from parlour.checkers.rules import CheckersState
from parlour.core.errors import IllegalMoveError, NotationError

# -- PDN games --------------------------------------------------------------------------

#: Result text: as written in a PDN file -> canonical.
RESULTS = {
    "1-0": "1-0",
    "0-1": "0-1",
    "1/2-1/2": "1/2-1/2",
    "½-½": "1/2-1/2",
    "2-0": "1-0",
    "0-2": "0-1",
    "1-1": "1/2-1/2",
    "*": "*",
}

#: Tags written first, in this order.
TAG_ORDER = ("Event", "Site", "Date", "Round", "Black", "White", "Result", "GameType")


@dataclass
class PdnGame:
    """One game of a PDN file: its tags, the starting position, the moves and the
    comments (by the number of moves played before them).

    Results follow the PDN standard: ``1-0`` White won, ``0-1`` Black won,
    ``1/2-1/2`` drawn, ``*`` unfinished. (Some English checkers programs write
    ``1-0`` for a win by Black, the side that moves first; a result tag does not
    change the moves, so such files still read correctly.)
    """

    tags: dict[str, str] = field(default_factory=dict)
    moves: list[Move] = field(default_factory=list)
    result: str = "*"
    comments: dict[int, list[str]] = field(default_factory=dict)
    start_fen: str | None = None

    def start(self) -> CheckersState:
        """The position before the first move."""
        if self.start_fen is None:
            return CheckersState()
        position, turn = parse_fen(self.start_fen)
        return CheckersState.from_position(position, turn)

    def end(self) -> CheckersState:
        """The position after the last move, with the whole game pushed."""
        state = self.start()
        for move in self.moves:
            state.push_unchecked(move)
        return state

    @classmethod
    def from_state(
        cls, state: CheckersState, tags: dict[str, str] | None = None, result: str | None = None
    ) -> PdnGame:
        """The game that led to ``state`` (its pushed moves from its first position)."""
        history = state.move_stack
        start = state.copy()
        for _ in history:
            start.pop()
        game = cls(tags=dict(tags or {}), moves=history)
        if start.to_text() != CheckersState().to_text():
            game.start_fen = start.to_text()
        if result is None:
            outcome = state.outcome()
            if outcome is None:
                result = "*"
            elif outcome.winner is None:
                result = "1/2-1/2"
            else:
                result = "0-1" if outcome.winner is BLACK else "1-0"
        game.result = result
        return game


def write_pdn(games: PdnGame | Iterable[PdnGame]) -> str:
    """PDN text of one game or several, canonical: the standard tags first,
    ``[GameType "21"]``, ``SetUp``/``FEN`` for a set-up start, numbered moves with
    every landing square, wrapped at 79 columns."""
    if isinstance(games, PdnGame):
        games = [games]
    return "\n".join(_write_game(game) for game in games)


def _write_game(game: PdnGame) -> str:
    tags = {"Event": "?", "Site": "?", "Date": "????.??.??", "Round": "?"}
    tags.update({"Black": "?", "White": "?"})
    tags.update(game.tags)
    tags["Result"] = game.result
    tags["GameType"] = "21"
    tags.pop("SetUp", None)
    tags.pop("FEN", None)
    if game.start_fen is not None:
        tags["SetUp"] = "1"
        tags["FEN"] = game.start_fen
    ordered = [name for name in TAG_ORDER if name in tags]
    ordered += [name for name in tags if name not in TAG_ORDER]
    header = "".join(f'[{name} "{_escape(tags[name])}"]\n' for name in ordered)

    state = game.start()
    words: list[str] = []
    number = 1
    for index, move in enumerate(game.moves):
        for comment in game.comments.get(index, []):
            words.append(_comment(comment))
        if state.turn is BLACK:
            words.append(f"{number}.")
        elif index == 0:
            words.append(f"{number}...")
        words.append(state.move_to_text(move))
        state.push_unchecked(move)
        if state.turn is BLACK:
            number += 1
    for comment in game.comments.get(len(game.moves), []):
        words.append(_comment(comment))
    words.append(game.result)
    body = textwrap.fill(" ".join(words), width=79, break_long_words=False, break_on_hyphens=False)
    return header + "\n" + body + "\n"


def _comment(text: str) -> str:
    """A comment in braces; braces inside it would end it early, so they become
    parentheses."""
    return "{" + text.replace("{", "(").replace("}", ")") + "}"


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


_TOKEN = re.compile(
    r"""
    (?P<tagpair>\[\s*(?P<tag>[A-Za-z0-9_]+)\s+"(?P<value>(?:[^"\\]|\\.)*)"\s*\])
  | \{(?P<comment>[^}]*)\}
  | ;(?P<line_comment>[^\n]*)
  | (?P<open>\() | (?P<close>\))
  | (?P<result>1/2-1/2|½-½|1-0|0-1|2-0|0-2|1-1|\*)(?=\s|$|\[)
  | (?P<number>\d+\.(?:\.\.)?|\.\.\.|…)
  | (?P<move>(?:\d{1,2}|[a-hA-H][1-8])(?:\s*[-xX:]\s*(?:\d{1,2}|[a-hA-H][1-8]))+)[!?*+]*
  | (?P<nag>\$\d+|[!?]+)
  | (?P<space>\s+)
  | (?P<other>\S+)
    """,
    re.VERBOSE,
)


def read_pdn(text: str) -> list[PdnGame]:
    """Every game in a PDN text, moves checked against the rules.

    Raises :class:`NotationError` naming the game, the move number and what is
    wrong for anything that cannot be read or played.
    """
    text = text.lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    text = "\n".join(line for line in text.split("\n") if not line.startswith("%"))
    games: list[PdnGame] = []
    current: _Reader | None = None
    depth = 0  # inside a variation, which is skipped
    for match in _TOKEN.finditer(text):
        kind = match.lastgroup
        if kind == "space" or kind == "line_comment" or kind == "nag":
            continue
        if kind == "open":
            depth += 1
            continue
        if kind == "close":
            if depth == 0:
                raise NotationError(_where(games, current) + "a ')' closes no variation")
            depth -= 1
            continue
        if depth:
            continue
        if kind == "tagpair":
            if current is not None and current.started:
                games.append(current.finish())
                current = None
            if current is None:
                current = _Reader(len(games) + 1)
            current.tag(match.group("tag"), _unescape(match.group("value")))
            continue
        if current is None:
            current = _Reader(len(games) + 1)
        if kind == "comment":
            current.comment(match.group("comment").strip())
        elif kind == "number":
            current.started = True
        elif kind == "move":
            current.move(match.group("move"))
        elif kind == "result":
            current.result(match.group("result"))
            games.append(current.finish())
            current = None
        else:
            raise NotationError(
                _where(games, current) + f"{match.group()[:30]!r} is neither a move nor a tag"
            )
    if depth:
        raise NotationError(_where(games, current) + "a variation '(' is never closed")
    if current is not None and (current.started or current.game.tags):
        games.append(current.finish())
    return games


def read_pdn_game(text: str) -> PdnGame:
    """The one game of a PDN text (NotationError when there is none)."""
    games = read_pdn(text)
    if not games:
        raise NotationError("the PDN text holds no game")
    return games[0]


def _unescape(value: str) -> str:
    return re.sub(r"\\(.)", r"\1", value)


def _where(games: list[PdnGame], current: _Reader | None) -> str:
    number = current.number if current is not None else len(games) + 1
    return f"PDN game {number}: "


class _Reader:
    """Collects one game as its tokens arrive."""

    def __init__(self, number: int) -> None:
        self.number = number
        self.game = PdnGame()
        self.state: CheckersState | None = None
        self.first_turn = BLACK
        self.started = False

    def tag(self, name: str, value: str) -> None:
        if name.lower() == "fen":
            try:
                parse_fen(value)
            except NotationError as error:
                raise NotationError(f"PDN game {self.number}: FEN tag: {error}") from None
            self.game.start_fen = value.strip()
        elif name.lower() == "gametype":
            kind = value.split(",")[0].strip()
            if kind and kind != "21":
                raise NotationError(
                    f"PDN game {self.number}: GameType {kind} is not American checkers (21)"
                )
        elif name.lower() == "setup":
            pass
        else:
            self.game.tags[name] = value
        if name == "Result" and value in RESULTS:
            self.game.result = RESULTS[value]  # the result after the moves, if any, wins

    def _state(self) -> CheckersState:
        if self.state is None:
            self.state = self.game.start()
            self.first_turn = self.state.turn
            if self.game.start_fen is not None:
                self.game.start_fen = self.state.to_text()
        return self.state

    def comment(self, text: str) -> None:
        self.game.comments.setdefault(len(self.game.moves), []).append(text)

    def move(self, text: str) -> None:
        self.started = True
        state = self._state()
        # Black's moves open each numbered pair; a game from a set-up position
        # with White to move starts with "1...".
        ply = len(self.game.moves) + (self.first_turn is WHITE)
        where = f"PDN game {self.number}, move {ply // 2 + 1} ({SIDE_NAME[state.turn]})"
        if state.is_over():
            raise NotationError(f"{where}: {text} comes after the game ended")
        try:
            move = state.parse_move(text)
            state.push(move)
        except (NotationError, IllegalMoveError) as error:
            raise NotationError(f"{where}: {text}: {error}") from None
        self.game.moves.append(move)

    def result(self, text: str) -> None:
        self.started = True
        self.game.result = RESULTS[text]

    def finish(self) -> PdnGame:
        self._state()
        self.game.tags.pop("Result", None)
        return self.game


__all__ = ["RESULTS", "PdnGame", "read_pdn", "read_pdn_game", "write_pdn"]
