"""The coach's analysis API over the three games: positions and whole games judged,
results as they come, a stop that stops, and each game's own scale.

The budgets here are nodes, not seconds, so that the machine's load does not change
what is found. Where a judgement is asserted, the test shows the error by the
rules themselves (a man left to be taken, a mate allowed), not by the engine."""

from __future__ import annotations

import threading
import time

import pytest

from parlour.analysis.coach import (
    MoveReview,
    _Analyst,
    _confirmed,
    analyse_game,
    analyse_position,
    opening_of,
)
from parlour.backgammon.board import Position
from parlour.backgammon.notation import position_id
from parlour.backgammon.rules import BackgammonState
from parlour.chess.rules import ChessState
from parlour.core.judgement import Judgement
from parlour.core.protocol import CHANCE, Side
from parlour.core.registry import get_engine, get_game

SCHOLARS_MATE = "e4 e5 Qh5 Nc6 Bc4 Nf6 Qxf7#"
#: Black's 10-15 leaves the man on 10 to 17x10, with no recapture (checked below).
CHECKERS_HANGING = "11-16 22-18 7-11 26-22 9-14 18x9 5x14 22-17"


def chess_game(line: str) -> ChessState:
    state = get_game("chess").new_state()
    state.play_line(line)
    return state


def test_a_mate_in_one_allowed_is_a_blunder_and_the_mate_is_best() -> None:
    state = get_game("chess").new_state()
    state.play_line(SCHOLARS_MATE)
    outcome = state.outcome()
    assert outcome is not None and outcome.winner is Side.FIRST
    review = analyse_game(state, nodes=20_000)
    moves = {move.move: move for move in review.moves}
    assert [move.ply for move in review.moves] == list(range(1, 8))
    blunder = moves["Nf6"]
    assert blunder.judgement is Judgement.BLUNDER and blunder.side is Side.SECOND
    assert blunder.best != "Nf6" and blunder.loss > 0.5
    # the defence the coach offers really stops the mate
    defended = get_game("chess").new_state()
    defended.play_line("e4 e5 Qh5 Nc6 Bc4 " + blunder.best)
    assert "Qxf7#" not in [defended.move_to_text(m) for m in defended.legal_moves()]
    assert moves["Qxf7#"].judgement is None and moves["Qxf7#"].loss == 0
    black, white = review.summary[Side.SECOND], review.summary[Side.FIRST]
    assert black.counts == {"inaccuracy": 0, "mistake": 0, "blunder": 1}
    assert white.accuracy is not None and black.accuracy is not None
    assert white.accuracy > black.accuracy
    assert review.curve[-1] == 1.0 and review.evals[-1] is None  # won by White: over


def test_results_come_as_they_are_found_and_progress_counts_positions() -> None:
    heard: list[MoveReview] = []
    progress: list[tuple[int, int]] = []
    state = get_game("chess").new_state()
    state.play_line("e4 e5 Nf3 Nc6")
    review = analyse_game(
        state, nodes=3_000, on_move=heard.append, on_progress=lambda d, t: progress.append((d, t))
    )
    assert heard == review.moves
    assert progress == [(1, 4), (2, 4), (3, 4), (4, 4)]
    assert review.complete and len(review.curve) == 5 == len(review.evals)


def test_a_stop_ends_the_analysis_with_what_was_found() -> None:
    stop = threading.Event()
    state = get_game("chess").new_state()
    state.play_line("e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6")
    stopped_at: list[float] = []

    def progress(done: int, total: int) -> None:
        if done == 2:
            stop.set()
            stopped_at.append(time.monotonic())

    review = analyse_game(state, seconds=1, on_progress=progress, stop=stop)
    assert not review.complete
    assert [move.ply for move in review.moves] == [1, 2]
    # the search begun after the stop ended at once (in milliseconds), not on its
    # budget of a second
    assert time.monotonic() - stopped_at[0] < 0.5


def test_the_game_is_replayed_from_its_start_even_when_resigned() -> None:
    state = get_game("chess").state_from_text("4k3/8/8/8/8/8/4P3/4K3 w - - 0 30")
    state.play_line("e4 Kd7")
    state.resign(Side.SECOND)
    start, moves = opening_of(state)
    assert not start.is_over() and start.first_move_number() == 30
    assert [start.move_to_text(moves[0])] == ["e4"] and len(moves) == 2
    assert state.is_over() and len(state.move_stack) == 2  # the game itself untouched


def test_several_lines_best_first_and_a_mate_is_certain() -> None:
    state = get_game("chess").state_from_text("6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1")
    review = analyse_position(state, lines=3, nodes=20_000)
    assert review is not None
    firsts = [line.move_text for line in review.lines]
    assert firsts[0] == "Ra8#" and len(set(firsts)) == 3
    scores = [line.score for line in review.lines]
    assert scores == sorted(scores, reverse=True)
    assert review.value == pytest.approx(1.0, abs=0.06) and review.score_text == "#1"
    assert review.depth >= 1 and review.side is Side.FIRST


def test_a_checkers_man_left_hanging_is_at_least_a_mistake() -> None:
    checkers = get_game("checkers")
    state = checkers.new_state()
    state.play_line(CHECKERS_HANGING)
    # the rules show the man is lost: every reply captures, none can be recaptured
    probe = state.copy()
    probe.play("10-15")
    replies = probe.legal_moves()
    assert replies and all(reply.captured for reply in replies)
    for reply in replies:
        after = probe.copy()
        after.push(reply)
        assert not any(move.captured for move in after.legal_moves())
    state.play("10-15")
    review = analyse_game(state, nodes=20_000)
    last = review.moves[-1]
    assert last.move == "10-15" and last.side is Side.FIRST
    assert last.judgement in (Judgement.MISTAKE, Judgement.BLUNDER)
    assert last.best != "10-15" and review.judged_by == "chances"


def test_a_checkers_position_gives_its_best_lines() -> None:
    state = get_game("checkers").state_from_text("B:W18:B14,K5")
    review = analyse_position(state, nodes=2_000)
    assert review is not None and review.best is not None
    assert review.best.move_text == "14x23" and review.value == 1.0


def backgammon_after(line: list[str]) -> BackgammonState:
    state = get_game("backgammon").new_state()
    for text in line:
        state.play(text)
    return state


def test_a_backgammon_play_is_judged_by_equity_against_the_best_play() -> None:
    good = backgammon_after(["31", "8/5 6/5"])
    bad = backgammon_after(["31", "24/21 24/23"])
    good_review, bad_review = analyse_game(good), analyse_game(bad)
    assert good_review.judged_by == "equity"
    (good_play,) = good_review.moves
    (bad_play,) = bad_review.moves
    assert good_play.judgement is None and good_play.loss == 0
    assert bad_play.best == "8/5 6/5" and bad_play.loss >= 0.04
    assert bad_play.judgement in (Judgement.DOUBTFUL, Judgement.BAD, Judgement.VERY_BAD)
    summary = bad_review.summary[bad_play.side]
    assert summary.decisions == 1 and summary.error_rate == pytest.approx(1000 * bad_play.loss)
    assert summary.rating is not None


def test_each_throw_after_the_first_has_its_luck() -> None:
    state = backgammon_after(["31", "8/5 6/5", "roll", "66"])
    state.push(state.legal_moves()[0])
    state.play("roll")  # the cube decision before the next throw
    assert state.turn is CHANCE
    state.play("21")
    state.push(state.legal_moves()[0])
    review = analyse_game(state)
    plays = [move for move in review.moves if move.kind == "move"]
    assert plays[0].luck is None  # the opening throw: no one was on roll before it
    assert plays[1].luck is not None and plays[1].luck > 0.1  # 66 is a joker here
    assert plays[2].luck is not None and plays[2].luck < 0  # 21 after it is poor
    luck = review.summary[Side.SECOND].luck if plays[1].side is Side.SECOND else None
    assert luck is not None and luck == pytest.approx(plays[1].luck)


def test_a_hopeless_take_is_a_very_bad_cube_decision() -> None:
    # the doubler bears off its last checker next turn; the taker, with ten off,
    # needs two more turns: double, and pass (taking loses two points, not one)
    doubler = (1,) + (0,) * 24
    taker = (0,) * 5 + (5,) + (0,) * 19
    state = get_game("backgammon").state_from_text(position_id(Position(doubler, taker)))
    state.play("double")
    state.play("take")
    review = analyse_game(state)
    kinds = {move.kind: move for move in review.moves}
    assert set(kinds) == {"double", "take"}
    assert kinds["double"].judgement is None and kinds["double"].side is Side.FIRST
    take = kinds["take"]
    assert take.side is Side.SECOND and take.best == "drop"
    assert take.judgement is Judgement.VERY_BAD and take.loss == pytest.approx(1.0, abs=0.01)


def test_a_mistake_is_confirmed_by_searching_the_two_moves_alone() -> None:
    """Reti - Tartakower, Vienna 1910, after 6... Qa5+: 7. Bd2 gives a pawn for a
    trap that mates if Black also takes the knight; 7. Qc3 Qxc3+ 8. bxc3 Nxe4 loses
    the knight. Told that Qc3 was best and Bd2 a blunder, the second
    look, each move searched alone, finds Bd2 the better: no loss, and it is the
    best."""
    state = get_game("chess").new_state()
    state.play_line("e4 c6 d4 d5 Nc3 dxe4 Nxe4 Nf6 Qd3 e5 dxe5 Qa5+")
    engine = get_engine(state.game)
    analyst = _Analyst(engine, 1.0, 60_000, threading.Event())
    queen = analyst.analyse(state, state.parse_move("Qc3"))
    assert queen is not None and queen.lines
    loss, best = _confirmed(analyst, state, state.parse_move("Bd2"), queen.lines[0], 0.4)
    assert loss == 0.0
    assert best.move_text == "Bd2"
