"""How the apps show chess (its :class:`~parlour.core.face.GameFace`): what a board on
screen needs from a position, as plain data -- the pieces, every legal move by its
squares (so a picked-up piece can show where it may go), the last move and a king in
check -- and a game written as PGN. The apps draw; this module only describes.

>>> from parlour.chess.rules import CHESS
>>> data = CHESS_FACE.board(CHESS.new_state())
>>> data["pieces"]["e1"], len(data["moves"]), data["check"]
('K', 20, None)
"""

from __future__ import annotations

import datetime
from collections.abc import Iterator, Sequence
from typing import Any

from parlour.chess.board import SQUARE_NAMES
from parlour.chess.pgn import PgnGame, iter_pgn, write_pgn
from parlour.chess.rules import CHESS, ChessState
from parlour.core.face import BasicFace, BoardData, Export, Recorded, record_game, tag_name
from parlour.core.protocol import Side, State


def board(state: ChessState) -> BoardData:
    """The pieces by square name (FEN letters), the legal moves with their from and
    to squares, the last move's squares and the square of a king in check."""
    pieces: dict[str, str] = {}
    check: str | None = None
    for number, name in enumerate(SQUARE_NAMES):
        piece = state.piece_at(number)
        if piece is None:
            continue
        pieces[name] = piece.symbol()
        if piece.kind == "king" and piece.side is state.turn and state.is_check():
            check = name
    moves = []
    if not state.is_over():
        for move in state.legal_moves():
            moves.append(
                {
                    "from": SQUARE_NAMES[move.from_square],
                    "to": SQUARE_NAMES[move.to_square],
                    "promotion": move.promotion,
                    "text": state.move_to_text(move),
                }
            )
    stack = state.move_stack
    last = None
    if stack:
        last = [SQUARE_NAMES[stack[-1].from_square], SQUARE_NAMES[stack[-1].to_square]]
    return {"kind": "chess", "pieces": pieces, "moves": moves, "last": last, "check": check}


#: The kinds of piece in the order a description lists them.
_KINDS = ("king", "queen", "rook", "bishop", "knight", "pawn")


def describe(state: ChessState) -> list[str]:
    """Each side's pieces in words, by kind, each kind's squares from the a-file.

    >>> from parlour.chess.rules import CHESS
    >>> describe(CHESS.state_from_text("8/8/8/4k3/8/8/4P3/4K3 w - - 0 1"))
    ['White: king e1; pawn e2.', 'Black: king e5.']
    """
    lines = []
    for side in Side:
        found: dict[str, list[str]] = {}
        for number, name in enumerate(SQUARE_NAMES):
            piece = state.piece_at(number)
            if piece is not None and piece.side is side:
                found.setdefault(piece.kind, []).append(name)
        parts = [  # squares by file, as a player reads the board left to right
            f"{kind}{'s' if len(found[kind]) > 1 else ''} {', '.join(sorted(found[kind]))}"
            for kind in _KINDS
            if kind in found
        ]
        lines.append(f"{state.game.side_name(side)}: {'; '.join(parts)}.")
    return lines


def _today() -> str:
    """Today's date as PGN writes dates: 2026.11.25."""
    return datetime.date.today().strftime("%Y.%m.%d")


class ChessFace(BasicFace):
    """Chess on screen: an 8x8 board of pieces; games written as PGN."""

    export_suffix = "pgn"
    export_kind = "PGN"
    prompt = "e.g. e4 or Nf3"

    def board(self, state: State[Any]) -> BoardData:
        assert isinstance(state, ChessState)
        return board(state)

    def describe(self, state: State[Any]) -> list[str]:
        assert isinstance(state, ChessState)
        return describe(state)

    def export(self, games: Sequence[State[Any]], names: tuple[str, str]) -> Export:
        """The last of ``games`` as PGN (chess plays one game at a time)."""
        state = games[-1]
        assert isinstance(state, ChessState)
        game = PgnGame.from_state(
            state, Event="Parlour game", Date=_today(), White=names[0], Black=names[1]
        )
        return Export("pgn", write_pgn(game))

    def read_each(self, text: str) -> Iterator[Recorded]:
        """Every game of a PGN text, each ended as its result says when its last
        position has not ended it (by resignation, or on time by its Termination
        tag, or a draw)."""
        for game in iter_pgn(text):
            if game.error is not None:
                raise game.error
            result = game.result()
            ending = None
            if result in _RESULTS:
                winner = _RESULTS[result]
                how = "resignation" if winner is not None else "agreement"
                ending = (winner, game.headers.get("Termination", "").lower() or how)
            names = (tag_name(game.headers, "White"), tag_name(game.headers, "Black"))
            yield record_game(game.end(), ending, names, game.headers)


#: The PGN results of a finished game, by their winner (None: a draw).
_RESULTS = {"1-0": Side.FIRST, "0-1": Side.SECOND, "1/2-1/2": None}


CHESS_FACE = ChessFace(CHESS)
