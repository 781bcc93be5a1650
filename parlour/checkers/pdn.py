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
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from parlour.checkers.board import BLACK, WHITE, Move
from parlour.checkers.notation import SIDE_NAME, parse_fen
from parlour.checkers.rules import CheckersState
from parlour.core.errors import IllegalMoveError, NotationError
from parlour.core.protocol import Side
from parlour.core.sections import every_game, game_sections, lines_of

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
class PdnVariation:
    """Moves played instead of a move of the line it belongs to, from the position
    before that move; with comments (by the number of its moves played before them)
    and variations of its own (by the index of the move they replace)."""

    moves: list[Move] = field(default_factory=list)
    comments: dict[int, list[str]] = field(default_factory=dict)
    variations: dict[int, list[PdnVariation]] = field(default_factory=dict)


#: The tag that says in a file which side ``1-0`` is a win for, as we write it.
CONVENTION_TAG = "ResultConvention"
#: Its value: the PDN standard's convention.
STANDARD_CONVENTION = "PDN standard: 1-0 is a White win, 0-1 a Black win"
#: How a convention tag is read: ``1-0 is a White win`` or ``1-0 is a Black win``.
_CONVENTION = re.compile(r"1-0 (?:is )?(?:a )?(white|black)", re.IGNORECASE)


@dataclass
class PdnGame:
    """One game of a PDN file: its tags, the starting position, the moves of the
    main line, the comments (by the number of moves played before them) and the
    variations (by the index of the main-line move they replace).

    Results follow the PDN standard: ``1-0`` White won, ``0-1`` Black won,
    ``1/2-1/2`` drawn, ``*`` unfinished; :func:`write_pdn` says so in a
    ``ResultConvention`` tag. Some English checkers programs write ``1-0`` for a win
    by Black, the side that moves first; :func:`iter_pdn` reads both, and
    :attr:`result` is always in the standard's terms (see :func:`iter_pdn`).
    """

    tags: dict[str, str] = field(default_factory=dict)
    moves: list[Move] = field(default_factory=list)
    result: str = "*"
    comments: dict[int, list[str]] = field(default_factory=dict)
    start_fen: str | None = None
    variations: dict[int, list[PdnVariation]] = field(default_factory=dict)
    #: Why reading this game stopped short (only from :func:`iter_pdn`, which keeps
    #: the moves before the error and goes on with the next game); None: read whole.
    error: NotationError | None = None

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
    tags.pop(CONVENTION_TAG, None)
    if game.result in ("1-0", "0-1"):
        tags[CONVENTION_TAG] = STANDARD_CONVENTION
    if game.start_fen is not None:
        tags["SetUp"] = "1"
        tags["FEN"] = game.start_fen
    ordered = [name for name in TAG_ORDER if name in tags]
    ordered += [name for name in tags if name not in TAG_ORDER]
    header = "".join(f'[{name} "{_escape(tags[name])}"]\n' for name in ordered)

    start = game.start()
    words = _line_words(start, game, 1 if start.turn is WHITE else 0)
    words.append(game.result)
    body = textwrap.fill(" ".join(words), width=79, break_long_words=False, break_on_hyphens=False)
    return header + "\n" + body.replace(_KEEP, " ") + "\n"


#: Joins a move number to its move, so that a line never breaks between them.
_KEEP = "\x00"


def _line_words(state: CheckersState, line: PdnGame | PdnVariation, ply: int) -> list[str]:
    """The words of a line of moves played from ``state`` (which is left as it
    was), ``ply`` moves after the game's first position of Black to move: numbered
    moves, comments, and variations in brackets."""
    state = state.copy()
    words: list[str] = []
    numbered = True  # the next move carries its number even if it is White's
    for index, move in enumerate(line.moves):
        for comment in line.comments.get(index, []):
            words.append(_comment(comment))
        number = (ply + index) // 2 + 1
        if state.turn is BLACK:
            words.append(f"{number}.{_KEEP}{state.move_to_text(move)}")
        elif numbered:
            words.append(f"{number}...{_KEEP}{state.move_to_text(move)}")
        else:
            words.append(state.move_to_text(move))
        numbered = False
        variations = line.variations.get(index, [])
        before = state.copy() if variations else state
        state.push_unchecked(move)
        for variation in variations:
            inner = _line_words(before, variation, ply + index)
            if inner:
                words.append("(" + " ".join(inner) + ")")
                numbered = True
    for comment in line.comments.get(len(line.moves), []):
        words.append(_comment(comment))
    return words


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
  | (?P<result>1/2-1/2|½-½|1-0|0-1|2-0|0-2|1-1|\*)(?=\s|$|\[|\))
  | (?P<number>\d+\.(?:\.\.)?|\.\.\.|…)
  | (?P<move>(?:\d{1,2}|[a-hA-H][1-8])(?:\s*[-xX:]\s*(?:\d{1,2}|[a-hA-H][1-8]))+)[!?*+]*
  | (?P<nag>\$\d+|[!?]+)
  | (?P<space>\s+)
  | (?P<other>\S+)
    """,
    re.VERBOSE,
)


def read_pdn(text: str | Iterable[str]) -> list[PdnGame]:
    """Every game in a PDN text (or an open file), moves checked against the rules.

    Raises :class:`NotationError` naming the game, the move number and what is
    wrong for anything that cannot be read or played; to read the other games of
    such a file, use :func:`iter_pdn`.
    """
    return every_game(iter_pdn(text))


def iter_pdn(source: str | Iterable[str]) -> Iterator[PdnGame]:
    """The games of a PDN text or open file, one at a time, reading only as far as
    the game it yields. A game that cannot be read whole is yielded with the moves
    before the error and the error in :attr:`PdnGame.error` (naming the game's
    number and the move); reading goes on with the next game. Variations are
    read, their moves checked, into :attr:`PdnGame.variations`.

    Results are given in the PDN standard's terms (``1-0``: White won) whichever
    convention the file follows: a game whose last position is decided shows the
    file's convention; others follow the file's ``ResultConvention`` tag, or
    what its earlier games showed, or the standard.

    >>> text = '1. 11-15 23-19 *\\n[GameType "20"]\\n1. 32-28 *\\n[Event "c"]\\n1. 9-14 *'
    >>> [(len(game.moves), game.error) for game in iter_pdn(text)]  # doctest: +ELLIPSIS
    [(2, None), (0, NotationError('PDN game 2: GameType 20 is not American ...')), (1, None)]
    """
    lines = lines_of(source)
    number = 0
    one_nil_wins: Side | None = None  # whom the file's 1-0 is a win for, once known
    for section in game_sections(lines):
        for game, end in _read_section("\n".join(section), number + 1):
            number += 1
            if end is not None:
                one_nil_wins = _settle_result(game, end, one_nil_wins)
            yield game


def _settle_result(game: PdnGame, end: CheckersState, one_nil_wins: Side | None) -> Side | None:
    """Put ``game``'s result in the PDN standard's terms, whichever convention the
    file follows, and return whom the file's ``1-0`` is a win for when that is
    known (``one_nil_wins``: as learnt from the file's earlier games).

    A game that ends in a position the rules decide shows the convention: its
    result must name that position's winner. A game resigned or ended otherwise is
    read by the file's ``ResultConvention`` tag, else by what the file's earlier
    games showed, else by the standard."""
    written = game.tags.pop(CONVENTION_TAG, None)
    said = _CONVENTION.search(written or "")
    if said:
        one_nil_wins = WHITE if said.group(1).lower() == "white" else BLACK
    if game.result not in ("1-0", "0-1"):
        return one_nil_wins
    outcome = end.rules_outcome()
    if outcome is not None and outcome.winner is not None:
        named_first = game.result == "1-0"
        one_nil_wins = outcome.winner if named_first else outcome.winner.other
    if one_nil_wins is BLACK:
        game.result = "0-1" if game.result == "1-0" else "1-0"
    return one_nil_wins


def _read_section(text: str, first: int) -> Iterator[tuple[PdnGame, CheckersState | None]]:
    """The games of one section (its tags and the moves after them; a section
    without tags may hold several games, each ended by its result), each with the
    position after its main line, or None for a game that could not be read whole."""
    current: _Reader | None = None
    number = first
    skipping = False  # after an error, up to the game's result
    for match in _TOKEN.finditer(text):
        kind = match.lastgroup
        if kind in ("space", "line_comment", "nag"):
            continue
        if current is not None and kind == "tagpair" and current.started and not current.depth:
            # A tag after moves on the same line: the game without a result ends.
            yield (current.game, None) if skipping else current.finish()
            current, skipping, number = None, False, number + 1
        if current is None:
            current = _Reader(number)
        if skipping:
            if kind == "result":
                yield current.game, None
                current, skipping, number = None, False, number + 1
            continue
        try:
            _read_token(current, match)
        except NotationError as error:
            current.game.error = error
            skipping = True
            continue
        if kind == "result" and not current.depth:
            yield current.finish()
            current, number = None, number + 1
    if current is None:
        return
    if current.game.error is None and current.depth:
        current.game.error = NotationError(f"PDN game {number}: a variation '(' is never closed")
    if current.game.error is not None:
        yield current.game, None
    elif current.started or current.game.tags:
        yield current.finish()


def _read_token(reader: _Reader, match: re.Match[str]) -> None:
    """Read one token into the game."""
    kind = match.lastgroup
    if kind == "tagpair":
        reader.tag(match.group("tag"), _unescape(match.group("value")))
    elif kind == "comment":
        reader.comment(match.group("comment").strip())
    elif kind == "number":
        reader.started = True
    elif kind == "move":
        reader.move(match.group("move"))
    elif kind == "result":
        reader.result(match.group("result"))
    elif kind == "open":
        reader.open_variation()
    elif kind == "close":
        reader.close_variation()
    else:
        raise NotationError(
            f"PDN game {reader.number}: {match.group()[:30]!r} is neither a move nor a tag"
        )


def read_pdn_game(text: str) -> PdnGame:
    """The one game of a PDN text (NotationError when there is none)."""
    games = read_pdn(text)
    if not games:
        raise NotationError("the PDN text holds no game")
    return games[0]


def _unescape(value: str) -> str:
    return re.sub(r"\\(.)", r"\1", value)


class _Line:
    """A line being read: the main line or a variation, and its position so far."""

    def __init__(self, holder: PdnGame | PdnVariation, state: CheckersState | None) -> None:
        self.holder = holder
        self.state = state


class _Reader:
    """Collects one game as its tokens arrive."""

    def __init__(self, number: int) -> None:
        self.number = number
        self.game = PdnGame()
        #: The main line, and the variations open inside it (the innermost last).
        self.lines = [_Line(self.game, None)]
        self.first_turn = BLACK
        self.started = False

    @property
    def depth(self) -> int:
        """How many variations are open."""
        return len(self.lines) - 1

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
        line = self.lines[-1]
        if line.state is None:
            line.state = self.game.start()
            self.first_turn = line.state.turn
            if self.game.start_fen is not None:
                self.game.start_fen = line.state.to_text()
        return line.state

    def comment(self, text: str) -> None:
        holder = self.lines[-1].holder
        holder.comments.setdefault(len(holder.moves), []).append(text)

    def move(self, text: str) -> None:
        self.started = True
        state = self._state()
        # Black's moves open each numbered pair; a game from a set-up position
        # with White to move starts with "1...".
        ply = len(state.move_stack) + (self.first_turn is WHITE)
        where = f"PDN game {self.number}, move {ply // 2 + 1} ({SIDE_NAME[state.turn]})"
        if self.depth:
            where += ", in a variation"
        if state.is_over():
            raise NotationError(f"{where}: {text} comes after the game ended")
        try:
            move = state.parse_move(text)
            state.push(move)
        except (NotationError, IllegalMoveError) as error:
            raise NotationError(f"{where}: {text}: {error}") from None
        self.lines[-1].holder.moves.append(move)

    def open_variation(self) -> None:
        """A variation: moves in place of the last move of the line being read."""
        line = self.lines[-1]
        if not line.holder.moves:
            raise NotationError(f"PDN game {self.number}: a variation '(' before any move")
        assert line.state is not None
        before = line.state.copy()
        before.pop()
        variation = PdnVariation()
        line.holder.variations.setdefault(len(line.holder.moves) - 1, []).append(variation)
        self.lines.append(_Line(variation, before))

    def close_variation(self) -> None:
        if not self.depth:
            raise NotationError(f"PDN game {self.number}: a ')' closes no variation")
        self.lines.pop()

    def result(self, text: str) -> None:
        self.started = True
        if not self.depth:  # a result inside a variation ends only the variation
            self.game.result = RESULTS[text]

    def finish(self) -> tuple[PdnGame, CheckersState]:
        """The game read whole, with the position after its main line."""
        end = self._state()
        self.game.tags.pop("Result", None)
        return self.game, end


__all__ = [
    "RESULTS",
    "PdnGame",
    "PdnVariation",
    "iter_pdn",
    "read_pdn",
    "read_pdn_game",
    "write_pdn",
]
