"""Chess games in Portable Game Notation: tags, moves with comments, annotations and
variations, read into a tree of moves and written back.

>>> games = read_pgn('[White "Ann"]\\n\\n1. e4 e5 (1... c5 {Sicilian}) 2. Nf3 *')
>>> game = games[0]
>>> game.headers["White"], [game.root.variations[0].move.uci()]
('Ann', ['e2e4'])
>>> print(write_pgn(game).splitlines()[-1])
1. e4 e5 (1... c5 {Sicilian}) 2. Nf3 *
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from parlour.chess.board import STARTING_FEN, Move
from parlour.chess.notation import parse_san, san
from parlour.chess.rules import ChessState, parse_fen
from parlour.core.errors import IllegalMoveError, NotationError
from parlour.core.protocol import Side
from parlour.core.sections import every_game, game_sections, lines_of, split_section

# -- PGN --------------------------------------------------------------------------------

SEVEN_TAG_ROSTER = ("Event", "Site", "Date", "Round", "White", "Black", "Result")
_DEFAULT_TAGS = {
    "Event": "?",
    "Site": "?",
    "Date": "????.??.??",
    "Round": "?",
    "White": "?",
    "Black": "?",
    "Result": "*",
}
RESULTS = ("1-0", "0-1", "1/2-1/2", "*")
_NAG_SYMBOLS = {"!": 1, "?": 2, "!!": 3, "??": 4, "!?": 5, "?!": 6}


@dataclass(eq=False)
class GameNode:
    """A node of a game tree: the move that led here (None at the root), the
    comment after it, its NAGs ($1 = !, $2 = ?, ...) and the moves that follow.
    ``variations[0]`` is the main line; the others are alternatives to it."""

    move: Move | None = None
    parent: GameNode | None = None
    comment: str = ""
    #: A comment written before the move (only kept at the start of a variation).
    starting_comment: str = ""
    nags: list[int] = field(default_factory=list)
    variations: list[GameNode] = field(default_factory=list)

    def add_variation(self, move: Move) -> GameNode:
        """Add a move after this node (the first one added is the main line)."""
        child = GameNode(move=move, parent=self)
        self.variations.append(child)
        return child

    def mainline(self) -> Iterator[GameNode]:
        """The nodes of the main line after this one."""
        node = self
        while node.variations:
            node = node.variations[0]
            yield node

    def ply(self) -> int:
        depth = 0
        node = self
        while node.parent is not None:
            depth += 1
            node = node.parent
        return depth


@dataclass(eq=False)
class PgnGame:
    """One game of a PGN file: its tags (Seven Tag Roster first) and its move tree."""

    headers: dict[str, str] = field(default_factory=lambda: dict(_DEFAULT_TAGS))
    root: GameNode = field(default_factory=GameNode)
    #: A comment before the first move.
    comment: str = ""
    #: Why reading this game stopped short (only from :func:`iter_pgn`, which keeps
    #: the moves before the error and goes on with the next game); None: read whole.
    error: NotationError | None = None

    def start(self) -> ChessState:
        """The starting position (from the FEN tag when SetUp is 1 or FEN is given)."""
        fen = self.headers.get("FEN")
        return parse_fen(fen) if fen else parse_fen(STARTING_FEN)

    def mainline_moves(self) -> list[Move]:
        return [node.move for node in self.root.mainline() if node.move is not None]

    def end(self) -> ChessState:
        """The position after the main line."""
        state = self.start()
        for move in self.mainline_moves():
            state.push_unchecked(move)
        return state

    def result(self) -> str:
        return self.headers.get("Result", "*")

    @classmethod
    def from_state(cls, state: ChessState, **tags: str) -> PgnGame:
        """A game of the moves played on ``state`` (from its starting position)."""
        moves = state.move_stack
        start = state.copy()
        for _ in moves:
            start.pop()
        game = cls()
        if start.to_text() != STARTING_FEN:
            game.headers["SetUp"] = "1"
            game.headers["FEN"] = start.to_text()
        node = game.root
        for move in moves:
            node = node.add_variation(move)
        outcome = state.outcome()
        if outcome is not None:
            game.headers["Result"] = (
                "1/2-1/2"
                if outcome.winner is None
                else ("1-0" if outcome.winner is Side.FIRST else "0-1")
            )
            if "time" in outcome.reason:  # a flag fell: the standard tag says so
                game.headers["Termination"] = "time forfeit"
        game.headers.update(tags)
        return game


_TOKEN_RE = re.compile(
    r"""
    (?P<comment>\{[^}]*\}?)
  | (?P<line_comment>;[^\n]*)
  | (?P<open>\()
  | (?P<close>\))
  | (?P<result>1-0|0-1|1/2-1/2|½-½|\*)(?![\w-])
  | (?P<nag>\$\d+)
  | (?P<symbol>!!|\?\?|!\?|\?!|!|\?)
  | (?P<number>\d+\s*\.(?:\s*\.)*)
  | (?P<san>[A-Za-z0-9][A-Za-z0-9=+#:\-]*(?:\s*e\.p\.)?[+#]?)
  | (?P<other>\S)
    """,
    re.VERBOSE,
)
_TAG_RE = re.compile(r'^\[\s*(?P<name>[A-Za-z0-9_]+)\s+"(?P<value>(?:[^"\\]|\\.)*)"\s*\]\s*$')
_LOOSE_TAG_RE = re.compile(r'^\[\s*(?P<name>[A-Za-z0-9_]+)\s+"(?P<value>.*)"\s*\]\s*$')


def read_pgn(text: str | Iterable[str]) -> list[PgnGame]:
    """Read every game of a PGN text (or of an open file, line by line).

    Tags, comments (``{...}`` and ``;`` to the end of the line), variations, NAGs
    (``$1`` and ``!``/``?`` symbols), move numbers and results are understood;
    ``%`` escape lines, a byte-order mark, CRLF line ends, ``0-0`` castling, ``e.p.``
    and a result given only in the tags are tolerated. A move that is illegal or
    not a move raises NotationError naming the game and the move; to read the
    other games of such a file, use :func:`iter_pgn`.
    """
    return every_game(iter_pgn(text))


def iter_pgn(source: str | Iterable[str]) -> Iterator[PgnGame]:
    """The games of a PGN text or open file, one at a time, reading only as far as
    the game it yields. A game that cannot be read whole is yielded with the moves
    before the error and the error in :attr:`PgnGame.error` (naming the game's
    number and the move); reading goes on with the next game.

    >>> text = '1. e4 e5 2. Nf3 *\\n\\n1. e4 e5 2. Ke3 *\\n\\n1. d4 *\\n'
    >>> for game in iter_pgn(text):
    ...     print(len(game.mainline_moves()), game.error)
    3 None
    2 PGN game 2, move 2. Ke3: a king cannot move like that
    1 None
    """
    lines = lines_of(source)
    number = 0
    for headers, movetext, tag_error in _sections(lines):
        rest: str | None = movetext
        first = True
        while rest is not None and (first or rest.strip()):
            number += 1
            game, rest = _parse_game(headers if first else {}, rest, number)
            if first and tag_error is not None and game.error is None:
                game.error = NotationError(f"PGN game {number}: {tag_error}")
            first = False
            yield game


def _sections(lines: Iterable[str]) -> Iterator[tuple[dict[str, str], str, str | None]]:
    """Each section of the file: its tags, the movetext after them (which, without
    tags, may hold several games) and the first malformed tag's description."""
    for section in game_sections(lines):
        tag_lines, movetext = split_section(section)
        headers: dict[str, str] = {}
        tag_error: str | None = None
        for line in tag_lines:
            tag = _TAG_RE.match(line)
            if tag is not None:
                headers[tag["name"]] = re.sub(r"\\(.)", r"\1", tag["value"])
            elif loose := _LOOSE_TAG_RE.match(line):
                # Some writers leave quotes inside a value unescaped: take it as it is.
                headers[loose["name"]] = loose["value"]
            else:
                tag_error = tag_error or f'malformed tag {line!r}: write it as [Name "value"]'
        yield headers, movetext, tag_error


def _parse_game(headers: dict[str, str], movetext: str, number: int) -> tuple[PgnGame, str | None]:
    """Read one game's moves; return it and the text after its result (a file
    without tags runs the next game straight after a result), None when the text
    ran out. An error is kept in the game's ``error``."""
    game = PgnGame(headers={**_DEFAULT_TAGS, **headers})
    where = f"PGN game {number}"
    tokens = _TOKEN_RE.finditer(movetext)
    try:
        try:
            state = game.start()
        except NotationError as error:
            raise NotationError(f"{where}: bad FEN tag: {error}") from None
        reader = _MovetextReader(game, state, where)
        for token in tokens:
            kind = token.lastgroup or "other"
            if kind == "result":
                reader.finish(token.group())
                return game, movetext[token.end() :]
            reader.read(kind, token.group())
        reader.finish(None)
    except NotationError as error:
        game.error = error
        # The rest of this game is skipped: the next one starts after its result.
        for token in tokens:
            if token.lastgroup == "result":
                return game, movetext[token.end() :]
    return game, None


class _MovetextReader:
    """The moves of one game read token by token into its tree of variations."""

    def __init__(self, game: PgnGame, state: ChessState, where: str) -> None:
        self.game = game
        self.state = state
        self.where = where
        self.node = game.root
        #: The open variations: the node each branches from and the state there.
        self.stack: list[tuple[GameNode, ChessState]] = []
        #: A comment just after "(" belongs before the variation's first move.
        self.starting_comment: str | None = None

    def read(self, kind: str, value: str) -> None:
        if kind in ("comment", "line_comment"):
            self.comment(kind, value)
        elif kind == "open":
            self.open_variation()
        elif kind == "close":
            if not self.stack:
                raise NotationError(f"{self.where}: ')' closes no variation")
            self.node, self.state = self.stack.pop()
        elif kind in ("nag", "symbol"):
            if self.node is self.game.root:
                raise NotationError(f"{self.where}: annotation {value} before any move")
            self.node.nags.append(int(value[1:]) if kind == "nag" else _NAG_SYMBOLS[value])
        elif kind == "other":
            raise NotationError(f"{self.where}: unexpected {value!r} in the moves")
        elif kind != "number":
            self.move(value)

    def comment(self, kind: str, value: str) -> None:
        if kind == "comment":
            if not value.endswith("}"):
                raise NotationError(f"{self.where}: a comment '{{' is never closed")
            comment = " ".join(value[1:-1].split())
        else:
            comment = " ".join(value[1:].split())
        if self.starting_comment is not None:
            self.starting_comment = f"{self.starting_comment} {comment}".strip()
        elif self.node is self.game.root:
            self.game.comment = f"{self.game.comment} {comment}".strip()
        else:
            self.node.comment = f"{self.node.comment} {comment}".strip()

    def open_variation(self) -> None:
        """A variation replaces the move just read: it branches from the node before."""
        if self.node.parent is None:
            raise NotationError(f"{self.where}: a variation '(' before any move")
        self.stack.append((self.node, self.state.copy()))
        self.state.pop()
        self.node = self.node.parent
        self.starting_comment = ""

    def move(self, san_text: str) -> None:
        state = self.state
        dots = "." if state.turn is Side.FIRST else "..."
        try:
            move = parse_san(state, san_text)
        except (NotationError, IllegalMoveError) as error:
            raise NotationError(
                f"{self.where}, move {state.fullmove_number}{dots} {san_text}: {error}"
            ) from None
        self.node = self.node.add_variation(move)
        if self.starting_comment:
            self.node.starting_comment = self.starting_comment
        self.starting_comment = None
        state.push_unchecked(move)

    def finish(self, result: str | None) -> None:
        """The game's end: its result token (None: the text ran out first)."""
        if self.stack:
            if result is not None:
                raise NotationError(f"{self.where}: the result {result} comes inside a variation")
            raise NotationError(f"{self.where}: a variation '(' is never closed")
        if result is None:
            return
        result = "1/2-1/2" if result == "½-½" else result
        tag_result = self.game.headers.get("Result", "*")
        if tag_result not in RESULTS or tag_result == "*":
            self.game.headers["Result"] = result


def write_pgn(games: PgnGame | Iterable[PgnGame], *, width: int = 79) -> str:
    """A game, or a sequence of games, as PGN text: for each, the Seven Tag Roster
    in order, other tags after, then the moves with comments, NAGs and variations,
    wrapped at ``width`` columns; games are separated by a blank line."""
    if isinstance(games, PgnGame):
        return _write_game(games, width)
    return "\n".join(_write_game(game, width) for game in games)


def _write_game(game: PgnGame, width: int) -> str:
    lines = []
    headers = {**_DEFAULT_TAGS, **game.headers}
    for name in (*SEVEN_TAG_ROSTER, *(n for n in headers if n not in SEVEN_TAG_ROSTER)):
        value = headers[name].replace("\\", "\\\\").replace('"', '\\"')
        lines.append(f'[{name} "{value}"]')
    tokens: list[str] = []
    if game.comment:
        tokens.append(_comment(game.comment))
    _write_line(game.start(), game.root, tokens, force_number=True)
    tokens.append(headers["Result"])
    lines.append("")
    lines.extend(_wrap(tokens, width))
    return "\n".join(lines) + "\n"


def _comment(text: str) -> str:
    return "{" + text.replace("}", ")") + "}"


def _write_line(
    state: ChessState, node: GameNode, tokens: list[str], *, force_number: bool
) -> None:
    """Write the moves after ``node``: its main continuation, the alternatives to that
    continuation in parentheses, then the rest of the line. ``state`` is left as it
    was found."""
    pushed = 0
    while node.variations:
        main = node.variations[0]
        _write_move(state, main, tokens, force_number=force_number)
        force_number = False
        for alternative in node.variations[1:]:
            tokens.append("(")
            _write_move(state, alternative, tokens, force_number=True)
            assert alternative.move is not None
            state.push_unchecked(alternative.move)
            _write_line(state, alternative, tokens, force_number=False)
            state.pop()
            tokens.append(")")
            force_number = True
        assert main.move is not None
        state.push_unchecked(main.move)
        pushed += 1
        if main.comment:
            force_number = True
        node = main
    for _ in range(pushed):
        state.pop()


def _write_move(
    state: ChessState, node: GameNode, tokens: list[str], *, force_number: bool
) -> None:
    assert node.move is not None
    if node.starting_comment:
        tokens.append(_comment(node.starting_comment))
    text = san(state, node.move)
    if state.turn is Side.FIRST:
        text = f"{state.fullmove_number}. {text}"
    elif force_number:
        text = f"{state.fullmove_number}... {text}"
    tokens.append(text)
    tokens.extend(f"${nag}" for nag in node.nags)
    if node.comment:
        tokens.append(_comment(node.comment))


def _wrap(tokens: list[str], width: int) -> list[str]:
    """Lay the tokens out in lines of at most ``width`` characters. A move number
    stays with its move, "(" with what follows and ")" with what precedes; comments
    may break between words."""
    words: list[str] = []
    glue_next = False
    for token in tokens:
        pieces = token.split(" ") if token.startswith("{") else [token]
        if token.startswith(("1", "2", "3", "4", "5", "6", "7", "8", "9")) and ". " in token:
            pieces = [token]
        for piece in pieces:
            if token == ")" and words:
                words[-1] += ")"
            elif glue_next and words:
                words[-1] += piece
            else:
                words.append(piece)
            glue_next = token == "("
    lines: list[str] = []
    line = ""
    for word in words:
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    if line:
        lines.append(line)
    return lines


__all__ = ["RESULTS", "SEVEN_TAG_ROSTER", "GameNode", "PgnGame", "read_pgn", "write_pgn"]
