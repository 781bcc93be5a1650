"""How the apps show checkers (its :class:`~parlour.core.face.GameFace`): what a board
on screen needs from a position, as plain data -- the pieces by square number, every
legal move as its path of squares, the last move, and whether a capture is compulsory
(so a board can say why another piece may not move) -- and a game written as PDN.

>>> from parlour.checkers.rules import CHECKERS
>>> data = CHECKERS_FACE.board(CHECKERS.new_state())
>>> data["pieces"]["1"], data["moves"][0]["path"], data["must_capture"]
('b', [9, 13], False)
"""

from __future__ import annotations

import datetime
from collections.abc import Iterator, Sequence
from typing import Any

from parlour.checkers.pdn import PdnGame, iter_pdn, write_pdn
from parlour.checkers.rules import CHECKERS, CheckersState
from parlour.core.face import (
    BasicFace,
    BoardData,
    Export,
    PageData,
    Recorded,
    record_game,
    tag_name,
)
from parlour.core.protocol import Side, State


def board(state: CheckersState) -> BoardData:
    pieces: dict[str, str] = {}
    for square in range(1, 33):
        piece = state.piece_at(square)
        if piece is not None:
            pieces[str(square)] = piece
    moves = []
    if not state.is_over():
        moves = [
            {"path": list(move.path), "text": state.move_to_text(move), "capture": move.is_capture}
            for move in state.legal_moves()
        ]
    stack = state.move_stack
    return {
        "kind": "checkers",
        "pieces": pieces,
        "moves": moves,
        "last": list(stack[-1].path) if stack else None,
        "must_capture": bool(moves) and all(move["capture"] for move in moves),
    }


def describe(state: CheckersState) -> list[str]:
    """Each side's men and kings by square number.

    >>> from parlour.checkers.rules import CHECKERS
    >>> describe(CHECKERS.state_from_text("W:WK18,22:B1,5"))
    ['Black: men on 1, 5.', 'White: a man on 22; a king on 18.']
    """
    lines = []
    for side, (man, king) in ((Side.FIRST, "bB"), (Side.SECOND, "wW")):
        held: dict[str, list[str]] = {man: [], king: []}
        for square in range(1, 33):
            piece = state.piece_at(square)
            if piece in held:
                held[piece].append(str(square))
        parts = [
            (f"{plural} on " if len(squares) > 1 else f"a {noun} on ") + ", ".join(squares)
            for noun, plural, squares in (("man", "men", held[man]), ("king", "kings", held[king]))
            if squares
        ]
        lines.append(f"{state.game.side_name(side)}: {'; '.join(parts) or 'no pieces'}.")
    return lines


class CheckersFace(BasicFace):
    """Checkers on screen: the 32 dark squares by number; games written as PDN."""

    export_suffix = "pdn"
    export_kind = "PDN"
    prompt = "e.g. 11-15 or 22x15"

    def page(self, state: State[Any]) -> PageData:
        """As every game's, with White at the bottom of an unturned board: Black's men
        start at the top, as checkers books print the board."""
        return {**super().page(state), "bottom": 1}

    def board(self, state: State[Any]) -> BoardData:
        assert isinstance(state, CheckersState)
        return board(state)

    def describe(self, state: State[Any]) -> list[str]:
        assert isinstance(state, CheckersState)
        return describe(state)

    def export(self, games: Sequence[State[Any]], names: tuple[str, str]) -> Export:
        """The last of ``games`` as PDN (checkers plays one game at a time)."""
        state = games[-1]
        assert isinstance(state, CheckersState)
        date = datetime.date.today().strftime("%Y.%m.%d")
        tags = {"Event": "Parlour game", "Date": date, "Black": names[0], "White": names[1]}
        return Export("pdn", write_pdn(PdnGame.from_state(state, tags)))

    def read_each(self, text: str) -> Iterator[Recorded]:
        """Every game of a PDN text, each ended as its result says when its last
        position has not ended it (by resignation, or a draw)."""
        for game in iter_pdn(text):
            if game.error is not None:
                raise game.error
            ending = None
            if game.result in _RESULTS:
                winner = _RESULTS[game.result]
                ending = (winner, "resignation" if winner is not None else "agreement")
            names = (tag_name(game.tags, "Black"), tag_name(game.tags, "White"))
            yield record_game(game.end(), ending, names, game.tags)


#: The PDN results (in the standard's terms) of a finished game, by their winner
#: (None: a draw); Black is the first side.
_RESULTS = {"1-0": Side.SECOND, "0-1": Side.FIRST, "1/2-1/2": None}


CHECKERS_FACE = CheckersFace(CHECKERS)
