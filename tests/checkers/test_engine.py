"""The checkers engine: legal moves always, shots found, won endgames converted.

Set-up positions are given as PDN FEN tags. Squares are numbered as in every
checkers book, Black on 1-12 moving down the board::

        1   2   3   4
      5   6   7   8
        9  10  11  12
     13  14  15  16
       17  18  19  20
     21  22  23  24
       25  26  27  28
     29  30  31  32

The tactical positions are checked two ways: by the reasoning written beside
each, and by an exhaustive search with material as the only measure (a plain
minimax over the rules' own move lists, no evaluation, no pruning), so the
expected move is known without the engine.
"""

from __future__ import annotations

import random
import re
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from parlour.ai.search import MATE_BOUND
from parlour.checkers.board import BLACK, SQUARE_BIT, WHITE, Move, children
from parlour.checkers.engine import (
    DOUBLE_CORNERS,
    LEVELS,
    CheckersEngine,
    SearchBoard,
    _king_distance,
    describe_material,
    evaluate,
)
from parlour.checkers.rules import CHECKERS, CheckersState
from parlour.core.protocol import Side
from parlour.core.registry import get_engine

# -- helpers ----------------------------------------------------------------------------


def material(position: tuple[int, int, int, int], side: Side) -> int:
    black_men, black_kings, white_men, white_kings = position
    black = black_men.bit_count() + black_kings.bit_count()
    white = white_men.bit_count() + white_kings.bit_count()
    return black - white if side is BLACK else white - black


def material_minimax(position: tuple[int, int, int, int], side: Side, depth: int) -> int:
    """Pieces ahead after ``depth`` plies of best play, no legal move = -100."""
    following = children(position, side)
    if not following:
        return -100
    if depth == 0:
        return material(position, side)
    return max(-material_minimax(child, side.other, depth - 1) for child in following)


def winning_moves(state: CheckersState, plies: int) -> list[str]:
    """The moves after which the mover is ahead of where it stands now, by
    exhaustive search ``plies`` deep."""
    now = material(state.position, state.turn)
    found = []
    for move in state.legal_moves():
        state.push(move)
        after = -material_minimax(state.position, state.turn, plies - 1)
        state.pop()
        if after > now:
            found.append(str(move))
    return found


def engine_move(state: CheckersState, depth: int) -> Move:
    engine = CheckersEngine()
    result = engine.search(state, depth=depth)
    assert result.best_move is not None
    return engine.to_move(state, result.best_move)


# -- legality ---------------------------------------------------------------------------


def random_set_up(rng: random.Random) -> CheckersState:
    squares = rng.sample(range(1, 33), rng.randint(2, 16))
    half = rng.randint(1, len(squares) - 1)
    lists = {"W": squares[:half][:12], "B": squares[half:][:12]}
    parts = []
    for colour, own in lists.items():
        crown = range(1, 5) if colour == "W" else range(29, 33)
        entries = [f"K{n}" if n in crown or rng.random() < 0.3 else str(n) for n in sorted(own)]
        parts.append(colour + ",".join(entries))
    return CHECKERS.state_from_text(f"{rng.choice('BW')}:{parts[0]}:{parts[1]}")


def test_the_fast_level_plays_only_legal_moves_and_takes_forced_captures() -> None:
    """Thousands of positions: from games of random and engine moves, and set up
    at random with kings anywhere. The engine's move is always a legal one, and a
    capture whenever one is available."""
    engine = CheckersEngine()
    rng = random.Random(6)
    checked = captures = 0
    deadline = time.perf_counter() + 60
    while checked < 2000:
        if checked % 2:
            state = random_set_up(rng)
            states = [state] if state.legal_moves() else []
        else:
            state = CHECKERS.new_state()
            states = []
            for _ in range(rng.randint(0, 80)):
                if state.is_over():
                    break
                state.push(rng.choice(state.legal_moves()))
            if not state.is_over():
                states.append(state)
        for position in states:
            legal = position.legal_moves()
            move = engine.choose_move(position, level=1, rng=rng)
            assert move in legal, position.to_text()
            if any(m.is_capture for m in legal):
                assert move.is_capture, position.to_text()
                captures += 1
        checked += 1
        assert time.perf_counter() < deadline, "the fast level is too slow"
    assert captures > 200


def test_the_search_path_returns_legal_moves_too() -> None:
    engine = CheckersEngine()
    rng = random.Random(7)
    for _ in range(150):
        state = random_set_up(rng)
        if state.is_over():
            continue
        result = engine.search(state, depth=3)
        assert result.best_move is not None
        assert engine.to_move(state, result.best_move) in state.legal_moves()


def test_a_single_legal_move_is_played_at_once() -> None:
    state = CHECKERS.state_from_text("B:W18:B14")  # 14x23 is the only move
    assert str(CheckersEngine().choose_move(state, level=10)) == "14x23"


def test_no_move_to_choose_when_the_game_is_over() -> None:
    state = CHECKERS.state_from_text("B:W18:B")
    with pytest.raises(ValueError, match="over"):
        CheckersEngine().choose_move(state)
    with pytest.raises(ValueError, match="over"):
        CheckersEngine().hint(state)


def test_levels_are_checked() -> None:
    engine = CheckersEngine()
    with pytest.raises(ValueError, match="levels run from 1 to 10"):
        engine.choose_move(CHECKERS.new_state(), level=11)
    assert [engine.time_limit(level) for level in range(1, 11)] == sorted(
        engine.time_limit(level) for level in range(1, 11)
    )


def test_the_game_offers_its_engine() -> None:
    assert isinstance(get_engine("checkers"), CheckersEngine)


# -- tactics ----------------------------------------------------------------------------

SHOTS = [
    # White gives a man on 19: 16x23 is Black's only move, then 27 jumps 23 and
    # 14, landing on 9 (27x18x9): two for one, and nothing can take back.
    ("W:W5,6,23,27,32:B8,14,16,21,22", "23-19"),
    # White gives a man on 24: 20x27 is forced, then 32 jumps 27 and 18
    # (32x23x14): two for one; no Black piece stands above 14 to take it.
    ("W:W5,9,12,28,32:B11,17,18,20,26", "28-24"),
]

CAPTURE_CHOICES = [
    # Black must jump. 10x19x28 takes 15 and 24 and is safe on 28; 20x27 takes
    # only 24 and leaves the rest hanging.
    ("B:W8,14,15,18,21,24:B5,6,10,17,20", "10x19x28"),
    # White must jump. 19x12x3 goes over 16 and 8 and crowns on 3; 21x14 takes one
    # man and gives up more.
    ("W:W7,15,19,21,26:B8,16,17,24", "19x12x3"),
    # Black's triple 3x10x19x28 (over 7, 15 and 24) against the single 20x27.
    ("B:W7,15,18,24:B3,8,12,20,22", "3x10x19x28"),
]


@pytest.mark.parametrize(("fen", "shot"), SHOTS)
def test_finds_the_two_for_one_shot(fen: str, shot: str) -> None:
    state = CHECKERS.state_from_text(fen)
    assert winning_moves(state, plies=3) == [shot]  # the exhaustive check
    state.push(state.parse_move(shot))
    assert all(move.is_capture for move in state.legal_moves())  # the reply is forced
    state.pop()
    assert str(engine_move(state, depth=6)) == shot
    assert str(CheckersEngine().choose_move(state, level=5)) == shot


@pytest.mark.parametrize(("fen", "best"), CAPTURE_CHOICES)
def test_chooses_the_winning_capture_sequence(fen: str, best: str) -> None:
    state = CHECKERS.state_from_text(fen)
    assert best in winning_moves(state, plies=4)
    scores = {}
    for move in state.legal_moves():
        state.push(move)
        scores[str(move)] = -material_minimax(state.position, state.turn, 4)
        state.pop()
    assert max(scores, key=lambda text: scores[text]) == best
    assert sorted(scores.values())[-2] < scores[best]
    assert str(engine_move(state, depth=6)) == best


def test_the_quiescence_search_sees_a_shot_behind_a_forced_capture() -> None:
    # After 23-19 Black must take; at depth 1 only quiescence can see 27x18x9.
    state = CHECKERS.state_from_text("W:W5,6,23,27,32:B8,14,16,21,22")
    assert str(engine_move(state, depth=1)) == "23-19"


# -- endgames ----------------------------------------------------------------------------


Chooser = Callable[[CheckersState], Move]


def by_engine(depth: int) -> Chooser:
    engine = CheckersEngine()

    def choose(state: CheckersState) -> Move:
        return engine_move_with(engine, state, depth)

    return choose


def engine_move_with(engine: CheckersEngine, state: CheckersState, depth: int) -> Move:
    result = engine.search(state, depth=depth)
    assert result.best_move is not None
    return engine.to_move(state, result.best_move)


def runner_to_the_double_corner(state: CheckersState) -> Move:
    """A defender that heads for the nearest double corner and stays there,
    taking when it must."""

    def distance(move: Move) -> tuple[int, int, int]:
        near = min(_king_distance(move.end, corner) for corner in DOUBLE_CORNERS)
        return (-len(move.captured), near, move.end)

    return min(state.legal_moves(), key=distance)


def play_out(state: CheckersState, choosers: dict[Side, Chooser], max_plies: int) -> str:
    while len(state.move_stack) < max_plies:
        outcome = state.rules_outcome()
        if outcome is not None:
            return "Black" if outcome.winner is BLACK else "White"
        if state.claimable_draw():
            return "draw"
        state.push(choosers[state.turn](state))
    return "unfinished"


TWO_AGAINST_ONE = [
    "B:WK32:BK1,K2",  # the lone king in its double corner, the hunters far away
    "W:WK28:BK14,K15",
    "B:WK5:BK30,K31",  # the other double corner
    "B:WK1:BK19,K26",
    "W:WK31,K32:BK1",  # White hunts
    "B:WK18,K19:BK5",
    "W:WK1,K2:BK28",
    "B:WK10,K11:BK32",
]


@pytest.mark.parametrize("fen", TWO_AGAINST_ONE)
def test_two_kings_beat_one_against_itself(fen: str) -> None:
    state = CHECKERS.state_from_text(fen)
    strong = "Black" if state.position[1].bit_count() == 2 else "White"
    result = play_out(state, {BLACK: by_engine(8), WHITE: by_engine(8)}, max_plies=60)
    assert result == strong, state.to_text()


@pytest.mark.parametrize("fen", TWO_AGAINST_ONE[:4] + TWO_AGAINST_ONE[4:6])
def test_two_kings_beat_a_king_running_to_the_double_corner(fen: str) -> None:
    state = CHECKERS.state_from_text(fen)
    strong_side = BLACK if state.position[1].bit_count() == 2 else WHITE
    choosers = {strong_side: by_engine(8), strong_side.other: runner_to_the_double_corner}
    result = play_out(state, choosers, max_plies=60)
    assert result == ("Black" if strong_side is BLACK else "White"), state.to_text()


@pytest.mark.slow
@pytest.mark.parametrize(
    "fen",
    [
        "W:WK5,K1:BK10,K20,K30",  # both defenders in Black's double corner
        "W:WK1,K2,K3:BK27,K32",  # White hunts; the defenders in White's double corner
        "B:WK5,K1:BK18,K19,K22",
    ],
)
def test_three_kings_beat_two(fen: str) -> None:
    """The side ahead must force a trade (then two against one): the evaluation
    pays more for the same lead with fewer pieces left."""
    state = CHECKERS.state_from_text(fen)
    strong = "Black" if state.position[1].bit_count() == 3 else "White"
    result = play_out(state, {BLACK: by_engine(6), WHITE: by_engine(6)}, max_plies=100)
    assert result == strong, state.to_text()


def test_the_winner_avoids_repeating_the_position() -> None:
    # Two kings against one: a repetition in the search path scores as a draw,
    # so the side ahead never walks back into a position of the game.
    state = CHECKERS.state_from_text("B:WK32:BK1,K2")
    choose = by_engine(6)
    seen = {state.to_text()}
    for _ in range(16):
        if state.is_over():
            break
        state.push(choose(state))
        if state.turn is WHITE and not state.is_over():
            assert state.to_text() not in seen
            seen.add(state.to_text())
            state.push(runner_to_the_double_corner(state))


def test_a_repeated_position_scores_as_a_draw_in_the_search() -> None:
    start = CHECKERS.state_from_text("B:WK32:BK1")
    board = SearchBoard.from_state(start)
    # both kings step out and back: Black 1-6, White 32-27, Black 6-1, White 27-32
    for a, b in [(1, 6), (32, 27), (6, 1), (27, 32)]:
        step = (SQUARE_BIT[a], SQUARE_BIT[b], 0)
        assert step in board.moves()
        assert board.terminal_score(1) is None  # nothing repeated yet
        board.make(step)
    assert board.terminal_score(4) == 0  # back where it started: a draw
    assert board.terminal_score(0) is None  # but never at the root
    assert not board.at_root
    # what the C search is given: each position as often as it stood, the start twice
    assert board.history().count(board.key) == 2 and len(board.history()) == 5
    for _ in range(4):
        board.unmake()
    assert board.at_root and board.history() == [board.key]
    assert board.key == (*start.position, BLACK)
    assert board.terminal_score(1) is None


def test_the_forty_move_rule_scores_as_a_draw_in_the_search() -> None:
    state = CheckersState.from_position(
        CHECKERS.state_from_text("B:WK32:BK1").position, BLACK, quiet_plies=79
    )
    board = SearchBoard.from_state(state)
    assert board.terminal_score(1) is None
    board.make((SQUARE_BIT[1], SQUARE_BIT[6], 0))
    assert board.terminal_score(1) == 0


def test_no_legal_move_is_a_mate_score_preferring_the_quickest() -> None:
    # Black to move takes White's last piece at once: a win in one move.
    state = CHECKERS.state_from_text("B:W18:BK14,K22")
    result = CheckersEngine().search(state, depth=6)
    assert result.score >= MATE_BOUND and result.mate_in == 1


# -- levels against each other ------------------------------------------------------------


@pytest.mark.slow
def test_level_one_loses_to_the_default_level() -> None:
    """A handful of seeded games, colours alternating. A game is stopped once one
    side is two pieces ahead with the exchanges over (two plies in a row with no
    capture to make: decided between these two players) or after 120 plies, then
    judged by material: two pieces ahead counts as a win."""
    rng = random.Random(11)
    beginner_points = 0.0
    games = 4
    for game in range(games):
        state = CHECKERS.new_state()
        beginner_side = BLACK if game % 2 == 0 else WHITE
        beginner, default = CheckersEngine(), CheckersEngine()
        settled = 0  # plies in a row with a two-piece lead and no capture pending
        while len(state.move_stack) < 120 and not state.is_over():
            quiet = not any(move.is_capture for move in state.legal_moves())
            lead = abs(material(state.position, BLACK))
            settled = settled + 1 if quiet and lead >= 2 else 0
            if state.claimable_draw() or settled >= 2:
                break
            if state.turn is beginner_side:
                move = beginner.choose_move(state, level=1, rng=rng)
            else:
                move = default.choose_move(state, rng=rng)  # the default level
            state.push(move)
        outcome = state.outcome()
        if outcome is not None and outcome.winner is not None:
            beginner_points += outcome.winner is beginner_side
        else:
            lead = material(state.position, beginner_side)
            beginner_points += 1.0 if lead >= 2 else 0.0 if lead <= -2 else 0.5
    assert beginner_points <= 1.0


# -- evaluation and words -------------------------------------------------------------


def test_the_evaluation_is_symmetric() -> None:
    rng = random.Random(3)
    for _ in range(300):
        state = random_set_up(rng)
        mirrored = CHECKERS.state_from_text(_mirror_fen(state))
        assert evaluate(mirrored.position) == -evaluate(state.position), state.to_text()


def _mirror_fen(state: CheckersState) -> str:
    """The position turned half round with the colours swapped: square n of one
    side becomes square 33 - n of the other."""
    lists: dict[str, list[str]] = {"W": [], "B": []}
    for square in range(1, 33):
        piece = state.piece_at(square)
        if piece is None:
            continue
        colour = "W" if piece in "bB" else "B"
        lists[colour].append(("K" if piece.isupper() else "") + str(33 - square))
    turn = "W" if state.turn is BLACK else "B"
    return f"{turn}:W{','.join(lists['W'])}:B{','.join(lists['B'])}"


def test_kings_are_worth_more_than_men_and_trading_down_pays_when_ahead() -> None:
    king = evaluate(CHECKERS.state_from_text("B:W30:BK14").position)
    man = evaluate(CHECKERS.state_from_text("B:W30:B14").position)
    assert king > man
    # three kings against two, and two against one after a trade
    before = evaluate(CHECKERS.state_from_text("B:WK14,K19:BK1,K2,K3").position)
    after = evaluate(CHECKERS.state_from_text("B:WK14:BK1,K2").position)
    assert after > before > 0


def test_a_lone_king_is_safest_in_the_double_corner() -> None:
    in_corner = evaluate(CHECKERS.state_from_text("B:WK32:BK14,K15").position)
    on_the_edge = evaluate(CHECKERS.state_from_text("B:WK20:BK14,K15").position)
    assert on_the_edge > in_corner > 0


@pytest.mark.parametrize(
    ("fen", "side", "words"),
    [
        ("B:W21,22:B1,2,3", BLACK, "a man up"),
        ("B:W21,22:B1,2,3", WHITE, "a man down"),
        ("B:W21,22,23:B1,2,3,4,5", BLACK, "two men up"),
        ("B:WK21:BK1,K2", BLACK, "two kings against one"),
        ("B:WK21,K22:BK1,K2,K3", BLACK, "three kings against two"),
        ("B:W21:BK1,5", BLACK, "a king up"),
        ("B:W21,22:BK1,5", BLACK, "a king for a man"),
        ("B:W21,22,23:BK1", BLACK, "a king for three men"),
        ("B:W21:B1", BLACK, ""),
    ],
)
def test_material_in_words(fen: str, side: Side, words: str) -> None:
    assert describe_material(CHECKERS.state_from_text(fen).position, side) == words


def test_hints_speak_a_players_language() -> None:
    engine = CheckersEngine()
    start = engine.hint(CHECKERS.new_state())
    assert start.assessment == "about even"
    assert start.move in CHECKERS.new_state().legal_moves() and start.move_text == str(start.move)

    won = engine.hint(CHECKERS.state_from_text("B:W18:BK14,K22"))
    assert won.assessment == "Black wins in 1 move" and won.move_text in ("22x15", "14x23")

    ahead = engine.hint(CHECKERS.state_from_text("W:W27,28,31,32:B1,2,3,5,6"))
    assert ahead.assessment.startswith("Black is") and "a man up" in ahead.assessment

    kings = engine.hint(CHECKERS.state_from_text("W:WK14,K15:BK32"))
    assert kings.assessment.startswith(("White is winning: two kings against one", "White wins"))


def test_default_level_answers_within_about_a_second() -> None:
    engine = CheckersEngine()
    state = CHECKERS.new_state()
    for text in ["11-15", "23-19", "8-11", "22-17"]:
        state.push(state.parse_move(text))
    started = time.perf_counter()
    engine.choose_move(state)
    assert time.perf_counter() - started < 1.5
    assert LEVELS[engine.default_level].seconds <= 1.0


def test_each_level_keeps_its_time() -> None:
    engine = CheckersEngine()
    rng = random.Random(2)
    state = CHECKERS.new_state()
    for _ in range(16):
        state.push(rng.choice(state.legal_moves()))
    for level in range(1, 8):
        started = time.perf_counter()
        move = engine.choose_move(state, level=level, rng=rng)
        # a little slack: the machine is shared and the clock is read now and then
        assert time.perf_counter() - started < engine.time_limit(level) + 0.15, level
        assert move in state.legal_moves()


def test_every_level_states_its_measured_strength() -> None:
    """Each level's words (shown by the help and the web page) carry its place on
    the ladder measured by benchmarks/checkers_levels.py, and the same figures are
    recorded with their commands in docs/benchmarks.md."""
    strengths = CheckersEngine.level_strengths
    assert sorted(strengths) == list(range(1, CheckersEngine.strongest + 1))
    docs = (Path(__file__).resolve().parents[2] / "docs" / "benchmarks.md").read_text()
    ladder = [0]  # level 1, the foot of the ladder
    assert "| 1 | 0 |" in docs
    for level in range(2, CheckersEngine.strongest + 1):
        found = re.search(r"(\d+) Elo above level 1", strengths[level])
        assert found is not None, strengths[level]
        ladder.append(int(found.group(1)))
        assert f"| {level} | {found.group(1)} |" in docs, level
    assert ladder == sorted(ladder) and len(set(ladder)) == len(ladder)  # each level stronger
