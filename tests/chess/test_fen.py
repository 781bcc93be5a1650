"""FEN read and written: round trips, and each validation rule with its message."""

from __future__ import annotations

import chess
import pytest

from parlour.chess.board import STARTING_FEN, square
from parlour.chess.notation import board_fen
from parlour.chess.rules import CHESS, parse_fen
from parlour.core.errors import NotationError
from parlour.core.protocol import Side

GOOD = [
    STARTING_FEN,
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    "8/8/8/8/8/8/8/K6k b - - 99 140",
    "r3k3/8/8/8/8/8/8/4K2R w Kq - 5 20",
]


@pytest.mark.parametrize("fen", GOOD)
def test_fen_round_trips_and_agrees_with_python_chess(fen: str) -> None:
    state = parse_fen(fen)
    assert board_fen(state) == fen == chess.Board(fen).fen()
    assert CHESS.state_from_text(fen).to_text() == fen


def test_the_counters_may_be_left_out() -> None:
    state = parse_fen("4k3/8/8/8/8/8/8/4K3 b - -")
    assert state.to_text() == "4k3/8/8/8/8/8/8/4K3 b - - 0 1"
    assert state.turn is Side.SECOND


def test_an_en_passant_square_without_a_legal_capture_is_dropped() -> None:
    # After 1.e4 no black pawn can take on e3: the square is not part of the position.
    state = parse_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1")
    assert state.ep_square is None
    assert state.to_text() == chess.Board(state.to_text()).fen()
    # With a capturer beside the pawn it is kept.
    state = parse_fen("4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1")
    assert state.ep_square == square("e3")
    # ... unless that capture would expose the capturer's king (a pin along the rank).
    state = parse_fen("8/8/8/8/k2pP2R/8/8/4K3 b - e3 0 1")
    assert state.ep_square is None
    assert state.to_text() == chess.Board("8/8/8/8/k2pP2R/8/8/4K3 b - e3 0 1").fen()


BAD = [
    ("", "needs 6 fields"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0", "got 5"),
    ("rnbqkbnr/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "has 7 ranks, a board has 8"),
    ("rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "'9' on rank 6 is not a piece"),
    ("rnbqkbnr/pppppppp1/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "rank 7 has 9 squares"),
    ("rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "rank 7 has 7 squares"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNRR w KQkq - 0 1", "rank 1 has 9 squares"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQXBNR w KQkq - 0 1", "'X' on rank 1 is not a piece"),
    ("rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1", "Black has no king"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKKBNR w kq - 0 1", "White has 2 kings"),
    ("4k3/8/8/8/8/8/8/P3K3 w - - 0 1", "a pawn stands on a1"),
    ("3pk3/8/8/8/8/8/8/4K3 w - - 0 1", "a pawn stands on d8"),
    ("4k3/8/8/8/8/8/8/4K3 x - - 0 1", "side to move must be 'w' or 'b'"),
    ("rnbqkbnr/pppppppp/8/8/8/P7/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "White has 9 pawns"),
    ("rnbqkbnr/pppppppp/8/8/8/N7/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "White has 17 pieces"),
    ("4k3/8/8/8/8/3n4/4r3/r3K3 w - - 0 1", "attacked by 3 pieces"),
    ("4k3/8/8/8/8/8/8/4K11 w - - 0 1", "two digits in a row"),
    ("4k3/8/8/8/8/8/8/4K3 w KX - 0 1", "castling field 'KX'"),
    ("4k3/8/8/8/8/8/8/4K3 w KK - 0 1", "'K' appears twice"),
    ("4k3/8/8/8/8/8/8/3K3R w K - 0 1", "White cannot castle kingside (K): the king is not on e1"),
    ("4k3/8/8/8/8/8/8/R3K3 w K - 0 1", "no white rook on h1"),
    ("r3k3/8/8/8/8/8/8/4K3 w k - 0 1", "no black rook on h8"),
    ("4k3/8/8/8/8/8/8/4K3 w - e9 0 1", "en passant field 'e9'"),
    ("4k3/8/8/8/3pP3/8/8/4K3 b - e4 0 1", "must be on rank 3"),
    ("4k3/8/8/8/3p4/8/8/4K3 b - e3 0 1", "no pawn of White stands on e4"),
    ("4k3/8/8/8/3pP3/4N3/8/4K3 b - e3 0 1", "must be empty"),
    ("4k3/8/8/8/8/8/8/4K3 w - - x 1", "halfmove clock must be a whole number"),
    ("4k3/8/8/8/8/8/8/4K3 w - - -1 1", "halfmove clock must be a whole number"),
    ("4k3/8/8/8/8/8/8/4K3 w - - 0 0", "move number must be at least 1"),
    ("4k3/8/8/8/8/8/8/4K3 w - - 0 ٣", "move number must be a whole number"),
    ("4k2R/8/8/8/8/8/8/4K3 w - - 0 1", "Black's king is in check but it is not Black's move"),
    ("4k3/8/8/8/8/8/8/4K2r b - - 0 1", "White's king is in check but it is not White's move"),
]


@pytest.mark.parametrize(("fen", "message"), BAD)
def test_malformed_fen_is_refused_with_a_precise_message(fen: str, message: str) -> None:
    with pytest.raises(NotationError) as raised:
        parse_fen(fen)
    assert message in str(raised.value)


#: The rules about what a position may hold (the others are about the text itself).
POSITION_RULES = [
    (fen, message)
    for fen, message in BAD
    if any(
        word in message
        for word in ("king", "pawn", "castle", "rook", "en passant", "pieces", "attacked")
    )
]


@pytest.mark.parametrize(("fen", "message"), POSITION_RULES)
def test_python_chess_also_rejects_each_bad_fen(fen: str, message: str) -> None:
    """Each bad FEN is bad by an independent judgement too (python-chess refuses to
    read it or finds the position invalid), so the rules above are not our fancy."""
    try:
        board = chess.Board(fen)
    except ValueError:
        return
    status = board.status()
    assert status & (
        chess.STATUS_BAD_CASTLING_RIGHTS
        | chess.STATUS_INVALID_EP_SQUARE
        | chess.STATUS_NO_BLACK_KING
        | chess.STATUS_NO_WHITE_KING
        | chess.STATUS_TOO_MANY_KINGS
        | chess.STATUS_PAWNS_ON_BACKRANK
        | chess.STATUS_OPPOSITE_CHECK
        | chess.STATUS_TOO_MANY_WHITE_PAWNS
        | chess.STATUS_TOO_MANY_WHITE_PIECES
        | chess.STATUS_TOO_MANY_CHECKERS
    ), fen


@pytest.mark.parametrize(
    ("fen", "words"),
    [
        ("4R3/8/8/8/4k3/8/8/K3R3 b - - 0 1", "two pieces on one line through it"),
        ("7k/8/8/8/4Pp2/8/8/K6R b - e3 0 1", "could not have given"),
        ("8/8/8/1k6/3Pp3/8/8/4KQ2 b - d3 0 1", "could not have given"),
    ],
)
def test_impossible_checks_are_refused_as_python_chess_refuses_them(fen: str, words: str) -> None:
    assert chess.Board(fen).status() & chess.STATUS_IMPOSSIBLE_CHECK
    with pytest.raises(NotationError, match=words):
        parse_fen(fen)


@pytest.mark.parametrize(
    "fen",
    [
        "8/8/8/4k3/3P4/8/8/4K3 b - d3 0 1",  # the pawn's double step gives the check
        "8/8/8/8/2P1k3/8/8/1B2K3 b - c3 0 1",  # ...or uncovers the bishop's
        "4k3/8/8/8/8/8/8/R3K2R b KQ - 0 1",  # two rooks, neither checking
    ],
)
def test_possible_checks_are_accepted_as_python_chess_accepts_them(fen: str) -> None:
    assert chess.Board(fen).is_valid()
    assert board_fen(parse_fen(fen)) == chess.Board(fen).fen()


def test_wording_of_a_short_fen_and_a_promotion_to_a_king() -> None:
    with pytest.raises(NotationError, match=r"needs 6 fields .* or the first 4 of them; got 3"):
        parse_fen("8/8/8/8/8/8/8/K6k w -")
    state = parse_fen("8/P7/8/8/8/8/8/k6K w - - 0 1")
    with pytest.raises(NotationError, match="a pawn promotes to a queen, rook, bishop or knight"):
        state.parse_move("a8=K")
