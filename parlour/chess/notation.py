"""Chess in text: FEN positions and SAN and UCI moves -- read and written. (Whole
games, PGN, are :mod:`parlour.chess.pgn`.)

Readers are strict about what cannot be understood and say exactly what is wrong
(:class:`NotationError`), and forgiving about what can: SAN input may be written
``Ng1f3``, ``0-0``, ``exd6 e.p.``, ``e8Q`` or without its ``+``.

>>> state = read_fen("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", ChessBoard())
>>> san(state, parse_san(state, "e2e4"))
'e4'
>>> board_fen(state)
'4k3/8/8/8/8/8/4P3/4K3 w - - 0 1'
"""

from __future__ import annotations

import re
from typing import TypeVar

from parlour.chess.board import (
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
    WHITE,
    WHITE_KINGSIDE,
    WHITE_QUEENSIDE,
    ChessBoard,
    InternalMove,
    Move,
    public_move,
    square,
)
from parlour.core.errors import IllegalMoveError, NotationError

#: A board of any kind (the rules' State is one): FEN fills the one it is given.
B = TypeVar("B", bound=ChessBoard)

# -- FEN ------------------------------------------------------------------------------

_CASTLING_LETTERS = (
    ("K", WHITE_KINGSIDE, WHITE, "e1", "h1", "White", "kingside"),
    ("Q", WHITE_QUEENSIDE, WHITE, "e1", "a1", "White", "queenside"),
    ("k", BLACK_KINGSIDE, BLACK, "e8", "h8", "Black", "kingside"),
    ("q", BLACK_QUEENSIDE, BLACK, "e8", "a8", "Black", "queenside"),
)


def read_fen(text: str, state: B) -> B:
    """Set up the empty board ``state`` from a position in Forsyth-Edwards Notation,
    checking that the position can occur, and return it.

    Six fields are expected; the two move counters may be left out (they default to
    ``0 1``). The en passant square is kept only when a capture there is legal.

    >>> board = read_fen("4k3/8/8/8/8/8/8/4K2R w K - 0 1", ChessBoard())
    >>> board_fen(board)
    '4k3/8/8/8/8/8/8/4K2R w K - 0 1'
    >>> read_fen("8/8/8/8/8/8/8/8 w - - 0 1", ChessBoard())
    Traceback (most recent call last):
    ...
    parlour.core.errors.NotationError: FEN: White has no king
    """
    placement, side, castling, ep, halfmove, fullmove = _fen_fields(text)
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
            f"halfmove clock, move number), or the first 4 of them; got {len(fields)}"
        )
    placement, side, castling, ep = fields[:4]
    halfmove, fullmove = fields[4:] if len(fields) == 6 else ("0", "1")
    return placement, side, castling, ep, halfmove, fullmove


def _read_placement(state: ChessBoard, placement: str) -> None:
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


def _check_material(state: ChessBoard) -> None:
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


def _read_castling(state: ChessBoard, castling: str) -> None:
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


def _read_en_passant(state: ChessBoard, ep: str) -> None:
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


def _check_checks(state: ChessBoard) -> None:
    """The side not to move is not in check, and no more than a double check."""
    if state.attacked(state.kings[(state.color ^ 24) >> 4], state.color):
        waiting = "Black" if state.color == WHITE else "White"
        raise NotationError(f"FEN: {waiting}'s king is in check but it is not {waiting}'s move")
    checkers = state.checkers()
    mover = "White" if state.color == WHITE else "Black"
    if len(checkers) > 2:
        raise NotationError(
            f"FEN: {mover}'s king is attacked by {len(checkers)} pieces; "
            "no move can give more than a double check"
        )
    king = SQ64[state.kings[state.color >> 4]]
    if len(checkers) == 2 and _on_one_line(king, *checkers):
        raise NotationError(
            f"FEN: {mover}'s king is checked by two pieces on one line through it; "
            "no move can give such a double check"
        )
    if state.ep and checkers:
        _check_checks_after_double_step(state, checkers, mover)


def _on_one_line(king: int, first: int, second: int) -> bool:
    """Whether the squares ``first`` and ``second`` stand on one rank, file or
    diagonal through the square ``king``."""

    def line(a: int, b: int) -> tuple[int, int] | None:
        files, ranks = b % 8 - a % 8, b // 8 - a // 8
        if files == 0 or ranks == 0 or abs(files) == abs(ranks):
            return (files > 0) - (files < 0), (ranks > 0) - (ranks < 0)
        return None

    to_first, to_second = line(king, first), line(king, second)
    if to_first is None or to_second is None:
        return False
    return to_first in (to_second, (-to_second[0], -to_second[1]))


def _check_checks_after_double_step(state: ChessBoard, checkers: list[int], mover: str) -> None:
    """A pawn has just moved two squares (the en passant field says so): the check
    must come from that move, by the pawn itself or by a piece it uncovered."""
    if len(checkers) > 1:
        raise NotationError(
            f"FEN: {mover}'s king is in double check just after a pawn's double step, "
            "which cannot give two checks"
        )
    board = state.board
    toward_pawn = -10 if state.color == WHITE else 10
    pushed_to, pushed_from = state.ep + toward_pawn, state.ep - toward_pawn
    if SQ64[pushed_to] == checkers[0]:
        return
    pawn = board[pushed_to]
    board[pushed_to], board[pushed_from] = EMPTY, pawn
    before = state.attacked(state.kings[state.color >> 4], state.color ^ 24)
    board[pushed_to], board[pushed_from] = pawn, EMPTY
    if before:
        raise NotationError(
            f"FEN: {mover}'s king is in check from {SQUARE_NAMES[checkers[0]]}, which the "
            f"pawn's double step to {SQUARE_NAMES[SQ64[pushed_to]]} (the en passant "
            "field) could not have given"
        )


def board_fen(state: ChessBoard) -> str:
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


def san(state: ChessBoard, move: Move) -> str:
    """The move in Standard Algebraic Notation, in this position (it must be legal).

    >>> from parlour.chess.board import STARTING_FEN
    >>> state = read_fen(STARTING_FEN, ChessBoard())
    >>> san(state, Move.from_uci("g1f3"))
    'Nf3'
    """
    legal = state.legal()
    m = state.internal(move)
    if m not in legal:
        raise state.explain_illegal(move)
    return _san(state, m, legal)


def _san(state: ChessBoard, m: InternalMove, legal: list[InternalMove]) -> str:
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
_PROMOTION_TO_KING_RE = re.compile(r"^(?:[a-h][1-8]?x?)?[a-h][18]=?[Kk]$")
_COORDINATES_RE = re.compile(
    r"^(?P<from>[a-h][1-8])[-x:]?(?P<to>[a-h][1-8])(?:=?(?P<promotion>[NBRQnbrq]))?$"
)
_PIECE_KINDS = {"N": KNIGHT, "B": BISHOP, "R": ROOK, "Q": QUEEN, "K": KING}


def parse_san(state: ChessBoard, text: str) -> Move:
    """Read a move as a player may write it: SAN (``Nf3``, ``exd5``, ``O-O``,
    ``e8=Q``), long algebraic (``Ng1f3``, ``e2-e4``), UCI (``e2e4``, ``e7e8q``), with
    or without ``+``/``#``/``!?``, ``0-0`` for ``O-O``, ``e.p.`` after an en passant
    capture, ``e8Q`` for ``e8=Q`` and lower-case piece letters where unambiguous.

    Raises NotationError for text that is no move, IllegalMoveError (naming the
    rule) for a move that is not legal here.

    >>> from parlour.chess.board import STARTING_FEN
    >>> parse_san(read_fen(STARTING_FEN, ChessBoard()), "Ng1-f3").uci()
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
    if match is None and _PROMOTION_TO_KING_RE.match(cleaned):
        raise NotationError(
            f"{text!r}: a pawn promotes to a queen, rook, bishop or knight, never a king"
        )
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


def _parse_castling(state: ChessBoard, legal: list[InternalMove], *, kingside: bool) -> Move:
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
    state: ChessBoard,
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


__all__ = ["board_fen", "parse_san", "read_fen", "san"]
