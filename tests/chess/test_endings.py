"""How a game of chess ends: checkmate, stalemate, the automatic draws, claims,
agreement, resignation and the flag."""

from __future__ import annotations

import chess
import pytest

from parlour.chess.rules import CHESS, ChessState
from parlour.core.errors import GameOverError, IllegalMoveError
from parlour.core.protocol import Outcome, Side


def test_fools_mate() -> None:
    state = CHESS.new_state()
    for text in ["f3", "e5", "g4", "Qh4"]:
        state.play(text)
    assert state.outcome() == Outcome(Side.SECOND, "checkmate")
    assert state.is_checkmate() and state.legal_moves() == []
    with pytest.raises(GameOverError):
        state.play("a3")


def test_stalemate_is_a_draw() -> None:
    state = CHESS.state_from_text("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")
    assert state.outcome() == Outcome(None, "stalemate", 0)
    assert state.is_stalemate()


@pytest.mark.parametrize(
    "fen",
    [
        "8/8/4k3/8/8/3K4/8/8 w - - 0 1",  # two kings
        "8/8/4k3/8/8/3KN3/8/8 w - - 0 1",  # king and knight
        "8/8/4k3/8/8/3KB3/8/8 w - - 0 1",  # king and bishop
        "8/8/3bk3/8/8/3KB3/8/8 w - - 0 1",  # bishops on squares of one colour
    ],
)
def test_dead_positions_are_drawn_at_once(fen: str) -> None:
    state = CHESS.state_from_text(fen)
    assert state.outcome() == Outcome(None, "insufficient material", 0)
    assert chess.Board(fen).is_insufficient_material()


@pytest.mark.parametrize(
    "fen",
    [
        "8/8/2b1k3/8/8/3KB3/8/8 w - - 0 1",  # bishops on both colours: a mate exists
        "8/8/4k3/8/8/3KNN2/8/8 w - - 0 1",  # two knights
        "8/8/4kn2/8/8/3KB3/8/8 w - - 0 1",  # bishop against knight
        "8/8/4k3/8/8/3K4/7P/8 w - - 0 1",  # a pawn
    ],
)
def test_positions_where_a_mate_is_possible_play_on(fen: str) -> None:
    assert CHESS.state_from_text(fen).outcome() is None
    assert not chess.Board(fen).is_insufficient_material()


def shuffle_knights(state: ChessState, times: int) -> None:
    for _ in range(times):
        for text in ["Nf3", "Nf6", "Ng1", "Ng8"]:
            state.play(text)


def test_threefold_repetition_may_be_claimed_fivefold_ends_the_game() -> None:
    state = CHESS.new_state()
    assert state.claimable_draw() is None
    with pytest.raises(IllegalMoveError, match="no draw to claim"):
        state.claim_draw()
    shuffle_knights(state, 1)
    assert state.repetitions() == 2 and state.claimable_draw() is None
    shuffle_knights(state, 1)
    assert state.repetitions() == 3
    assert state.claimable_draw() == "threefold repetition"
    assert state.outcome() is None, "threefold is only a claim"
    shuffle_knights(state, 2)
    assert state.outcome() == Outcome(None, "fivefold repetition", 0)
    # Taking a move back brings the game back to life.
    state.pop()
    assert state.outcome() is None
    claimed = state.copy()
    assert claimed.claim_draw() == Outcome(None, "threefold repetition", 0)
    assert claimed.is_over() and claimed.legal_moves() == []
    assert not state.is_over(), "claiming on a copy ended the original"


def test_a_draw_the_next_move_would_make_is_not_claimable_yet() -> None:
    # python-chess's can_claim_threefold_repetition also looks one move ahead: here
    # Ng8 would bring the starting position a third time, but it has not been played.
    state = CHESS.new_state()
    shuffle_knights(state, 2)
    state.pop()
    board = chess.Board()
    for move in state.move_stack:
        board.push(chess.Move.from_uci(move.uci()))
    assert board.can_claim_threefold_repetition() and not board.is_repetition(3)
    assert state.claimable_draw() is None


def test_castling_rights_make_positions_different() -> None:
    # The rooks go out and back: the pieces stand as before, but castling is gone.
    state = CHESS.state_from_text("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    for _ in range(3):
        for text in ["Rh2", "Rh7", "Rh1", "Rh8"]:
            state.play(text)
    assert state.repetitions() == 3  # the first one (with rights) does not count
    board = chess.Board("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    for move in state.move_stack:
        board.push(chess.Move.from_uci(move.uci()))
    assert board.is_repetition(3) and not board.is_repetition(4)


def test_fifty_moves_may_be_claimed_seventy_five_end_the_game() -> None:
    state = CHESS.state_from_text("4k3/8/8/8/8/8/R7/4K3 w - - 99 80")
    assert state.claimable_draw() is None
    state.play("Ra3")
    assert state.claimable_draw() == "fifty-move rule"
    state = CHESS.state_from_text("4k3/8/8/8/8/8/R7/4K3 w - - 149 80")
    state.play("Ra3")
    assert state.outcome() == Outcome(None, "seventy-five-move rule", 0)


def test_checkmate_on_the_hundred_and_fiftieth_ply_is_checkmate() -> None:
    state = CHESS.state_from_text("6k1/5ppp/8/8/8/8/8/R3K3 w - - 149 80")
    state.play("Ra8")
    assert state.outcome() == Outcome(Side.FIRST, "checkmate")


def test_agreement_and_resignation() -> None:
    state = CHESS.new_state()
    assert state.copy().agree_draw() == Outcome(None, "agreement", 0)
    assert state.copy().resign(Side.FIRST) == Outcome(Side.SECOND, "resignation")
    assert not state.is_over()


@pytest.mark.parametrize(
    ("fen", "flagged", "outcome"),
    [
        # White's flag falls; Black has only a king: it cannot mate, a draw.
        (
            "4k3/8/8/8/8/8/8/R3K3 w - - 0 1",
            Side.FIRST,
            Outcome(None, "time out against a side that cannot mate", 0),
        ),
        # ... Black has a knight, White a rook that could block its own king in: a loss.
        ("4k3/8/8/2n5/8/8/8/R3K3 w - - 0 1", Side.FIRST, Outcome(Side.SECOND, "loss on time")),
        # ... Black has a knight but White has a pawn that could block its king in: a loss.
        ("4k3/8/8/2n5/8/8/7P/4K3 w - - 0 1", Side.FIRST, Outcome(Side.SECOND, "loss on time")),
        # Black flags; White has a rook: a loss on time.
        ("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", Side.SECOND, Outcome(Side.FIRST, "loss on time")),
    ],
)
def test_the_flag(fen: str, flagged: Side, outcome: Outcome) -> None:
    state = CHESS.state_from_text(fen)
    assert state.flag(flagged) == outcome
    assert state.outcome() == outcome and state.legal_moves() == []
    with pytest.raises(GameOverError):
        state.flag(flagged.other)


def test_cannot_possibly_mate_is_never_wrong_by_python_chess() -> None:
    """Our test for the flag is stricter than python-chess's insufficient material for
    one side: whenever we say a side cannot mate, python-chess agrees."""
    import random

    rng = random.Random(7)
    seen = 0
    for _ in range(3000):
        board = chess.Board(None)
        squares = rng.sample(chess.SQUARES, 5)
        board.set_piece_at(squares[0], chess.Piece(chess.KING, chess.WHITE))
        board.set_piece_at(squares[1], chess.Piece(chess.KING, chess.BLACK))
        for sq in squares[2 : 2 + rng.randint(0, 3)]:
            kind = rng.choice([chess.KNIGHT, chess.BISHOP, chess.BISHOP, chess.ROOK, chess.PAWN])
            if kind == chess.PAWN and chess.square_rank(sq) in (0, 7):
                continue
            board.set_piece_at(sq, chess.Piece(kind, rng.choice([chess.WHITE, chess.BLACK])))
        if not board.is_valid():
            continue
        state = CHESS.state_from_text(board.fen())
        for side, color in ((Side.FIRST, chess.WHITE), (Side.SECOND, chess.BLACK)):
            if state.cannot_possibly_mate(side):
                seen += 1
                assert board.has_insufficient_material(color), board.fen()
            assert state.has_insufficient_material(side) == board.has_insufficient_material(
                color
            ), board.fen()
    assert seen > 500
