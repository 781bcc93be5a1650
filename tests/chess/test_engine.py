"""The chess engine, checked against python-chess (test-only) as the referee."""

from __future__ import annotations

import random
import re
from pathlib import Path

import chess
import pytest

from parlour.chess.board import Move
from parlour.chess.engine import (
    LEVELS,
    MATE,
    MATE_BOUND,
    ChessEngine,
    Searcher,
    SearchResult,
    assess,
    deliberate_choice,
    evaluate,
    evaluate_terms,
    pawn_key,
    pawn_structure,
)
from parlour.chess.rules import CHESS, ChessState
from parlour.core.errors import GameOverError
from parlour.core.registry import get_engine


def mates_in_one(board: chess.Board) -> bool:
    """Whether the side to move has a mate in one (python-chess)."""
    for move in board.legal_moves:
        board.push(move)
        mate = board.is_checkmate()
        board.pop()
        if mate:
            return True
    return False


def forces_mate_in_one_more(board: chess.Board) -> bool:
    """After a move of the attacker: every reply allows a mate in one (or it is mate)."""
    if board.is_checkmate():
        return True
    if board.is_game_over():
        return False
    for reply in list(board.legal_moves):
        board.push(reply)
        ok = mates_in_one(board)
        board.pop()
        if not ok:
            return False
    return True


MATE_IN_ONE = [
    "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1",
    "k7/8/2K5/8/8/8/8/1Q6 w - - 0 1",
    "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 0 1",
    "6rk/6pp/8/6N1/8/8/8/6K1 w - - 0 1",
    "r5k1/5ppp/8/8/8/8/5PPP/6K1 b - - 0 1",
    "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2",
    "3r2k1/8/8/8/8/8/5PPP/6K1 b - - 0 1",
]

MATE_IN_TWO = [
    "7k/8/8/8/8/8/R7/1R4K1 w - - 0 1",
    "3k4/8/3K4/8/8/8/8/4R3 w - - 0 1",
    "1r4k1/r7/8/8/8/8/8/7K b - - 0 1",
    "6k1/pp4p1/2p5/2bp4/8/P5Pb/1P3rrP/2BRRN1K b - - 0 1",
]


@pytest.mark.parametrize("fen", MATE_IN_ONE)
def test_mate_in_one_is_found(fen: str) -> None:
    board = chess.Board(fen)
    assert mates_in_one(board)  # the position is what it claims
    result = Searcher().search(CHESS.state_from_text(fen), depth=3)
    board.push_uci(result.move.uci())
    assert board.is_checkmate()
    assert result.score == MATE - 1


@pytest.mark.parametrize("fen", MATE_IN_TWO)
def test_mate_in_two_is_found(fen: str) -> None:
    board = chess.Board(fen)
    assert not mates_in_one(board)
    result = Searcher().search(CHESS.state_from_text(fen), depth=5)
    assert result.score == MATE - 3, "the engine sees mate in two"
    board.push_uci(result.move.uci())
    assert forces_mate_in_one_more(board), "python-chess agrees the move forces mate"


@pytest.mark.parametrize("fen", MATE_IN_ONE[:2] + MATE_IN_TWO[:1])
def test_every_level_plays_mate_in_one_and_default_level_mates(fen: str) -> None:
    engine = ChessEngine()
    state = CHESS.state_from_text(fen)
    move = engine.choose_move(state, level=engine.default_level, rng=random.Random(1))
    board = chess.Board(fen)
    board.push_uci(move.uci())
    assert board.is_checkmate() or forces_mate_in_one_more(board)


def test_the_weak_levels_choose_among_the_moves_within_their_margin() -> None:
    moves = [Move.from_uci(text) for text in ("e2e4", "d2d4", "g1f3", "b1a3")]

    def result(*scores: int) -> SearchResult:
        root = tuple(zip(moves, scores, strict=True))
        return SearchResult(moves[0], scores[0], 2, 100, 0.1, (moves[0],), root_scores=root)

    rng = random.Random(5)
    picked = {deliberate_choice(result(40, 0, -20, -200), 60, rng) for _ in range(200)}
    assert picked == set(moves[:3])  # all three within 60 of the best, never the fourth
    for best in (MATE - 1, -MATE + 2):  # a seen mate, either way, is played as searched
        picked = {deliberate_choice(result(best, best, best, best), 60, rng) for _ in range(50)}
        assert picked == {moves[0]}
    empty = SearchResult(moves[1], 0, 1, 10, 0.1, (moves[1],))
    assert deliberate_choice(empty, 60, rng) == moves[1]


@pytest.mark.parametrize("level", [1, 2, 3])
def test_the_weak_levels_take_a_mate_in_one(level: int) -> None:
    engine = ChessEngine()
    for seed in range(4):
        for fen in MATE_IN_ONE:
            move = engine.choose_move(CHESS.state_from_text(fen), level, random.Random(seed))
            board = chess.Board(fen)
            board.push_uci(move.uci())
            assert board.is_checkmate(), (level, fen, move.uci())


@pytest.mark.parametrize(
    ("fen", "capture"),
    [
        # A knight left hanging on e5 (White to move), a queen en prise on d4 (Black).
        ("r1bqkb1r/pppp1ppp/2n2n2/4N3/4P3/8/PPPP1PPP/RNBQKB1R b KQkq - 0 3", "c6e5"),
        ("rnb1kbnr/ppp1pppp/8/8/3q4/2N5/PPP2PPP/R1BQKBNR w KQkq - 0 4", "d1d4"),
        ("4k3/8/8/3r4/8/8/3R4/4K3 w - - 0 1", "d2d5"),
    ],
)
def test_a_hanging_piece_is_taken(fen: str, capture: str) -> None:
    board = chess.Board(fen)
    assert board.is_capture(chess.Move.from_uci(capture))
    move = ChessEngine().choose_move(CHESS.state_from_text(fen), level=4)
    assert move.uci() == capture


@pytest.mark.parametrize(
    "fen",
    [
        # Queen against king: many natural queen moves stalemate.
        "k7/2K5/8/8/8/8/8/1Q6 w - - 0 1",
        "7k/8/5K2/8/8/8/8/6Q1 w - - 0 1",
        # Black, a rook and more up, with the white king short of squares.
        "K7/8/1k6/8/8/8/8/2q5 b - - 0 1",
    ],
)
def test_stalemate_is_avoided_when_winning(fen: str) -> None:
    board = chess.Board(fen)
    stalemating = []
    for m in list(board.legal_moves):
        board.push(m)
        if board.is_stalemate():
            stalemating.append(m.uci())
        board.pop()
    assert stalemating, "the position offers a stalemate to walk into"
    move = ChessEngine().choose_move(CHESS.state_from_text(fen), level=4)
    board.push_uci(move.uci())
    assert not board.is_stalemate()


def random_positions(count: int, seed: int) -> list[str]:
    """Positions reached by random games (python-chess plays them)."""
    rng = random.Random(seed)
    fens: list[str] = []
    while len(fens) < count:
        board = chess.Board()
        for _ in range(rng.randrange(4, 120)):
            moves = list(board.legal_moves)
            if not moves or board.is_game_over():
                break
            board.push(rng.choice(moves))
        if not board.is_game_over(claim_draw=False) and not board.is_repetition(5):
            fens.append(board.fen())
    return fens


def test_only_legal_moves_at_the_fast_levels_over_random_positions() -> None:
    engine = ChessEngine()
    rng = random.Random(7)
    checked = 0
    for i, fen in enumerate(random_positions(200, seed=11)):
        state = CHESS.state_from_text(fen)
        if state.is_over():
            continue
        level = 2 if i % 3 == 2 else 1
        move = engine.choose_move(state, level=level, rng=rng)
        assert chess.Move.from_uci(move.uci()) in chess.Board(fen).legal_moves, (fen, level)
        checked += 1
    assert checked >= 180


def test_only_legal_moves_from_short_full_searches() -> None:
    searcher = Searcher()
    for fen in random_positions(30, seed=12):
        state = CHESS.state_from_text(fen)
        if state.is_over():
            continue
        result = searcher.search(state, depth=3)
        board = chess.Board(fen)
        for move in result.pv:  # the whole principal variation is legal
            assert chess.Move.from_uci(move.uci()) in board.legal_moves, fen
            board.push_uci(move.uci())


def test_the_search_leaves_the_position_unchanged() -> None:
    fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
    state = CHESS.state_from_text(fen)
    Searcher().search(state, depth=3)
    assert state.to_text() == fen and state.hash == state.compute_hash()


def test_evaluation_is_symmetric_and_incremental_terms_match() -> None:
    for fen in random_positions(40, seed=13):
        state = CHESS.state_from_text(fen)
        mirrored = CHESS.state_from_text(chess.Board(fen).mirror().fen())
        assert evaluate(state) == evaluate(mirrored), fen


def test_incremental_evaluation_matches_a_fresh_count() -> None:
    # Random games through every kind of move (captures, castling, en passant,
    # promotions): the search's running sums must equal the sums counted afresh.
    rng = random.Random(5)
    searcher = Searcher()
    kinds = set()
    for _ in range(30):
        state = CHESS.new_state()
        searcher.state = state
        terms = evaluate_terms(state)
        key = pawn_key(state)
        for _ in range(150):
            moves = state.generate()
            if not moves:
                break
            m = rng.choice(moves)
            kinds.add(m[2] if m[2] < 10 else 10)
            dmg, deg, dph, dpk = searcher._delta(m)
            state.make(m)
            terms = (terms[0] + dmg, terms[1] + deg, terms[2] + dph)
            key ^= dpk
            assert terms == evaluate_terms(state), state.to_text()
            assert key == pawn_key(state), state.to_text()
    assert kinds == {0, 1, 2, 3, 10}, "every kind of move was tried"


def play(engine: ChessEngine, white_level: int, black_level: int, seed: int) -> str | None:
    """A game between two levels; the winner's colour name, or None for a draw."""
    state: ChessState = CHESS.new_state()
    rng = random.Random(seed)
    while not state.is_over() and len(state.stack) < 240:
        if state.claimable_draw():
            return None
        level = white_level if state.color == 8 else black_level
        state.push(engine.choose_move(state, level=level, rng=rng))
    outcome = state.outcome()
    if outcome is None or outcome.winner is None:
        return None
    return "white" if outcome.winner.value == 0 else "black"


def test_level_one_loses_to_the_default_level() -> None:
    engine = ChessEngine()
    default = engine.default_level
    assert play(engine, default, 1, seed=1) == "white"
    assert play(engine, 1, default, seed=2) == "black"


def test_levels_are_bounded_in_time() -> None:
    engine = ChessEngine()
    limits = [engine.time_limit(level) for level in range(1, 11)]
    assert limits == [LEVELS[level].seconds for level in range(1, 11)]
    assert max(limits) <= 10 and limits[-1] == max(limits)
    assert engine.time_limit(engine.default_level) <= 1.0
    with pytest.raises(ValueError, match="levels run from 1 to 10"):
        engine.time_limit(11)


def test_hint_names_the_best_move_and_the_mate() -> None:
    state = CHESS.state_from_text(MATE_IN_TWO[2])
    hint = ChessEngine().hint(state)
    assert hint.assessment == "Black is winning: mate in 2"
    assert hint.score == MATE - 3
    assert hint.move_text == state.move_to_text(hint.move)


def test_hint_in_a_level_position_and_a_pawn_up() -> None:
    engine = ChessEngine()
    hint = engine.hint(CHESS.new_state())
    assert hint.assessment in ("about even", "White is slightly better")
    assert hint.move in CHESS.new_state().legal_moves()
    up = engine.hint(CHESS.state_from_text("4k3/pp3ppp/8/8/8/8/PPP2PPP/4K3 b - - 0 1"))
    assert up.assessment == "White is a pawn up"
    assert up.score is not None and up.score < 0  # from Black's side


def test_assessment_words() -> None:
    assert assess(0, True) == "about even"
    assert assess(60, False) == "Black is slightly better"
    assert assess(-250, True) == "Black is 2 pawns up"
    assert assess(MATE - 1, True) == "White is winning: mate in 1"
    assert assess(-(MATE - 2), True) == "Black is winning: mate in 1"
    assert assess(2000, True) == "White is winning"
    assert MATE_BOUND < MATE


def test_game_over_and_wrong_game_are_errors() -> None:
    engine = ChessEngine()
    mated = CHESS.state_from_text("R5k1/5ppp/8/8/8/8/5PPP/6K1 b - - 0 1")
    with pytest.raises(GameOverError):
        engine.choose_move(mated)
    with pytest.raises(TypeError, match="plays chess"):
        engine.choose_move(object())  # type: ignore[arg-type]


def test_the_game_hands_out_its_engine() -> None:
    engine = get_engine("chess")
    assert isinstance(engine, ChessEngine)
    move = engine.choose_move(CHESS.new_state(), level=1, rng=random.Random(3))
    assert isinstance(move, Move) and move in CHESS.new_state().legal_moves()


def test_a_draw_by_repetition_is_seen_in_search() -> None:
    # White is material down and Black threatens mate, but Qe8+ Kh7 Qh5+ Kg8 repeats
    # for ever: the search must see the repetition as a draw (score 0), not the
    # material it would otherwise count.
    fen = "n5k1/6p1/8/7Q/8/8/rr4PP/7K w - - 0 1"
    result = Searcher().search(CHESS.state_from_text(fen), depth=6)
    assert result.move.uci() == "h5e8"
    assert result.score == 0


def test_a_side_that_is_winning_does_not_repeat() -> None:
    # The same pattern with Black to move and far ahead: Black avoids the draw.
    state = CHESS.state_from_text("n5k1/6p1/8/7Q/8/8/rr4PP/7K w - - 0 1")
    for text in ["Qe8+", "Kh7", "Qh5+", "Kg8", "Qe8+"]:
        state.play(text)
    result = Searcher().search(state, depth=4)
    assert result.move.uci() == "g8h7"  # forced: the only legal move
    assert result.score == 0  # and it repeats: the draw is seen through the game's history


def test_a_bare_minor_piece_is_no_advantage() -> None:
    # Knight against king cannot mate: the search scores it a draw, not a piece up.
    bare = CHESS.state_from_text("8/8/8/2k5/8/8/1K1N4/8 w - - 0 1")
    assert Searcher().search(bare, depth=4).score == 0
    # With a pawn besides, White is winning and the search says so.
    with_pawn = CHESS.state_from_text("8/8/8/2k5/8/8/1K1N2P1/8 w - - 0 1")
    assert Searcher().search(with_pawn, depth=4).score > 300


def test_quiescence_sees_a_capture_that_mates() -> None:
    """Rxe8 is mate: in quiescence the side in check may not stand pat on being a rook
    down, it must find an evasion, and there is none."""
    state = CHESS.state_from_text("4r1k1/5ppp/8/8/8/8/5PPP/4R1K1 w - - 0 1")
    searcher = Searcher()
    searcher.state = state.copy()
    mg, eg, phase = evaluate_terms(state)
    score = searcher._quiesce(-MATE - 1, MATE + 1, 0, mg, eg, phase, pawn_key(state))
    assert score == MATE - 1


def test_an_unfinished_iteration_still_gives_a_legal_move_and_keeps_the_position() -> None:
    """Searching to the deadline (UCI movetime) stops mid-iteration; the move played is
    legal and the position as it was."""
    state = CHESS.state_from_text(
        "r2q1rk1/1b2bppp/p2p1n2/np2p3/3PP3/5N1P/PPBN1PP1/R1BQR1K1 w - - 0 13"
    )
    before = state.to_text()
    for seconds in (0.01, 0.05, 0.2):
        result = Searcher().search(state, seconds=seconds, use_all_time=True)
        assert result.move in state.legal_moves()
        assert result.seconds < seconds + 2.0  # a check every 2048 nodes; a loaded machine
    assert state.to_text() == before


@pytest.mark.parametrize(
    ("fen", "expected"),
    [
        # d5 is passed on its fifth rank (+16, +32) and isolated (-10, -14).
        ("4k3/8/8/3P4/8/8/8/4K3 w - - 0 1", (6, 18)),
        # c7 stops d5 being passed; each side has one isolated pawn: even.
        ("4k3/2p5/8/3P4/8/8/8/4K3 w - - 0 1", (0, 0)),
        # c2 and c3: passed (0 + 4, 6 + 10), isolated twice, doubled once.
        ("4k3/8/8/8/8/2P5/2P5/4K3 w - - 0 1", (-26, -30)),
    ],
)
def test_pawn_structure_terms(fen: str, expected: tuple[int, int]) -> None:
    state = CHESS.state_from_text(fen)
    assert pawn_structure(state.board) == expected
    mirrored = CHESS.state_from_text(chess.Board(fen).mirror().fen())
    assert pawn_structure(mirrored.board) == (-expected[0], -expected[1])


def test_each_measured_level_states_its_place_on_stockfishs_scale() -> None:
    """The words of each measured level (shown by the help and the web page) carry
    its figure on Stockfish's UCI_Elo scale ("about" it, or "under" it where the
    level lost every game to the one above), the same as in docs/benchmarks.md's
    table of the matches it follows from; a stronger level never has the lower figure
    (levels whose games do not tell them apart share one: the fit of their games
    together, as docs/benchmarks.md says)."""
    strengths = ChessEngine.level_strengths
    assert strengths and set(strengths) <= set(LEVELS)
    docs = (Path(__file__).resolve().parents[2] / "docs" / "benchmarks.md").read_text()
    figures = []
    for level in sorted(strengths):
        found = re.search(r"((?:about|under) (\d+)) on Stockfish's UCI_Elo scale", strengths[level])
        assert found is not None, strengths[level]
        figures.append(int(found.group(2)))
        assert f"| {level} | {found.group(1)} |" in docs, level
    assert figures == sorted(figures)
