"""Set-up positions checked against a second independent implementation.

OpenSpiel cannot start from a FEN, so positions made up square by square (kings
anywhere, men about to crown, crowded boards full of jumps) are checked against
py-draughts' American board instead, with its captures made compulsory as the
ACF rules have them. py-draughts keeps one of two jump sequences that take the
same pieces between the same squares (a king going round a ring either way), so
the comparison is of (start, end, pieces taken) -- the paths themselves are
checked against OpenSpiel in test_openspiel_oracle.py.
"""

from __future__ import annotations

import random

import pytest
from draughts.boards._core import CORE_AMERICAN
from draughts.boards.american import Board
from draughts.models import Color
from draughts.move import Move

from parlour.checkers.board import count_moves
from parlour.checkers.rules import CHECKERS, CheckersState

POSITIONS = 3000


class CompulsoryCaptureBoard(Board):
    """py-draughts' American board with compulsory captures."""

    @property
    def legal_moves(self) -> list[Move]:
        return self._legal_moves_from_core(
            CORE_AMERICAN, max_capture=False, captures_optional=False
        )


def their_moves(fen: str) -> set[tuple[int, int, frozenset[int]]]:
    board = CompulsoryCaptureBoard.from_fen(fen)
    assert board.turn == (Color.BLACK if fen[0] == "B" else Color.WHITE)
    return {
        (m.square_list[0] + 1, m.square_list[-1] + 1, frozenset(c + 1 for c in m.captured_list))
        for m in board.legal_moves
    }


def our_moves(state: CheckersState) -> set[tuple[int, int, frozenset[int]]]:
    return {(m.start, m.end, frozenset(m.captured)) for m in state.legal_moves()}


def random_fen(rng: random.Random) -> str:
    squares = rng.sample(range(1, 33), rng.randint(2, 24))
    half = rng.randint(1, len(squares) - 1)
    lists = {"W": squares[:half][:12], "B": squares[half:][:12]}
    king_rate = rng.choice([0.0, 0.3, 0.7, 1.0])
    parts = []
    for colour, own in lists.items():
        crown = range(1, 5) if colour == "W" else range(29, 33)
        entries = [
            f"K{n}" if n in crown or rng.random() < king_rate else str(n) for n in sorted(own)
        ]
        parts.append(colour + ",".join(entries))
    return f"{rng.choice('BW')}:{parts[0]}:{parts[1]}"


def test_random_set_up_positions_agree_with_py_draughts() -> None:
    rng = random.Random(2024)
    captures = kings = 0
    for _ in range(POSITIONS):
        fen = random_fen(rng)
        state = CHECKERS.state_from_text(fen)
        ours = our_moves(state)
        assert ours == their_moves(fen), fen
        assert count_moves(state.position, state.turn) == len(state.legal_moves())
        captures += any(captured for _, _, captured in ours)
        kings += any(state.piece_at(move.start) in ("B", "W") for move in state.legal_moves())
    assert captures > POSITIONS // 4 and kings > POSITIONS // 4


@pytest.mark.parametrize(
    "fen",
    [
        "W:WK10,27:B6,7,14,15,22,23",  # a king ring and a man with two ways to crown
        "B:W26,27:B22",  # crowned on 31 mid-jump, a king could go on over 27
        "B:W18,19,26,27:B14,15",  # jumps from two men, multi-jumps ending on the crown row
        "W:WK1,K4,K29,K32:BK14,K15,K18,K19",  # kings against kings
        "B:W5,6,7,13,14,15,21,22,23:BK1",  # a king with a long sequence
    ],
)
def test_worked_positions_agree_with_py_draughts(fen: str) -> None:
    state = CHECKERS.state_from_text(fen)
    assert state.legal_moves(), fen
    assert our_moves(state) == their_moves(fen)
