"""The protocol's own behaviour, shown on the internal race game."""

from __future__ import annotations

from fractions import Fraction

import pytest

from parlour.core import (
    CHANCE,
    Dice,
    GameOverError,
    IllegalMoveError,
    LoadedDice,
    NotationError,
    Side,
    UnknownGameError,
    get_game,
)
from parlour.core.errors import LevelError, ParlourError
from parlour.core.registry import get_engine
from tests.conformance.toygame import RACE, RaceMove


def test_illegal_move_names_the_rule_and_changes_nothing() -> None:
    state = RACE.new_state()
    state.push(RaceMove("throw", 3))
    before = state.to_text()
    with pytest.raises(IllegalMoveError) as raised:
        state.play("+2")
    assert raised.value.rule == "step"
    assert "advance by 1 or by the die (3)" in str(raised.value)
    assert state.to_text() == before


def test_malformed_move_text_is_a_notation_error() -> None:
    state = RACE.new_state()
    state.push(RaceMove("throw", 2))
    with pytest.raises(NotationError, match="not a race move"):
        state.play("forward!")


def test_chance_nodes_list_their_probabilities() -> None:
    state = RACE.new_state()
    assert state.turn is CHANCE
    outcomes = state.chance_outcomes()
    assert sum(p for _, p in outcomes) == 1
    assert [p for _, p in outcomes] == [Fraction(1, 3)] * 3
    state.push(RaceMove("throw", 1))
    # mypy keeps state.turn narrowed past the move (python/mypy#9005)
    assert state.turn is Side.FIRST  # type: ignore[comparison-overlap]
    with pytest.raises(Exception, match="dice are not to be thrown"):
        state.chance_outcomes()


def test_game_over_refuses_moves_and_declarations() -> None:
    state = RACE.state_from_text("9,0,0,1")
    state.play("+1")
    outcome = state.outcome()
    assert outcome is not None and outcome.winner is Side.FIRST and outcome.reason == "reached ten"
    assert state.legal_moves() == []
    with pytest.raises(GameOverError):
        state.play("throw 1")
    with pytest.raises(GameOverError):
        state.resign(Side.SECOND)


def test_resignation_and_agreed_draw() -> None:
    state = RACE.new_state()
    outcome = state.resign(Side.FIRST)
    assert outcome.winner is Side.SECOND and outcome.reason == "resignation"
    state = RACE.new_state()
    draw = state.agree_draw()
    assert draw.is_draw and draw.points == 0 and state.is_over()


def test_claiming_a_draw_needs_a_reason() -> None:
    state = RACE.new_state()
    assert state.claimable_draw() is None
    with pytest.raises(IllegalMoveError, match="no draw to claim"):
        state.claim_draw()
    assert not state.is_over()


def test_generic_perft_counts_leaves() -> None:
    state = RACE.state_from_text("0,0,0,3")
    assert RACE.perft(state, 0) == 1
    assert RACE.perft(state, 1) == 2
    with pytest.raises(Exception, match="stops at a throw of the dice"):
        RACE.perft(state, 2)


def test_dice_are_reproducible_when_seeded() -> None:
    throws = [Dice(seed=11).roll() for _ in range(3)]
    assert throws[0] == throws[1] == throws[2]
    dice = Dice(seed=5)
    sequence = [dice.roll() for _ in range(200)]
    assert all(1 <= a <= 6 and 1 <= b <= 6 for a, b in sequence)
    assert len(set(sequence)) > 20
    assert LoadedDice([(6, 5)]).roll() == (6, 5)


def test_dice_choose_follows_the_probabilities() -> None:
    dice = Dice(seed=1)
    outcomes = [("rare", Fraction(1, 10)), ("common", Fraction(9, 10))]
    picks = [dice.choose(outcomes) for _ in range(2000)]
    assert 100 < picks.count("rare") < 320


def test_unknown_game_is_named() -> None:
    with pytest.raises(UnknownGameError, match="no game called 'go'"):
        get_game("go")


def test_a_level_an_engine_lacks_is_a_parlour_error() -> None:
    engine = get_engine("checkers")
    with pytest.raises(LevelError, match="levels run from 1 to 10, not 11") as raised:
        engine.check_level(11)
    assert isinstance(raised.value, ParlourError) and isinstance(raised.value, ValueError)
