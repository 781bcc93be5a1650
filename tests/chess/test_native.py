"""The chess search in C (parlour.chess.native, run by NativeSearcher) against the
Python Searcher it mirrors: the same moves in the same order as
ChessBoard.generate, the same perft counts as python-chess, and searches that
visit the same nodes and return the same move, score, depth, node count and line
(and the same root scores, MultiPV lines and node-limited stops).

The set-up builds it (``parlour compile``, as tests/core/test_compiled.py expects):
where it is missing these tests fail, they are not skipped.
"""

from __future__ import annotations

import random
import threading
import time
from itertools import pairwise
from types import ModuleType
from typing import Any

import chess
import pytest

from parlour import compiled
from parlour.chess.engine import (
    MATE,
    MATE_BOUND,
    TEMPO,
    ChessEngine,
    NativeSearcher,
    Searcher,
    SearchResult,
    native_tables,
    new_searcher,
)
from parlour.chess.rules import CHESS, ChessState
from parlour.chess.uci import UciEngine


def load_native() -> ModuleType:
    """The extension, or a failure saying why it is missing."""
    try:
        from parlour.chess import native
    except ImportError as error:
        pytest.fail(
            f"parlour.chess.native cannot be imported ({error}; the build is "
            f"{compiled.state()}): `parlour compile` builds it"
        )
    return native


START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
ITALIAN = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4"
KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
EN_PASSANT = "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3"
POSITION_3 = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"
POSITION_4 = "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1"
POSITION_5 = "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8"
PROMOTIONS = "8/1P4k1/8/8/8/8/6p1/K7 w - - 0 1"
IN_CHECK = "4k3/8/8/8/1b6/8/8/R3K2R w KQ - 0 1"
BACK_RANK = "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1"
MATE_IN_TWO = "r1b1kb1r/pppp1ppp/5q2/4n3/3KP3/2N3PN/PPP4P/R1BQ1B1R b kq - 0 1"
STALEMATE_TRAPS = "k7/8/1Q6/8/8/8/8/6K1 w - - 0 1"
KPK = "8/8/8/4k3/8/8/4P3/4K3 w - - 0 1"
KRK = "8/8/8/4k3/8/8/8/R3K3 w - - 0 1"
FIFTY_MOVES = "8/8/3k4/8/8/3K4/3R4/8 w - - 97 120"
ALMOST_BARE = "8/8/3k4/3p4/8/3K4/3N4/8 w - - 0 1"
# The endings the evaluation knows (engine.ending): a drive to the bishop's corner,
# a lead of a minor piece without pawns, the wrong bishop, bishops of opposite colours.
BISHOP_AND_KNIGHT = "8/8/8/3k4/8/8/8/KBN5 w - - 0 1"
ROOK_AGAINST_BISHOP = "8/8/3kb3/8/8/3K4/3R4/8 b - - 0 1"
WRONG_BISHOP = "8/8/8/3b4/p7/1k6/8/K7 b - - 0 1"
OPPOSITE_BISHOPS = "8/4k3/3b4/8/4B3/5K2/1P6/8 w - - 0 1"
#: King and pawn against king read from the database: Black's pawn on the far side
#: of the board (mirrored and turned to find its slot), each side to move.
BLACK_PAWN_KPK = "8/5k2/6p1/8/8/8/3K4/8 b - - 0 1"
BLACK_PAWN_KPK_WHITE_TO_MOVE = "8/8/8/8/5k2/5p2/8/5K2 w - - 0 1"
#: Every knight move a discovered check, a promotion to a queen a check, one to a
#: knight none (the C search finds whether a move gives check from the move).
DISCOVERED_CHECKS = "3k4/1P6/8/8/3N4/8/3R4/4K3 w - - 0 1"
#: Castling gives check with the rook.
CASTLING_CHECK = "5k2/8/8/8/8/8/8/4K2R w K - 0 1"

#: Each position with the deepest depth searched for it (all from 1).
POSITIONS = {
    START: 5,
    ITALIAN: 5,
    KIWIPETE: 4,
    EN_PASSANT: 5,
    POSITION_3: 6,
    POSITION_4: 4,
    POSITION_5: 4,
    PROMOTIONS: 6,
    IN_CHECK: 6,
    BACK_RANK: 5,
    MATE_IN_TWO: 5,
    STALEMATE_TRAPS: 6,
    KPK: 6,
    KRK: 6,
    FIFTY_MOVES: 6,
    ALMOST_BARE: 6,
    BISHOP_AND_KNIGHT: 6,
    ROOK_AGAINST_BISHOP: 6,
    WRONG_BISHOP: 7,
    OPPOSITE_BISHOPS: 6,
    BLACK_PAWN_KPK: 6,
    BLACK_PAWN_KPK_WHITE_TO_MOVE: 7,
    DISCOVERED_CHECKS: 5,
    CASTLING_CHECK: 6,
}


def repeated() -> ChessState:
    """The start after the knights went out and back twice: the game's stack holds
    positions the search must score as repetitions."""
    state = CHESS.new_state()
    for text in ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1"]:
        state.play(text)
    return state


def both(state: ChessState, **limits: Any) -> tuple[SearchResult, SearchResult]:
    """The Python search's result and the C one's, each from a new searcher."""
    python = Searcher().search(state, **limits)
    in_c = NativeSearcher().search(state, **limits)
    return python, in_c


def loaded(state: ChessState) -> NativeSearcher:
    """A searcher with ``state`` loaded into its C object."""
    load_native()
    searcher = NativeSearcher()
    searcher._begin(state.copy(), None, None, None)
    return searcher


# -- the board --------------------------------------------------------------------------


def playout_states(seed: int, plies: int) -> list[ChessState]:
    """The positions of random games from each test position."""
    rng = random.Random(seed)
    states = []
    for fen in POSITIONS:
        state = CHESS.state_from_text(fen)
        for _ in range(plies):
            moves = state.generate()
            if not moves:
                break
            states.append(state.copy())
            state.make(rng.choice(moves))
    return states


def test_the_moves_come_in_the_order_the_board_generates_them() -> None:
    states = playout_states(1, 40)
    assert len(states) > 400
    for state in states:
        assert loaded(state).native.moves() == state.generate(), state.to_text()


def python_chess_perft(board: chess.Board, depth: int) -> int:
    if depth == 1:
        return board.legal_moves.count()
    total = 0
    for move in board.legal_moves:
        board.push(move)
        total += python_chess_perft(board, depth - 1)
        board.pop()
    return total


@pytest.mark.parametrize(
    ("fen", "depth"),
    [
        (START, 3),
        (KIWIPETE, 2),
        (EN_PASSANT, 3),
        (POSITION_3, 3),
        (POSITION_4, 2),
        (POSITION_5, 2),
        (PROMOTIONS, 3),
        (IN_CHECK, 3),
    ],
)
def test_perft_agrees_with_python_chess(fen: str, depth: int) -> None:
    searcher = loaded(CHESS.state_from_text(fen))
    oracle = chess.Board(fen)
    for d in range(1, depth + 1):
        assert searcher.native.perft(d) == python_chess_perft(oracle, d), (fen, d)


def test_perft_deeper_matches_the_published_counts() -> None:
    # tests/chess/test_perft.py's counts, deeper than the Python board goes there
    assert loaded(CHESS.state_from_text(KIWIPETE)).native.perft(4) == 4085603
    assert loaded(CHESS.state_from_text(POSITION_3)).native.perft(5) == 674624
    assert loaded(CHESS.state_from_text(POSITION_4)).native.perft(4) == 422333


# -- searches ---------------------------------------------------------------------------


@pytest.mark.parametrize("fen", list(POSITIONS))
def test_the_same_search_at_each_depth(fen: str) -> None:
    load_native()
    state = CHESS.state_from_text(fen)
    for depth in range(1, POSITIONS[fen] + 1):
        python, in_c = both(state, depth=depth)
        assert in_c == python, (fen, depth)


def test_a_repetition_in_the_games_history() -> None:
    load_native()
    state = repeated()
    for depth in range(1, 6):
        python, in_c = both(state, depth=depth)
        assert in_c == python, depth
    # the knight's move back repeats the start a third time: the search sees a draw
    assert Searcher().search(state, depth=1, searchmoves=[state.parse_move("Ng8")]).score == 0


@pytest.mark.parametrize("fen", [START, KIWIPETE, PROMOTIONS, KRK, STALEMATE_TRAPS])
def test_the_same_exact_root_scores(fen: str) -> None:
    load_native()
    state = CHESS.state_from_text(fen)
    for depth in range(1, 4):
        python, in_c = both(state, depth=depth, exact_root=True, margin=50)
        assert python.root_scores
        assert in_c == python, (fen, depth)


@pytest.mark.parametrize("fen", [START, ITALIAN, POSITION_4, KPK])
def test_the_same_lines_with_multipv(fen: str) -> None:
    load_native()
    state = CHESS.state_from_text(fen)
    for depth in range(1, 5):
        python, in_c = both(state, depth=depth, multipv=3)
        assert len(python.lines) == 3
        assert in_c == python, (fen, depth)


def test_the_same_search_among_some_moves() -> None:
    load_native()
    state = CHESS.state_from_text(ITALIAN)
    moves = [state.parse_move(text) for text in ("d3", "Nc3", "O-O", "Bxf7+")]
    for depth in range(1, 5):
        python, in_c = both(state, depth=depth, searchmoves=moves)
        assert python.move in moves
        assert in_c == python, depth
        python, in_c = both(state, depth=depth, searchmoves=moves, multipv=2)
        assert in_c == python, depth


@pytest.mark.parametrize("limit", [1, 2048, 3000, 6000, 11000, 25000])
def test_the_same_stop_at_a_node_limit(limit: int) -> None:
    load_native()
    state = CHESS.state_from_text(KIWIPETE)
    python, in_c = both(state, nodes=limit)
    assert in_c == python, limit
    # the limit is looked at every 2048 nodes, as in the Python
    assert in_c.nodes == max(2048, -(-limit // 2048) * 2048) or in_c.nodes < limit
    python, in_c = both(state, nodes=limit, multipv=2)
    assert in_c == python, limit
    python, in_c = both(state, nodes=limit, exact_root=True, margin=50)
    assert in_c == python, limit


def test_the_same_searches_along_a_game() -> None:
    # one searcher each for a whole game: the table and the history carried from
    # search to search, the history aged and the killers reset at each
    load_native()
    python, in_c = Searcher(hash_entries=3000), NativeSearcher(hash_entries=3000)
    state = CHESS.state_from_text(ITALIAN)
    sizes = []
    for ply in range(16):
        limits: dict[str, Any] = {"depth": 4}
        if ply % 5 == 3:
            limits = {"depth": 3, "multipv": 2}
        elif ply % 5 == 4:
            limits = {"nodes": 5000}
        found = python.search(state, **limits)
        assert in_c.search(state, **limits) == found, ply
        assert in_c.native.table_count == len(python.table), ply
        sizes.append(len(python.table))
        state.push(found.move)
        if state.is_over():
            break
    assert len(sizes) == 16
    # the table outgrew hash_entries and was cleared at a search's start
    assert any(later < earlier for earlier, later in pairwise(sizes))
    python.clear()
    in_c.clear()
    assert in_c.search(state, depth=4) == python.search(state, depth=4)


def test_the_table_stops_growing_at_its_ceiling() -> None:
    # An analysis left running must not take memory without end: past the
    # ceiling the search in C replaces positions and the Python stores no new one,
    # and both still search to the end and give a legal move.
    load_native()
    state = CHESS.state_from_text(KIWIPETE)
    in_c, python = NativeSearcher(), Searcher()
    in_c.table_ceiling = python.table_ceiling = 5000
    found = in_c.search(state, nodes=400_000)
    assert found.nodes >= 400_000 and found.depth >= 6
    assert in_c.native.table_count == 5000  # it filled up, and grew no further
    assert found.move in state.legal_moves()
    slow = python.search(state, nodes=60_000)
    assert 5000 <= len(python.table) <= 5001  # the root's entry may be the one over
    assert slow.move in state.legal_moves()
    # a table not yet full: the ceiling changes nothing
    roomy_c, roomy_python = NativeSearcher(), Searcher()
    roomy_c.table_ceiling = roomy_python.table_ceiling = 10**6
    assert roomy_c.search(state, depth=4) == roomy_python.search(state, depth=4)


def test_a_stop_event_set_before_the_search() -> None:
    load_native()
    stop = threading.Event()
    stop.set()
    state = CHESS.state_from_text(START)
    python, in_c = both(state, stop=stop)
    # both look at the event first at node 2048, and stop there
    assert python.nodes == 2048
    assert in_c == python


def test_a_stop_event_set_during_the_search_and_a_time_limit() -> None:
    # the search runs without the GIL, so another thread's timer sets the event
    load_native()
    state = CHESS.state_from_text(KIWIPETE)
    stop = threading.Event()
    timer = threading.Timer(0.2, stop.set)
    started = time.perf_counter()
    timer.start()
    found = NativeSearcher().search(state, stop=stop)
    timer.join()
    assert 0.2 <= time.perf_counter() - started < 3.0
    assert found.depth >= 3 and found.move in state.legal_moves()
    started = time.perf_counter()
    found = NativeSearcher().search(state, seconds=0.3, use_all_time=True)
    assert 0.3 <= time.perf_counter() - started < 3.0
    assert found.depth >= 3 and found.move in state.legal_moves()


def test_the_engine_and_the_uci_front_end_search_in_c() -> None:
    load_native()
    assert isinstance(ChessEngine().searcher, NativeSearcher)
    assert not isinstance(ChessEngine(native=False).searcher, NativeSearcher)
    assert isinstance(UciEngine().searcher, NativeSearcher)
    assert isinstance(new_searcher(), NativeSearcher)
    assert type(new_searcher(native=False)) is Searcher
    state = CHESS.state_from_text(BACK_RANK)
    assert state.move_to_text(ChessEngine().choose_move(state, level=3)) == "Ra8#"


def test_the_tables_are_checked() -> None:
    native = load_native()
    tables = native_tables()
    native.Searcher(tables)
    changed = dict(tables, tempo=(TEMPO + 1,))
    with pytest.raises(ValueError, match="differ"):
        native.Searcher(changed)
    with pytest.raises(ValueError, match="MATE"):
        native.Searcher(dict(tables, constants=(MATE + 1, MATE_BOUND, 100, 256)))
    with pytest.raises(ValueError, match="3840"):
        native.Searcher(dict(tables, pst_mg=(0,) * 10))
