"""Checkers in text: moves as PDN writes them, the PDN FEN tag, and the board as a
picture. (Whole games, PDN files, are :mod:`parlour.checkers.pdn`.)

PDN (Portable Draughts Notation) numbers the dark squares 1-32 with Black's men
starting on 1-12. A step is written ``11-15``, a jump ``22x15``, a multi-jump
with every landing square ``15x24x31``. The FEN tag gives the side to move and
each side's pieces, ``K`` marking a king::

    B:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29

Readers of PDN meet files from many programs and sites, so :func:`parse_move` (and
:func:`parlour.checkers.pdn.read_pdn`) accept the common variations -- a jump written
with only its start and end (``15x31``) when that names one sequence, a jump written
with ``-``, algebraic squares (``c3-d4``), piece lists in any order, ranges such as
``W:W18-22``, lowercase letters, missing tags, CRLF line ends -- while the writers
produce one canonical form.

>>> position, turn = parse_fen("W:W21,22:BK1")
>>> position_to_fen(position, turn)
'W:W21,22:BK1'
>>> parse_fen("B:W33:B1")
Traceback (most recent call last):
...
parlour.core.errors.NotationError: square 33 is not on the board (squares are 1 to 32)
"""

from __future__ import annotations

import itertools
import re
from typing import Protocol

from parlour.checkers.board import (
    BLACK,
    CROWN_ROW,
    SQUARE_BIT,
    WHITE,
    Move,
    Position,
    is_jump,
    step_between,
)
from parlour.core.errors import GameOverError, IllegalMoveError, NotationError
from parlour.core.protocol import Side


class Playing(Protocol):
    """What reading a move needs of a game in progress (the rules' State is one):
    its legal moves, and why a move is not one."""

    @property
    def turn(self) -> Side: ...

    def is_over(self) -> bool: ...

    def legal_moves(self) -> list[Move]: ...

    def explain_illegal(self, move: Move) -> IllegalMoveError: ...

    def piece_at(self, square: int) -> str | None: ...


SIDE_LETTER = {BLACK: "B", WHITE: "W"}
SIDE_NAME = {BLACK: "Black", WHITE: "White"}

# -- the FEN tag ----------------------------------------------------------------------


def position_to_fen(position: Position, turn: Side) -> str:
    """The FEN tag value: side to move, White's pieces, Black's pieces, squares in
    increasing order, ``K`` before a king."""
    black_men, black_kings, white_men, white_kings = position
    return (
        f"{SIDE_LETTER[turn]}:W{_piece_list(white_men, white_kings)}"
        f":B{_piece_list(black_men, black_kings)}"
    )


def _piece_list(men: int, kings: int) -> str:
    entries = []
    for square in range(1, 33):
        bit = 1 << SQUARE_BIT[square]
        if men & bit:
            entries.append(str(square))
        elif kings & bit:
            entries.append(f"K{square}")
    return ",".join(entries)


_FEN_TAG = re.compile(r'\[\s*FEN\s+"(?P<value>[^"]*)"\s*\]', re.IGNORECASE)
_ENTRY = re.compile(r"(?P<king>[Kk]?)(?P<first>\d+)(?:-(?P<last>\d+))?")


def parse_fen(text: str) -> tuple[Position, Side]:
    """Read a FEN tag value (or a whole ``[FEN "..."]`` tag) into a position and
    the side to move; raise :class:`NotationError` naming what is wrong."""
    value = text.strip()
    tag = _FEN_TAG.fullmatch(value)
    if tag:
        value = tag.group("value").strip()
    value = value.strip('"').strip()
    if value.endswith("."):
        value = value[:-1]
    if not value:
        raise NotationError("the FEN is empty: expected e.g. B:W21,22:B1,2")
    fields = [part.strip() for part in value.split(":")]
    turn_letter = fields[0].upper()
    if turn_letter not in ("B", "W"):
        raise NotationError(f"a FEN starts with the side to move, B or W, not {fields[0][:20]!r}")
    turn = BLACK if turn_letter == "B" else WHITE
    lists: dict[Side, list[tuple[int, bool]]] = {}
    for part in fields[1:]:
        if re.fullmatch(r"[HhFf]\d+", part):
            continue  # a move counter some programs append; it changes no rule here
        if not part or part[0].upper() not in ("B", "W"):
            raise NotationError(f"each FEN piece list starts with W or B, not {part[:20]!r}")
        side = BLACK if part[0].upper() == "B" else WHITE
        if side in lists:
            raise NotationError(f"the FEN has two piece lists for {SIDE_NAME[side]}")
        lists[side] = _read_entries(part[1:], side)
    for side in (WHITE, BLACK):
        if side not in lists:
            raise NotationError(
                f"the FEN has no piece list for {SIDE_NAME[side]} ({SIDE_LETTER[side]}...)"
            )
    seen: dict[int, Side] = {}
    masks = [0, 0, 0, 0]  # black men, black kings, white men, white kings
    for side in (WHITE, BLACK):
        pieces = lists[side]
        if len(pieces) > 12:
            raise NotationError(
                f"the FEN gives {SIDE_NAME[side]} {len(pieces)} pieces; a side has at most 12"
            )
        for square, is_king in pieces:
            if square in seen:
                raise NotationError(f"square {square} is listed twice in the FEN")
            seen[square] = side
            bit = 1 << SQUARE_BIT[square]
            if not is_king and bit & CROWN_ROW[side]:
                rows = "29 to 32" if side is BLACK else "1 to 4"
                raise NotationError(
                    f"a {SIDE_NAME[side]} man cannot stand on {square}: "
                    f"{SIDE_NAME[side]}'s men are crowned on {rows}"
                )
            masks[2 * (side is WHITE) + is_king] |= bit
    waiting = WHITE if turn is BLACK else BLACK
    if not lists[waiting]:
        # The side to move may have none (it has lost); the other cannot: the game
        # ended when its last piece was taken, before this move.
        raise NotationError(
            f"{SIDE_NAME[waiting]} has no pieces, so the game ended with the capture of "
            f"the last one: it cannot be {SIDE_NAME[turn]}'s move"
        )
    return (masks[0], masks[1], masks[2], masks[3]), turn


def _read_entries(text: str, side: Side) -> list[tuple[int, bool]]:
    entries = [entry.strip() for entry in text.split(",")]
    if entries and entries[-1] == "" and len(entries) > 1:
        entries.pop()  # a trailing comma
    if entries == [""]:
        return []
    pieces: list[tuple[int, bool]] = []
    for entry in entries:
        match = _ENTRY.fullmatch(entry)
        if not match:
            raise NotationError(
                f"{entry[:20]!r} in {SIDE_NAME[side]}'s list is not a square: "
                "expected a number 1 to 32, K before a king"
            )
        first = int(match.group("first"))
        last = int(match.group("last") or first)
        for square in (first, last):
            if not 1 <= square <= 32:
                raise NotationError(f"square {square} is not on the board (squares are 1 to 32)")
        if last < first:
            raise NotationError(f"the range {entry} runs backwards")
        is_king = bool(match.group("king"))
        pieces.extend((square, is_king) for square in range(first, last + 1))
    return pieces


# -- moves ----------------------------------------------------------------------------

_SQUARE = r"(?:\d{1,2}|[a-hA-H][1-8])"
_MOVE_TEXT = re.compile(rf"{_SQUARE}(?:\s*[-xX:]\s*{_SQUARE}|\s+{_SQUARE})+")
_FILES = "abcdefgh"


def square_number(token: str) -> int:
    """A square given as a number (``15``) or algebraically (``c3``: a1 is square
    29, h8 is square 4)."""
    if token[0].isdigit():
        square = int(token)
        if not 1 <= square <= 32:
            raise NotationError(f"square {square} is not on the board (squares are 1 to 32)")
        return square
    column, rank = _FILES.index(token[0].lower()), int(token[1])
    row = 8 - rank
    if (row + column) % 2 == 0:
        raise NotationError(f"{token} is a light square; checkers is played on the dark ones")
    return 4 * row + column // 2 + 1


def parse_move(state: Playing, text: str) -> Move:
    """Read a move as players and programs write it, in this position.

    ``11-15`` or ``11 15`` is a step; ``22x15``, ``15x24x31`` or the short
    ``15x31`` a jump sequence (the short form when it names one sequence); a jump
    written with ``-`` is read too when it is unambiguous. Text that is not a move
    raises :class:`NotationError`; a move the rules forbid raises
    :class:`IllegalMoveError` naming the rule.
    """
    cleaned = text.strip().rstrip("!?*+")
    if not _MOVE_TEXT.fullmatch(cleaned):
        raise NotationError(
            f"{text[:40]!r} is not a checkers move: write it like 11-15, 22x15 or 15x24x31"
        )
    tokens = re.findall(_SQUARE, cleaned)
    squares = tuple(square_number(token) for token in tokens)
    jump_written = "x" in cleaned.lower() or ":" in cleaned
    legal = state.legal_moves()
    exact = Move(squares)
    if exact in legal:
        return exact
    candidates = [
        move
        for move in legal
        if move.is_capture
        and move.start == squares[0]
        and move.end == squares[-1]
        and _is_subsequence(squares, move.path)
    ]
    if not jump_written and len(squares) > 2:
        candidates = []  # a step has two squares; 9-14-18 is no move at all
    if len(candidates) == 1:
        return candidates[0]
    if len(candidates) > 1:
        written = ", ".join(map(str, candidates))
        raise NotationError(
            f"{cleaned} is ambiguous: it could be {written}; write every landing square"
        )
    raise _why_not(state, squares, jump_written)


def _is_subsequence(short: tuple[int, ...], long: tuple[int, ...]) -> bool:
    remaining = iter(long)
    return all(square in remaining for square in short)


def _why_not(state: Playing, squares: tuple[int, ...], jump_written: bool) -> Exception:
    if state.is_over():
        return GameOverError()
    pairs = list(itertools.pairwise(squares))
    if all(is_jump(a, b) for a, b in pairs) or (
        len(squares) == 2 and step_between(*squares) is not None
    ):
        return state.explain_illegal(Move(squares))
    start = squares[0]
    piece = state.piece_at(start)
    if piece is None or (piece in "bB") != (state.turn is BLACK):
        return state.explain_illegal(Move(squares))
    captures = [move for move in state.legal_moves() if move.is_capture]
    if jump_written:
        return IllegalMoveError(
            f"no jump sequence of the piece on {start} ends on {squares[-1]}",
            rule="no-such-jump",
        )
    if captures:
        return state.explain_illegal(Move(squares))
    return IllegalMoveError(
        "a piece steps one square diagonally, or jumps over a piece", rule="not-diagonal"
    )


def move_to_text(move: Move) -> str:
    """PDN text of a move: ``11-15``, ``22x15``, ``15x24x31``."""
    return str(move)


# -- the board as text ------------------------------------------------------------------


def board_picture(position: Position, turn: Side) -> str:
    """The board as players see it in books, Black at the top, with the square
    numbers beside it.

    >>> from parlour.checkers.board import START
    >>> print(board_picture(START, BLACK).splitlines()[0])
       b   b   b   b       1   2   3   4
    """
    lines = []
    for row in range(8):
        cells, numbers = [], []
        for column in range(8):
            if (row + column) % 2 == 0:
                cells.append(" ")
                numbers.append("  ")
                continue
            square = 4 * row + column // 2 + 1
            bit = 1 << SQUARE_BIT[square]
            letter = "."
            for piece, mask in zip("bBwW", position, strict=True):
                if mask & bit:
                    letter = piece
            cells.append(letter)
            numbers.append(f"{square:>2}")
        lines.append(
            (" " + " ".join(f"{cell:>1}" for cell in cells)).rstrip().ljust(17)
            + "   "
            + "".join(numbers).rstrip()
        )
    lines.append("")
    lines.append(f"{SIDE_NAME[turn]} to move   (b w men, B W kings; Black moves down the board)")
    return "\n".join(lines)


__all__ = [
    "board_picture",
    "move_to_text",
    "parse_fen",
    "parse_move",
    "position_to_fen",
    "square_number",
]
