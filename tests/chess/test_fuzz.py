"""Any text at all, fed to the readers, gives a result or a Parlour error naming the
problem: never another exception, never a hang, never a changed position."""

from __future__ import annotations

import os

import chess
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from parlour.chess.pgn import read_pgn
from parlour.chess.rules import CHESS, parse_fen
from parlour.core.errors import ParlourError

FEN_ALPHABET = "KQRBNPkqrbnp12345678/ wb-acdefgh0 9x"
SAN_ALPHABET = "KQRBNkqrbnabcdefgh12345678x=+#-O0 .ep!?"
PGN_ALPHABET = '[]"{}();$*.-/10 \nabcdefghKQRBNO=+#e5Nf3x!?%\\'

#: Examples per test; raise it (PARLOUR_FUZZ_EXAMPLES=5000) for a longer hunt.
EXAMPLES = int(os.environ.get("PARLOUR_FUZZ_EXAMPLES", "300"))
FAST = settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FAST
@given(st.text(alphabet=FEN_ALPHABET, max_size=90))
def test_any_fen_text_is_read_or_refused_cleanly(text: str) -> None:
    try:
        state = parse_fen(text)
    except ParlourError as error:
        assert str(error)
        return
    # Whatever we accept, python-chess reads as the same, valid position.
    board = chess.Board(text)
    assert board.is_valid(), text
    assert state.to_text() == board.fen()


BASES = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    "4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1",
]


@st.composite
def mutated_fen(draw: st.DrawFn) -> str:
    """A valid FEN with a few characters changed, removed or added: the text that
    reaches the deeper rules (kings, castling, en passant, checks)."""
    text = draw(st.sampled_from(BASES))
    for _ in range(draw(st.integers(1, 3))):
        at = draw(st.integers(0, len(text) - 1))
        char = draw(st.sampled_from(FEN_ALPHABET))
        operation = draw(st.sampled_from(["replace", "delete", "insert"]))
        if operation == "replace":
            text = text[:at] + char + text[at + 1 :]
        elif operation == "delete":
            text = text[:at] + text[at + 1 :]
        else:
            text = text[:at] + char + text[at:]
    return text


@FAST
@given(mutated_fen())
def test_mutated_fens_are_read_as_python_chess_judges_them(text: str) -> None:
    try:
        state = parse_fen(text)
    except ParlourError as error:
        assert str(error)
        return
    board = chess.Board(text)
    # python-chess also refuses some checks that no legal last move could give (two
    # checkers in line with the king, for one); we accept those positions.
    assert board.status() & ~chess.STATUS_IMPOSSIBLE_CHECK == chess.STATUS_VALID, text
    assert state.to_text() == board.fen()


@FAST
@given(st.text(alphabet=SAN_ALPHABET, max_size=12))
def test_any_move_text_is_read_or_refused_cleanly(text: str) -> None:
    state = CHESS.state_from_text("r3k2r/pPp1p1pp/8/3pP3/8/2N2N2/PPP2PPP/R3K2R w KQkq d6 0 10")
    before = state.to_text()
    try:
        move = state.parse_move(text)
    except ParlourError as error:
        assert str(error)
    else:
        assert move in state.legal_moves()
    assert state.to_text() == before


@FAST
@given(st.text(alphabet=PGN_ALPHABET, max_size=120))
def test_any_pgn_text_is_read_or_refused_cleanly(text: str) -> None:
    try:
        games = read_pgn(text)
    except ParlourError as error:
        assert str(error)
        return
    for game in games:
        game.end()
