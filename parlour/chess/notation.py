"""Chess in text: FEN positions, SAN and UCI moves, PGN games -- read and written.

Readers are strict about what cannot be understood and say exactly what is wrong
(:class:`NotationError`), and forgiving about what can: SAN input may be written
``Ng1f3``, ``0-0``, ``exd6 e.p.``, ``e8Q`` or without its ``+``.

>>> state = parse_fen("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1")
>>> san(state, parse_san(state, "e2e4"))
'e4'
>>> board_fen(state)
'4k3/8/8/8/8/8/4P3/4K3 w - - 0 1'
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from parlour.chess.rules import (
    BISHOP,
    BLACK,
    BLACK_KINGSIDE,
    BLACK_QUEENSIDE,
    CASTLE,
    CELL,
    EMPTY,
    FILE_OF,
    FILES,
    KING,
    KNIGHT,
    PAWN,
    PIECE_LETTERS,
    PROMOTE,
    PROMOTION_KINDS,
    QUEEN,
    RANK_OF,
    ROOK,
    SQ64,
    SQUARE_NAMES,
    STARTING_FEN,
    WHITE,
    WHITE_KINGSIDE,
    WHITE_QUEENSIDE,
    ChessState,
    InternalMove,
    Move,
    public_move,
    square,
)
from parlour.core.errors import IllegalMoveError, NotationError
from parlour.core.protocol import Side

# -- FEN ------------------------------------------------------------------------------

_CASTLING_LETTERS = (
    ("K", WHITE_KINGSIDE, WHITE, "e1", "h1", "White", "kingside"),
    ("Q", WHITE_QUEENSIDE, WHITE, "e1", "a1", "White", "queenside"),
    ("k", BLACK_KINGSIDE, BLACK, "e8", "h8", "Black", "kingside"),
    ("q", BLACK_QUEENSIDE, BLACK, "e8", "a8", "Black", "queenside"),
)


def parse_fen(text: str) -> ChessState:
    """Read a position in Forsyth-Edwards Notation, checking that it can occur.

    Six fields are expected; the two move counters may be left out (they default to
    ``0 1``). The en passant square is kept only when a capture there is legal.

    >>> parse_fen("8/8/8/8/8/8/8/8 w - - 0 1")
    Traceback (most recent call last):
    ...
    parlour.core.errors.NotationError: FEN: White has no king
    """
    placement, side, castling, ep, halfmove, fullmove = _fen_fields(text)
    state = ChessState()
    _read_placement(state, placement)
    _check_material(state)
    if side not in ("w", "b"):
        raise NotationError(f"FEN: the side to move must be 'w' or 'b', not {side!r}")
    state.color = state.start_color = WHITE if side == "w" else BLACK
    _read_castling(state, castling)
    _read_en_passant(state, ep)
    state.halfmove = _fen_counter("halfmove clock", halfmove, least=0)
    state.start_fullmove = _fen_counter("move number", fullmove, least=1)
    _check_checks(state)
    if state.ep:
        # Keep the en passant square only when a capture there is legal: that is the
        # position's real en passant possibility (FEN output and repetition use it).
        passed, pawn_cell = state.ep, state.ep + (-10 if state.color == WHITE else 10)
        state.ep = state.legal_ep_cell(passed, pawn_cell)
    state.hash = state.compute_hash()
    return state


def _fen_fields(text: str) -> tuple[str, str, str, str, str, str]:
    """The six fields of a FEN; the move counters default to ``0 1`` when left out."""
    if not isinstance(text, str):
        raise NotationError("FEN must be text")
    fields = text.split()
    if len(fields) not in (4, 6):
        raise NotationError(
            "FEN needs 6 fields (placement, side to move, castling, en passant, "
            f"halfmove clock, move number), got {len(fields)}"
        )
    placement, side, castling, ep = fields[:4]
    halfmove, fullmove = fields[4:] if len(fields) == 6 else ("0", "1")
    return placement, side, castling, ep, halfmove, fullmove


def _read_placement(state: ChessState, placement: str) -> None:
    """Put the pieces of the placement field on the board, rank 8 first."""
    ranks = placement.split("/")
    if len(ranks) != 8:
        raise NotationError(f"FEN: the placement has {len(ranks)} ranks, a board has 8")
    for row, rank_text in enumerate(ranks):
        _read_rank(state.board, 7 - row, rank_text)


def _read_rank(board: list[int], rank: int, rank_text: str) -> None:
    file = 0
    for i, char in enumerate(rank_text):
        if char in "12345678":
            if i and rank_text[i - 1] in "12345678":
                raise NotationError(
                    f"FEN: rank {rank + 1} has two digits in a row; "
                    "one digit counts a whole run of empty squares"
                )
            file += int(char)
        elif char.lower() in PIECE_LETTERS.strip():
            if file < 8:
                color = WHITE if char.isupper() else BLACK
                board[CELL[8 * rank + file]] = color | PIECE_LETTERS.index(char.lower())
            file += 1
        else:
            raise NotationError(
                f"FEN: {char!r} on rank {rank + 1} is not a piece letter "
                "(KQRBNP for White, kqrbnp for Black, digits 1-8 for empty squares)"
            )
    if file != 8:
        raise NotationError(f"FEN: rank {rank + 1} has {file} squares, a rank has 8")


def _check_material(state: ChessState) -> None:
    """One king a side, at most 8 pawns and 16 pieces, no pawn on a back rank."""
    board = state.board
    for color, name in ((WHITE, "White"), (BLACK, "Black")):
        kings = [c for c in CELL if board[c] == color | KING]
        if not kings:
            raise NotationError(f"FEN: {name} has no king")
        if len(kings) > 1:
            raise NotationError(f"FEN: {name} has {len(kings)} kings, a side has one")
        state.kings[color >> 4] = kings[0]
    for color, name in ((WHITE, "White"), (BLACK, "Black")):
        pieces = [board[c] & 7 for c in CELL if board[c] & color]
        if pieces.count(PAWN) > 8:
            raise NotationError(f"FEN: {name} has {pieces.count(PAWN)} pawns, a side has 8")
        if len(pieces) > 16:
            raise NotationError(f"FEN: {name} has {len(pieces)} pieces, a side has 16")
    for c in CELL:
        if board[c] & 7 == PAWN and RANK_OF[c] in (0, 7):
            raise NotationError(
                f"FEN: a pawn stands on {SQUARE_NAMES[SQ64[c]]}; "
                "pawns never stand on the first or last rank"
            )


def _read_castling(state: ChessState, castling: str) -> None:
    """The castling rights, each checked against where the king and rook stand."""
    if castling == "-":
        return
    for char in castling:
        if char not in "KQkq":
            raise NotationError(
                f"FEN: castling field {castling!r} must be '-' or letters from KQkq"
            )
        if castling.count(char) > 1:
            raise NotationError(f"FEN: castling letter {char!r} appears twice")
    board = state.board
    for letter, bit, color, king_square, rook_square, name, wing in _CASTLING_LETTERS:
        if letter not in castling:
            continue
        if board[CELL[square(king_square)]] != color | KING:
            raise NotationError(
                f"FEN: {name} cannot castle {wing} ({letter}): the king is not on {king_square}"
            )
        if board[CELL[square(rook_square)]] != color | ROOK:
            raise NotationError(
                f"FEN: {name} cannot castle {wing} ({letter}): "
                f"no {name.lower()} rook on {rook_square}"
            )
        state.castling |= bit


def _read_en_passant(state: ChessState, ep: str) -> None:
    """The en passant square: behind a pawn of the side that just moved, which
    passed it from an empty square."""
    if ep == "-":
        return
    try:
        ep_square = square(ep)
    except NotationError:
        raise NotationError(f"FEN: en passant field {ep!r} must be '-' or a square") from None
    board = state.board
    ep_cell = CELL[ep_square]
    white = state.color == WHITE
    if RANK_OF[ep_cell] != (5 if white else 2):
        raise NotationError(
            f"FEN: en passant square {ep} is impossible with "
            f"{'White' if white else 'Black'} to move: it must be on rank {6 if white else 3}"
        )
    forward = -10 if white else 10  # from the ep square towards the pawn that passed
    mover = BLACK if white else WHITE
    if board[ep_cell + forward] != mover | PAWN:
        raise NotationError(
            f"FEN: en passant square {ep}, but no pawn of "
            f"{'Black' if white else 'White'} stands on "
            f"{SQUARE_NAMES[SQ64[ep_cell + forward]]} having just passed it"
        )
    if board[ep_cell] != EMPTY or board[ep_cell - forward] != EMPTY:
        raise NotationError(
            f"FEN: en passant square {ep}: it and the square the pawn came from must be empty"
        )
    state.ep = ep_cell


def _fen_counter(label: str, value: str, least: int) -> int:
    if not value.isdigit() or not value.isascii():
        raise NotationError(f"FEN: the {label} must be a whole number, not {value!r}")
    if int(value) < least:
        raise NotationError(f"FEN: the {label} must be at least {least}, not {value}")
    return int(value)


def _check_checks(state: ChessState) -> None:
    """The side not to move is not in check, and no more than a double check."""
    if state.attacked(state.kings[(state.color ^ 24) >> 4], state.color):
        waiting = "Black" if state.color == WHITE else "White"
        raise NotationError(f"FEN: {waiting}'s king is in check but it is not {waiting}'s move")
    checkers = state.checkers()
    if len(checkers) > 2:
        raise NotationError(
            f"FEN: {'White' if state.color == WHITE else 'Black'}'s king is attacked by "
            f"{len(checkers)} pieces; no move can give more than a double check"
        )


def board_fen(state: ChessState) -> str:
    """The FEN of a position (the en passant square only when the capture is legal)."""
    board = state.board
    rows = []
    for rank in range(7, -1, -1):
        row = ""
        empty = 0
        for file in range(8):
            p = board[CELL[8 * rank + file]]
            if not p:
                empty += 1
                continue
            if empty:
                row += str(empty)
                empty = 0
            letter = PIECE_LETTERS[p & 7]
            row += letter.upper() if p & WHITE else letter
        if empty:
            row += str(empty)
        rows.append(row)
    castling = (
        "".join(letter for letter, bit, *_ in _CASTLING_LETTERS if state.castling & bit) or "-"
    )
    ep = SQUARE_NAMES[SQ64[state.ep]] if state.ep else "-"
    side = "w" if state.color == WHITE else "b"
    return f"{'/'.join(rows)} {side} {castling} {ep} {state.halfmove_clock} {state.fullmove_number}"


# -- SAN --------------------------------------------------------------------------------


def san(state: ChessState, move: Move) -> str:
    """The move in Standard Algebraic Notation, in this position (it must be legal).

    >>> state = parse_fen(STARTING_FEN)
    >>> san(state, Move.from_uci("g1f3"))
    'Nf3'
    """
    legal = state.legal()
    m = state.internal(move)
    if m not in legal:
        raise state.explain_illegal(move)
    return _san(state, m, legal)


def _san(state: ChessState, m: InternalMove, legal: list[InternalMove]) -> str:
    fr, to, flag = m
    board = state.board
    kind = board[fr] & 7
    if flag == CASTLE:
        text = "O-O" if to > fr else "O-O-O"
    elif kind == PAWN:
        text = ""
        if FILE_OF[fr] != FILE_OF[to]:
            text = FILES[FILE_OF[fr]] + "x"
        text += SQUARE_NAMES[SQ64[to]]
        if flag >= PROMOTE:
            text += "=" + PIECE_LETTERS[flag - PROMOTE].upper()
    else:
        rivals = [
            other
            for other, other_to, _ in legal
            if other_to == to and other != fr and board[other] & 7 == kind
        ]
        text = PIECE_LETTERS[kind].upper()
        if rivals:
            if all(FILE_OF[r] != FILE_OF[fr] for r in rivals):
                text += FILES[FILE_OF[fr]]
            elif all(RANK_OF[r] != RANK_OF[fr] for r in rivals):
                text += str(RANK_OF[fr] + 1)
            else:
                text += SQUARE_NAMES[SQ64[fr]]
        if board[to]:
            text += "x"
        text += SQUARE_NAMES[SQ64[to]]
    state.make(m)
    if state.in_check():
        text += "#" if not state.generate() else "+"
    state.unmake()
    return text


_SAN_RE = re.compile(
    r"^(?P<piece>[NBRQKnrqkb])?(?P<from_file>[a-h])?(?P<from_rank>[1-8])?"
    r"(?P<sep>[x:-])?(?P<to>[a-h][1-8])(?:=?(?P<promotion>[NBRQnbrq]))?$"
)
_EP_SUFFIX_RE = re.compile(r"\s*e\.?p\.?$")
_COORDINATES_RE = re.compile(
    r"^(?P<from>[a-h][1-8])[-x:]?(?P<to>[a-h][1-8])(?:=?(?P<promotion>[NBRQnbrq]))?$"
)
_PIECE_KINDS = {"N": KNIGHT, "B": BISHOP, "R": ROOK, "Q": QUEEN, "K": KING}


def parse_san(state: ChessState, text: str) -> Move:
    """Read a move as a player may write it: SAN (``Nf3``, ``exd5``, ``O-O``,
    ``e8=Q``), long algebraic (``Ng1f3``, ``e2-e4``), UCI (``e2e4``, ``e7e8q``), with
    or without ``+``/``#``/``!?``, ``0-0`` for ``O-O``, ``e.p.`` after an en passant
    capture, ``e8Q`` for ``e8=Q`` and lower-case piece letters where unambiguous.

    Raises NotationError for text that is no move, IllegalMoveError (naming the
    rule) for a move that is not legal here.

    >>> parse_san(parse_fen(STARTING_FEN), "Ng1-f3").uci()
    'g1f3'
    """
    if not isinstance(text, str):
        raise NotationError("a move must be text")
    cleaned = text.strip().rstrip("+#!?")
    if cleaned.endswith(("ep", "p.")):
        cleaned = _EP_SUFFIX_RE.sub("", cleaned).rstrip("+#!?")
    if not cleaned:
        raise NotationError(f"{text!r} is not a chess move")
    legal = state.legal()
    if cleaned[0] in "0Oo":
        castling = cleaned.upper().replace("0", "O")
        if castling in ("O-O", "O-O-O", "OO", "OOO"):
            return _parse_castling(state, legal, kingside=castling.count("O") == 2)
    coordinates = _COORDINATES_RE.match(cleaned)
    if coordinates is not None:
        # UCI or long algebraic without a piece letter: e2e4, e2-e4, e7e8q, e7-e8=Q.
        promotion_letter = (coordinates["promotion"] or "").lower() or None
        move = Move(square(coordinates["from"]), square(coordinates["to"]), promotion_letter)
        if state.internal(move) in legal:
            return move
        raise state.explain_illegal(move)
    match = _SAN_RE.match(cleaned)
    if match is None:
        raise NotationError(
            f"{text!r} is not a chess move: write SAN like Nf3, exd5, O-O, e8=Q or UCI like g1f3"
        )
    piece = match["piece"]
    from_file, from_rank = match["from_file"], match["from_rank"]
    to = CELL[square(match["to"])]
    promotion = match["promotion"]
    promotion_kind = PROMOTION_KINDS[promotion.lower()] if promotion else None
    # Which piece (and file) the text may mean. A lower-case b is first a pawn's file
    # ("bxc3", standard SAN), a bishop only when no pawn move fits.
    readings: list[tuple[int, str | None]]
    if piece is None:
        readings = [(PAWN, from_file)]
    elif piece == "b" and from_file is None:
        readings = [(PAWN, "b"), (BISHOP, None)]
    else:
        readings = [(_PIECE_KINDS[piece.upper()], from_file)]
    board = state.board
    for kind, file in readings:
        candidates = [
            m
            for m in legal
            if m[1] == to
            and board[m[0]] & 7 == kind
            and (file is None or FILES[FILE_OF[m[0]]] == file)
            and (from_rank is None or RANK_OF[m[0]] == int(from_rank) - 1)
            and (m[2] >= PROMOTE) == (promotion_kind is not None)
            and (promotion_kind is None or m[2] == PROMOTE + promotion_kind)
        ]
        if len(candidates) == 1:
            return public_move(candidates[0])
        if len(candidates) > 1:
            options = " or ".join(sorted(_san(state, m, legal) for m in candidates))
            raise IllegalMoveError(
                f"{text!r} is ambiguous: it could be {options}", rule="ambiguous"
            )
    kinds = [kind for kind, _ in readings]
    raise _why_no_move(state, match, kinds, to, promotion_kind)


def _parse_castling(state: ChessState, legal: list[InternalMove], *, kingside: bool) -> Move:
    king_cell = state.kings[state.color >> 4]
    home = CELL[square("e1")] if state.color == WHITE else CELL[square("e8")]
    to = home + (2 if kingside else -2)
    m = (home, to, CASTLE)
    if m in legal:
        return public_move(m)
    if king_cell != home:
        raise IllegalMoveError("the king has moved: no castling", rule="castling-rights")
    raise state.explain_illegal(public_move(m))


def _why_no_move(
    state: ChessState,
    match: re.Match[str],
    readings: list[int],
    to: int,
    promotion_kind: int | None,
) -> IllegalMoveError:
    """No legal move fits: find the rule that the move the player meant breaks."""
    board = state.board
    color = state.color
    kind = readings[0]
    from_file, from_rank = match["from_file"], match["from_rank"]
    if match["piece"] == "b" and from_file is None:
        from_file = "b"
    owners = [
        c
        for c in CELL
        if board[c] == color | kind
        and (from_file is None or FILES[FILE_OF[c]] == from_file)
        and (from_rank is None or str(RANK_OF[c] + 1) == from_rank)
    ]
    if not owners:
        side = "White" if color == WHITE else "Black"
        where = ""
        if from_file or from_rank:
            where = f" on {from_file or ''}{from_rank or ''}"
        kind_name = ("", "pawn", "knight", "bishop", "rook", "queen", "king")[kind]
        return IllegalMoveError(f"{side} has no {kind_name}{where} to move", rule="no-piece")
    # Prefer a piece that could at least make the journey: its reason is the sharper.
    promotion = PIECE_LETTERS[promotion_kind] if promotion_kind else None
    errors = [state.explain_illegal(Move(SQ64[c], SQ64[to], promotion)) for c in owners]
    for error in errors:
        if error.rule not in ("piece-movement", "pawn-capture"):
            return error
    return errors[0]


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


def read_pgn(text: str) -> list[PgnGame]:
    """Read every game of a PGN text.

    Tags, comments (``{...}`` and ``;`` to the end of the line), variations, NAGs
    (``$1`` and ``!``/``?`` symbols), move numbers and results are understood;
    ``%`` escape lines, a byte-order mark, CRLF line ends, ``0-0`` castling, ``e.p.``
    and a result given only in the tags are tolerated. A move that is illegal or
    not a move raises NotationError naming the game and the move.
    """
    text = text.lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    games: list[PgnGame] = []
    headers: dict[str, str] = {}
    movetext: list[str] = []
    in_movetext = False
    open_brace = False

    def finish() -> None:
        text = "\n".join(movetext)
        if headers or text.strip():
            game, rest = _parse_game(headers, text, len(games) + 1)
            games.append(game)
            while rest.strip():
                game, rest = _parse_game({}, rest, len(games) + 1)
                games.append(game)

    for line in text.split("\n"):
        stripped = line.strip()
        if stripped.startswith("%") and not open_brace:
            continue
        if stripped.startswith("[") and not open_brace:
            if in_movetext:
                finish()
                headers, movetext, in_movetext = {}, [], False
            tag = _TAG_RE.match(stripped)
            if tag is not None:
                headers[tag["name"]] = re.sub(r"\\(.)", r"\1", tag["value"])
                continue
            # Some writers leave quotes inside a value unescaped: take it as it is.
            loose = _LOOSE_TAG_RE.match(stripped)
            if loose is None:
                raise NotationError(
                    f"PGN game {len(games) + 1}: malformed tag {stripped!r}: "
                    'write it as [Name "value"]'
                )
            headers[loose["name"]] = loose["value"]
            continue
        if stripped:
            in_movetext = True
        movetext.append(line)
        # Track braces so that a '[' or '%' inside a multi-line comment is no tag.
        for char in line:
            if open_brace:
                open_brace = char != "}"
            elif char == "{":
                open_brace = True
            elif char == ";":
                break  # the rest of the line is a comment
    finish()
    return games


def _parse_game(headers: dict[str, str], movetext: str, number: int) -> tuple[PgnGame, str]:
    """Read one game's moves; return it and the text after its result (a file
    without tags runs the next game straight after a result)."""
    game = PgnGame(headers={**_DEFAULT_TAGS, **headers})
    where = f"PGN game {number}"
    try:
        state = game.start()
    except NotationError as error:
        raise NotationError(f"{where}: bad FEN tag: {error}") from None
    node = game.root
    # The stack of (node to branch from, the state there) for open variations.
    stack: list[tuple[GameNode, ChessState]] = []
    result: str | None = None
    # A comment just after "(" belongs before the variation's first move.
    starting_comment: str | None = None
    rest = ""
    for token in _TOKEN_RE.finditer(movetext):
        kind = token.lastgroup
        value = token.group()
        if kind == "comment":
            if not value.endswith("}"):
                raise NotationError(f"{where}: a comment '{{' is never closed")
            comment = " ".join(value[1:-1].split())
        elif kind == "line_comment":
            comment = " ".join(value[1:].split())
        if kind in ("comment", "line_comment"):
            if starting_comment is not None:
                starting_comment = f"{starting_comment} {comment}".strip()
            elif node is game.root:
                game.comment = f"{game.comment} {comment}".strip()
            else:
                node.comment = f"{node.comment} {comment}".strip()
            continue
        if kind == "open":
            if node.parent is None:
                raise NotationError(f"{where}: a variation '(' before any move")
            stack.append((node, state.copy()))
            state.pop()
            node = node.parent
            starting_comment = ""
            continue
        if kind == "close":
            if not stack:
                raise NotationError(f"{where}: ')' closes no variation")
            node, state = stack.pop()
            continue
        if kind == "result":
            if stack:
                raise NotationError(f"{where}: the result {value} comes inside a variation")
            result = "1/2-1/2" if value == "½-½" else value
            rest = movetext[token.end() :]
            break
        if kind == "nag":
            if node is game.root:
                raise NotationError(f"{where}: annotation {value} before any move")
            node.nags.append(int(value[1:]))
            continue
        if kind == "symbol":
            if node is game.root:
                raise NotationError(f"{where}: annotation {value} before any move")
            node.nags.append(_NAG_SYMBOLS[value])
            continue
        if kind == "number":
            continue
        if kind == "other":
            raise NotationError(f"{where}: unexpected {value!r} in the moves")
        # A move. In a variation the line branches from the node before.
        san_text = value
        move_number = state.fullmove_number
        dots = "." if state.turn is Side.FIRST else "..."
        try:
            move = parse_san(state, san_text)
        except (NotationError, IllegalMoveError) as error:
            raise NotationError(f"{where}, move {move_number}{dots} {san_text}: {error}") from None
        node = node.add_variation(move)
        if starting_comment:
            node.starting_comment = starting_comment
        starting_comment = None
        state.push_unchecked(move)
    if stack:
        raise NotationError(f"{where}: a variation '(' is never closed")
    tag_result = game.headers.get("Result", "*")
    if result is not None and (tag_result not in RESULTS or tag_result == "*"):
        game.headers["Result"] = result
    return game, rest


def write_pgn(game: PgnGame, *, width: int = 79) -> str:
    """The game as PGN text: the Seven Tag Roster in order, other tags after, then
    the moves with comments, NAGs and variations, wrapped at ``width`` columns."""
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


__all__ = [
    "SEVEN_TAG_ROSTER",
    "GameNode",
    "PgnGame",
    "board_fen",
    "parse_fen",
    "parse_san",
    "read_pgn",
    "san",
    "write_pgn",
]
