"""Seeded random games cross-checked move by move against python-chess (the oracle).

At every position of every game both libraries must agree on: the set of legal moves,
the FEN, the SAN of every legal move, whether the side to move is in check, how the
game ended (if it did), and which draws may be claimed. Games start from the usual
position and from many generated positions rich in endings, promotions, castling
rights and en passant chances; a bias towards moving a piece back where it came from
makes repetitions (threefold, fivefold) happen.
"""

from __future__ import annotations

import random

import chess
import pytest

from parlour.chess.board import Move, Piece
from parlour.chess.notation import parse_san
from parlour.chess.rules import CHESS, ChessState
from parlour.core.protocol import Side

#: python-chess termination -> our outcome reason.
REASONS = {
    chess.Termination.CHECKMATE: "checkmate",
    chess.Termination.STALEMATE: "stalemate",
    chess.Termination.INSUFFICIENT_MATERIAL: "insufficient material",
    chess.Termination.SEVENTYFIVE_MOVES: "seventy-five-move rule",
    chess.Termination.FIVEFOLD_REPETITION: "fivefold repetition",
}

MAX_PLIES = 200


def random_start(rng: random.Random) -> str:
    """A legal position (by python-chess's judgement) with few pieces: kings, some
    pawns near promotion or able to take en passant, rooks on their corners with
    castling rights, a minor piece or a queen."""
    while True:
        board = chess.Board(None)
        castling = ""
        if rng.random() < 0.5:
            board.set_piece_at(chess.E1, chess.Piece(chess.KING, chess.WHITE))
            for corner, letter in ((chess.H1, "K"), (chess.A1, "Q")):
                if rng.random() < 0.7:
                    board.set_piece_at(corner, chess.Piece(chess.ROOK, chess.WHITE))
                    castling += letter
        if rng.random() < 0.5:
            board.set_piece_at(chess.E8, chess.Piece(chess.KING, chess.BLACK))
            for corner, letter in ((chess.H8, "k"), (chess.A8, "q")):
                if rng.random() < 0.7:
                    board.set_piece_at(corner, chess.Piece(chess.ROOK, chess.BLACK))
                    castling += letter
        free = [sq for sq in chess.SQUARES if board.piece_at(sq) is None]
        rng.shuffle(free)
        for color in (chess.WHITE, chess.BLACK):
            if board.king(color) is None:
                board.set_piece_at(free.pop(), chess.Piece(chess.KING, color))
        extras = rng.randint(0, 6)
        for _ in range(extras):
            sq = free.pop()
            color = rng.choice((chess.WHITE, chess.BLACK))
            kind = rng.choice(
                (chess.PAWN, chess.PAWN, chess.PAWN, chess.KNIGHT, chess.BISHOP, chess.QUEEN)
            )
            if kind == chess.PAWN:
                rank = chess.square_rank(sq)
                if rank in (0, 7):
                    continue
                # Pawns near promotion, most of the time.
                if rng.random() < 0.5:
                    target = chess.square(chess.square_file(sq), 6 if color else 1)
                    if board.piece_at(target) is None:
                        sq = target
            board.set_piece_at(sq, chess.Piece(kind, color))
        if rng.random() < 0.4:
            # A pawn on its fifth rank beside an enemy pawn still at home: a double
            # step would allow en passant.
            file = rng.randrange(1, 7)
            white_pawn, black_pawn = chess.square(file, 4), chess.square(file + 1, 6)
            if board.piece_at(white_pawn) is None and board.piece_at(black_pawn) is None:
                board.set_piece_at(white_pawn, chess.Piece(chess.PAWN, chess.WHITE))
                board.set_piece_at(black_pawn, chess.Piece(chess.PAWN, chess.BLACK))
        board.turn = rng.choice((chess.WHITE, chess.BLACK))
        board.set_castling_fen(castling or "-")
        # Sometimes deep into a quiet phase already, so that the fifty- and
        # seventy-five-move rules come within reach.
        board.halfmove_clock = rng.choice((0, 0, 0, 70, 100, 130))
        if board.is_valid() and not board.is_game_over():
            return board.fen()


def compare_position(
    ours: ChessState, board: chess.Board, fen: str, where: str
) -> chess.Outcome | None:
    """Compare everything at one position (``fen`` is ``board.fen()``, computed once
    by the caller); return python-chess's outcome, None while the game goes on."""
    assert ours.to_text() == fen, where
    assert ours.is_check() == board.is_check(), where
    expected = board.outcome()
    got = ours.outcome()
    if expected is None:
        assert got is None, f"{where}: we say {got}, python-chess plays on"
    else:
        assert got is not None, f"{where}: python-chess says {expected}, we play on"
        assert got.reason == REASONS[expected.termination], where
        winner = (
            None if expected.winner is None else (Side.FIRST if expected.winner else Side.SECOND)
        )
        assert got.winner == winner, where
    legal = ours.legal_moves()
    if expected is None:
        assert sorted(m.uci() for m in legal) == sorted(m.uci() for m in board.legal_moves), where
        for move in legal:
            oracle_move = chess.Move.from_uci(move.uci())
            text = ours.move_to_text(move)
            assert text == board.san(oracle_move), f"{where}: {move.uci()}"
            assert parse_san(ours, text) == move, f"{where}: {text}"
            if board.ply() % 4 == 0:
                assert parse_san(ours, move.uci()) == move, f"{where}: {move.uci()}"
        # Claims: only draws that have happened (python-chess's is_repetition(3) and
        # is_fifty_moves, not its can_claim_*, which look one move ahead too).
        claim = ours.claimable_draw()
        if board.is_repetition(3):
            assert claim == "threefold repetition", where
        elif board.is_fifty_moves():
            assert claim == "fifty-move rule", where
        else:
            assert claim is None, where
        if claim is not None:
            # What we allow, python-chess allows too (it also allows a claim on a
            # move still to be played, which FIDE makes by playing the move first).
            assert board.can_claim_draw(), where
    else:
        assert legal == [], where
    return expected


def choose_move(state: ChessState, rng: random.Random) -> Move:
    """A random legal move; mostly an en passant capture when one is possible (they
    are rare otherwise); a third of the time the move that takes a piece back where
    it came from two plies ago, when legal (that makes repetitions)."""
    moves = state.legal_moves()
    move = rng.choice(moves)
    if state.ep_square is not None and rng.random() < 0.7:
        pawn = Piece("pawn", state.turn)
        return next(
            m
            for m in moves
            if m.to_square == state.ep_square and state.piece_at(m.from_square) == pawn
        )
    if len(state.move_stack) >= 2 and rng.random() < 0.35:
        earlier = state.move_stack[-2]
        back = Move(earlier.to_square, earlier.from_square)
        if back in moves:
            move = back
    return move


def play_cross_checked(fen: str, seed: int) -> set[str]:
    """Play one random game in both libraries, comparing every position; return
    what happened in it (special moves, claims, the outcome)."""
    rng = random.Random(seed)
    ours = CHESS.state_from_text(fen)
    board = chess.Board(fen)
    seen: set[str] = set()
    plies = 0
    while plies < MAX_PLIES:
        fen_now = board.fen()
        where = f"seed {seed}, ply {plies}, {fen_now}"
        if compare_position(ours, board, fen_now, where) is not None:  # the game is over
            break
        seen.add(ours.claimable_draw() or "")
        move = choose_move(ours, rng)
        text = ours.move_to_text(move)
        if "=" in text:
            seen.add("promotion")
        if text.startswith("O-O"):
            seen.add("castling")
        if board.is_en_passant(chess.Move.from_uci(move.uci())):
            seen.add("en passant")
        ours.push(move)
        board.push(chess.Move.from_uci(move.uci()))
        plies += 1
    outcome = ours.outcome()
    if outcome is not None:
        seen.add(outcome.reason)
    # Undo everything: we must come back to the start exactly.
    for _ in range(plies):
        ours.pop()
    assert ours.to_text() == chess.Board(fen).fen()
    return seen


#: Every kind of event the cross-checked games must include between them.
EXPECTED_EVENTS = {
    "promotion",
    "castling",
    "en passant",
    "threefold repetition",
    "fifty-move rule",
    "checkmate",
    "stalemate",
    "insufficient material",
    "fivefold repetition",
    "seventy-five-move rule",
}


@pytest.mark.slow
@pytest.mark.parametrize("block", range(6))
def test_random_games_agree_with_python_chess(block: int) -> None:
    """34 games per block (204 in all): 2 from the usual start, 32 from endings.
    Each block on its own reaches most kinds of events; the checks above make
    any disagreement fail."""
    rng = random.Random(1000 + block)
    seen: set[str] = set()
    for seed in range(block * 2, block * 2 + 2):
        seen |= play_cross_checked(chess.STARTING_FEN, seed)
    for seed in range(block * 32, block * 32 + 32):
        seen |= play_cross_checked(random_start(rng), 10_000 + seed)
    missing = EXPECTED_EVENTS - seen
    assert len(missing) <= 2, f"block {block} saw too few kinds of events: missing {missing}"
