"""The backgammon opponent: the network's arithmetic, the trainer, the cube
equities and the engine's choices."""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest

from parlour.backgammon.board import Position, legal_plays
from parlour.backgammon.cube import CubeOptions
from parlour.backgammon.engine import (
    LEVEL_FILTERS,
    THROWS,
    BackgammonEngine,
    Filter,
    _kept,
)
from parlour.backgammon.equity import (
    Chances,
    match_cube_decision,
    match_equity,
    money_cube_decision,
    money_equity,
    take_points,
)
from parlour.backgammon.network import (
    BOARD_INPUTS,
    INPUTS,
    Array,
    Network,
    _sigmoid,
    encode,
    equity,
    flip,
    shipped_network,
)
from parlour.backgammon.notation import position_id
from parlour.backgammon.rules import BACKGAMMON, Action, BackgammonGame, Phase
from parlour.backgammon.train import (
    Trainer,
    choose_play,
    fit,
    lookahead_targets,
    self_play_positions,
)
from parlour.backgammon.train import main as train_main
from parlour.core.dice import Dice
from parlour.core.protocol import CHANCE
from parlour.core.registry import get_engine

# -- the network -----------------------------------------------------------------


def test_inputs_describe_the_start_position() -> None:
    (row,) = encode([Position.start()])
    assert row.shape == (INPUTS,)
    # each side: 4 points held (at least one), 2 with three or more and surplus 2 each
    for side in (0, 1):
        block = row[side * 99 : side * 99 + 99]
        assert block[0:96:4].sum() == 4  # points with at least one checker
        assert block[96] == 0 and block[97] == 0  # none on the bar, none off
        assert block[98] == pytest.approx(1.67)  # 167 pips


def test_a_widened_network_judges_as_before_until_it_learns() -> None:
    """Grown to every input and more hidden units, a network trained on the board
    alone gives the same probabilities (the new weights start at zero), and a
    learning step then moves the new inputs' weights."""
    narrow = Network.new(hidden=6, seed=4)
    narrow.w1 = narrow.w1[:BOARD_INPUTS]  # as saved before the features existed
    wide = narrow.widened(hidden=9, seed=5)
    positions = [Position.start(), Position.start().swapped()]
    board = encode(positions)[:, :BOARD_INPUTS]
    narrow_judgement = _sigmoid(_sigmoid(board @ narrow.w1 + narrow.b1) @ narrow.w2 + narrow.b2)
    assert np.allclose(wide.probabilities(positions), narrow_judgement)
    wide.learn(encode(positions), np.full((2, 5), 0.5), alpha=0.1)
    assert np.abs(wide.w1[BOARD_INPUTS:, :6]).sum() > 0
    with pytest.raises(ValueError, match="widened"):
        wide.widened(hidden=8)


def test_flip_is_an_involution_and_equity_is_antisymmetric() -> None:
    rng = np.random.default_rng(1)
    probabilities = rng.uniform(0, 1, size=(20, 5))
    assert np.allclose(flip(flip(probabilities)), probabilities)
    assert np.allclose(equity(flip(probabilities)), -equity(probabilities))


def test_learning_step_follows_the_gradient() -> None:
    """A small step of ``learn`` lowers the squared error by what the gradient
    predicts (checked against finite differences of the error)."""
    rng = np.random.default_rng(2)
    network = Network.new(hidden=7, seed=3)
    inputs = rng.uniform(0, 1, size=(4, INPUTS))
    targets = rng.uniform(0, 1, size=(4, 5))

    def error(net: Network) -> float:
        return float(((targets - net.forward(inputs)) ** 2).sum() / 2)

    before = error(network)
    w1, b1, w2, b2 = (p.copy() for p in network.parameters())
    stepped = Network(w1, b1, w2, b2)
    alpha = 1e-4
    stepped.learn(inputs, targets, alpha)
    moved = sum(
        float(((a - b) ** 2).sum())
        for a, b in zip(stepped.parameters(), network.parameters(), strict=True)
    )
    # gradient descent: error falls by about |gradient|^2 * alpha = |step|^2 / alpha
    assert before - error(stepped) == pytest.approx(moved / alpha, rel=1e-2)

    # and each parameter's step is -alpha times the numerical derivative
    w1 = network.w1
    for i, j in [(0, 0), (50, 3), (197, 6)]:
        original = w1[i, j]
        w1[i, j] = original + 1e-6
        up = error(network)
        w1[i, j] = original - 1e-6
        down = error(network)
        w1[i, j] = original
        derivative = (up - down) / 2e-6
        assert stepped.w1[i, j] - original == pytest.approx(
            -alpha * derivative, rel=1e-3, abs=1e-12
        )


def test_training_is_seeded_and_resumes_exactly(tmp_path: Path) -> None:
    straight = Trainer(Network.new(hidden=8, seed=1), seed=5)
    for _ in range(4):
        straight.play_one_game()

    first = Trainer(Network.new(hidden=8, seed=1), seed=5)
    for _ in range(2):
        first.play_one_game()
    first.save(tmp_path / "checkpoint.npz")
    resumed = Trainer.resume(tmp_path / "checkpoint.npz")
    for _ in range(2):
        resumed.play_one_game()

    assert resumed.games == straight.games == 4
    for a, b in zip(resumed.network.parameters(), straight.network.parameters(), strict=True):
        assert np.array_equal(a, b)


def test_a_resumed_run_may_lower_its_learning_rate(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    checkpoint = tmp_path / "run.npz"
    command = ["--checkpoint", str(checkpoint), "--hidden", "8", "--every", "1"]
    assert train_main([*command, "--games", "1", "--alpha", "0.02"]) == 0
    assert Trainer.resume(checkpoint).alpha == 0.02
    assert train_main([*command, "--games", "2", "--resume"]) == 0  # the checkpoint's
    assert Trainer.resume(checkpoint).alpha == 0.02
    assert train_main([*command, "--games", "3", "--resume", "--alpha", "0.005"]) == 0
    lowered = Trainer.resume(checkpoint)
    assert lowered.alpha == 0.005 and lowered.games == 3
    assert "3 games" in capsys.readouterr().out


def test_refinement_fits_the_network_to_its_look_a_throw_ahead() -> None:
    network = shipped_network()
    rng = np.random.default_rng(3)
    positions = self_play_positions(network, 40, rng)
    assert len(positions) >= 40 and positions[0] == Position.start()
    targets = lookahead_targets(network, positions)
    # the engine's own one-throw look, position by position, in other processes too
    engine = BackgammonEngine(network)
    # (to a millionth: the network plays in single precision, where a row's figures
    # move by some billionths with the rows judged beside it)
    assert targets[0] == pytest.approx(engine.rolled_probabilities([positions[0]])[0], abs=1e-6)
    assert np.allclose(lookahead_targets(network, positions[:70], jobs=2), targets[:70])

    pupil = Network.new(hidden=8, seed=1)
    errors = fit(pupil, encode(positions), targets, alpha=0.05, epochs=5, rng=rng, batch=8)
    assert len(errors) == 6 and errors[-1] < errors[0] / 2


def test_a_round_of_refinement_is_counted_and_resumes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    checkpoint = tmp_path / "run.npz"
    assert train_main(["--checkpoint", str(checkpoint), "--hidden", "8", "--games", "2"]) == 0
    refine = ["--checkpoint", str(checkpoint), "--refine", "--positions", "30", "--epochs", "2"]
    assert train_main(refine) == 0
    once = Trainer.resume(checkpoint)
    assert once.rounds == 1 and once.games == 2
    assert train_main(refine) == 0
    assert Trainer.resume(checkpoint).rounds == 2
    assert "round 2: 30 positions, held-out error" in capsys.readouterr().out


def test_shipped_weights_load_and_judge_the_start_as_about_even() -> None:
    network = shipped_network()
    (start,) = network.probabilities([Position.start()])
    assert 0.35 < start[0] < 0.65, "the side on roll at the start has about even chances"
    assert all(0 <= p <= 1 for p in start)


def test_the_trained_network_bears_off_the_last_checkers() -> None:
    # the mover has two checkers left on the 1- and 2-points; 6-5 bears both off
    # (the opponent has borne off five, so it is a single game)
    mover = [1, 1] + [0] * 23
    opponent = [0] * 5 + [10] + [0] * 19
    position = Position(tuple(mover), tuple(opponent))
    after = choose_play(shipped_network(), position, (6, 5))
    assert after.win_kind() == 1


# -- cube equities ---------------------------------------------------------------


def no_gammons(win: float) -> Chances:
    return Chances(win, 0.0, 0.0, 0.0, 0.0)


def test_live_cube_take_point_is_twenty_percent_without_gammons() -> None:
    mine, theirs = take_points(no_gammons(0.5))
    assert mine == pytest.approx(0.2) and theirs == pytest.approx(0.2)


def test_gammons_raise_the_take_point_of_the_side_that_loses_them() -> None:
    gammonish = Chances(0.6, 0.3, 0.0, 0.0, 0.0)  # my wins are often gammons
    _, theirs = take_points(gammonish)
    assert theirs > 0.2


@pytest.mark.parametrize(
    ("win", "words"),
    [
        (0.55, "no double, beaver"),  # the taker would be better than even: beaver
        (0.65, "no double, take"),
        (0.75, "double, take"),
        (0.88, "double, pass"),
    ],
)
def test_money_cube_decisions_by_winning_chances(win: float, words: str) -> None:
    assert money_cube_decision(no_gammons(win), cube_centred=True).words() == words


def test_cubeful_equity_is_bounded_and_ownership_is_worth_something() -> None:
    for win in np.linspace(0, 1, 21):
        chances = no_gammons(float(win))
        mine = money_equity(chances, "me")
        centred = money_equity(chances, "centred")
        theirs = money_equity(chances, "opponent")
        assert -1.0 - 1e-9 <= theirs <= centred + 1e-9
        assert centred <= mine + 1e-9 <= 1.0 + 2e-9


def test_match_equity_table_is_symmetric_and_monotone() -> None:
    for a in range(1, 12):
        for b in range(1, 12):
            assert match_equity(a, b) + match_equity(b, a) == pytest.approx(1.0)
            assert match_equity(a, b) >= match_equity(a + 1, b)
            assert match_equity(a, b) <= match_equity(a, b + 1)
    # After the Crawford game the trailer needing two is a little under even: the
    # leader's free drop (gnubg's own table is checked in test_cube_oracle).
    assert 0.47 < match_equity(2, 1, post_crawford=True) < 0.5


def test_post_crawford_trailer_doubles_and_crawford_leader_never_drops_at_even_chances() -> None:
    # the trailer, 4 away against a leader 1 away after the Crawford game, should double
    decision = match_cube_decision(no_gammons(0.5), 4, 1, 1)  # after the Crawford game
    assert decision.should_double
    assert decision.should_take  # the leader takes: a drop would lose the match... later
    # the leader can never double back, so the double may wait a turn; before the
    # Crawford game (both sides able to double) it may not
    assert decision.may_wait
    assert not match_cube_decision(no_gammons(0.5), 4, 3, 1).may_wait
    # a cube owned at 2 against a side 2 away: that side can never turn it
    assert match_cube_decision(no_gammons(0.6), 5, 2, 2, cube_centred=False).may_wait


# -- the engine --------------------------------------------------------------------


def play_out(levels: tuple[int, int], seed: int, engine: BackgammonEngine) -> int:
    """One game between two levels; returns the points won by the FIRST side."""
    state = BACKGAMMON.new_state()
    dice = Dice(seed)
    rng = random.Random(seed)
    while not state.is_over():
        if state.turn is CHANCE:
            state.push(dice.choose(state.chance_outcomes()))
            continue
        move = engine.choose_move(state, levels[int(state.turn)], rng)
        assert move in state.legal_moves()
        state.push(move)
    outcome = state.outcome()
    assert outcome is not None and outcome.winner is not None
    return outcome.points if outcome.winner == 0 else -outcome.points


@pytest.mark.parametrize("level", range(1, 8))
def test_every_level_plays_only_legal_moves(level: int) -> None:
    engine = BackgammonEngine()
    for seed in range(2):
        play_out((level, 5), seed, engine)


def best_answer(engine: BackgammonEngine, position: Position, dice: tuple[int, int]) -> Position:
    """Where the mover's best play of ``dice`` by the network leads, found one
    throw at a time (the engine batches every throw together)."""
    reached = [position.apply(play) for play in legal_plays(position, dice)] or [position]
    return reached[int(np.argmax(engine._values(reached)))]


def two_throws_ahead(engine: BackgammonEngine, result: Position) -> float:
    """The mover's equity after reaching ``result``, written out plainly: each of
    the opponent's throws answered by its best play, then each of the mover's
    throws by its best, the equity after that averaged over both throws."""
    total = 0.0
    for theirs, chance in THROWS:
        answer = best_answer(engine, result.swapped(), theirs)
        if answer.win_kind():
            total -= chance * answer.win_kind()
            continue
        for ours, our_chance in THROWS:
            mine = best_answer(engine, answer.swapped(), ours)
            total += chance * our_chance * float(engine._values([mine])[0])
    return total


def test_two_throws_ahead_averages_over_both_sides_throws() -> None:
    engine = BackgammonEngine()
    state = BACKGAMMON.new_state()
    state.play_line("31, 8/5 6/5, roll, 64, 24/18 13/9, roll, 52")
    position = state.position
    results = [position.apply(play) for play in legal_plays(position, (5, 2))[:3]]
    batched = equity(engine._after(results, plies=2))
    plain = [two_throws_ahead(engine, result) for result in results]
    # (to a millionth: in single precision a row's figures move by some billionths
    # with the rows judged beside it)
    assert batched == pytest.approx(plain, abs=1e-6)
    # a throw less deep is the opponent's throws alone
    one = [
        -float(engine._values([best_answer(engine, r.swapped(), d)])[0])
        for r in results[:1]
        for d, _ in THROWS
    ]
    assert equity(engine._after(results[:1], plies=1))[0] == pytest.approx(
        sum(value * chance for value, (_, chance) in zip(one, THROWS, strict=True)), abs=1e-6
    )


def test_the_move_filter_keeps_at_most_so_many_within_reach_of_the_best() -> None:
    values = np.array([0.30, 0.25, 0.20, 0.10, 0.09])
    assert _kept(values, Filter(8, 0.16)) == [0, 1, 2]
    assert _kept(values, Filter(2, 0.16)) == [0, 1]
    assert _kept(values, Filter(8, 0.01)) == [0]  # the best always goes on
    assert _kept(values[::-1], Filter(3, 0.16)) == [4, 3, 2]  # best first, wherever they are
    # the strongest level looks two throws deep; the others judge at 0-ply
    assert list(LEVEL_FILTERS) == [7] and len(LEVEL_FILTERS[7]) == 2


def test_the_strongest_level_plays_the_best_of_its_deepest_look() -> None:
    engine = BackgammonEngine()
    state = BACKGAMMON.new_state()
    state.play_line("31, 8/5 6/5, roll, 64, 24/18 13/9, roll, 52")
    position = state.position
    ranked = engine.ranked_plays(position, (5, 2))
    deepest = [play for play, _ in ranked[:3]]
    assert engine.choose_play(position, (5, 2), 7) == deepest[0]
    values = dict(ranked[:3])
    for play in deepest:  # the leaders' figures are their 2-ply equities
        assert values[play] == pytest.approx(
            two_throws_ahead(engine, position.apply(play)), abs=1e-6
        )


def test_a_move_given_little_time_looks_less_far_ahead() -> None:
    engine = BackgammonEngine()
    rng = random.Random(0)
    # the first play of a seeded game where levels 6 and 7 (two throws ahead) differ
    state = BACKGAMMON.new_state()
    dice = Dice(3)
    for _ in range(120):
        if state.turn is CHANCE:
            state.push(dice.choose(state.chance_outcomes()))
            continue
        move = engine.choose_move(state, 6, rng)
        if state.phase is Phase.PLAY and engine.choose_move(state, 7, rng) != move:
            break
        state.push(move)
    else:
        pytest.fail("levels 6 and 7 played alike for a whole game's worth of moves")
    hurried = engine.choose_move(state, 7, rng, seconds=engine.time_limit(6))
    assert hurried == engine.choose_move(state, 6, rng)


def test_every_level_states_its_measured_strength() -> None:
    """Each level's words (shown by the help and the web page) carry what
    benchmarks/backgammon_vs_pubeval.py measured: its points a game against the
    level below and against GNU Backgammon at 0-ply, the same figures as in the
    table of docs/benchmarks.md, where the commands are."""
    strengths = BackgammonEngine.level_strengths
    assert sorted(strengths) == list(range(1, BackgammonEngine.strongest + 1))
    docs = (Path(__file__).resolve().parents[2] / "docs" / "benchmarks.md").read_text()
    section = docs[docs.index("## Backgammon engine") : docs.index("## Checkers engine")]
    rows = {int(row[0]): row for row in re.findall(r"^\| (\d) \|(.*)\|$", section, re.M)}
    for level, words in strengths.items():
        cells = [cell.strip() for cell in rows[level][1].split("|")]
        against_gnubg = re.search(r"(loses|wins) (\d\.\d\d) points a game (?:to|from) GNU", words)
        assert against_gnubg is not None, words
        sign = "-" if against_gnubg.group(1) == "loses" else "+"
        assert cells[4] == sign + against_gnubg.group(2), level
        if level == 1:
            continue
        step = re.search(rf"(beats|loses to) level {level - 1} by (\d\.\d\d) points a game", words)
        assert step is not None, words
        assert cells[1] == ("+" if step.group(1) == "beats" else "-") + step.group(2), level


def test_a_hint_after_the_roll_ranks_that_rolls_plays() -> None:
    engine = BackgammonEngine()
    state = BACKGAMMON.new_state()
    state.push(state.parse_move("31"))  # the opening throw: the first side has 3-1
    hint = engine.hint(state)
    legal = state.legal_moves()
    assert hint.move in legal
    # Every distinct play once, best first; the best is what the strongest level plays.
    assert Counter(r.move for r in hint.ranked) == Counter(legal)
    assert hint.ranked[0].move == hint.move == engine.choose_move(state, 7, random.Random(0))
    assert hint.move_text == "8/5 6/5"  # the standard opening play of 3-1
    # Its score is the equity after the play, not the chances before the roll.
    assert hint.score == round(hint.ranked[0].score, 3)
    assert hint.assessment.startswith("8/5 6/5 is best (equity ")
    assert hint.assessment.count("(") == engine.HINT_PLAYS
    state.push(hint.move)
    assert state.phase in (Phase.CUBE, Phase.THROW)


def test_a_hint_before_the_roll_gives_the_chances() -> None:
    engine = BackgammonEngine()
    state = BACKGAMMON.new_state()
    state.push(state.parse_move("31"))
    state.push(state.parse_move("8/5 6/5"))
    hint = engine.hint(state)
    assert hint.move in state.legal_moves() and hint.ranked == ()
    assert "wins" in hint.assessment and "equity" in hint.assessment


def test_a_hopeless_double_is_dropped() -> None:
    engine = BackgammonEngine()
    # the doubler bears off its last checker next turn; the taker, with ten off,
    # needs two more turns: no gammon, no hope
    doubler = (1,) + (0,) * 24
    taker = (0,) * 5 + (5,) + (0,) * 19
    state = BACKGAMMON.state_from_text(position_id(Position(doubler, taker)))
    assert state.phase is Phase.CUBE and Action.DOUBLE in state.legal_moves()
    assert engine.choose_move(state) == Action.DOUBLE
    state.push(Action.DOUBLE)
    assert engine.choose_move(state) == Action.DROP


def test_too_good_to_double_plays_on_for_the_gammon() -> None:
    engine = BackgammonEngine()
    # as above, but the taker has all fifteen checkers far back: a gammon is certain
    doubler = (1,) + (0,) * 24
    taker = (0,) * 22 + (15, 0, 0)  # on its 23-point (the mover's 2-point)
    state = BACKGAMMON.state_from_text(position_id(Position(doubler, taker)))
    decision = engine.cube_decision(state)
    assert decision.no_double > 1.0, "playing on is worth more than the double's point"
    assert engine.choose_move(state) == Action.ROLL


def test_default_level_beats_the_beginner_level() -> None:
    engine = BackgammonEngine()
    total = sum(
        play_out((5, 1), seed, engine) - play_out((1, 5), seed, engine) for seed in range(6)
    )
    assert total > 0


def test_the_game_offers_its_engine_and_cube_advice_in_hints() -> None:
    engine = get_engine("backgammon")
    assert isinstance(engine, BackgammonEngine)
    doubler = (1,) + (0,) * 24
    taker = (0,) * 5 + (5,) + (0,) * 19
    state = BACKGAMMON.state_from_text(position_id(Position(doubler, taker)))
    hint = engine.hint(state)
    assert hint.move == Action.DOUBLE and hint.move_text == "double"
    assert "cube: double, pass" in hint.assessment


def test_a_position_too_good_to_double_is_played_on_for_the_gammon() -> None:
    crushing = Chances(0.97, 0.80, 0.05, 0.0, 0.0)
    # Worth about its gammonish cubeless equity (a little more: the cube held back
    # may yet cash if the game turns).
    assert money_equity(crushing, "centred") == pytest.approx(crushing.equity, abs=0.03)
    assert money_equity(crushing, "me") > 1.5
    decision = money_cube_decision(crushing, cube_centred=True)
    assert decision.words() == "no double, pass"  # too good: the opponent would pass
    # Without gammons the same winning chances are worth a point at most (a cash).
    assert 0.95 < money_equity(no_gammons(0.97), "centred") <= 1.0


class FixedChances(Network):
    """A stand-in network that judges every position the same: the mover's five
    probabilities are ``row``."""

    def __init__(self, row: tuple[float, float, float, float, float]) -> None:
        self.row = np.array(row)

    def probabilities(self, positions: Sequence[Position]) -> Array:
        return np.tile(self.row, (len(positions), 1))


def resignation_answer(engine: BackgammonEngine, level: str, jacoby: bool = False) -> Action:
    game = BackgammonGame(CubeOptions(jacoby=jacoby))
    state = game.state_from_text("4HPwATDgc/ABMA")  # the start, a side about to roll
    state.play(f"resign {level}")
    answer = engine.choose_move(state, 5, random.Random(0))
    assert isinstance(answer, Action)
    return answer


def test_resignations_are_answered_by_what_playing_on_is_worth() -> None:
    # The resigner wins 3 % and loses a gammon 80 % of the time (a backgammon 5 %).
    gammonish = BackgammonEngine(FixedChances((0.03, 0.0, 0.0, 0.80, 0.05)))
    assert resignation_answer(gammonish, "single") is Action.DECLINE
    assert resignation_answer(gammonish, "gammon") is Action.ACCEPT
    assert resignation_answer(gammonish, "backgammon") is Action.ACCEPT
    # Under the Jacoby rule, with the cube in the middle, the gammon would count single.
    assert resignation_answer(gammonish, "single", jacoby=True) is Action.ACCEPT
    # With no gammon in sight a single game is all there is to win.
    plain = BackgammonEngine(FixedChances((0.03, 0.0, 0.0, 0.0, 0.0)))
    assert resignation_answer(plain, "single") is Action.ACCEPT
    # An even game is worth less than a point to either side: any offer is taken.
    even = BackgammonEngine(FixedChances((0.5, 0.15, 0.01, 0.15, 0.01)))
    assert resignation_answer(even, "single") is Action.ACCEPT
