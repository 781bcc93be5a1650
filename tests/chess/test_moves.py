"""Moves as players write them (SAN, long algebraic, UCI) and the rule each illegal
move breaks, with the position left exactly as it was."""

from __future__ import annotations

import chess
import pytest

from parlour.chess.board import Move, square
from parlour.chess.rules import CHESS, parse_fen
from parlour.core.errors import IllegalMoveError, NotationError

STATE_AFTER_E4_E5_NF3_NC6 = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"


def test_uci_both_ways() -> None:
    move = Move.from_uci("e7e8q")
    assert (move.from_square, move.to_square, move.promotion) == (52, 60, "q")
    assert move.uci() == "e7e8q" == str(move)
    assert Move.from_uci("g1f3") == Move(square("g1"), square("f3"))
    for bad in ["", "e2", "e2e9", "i2e4", "e7e8k", "e7e8qq", "e2-e4"]:
        with pytest.raises(NotationError):
            Move.from_uci(bad)


@pytest.mark.parametrize(
    ("fen", "text", "uci"),
    [
        (chess.STARTING_FEN, "Nf3", "g1f3"),
        (chess.STARTING_FEN, "Ng1f3", "g1f3"),
        (chess.STARTING_FEN, "Ng1-f3", "g1f3"),
        (chess.STARTING_FEN, "nf3", "g1f3"),
        (chess.STARTING_FEN, "g1f3", "g1f3"),
        (chess.STARTING_FEN, "e2e4", "e2e4"),
        (chess.STARTING_FEN, "e2-e4", "e2e4"),
        (chess.STARTING_FEN, "e4", "e2e4"),
        (chess.STARTING_FEN, " e4!? ", "e2e4"),
        (chess.STARTING_FEN, "e4+", "e2e4"),
        ("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "O-O", "e1g1"),
        ("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "0-0", "e1g1"),
        ("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "o-o-o", "e1c1"),
        ("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", "0-0-0+", "e8c8"),
        ("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1g1", "e1g1"),
        ("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2", "exd6 e.p.", "e5d6"),
        ("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2", "exd6e.p.", "e5d6"),
        ("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2", "exd6", "e5d6"),
        ("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2", "ed6", "e5d6"),
        ("8/4P3/8/8/8/8/8/k3K3 w - - 0 1", "e8=Q", "e7e8q"),
        ("8/4P3/8/8/8/8/8/k3K3 w - - 0 1", "e8Q", "e7e8q"),
        ("8/4P3/8/8/8/8/8/k3K3 w - - 0 1", "e8=n", "e7e8n"),
        ("8/4P3/8/8/8/8/8/k3K3 w - - 0 1", "e7e8r", "e7e8r"),
        ("8/4P3/8/8/8/8/8/k3K3 w - - 0 1", "e8=Q+", "e7e8q"),
        # A lower-case b is a pawn's file first, a bishop only when no pawn move fits.
        ("4k3/8/8/8/8/2p5/1P6/4KB2 w - - 0 1", "bxc3", "b2c3"),
        ("4k3/8/8/8/8/8/8/4KB2 w - - 0 1", "bc4", "f1c4"),
        ("4k3/8/8/8/8/8/8/4KB2 w - - 0 1", "bxc4", "f1c4"),
        # Disambiguation, as much as given.
        ("4k3/8/8/8/8/8/8/R3K2R w - - 0 1", "Rad1", "a1d1"),
        ("4k3/8/8/8/8/8/8/R3K2R w - - 0 1", "Rhf1", "h1f1"),
        ("4k3/8/8/8/8/8/8/R3K2R w - - 0 1", "Rf1", "h1f1"),
    ],
)
def test_forgiving_move_input(fen: str, text: str, uci: str) -> None:
    state = parse_fen(fen)
    assert state.parse_move(text).uci() == uci
    assert state.to_text() == chess.Board(fen).fen()


@pytest.mark.parametrize(
    ("fen", "uci", "san"),
    [
        ("4k3/8/8/8/8/8/4K3/R6R w - - 0 1", "a1d1", "Rad1"),
        ("4k3/8/8/R7/8/8/8/R3K3 w - - 0 1", "a1a3", "R1a3"),
        ("4k3/8/8/8/8/Q1Q5/8/Q3K3 w - - 0 1", "a3b2", "Qa3b2"),
        ("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1", "e1c1", "O-O-O"),
        ("6k1/5ppp/8/8/8/8/8/R3K3 w Q - 0 1", "a1a8", "Ra8#"),
        ("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1", "a1a8", "Ra8+"),
        ("1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7b8q", "axb8=Q+"),
        ("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2", "e5d6", "exd6"),
        ("4k3/8/8/8/8/8/2N1N3/4K3 w - - 0 1", "c2d4", "Ncd4"),
    ],
)
def test_san_output_agrees_with_python_chess(fen: str, uci: str, san: str) -> None:
    state = parse_fen(fen)
    move = Move.from_uci(uci)
    assert state.move_to_text(move) == san == chess.Board(fen).san(chess.Move.from_uci(uci))
    assert state.parse_move(san) == move


@pytest.mark.parametrize(
    ("fen", "text", "error", "message"),
    [
        (chess.STARTING_FEN, "", NotationError, "is not a chess move"),
        (chess.STARTING_FEN, "Zf3", NotationError, "is not a chess move"),
        (chess.STARTING_FEN, "e9", NotationError, "is not a chess move"),
        (chess.STARTING_FEN, "hello world", NotationError, "is not a chess move"),
        (chess.STARTING_FEN, "Nf4", IllegalMoveError, "a knight cannot move like that"),
        (chess.STARTING_FEN, "Qd3", IllegalMoveError, "a queen cannot jump over pieces"),
        (chess.STARTING_FEN, "e5", IllegalMoveError, "a pawn cannot move like that"),
        (chess.STARTING_FEN, "Kd2", IllegalMoveError, "you cannot capture your own piece"),
        ("4k3/8/8/8/8/8/7P/4K3 w - - 0 1", "Nf3", IllegalMoveError, "White has no knight"),
        ("4k3/8/8/8/8/8/8/R3K2R w - - 0 1", "Rd1f1", IllegalMoveError, "no rook on d1"),
        (
            "4k3/8/8/8/8/8/2N1N3/4K3 w - - 0 1",
            "Nd4",
            IllegalMoveError,
            "ambiguous: it could be Ncd4 or Ned4",
        ),
        ("8/4P3/8/8/8/8/8/k3K3 w - - 0 1", "e8", IllegalMoveError, "choose a piece to promote to"),
        ("r3k2r/8/8/8/8/8/8/R3K2R w - - 0 1", "O-O", IllegalMoveError, "no castling"),
    ],
)
def test_bad_move_text(fen: str, text: str, error: type[Exception], message: str) -> None:
    state = parse_fen(fen)
    with pytest.raises(error) as raised:
        state.play(text)
    assert message in str(raised.value)
    assert state.to_text() == chess.Board(fen).fen(), "a refused move changed the position"


ILLEGAL = [
    # (position, move, rule key, words of the message)
    ("4k3/8/8/8/8/8/4r3/4K3 w - - 0 1", "e1f2", "king-in-check", "your king is in check"),
    ("4k3/4r3/8/8/8/8/4B3/4K3 w - - 0 1", "e2d3", "king-in-check", "your king would be in check"),
    ("4k3/8/8/8/8/8/8/4K2r w - - 0 1", "e1f1", "king-in-check", "would still be in check"),
    ("4k3/8/8/8/8/8/3r4/4K3 w - - 0 1", "e1d1", "king-in-check", "in check"),
    (
        "4k3/8/8/8/8/8/5r2/4K2R w K - 0 1",
        "e1g1",
        "castling-through",
        "castling through an attacked",
    ),
    ("4k3/8/8/8/8/8/4r3/4K2R w K - 0 1", "e1g1", "castling-check", "castling out of check"),
    ("4k3/8/8/8/8/8/6r1/4K2R w K - 0 1", "e1g1", "king-in-check", "your king would be in check"),
    ("4k3/8/8/8/8/8/8/4KN1R w K - 0 1", "e1g1", "castling-blocked", "square between king"),
    # O-O from the start: the knight on g1 blocks castling (not "your own piece")
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "e1g1",
        "castling-blocked",
        "between",
    ),
    ("4k3/8/8/8/8/8/8/R3K2R w - - 0 1", "e1g1", "castling-rights", "no castling kingside"),
    ("4k3/8/8/8/8/8/7P/4K3 w - - 0 1", "e1g1", "castling-rights", "no castling kingside"),
    ("4k3/8/8/8/8/8/7P/4K3 w - - 0 1", "e1e3", "piece-movement", "a king cannot move like that"),
    (
        "4k3/8/8/8/8/8/7P/1N2K3 w - - 0 1",
        "b1b3",
        "piece-movement",
        "a knight cannot move like that",
    ),
    ("4k3/8/8/8/8/8/7P/B3K3 w - - 0 1", "a1a2", "piece-movement", "a bishop cannot move like that"),
    ("4k3/8/8/8/8/8/1p6/B3K3 w - - 0 1", "a1c3", "path-blocked", "a bishop cannot jump over"),
    ("4k3/8/8/8/8/8/8/R1N1K3 w - - 0 1", "a1d1", "path-blocked", "a rook cannot jump over"),
    ("4k3/8/8/8/8/4p3/4P3/4K3 w - - 0 1", "e2e3", "pawn-blocked", "cannot capture straight ahead"),
    ("4k3/8/8/8/4p3/8/4P3/4K3 w - - 0 1", "e2e4", "pawn-blocked", "cannot step over or onto"),
    (
        "4k3/8/8/8/8/4P3/8/4K3 w - - 0 1",
        "e3e5",
        "pawn-double-step",
        "only from its starting square",
    ),
    ("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", "e2d3", "pawn-capture", "diagonally only to capture"),
    ("4k3/8/8/8/8/4P3/8/4K3 w - - 0 1", "e3e2", "piece-movement", "a pawn cannot move like that"),
    ("8/4P3/8/8/8/8/8/k3K3 w - - 0 1", "e7e8", "promotion-choice", "choose a piece to promote to"),
    ("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", "e2e4q", "no-promotion", "only a pawn reaching the last"),
    ("4k3/8/8/8/8/8/7P/4K3 w - - 0 1", "d4d5", "no-piece", "there is no piece on d4"),
    ("4k3/8/8/8/8/8/7P/4K3 w - - 0 1", "e8d8", "not-your-piece", "it is White's move"),
    ("4k3/8/8/8/8/8/8/3QK3 w - - 0 1", "d1e1", "own-piece", "cannot capture your own piece"),
    # En passant one move too late: the black pawn stepped two squares earlier.
    ("4k3/8/8/3pP3/8/8/8/4K3 w - - 0 2", "e5d6", "en-passant-timing", "only possible right after"),
]


@pytest.mark.parametrize(("fen", "uci", "rule", "message"), ILLEGAL)
def test_an_illegal_move_names_the_rule_and_changes_nothing(
    fen: str, uci: str, rule: str, message: str
) -> None:
    state = parse_fen(fen)
    before = state.to_text()
    assert chess.Move.from_uci(uci) not in chess.Board(fen).legal_moves, "not illegal after all"
    with pytest.raises(IllegalMoveError) as raised:
        state.push(Move.from_uci(uci))
    assert raised.value.rule == rule
    assert message in str(raised.value)
    assert state.to_text() == before
    assert state.hash == state.compute_hash()
    assert state.move_stack == []


def test_castling_rights_lost_in_play_name_what_moved() -> None:
    state = CHESS.state_from_text("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    for text in ["Kf1", "Kf8", "Ke1", "Ke8"]:
        state.play(text)
    with pytest.raises(IllegalMoveError, match="the king has moved: no castling"):
        state.play("O-O")
    state = CHESS.state_from_text("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    for text in ["Rh2", "Rh7", "Rh1", "Rh8"]:
        state.play(text)
    with pytest.raises(IllegalMoveError, match="kingside rook has moved or been taken"):
        state.play("O-O")
    state.play("O-O-O")  # the other side is still allowed
    assert state.to_text().startswith("r3k2r/8/8/8/8/8/8/2KR3R b ")


def test_en_passant_after_the_step_and_not_later() -> None:
    state = CHESS.state_from_text("4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1")
    state.play("d5")
    assert state.parse_move("exd6") == Move.from_uci("e5d6")
    state.play("Kd2")
    state.play("Kd8")
    with pytest.raises(IllegalMoveError, match="only possible right after the double step"):
        state.play("exd6")


def test_push_refuses_what_is_not_a_move() -> None:
    state = CHESS.new_state()
    with pytest.raises(IllegalMoveError):
        state.push("e2e4")  # type: ignore[arg-type]
    assert state.to_text() == chess.STARTING_FEN


def test_en_passant_that_would_expose_the_king_is_refused_for_that_reason() -> None:
    # Right after d7-d5 the capture exd6 would take both pawns off the fifth rank and
    # open it between the rook on h5 and the king on a5.
    state = CHESS.state_from_text("8/3p4/8/K3P2r/8/8/8/7k b - - 0 1")
    state.play("d5")
    before = state.to_text()
    with pytest.raises(IllegalMoveError, match="your king would be in check") as raised:
        state.play("exd6")
    assert raised.value.rule == "king-in-check"
    assert state.to_text() == before


def test_a_move_value_checks_its_fields() -> None:
    with pytest.raises(NotationError):
        Move(64, 0)
    with pytest.raises(NotationError):
        Move(-1, 0)
    with pytest.raises(NotationError):
        Move(square("e7"), square("e8"), "k")
    assert sorted([Move.from_uci("e2e4"), Move.from_uci("a2a3")])[0].uci() == "a2a3"
