"""One generic suite over every registered game, through the core protocol only.

Many seeded random games are played; at every ply the protocol's promises are
checked: text encodings read back to the same position, move text reads back to the
same move, a move pushed and popped leaves the state as it was, chance outcomes are
a probability distribution, outcomes appear exactly when the game is over, and bad
input is refused with a Parlour error, never a crash.

A game joins simply by being registered; ``GAMES_PER_RUN`` sets how many random
games it plays (long games such as chess get fewer).
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

import pytest

from parlour.core.errors import GameOverError, NotationError, ParlourError
from parlour.core.protocol import CHANCE, Game, Side, State
from parlour.core.registry import game_names, get_game
from tests.conformance.toygame import RACE

GAMES_PER_RUN = {"race": 60, "chess": 12, "checkers": 25, "backgammon": 12}
MAX_PLIES = 600
#: How many of a position's legal moves get the text round trip (all, when fewer).
MOVES_CHECKED_PER_PLY = 12


def all_games() -> list[Game[Any]]:
    return [RACE, *(get_game(name) for name in game_names())]


def snapshot(state: State[Any]) -> tuple[object, ...]:
    """What must be the same after a push and a pop."""
    over = state.is_over()
    moves = sorted(map(repr, state.legal_moves()))
    return (state.to_text(), None if over else state.turn, moves, state.outcome())


def check_position(game: Game[Any], state: State[Any], rng: random.Random) -> None:
    text = state.to_text()
    outcome = state.outcome()
    moves = state.legal_moves()
    assert (outcome is None) == bool(moves), f"{text}: outcome {outcome} with {len(moves)} moves"

    again = game.state_from_text(text)
    assert again.to_text() == text, f"{text} read back as {again.to_text()}"
    if outcome is None and again.outcome() is None:
        assert sorted(map(repr, again.legal_moves())) == sorted(map(repr, moves)), text

    if outcome is not None:
        return
    if state.turn is CHANCE:
        outcomes = state.chance_outcomes()
        assert sum((p for _, p in outcomes), Fraction(0)) == 1, text
        assert {m for m, _ in outcomes} == set(moves), text
        assert all(p > 0 for _, p in outcomes), text
    else:
        assert state.turn in (Side.FIRST, Side.SECOND)

    sample = (
        moves if len(moves) <= MOVES_CHECKED_PER_PLY else rng.sample(moves, MOVES_CHECKED_PER_PLY)
    )
    for move in sample:
        move_text = state.move_to_text(move)
        assert isinstance(move_text, str) and move_text, f"{text}: empty text for {move!r}"
        assert state.parse_move(move_text) == move, f"{text}: {move_text!r} read back wrong"

    before = snapshot(state)
    key = state.key()
    for move in sample[:3]:
        state.push(move)
        assert state.pop() == move
        assert snapshot(state) == before, f"{text}: push/pop of {move!r} changed the state"
        assert state.key() == key, f"{text}: push/pop of {move!r} changed the state's key"

    twin = state.copy()
    # Equality is by position (and the history the rules count), not identity.
    assert twin == state and hash(twin) == hash(state) and twin is not state, text
    twin.push_unchecked(moves[0])
    if twin.to_text() != text:
        assert twin != state, f"{text}: a move to another position left the states equal"
    assert snapshot(state) == before, f"{text}: pushing on a copy changed the original"

    with pytest.raises(ParlourError):
        state.parse_move("@@ not a move @@")
    assert snapshot(state) == before


def play_random_game(game: Game[Any], seed: int) -> None:
    rng = random.Random(seed)
    state = game.new_state()
    start = state.to_text()
    plies = 0
    played = []
    while not state.is_over() and plies < MAX_PLIES:
        check_position(game, state, rng)
        if state.turn is CHANCE:
            outcomes = state.chance_outcomes()
            move = rng.choices([m for m, _ in outcomes], [float(p) for _, p in outcomes])[0]
        else:
            move = rng.choice(state.legal_moves())
        state.push(move)
        played.append(move)
        plies += 1
    check_position(game, state, rng)

    line = game.state_from_text(start).line_to_text(played)
    replayed = game.state_from_text(start)
    assert replayed.play_line(line) == played, f"the line {line!r} read back otherwise"
    assert replayed == state

    outcome = state.outcome()
    if outcome is not None:
        assert outcome.winner in (None, Side.FIRST, Side.SECOND)
        assert outcome.reason
        assert outcome.points >= 0
        assert (outcome.points == 0) == (outcome.winner is None)
        with pytest.raises(GameOverError):
            state.play("anything")
    else:
        resigned = state.copy()
        side = rng.choice([Side.FIRST, Side.SECOND])
        result = resigned.resign(side)
        assert result.winner is side.other and resigned.outcome() == result
        assert not state.is_over(), "resigning on a copy ended the original"

    for _ in range(plies):
        state.pop()
    assert state.to_text() == start, "undoing every move did not restore the start"
    with pytest.raises(IndexError):
        state.pop()


@pytest.mark.parametrize("game", all_games(), ids=lambda game: game.name)
def test_random_games_keep_the_protocol(game: Game[Any]) -> None:
    for seed in range(GAMES_PER_RUN.get(game.name, 10)):
        play_random_game(game, seed)


@pytest.mark.parametrize("game", all_games(), ids=lambda game: game.name)
def test_malformed_position_text_is_refused_clearly(game: Game[Any]) -> None:
    for text in ["", "nonsense", "::::", "x" * 500, "\x00\x01", "🙂"]:
        with pytest.raises(NotationError) as raised:
            game.state_from_text(text)
        assert str(raised.value), f"empty message for {text!r}"


@pytest.mark.parametrize("game", all_games(), ids=lambda game: game.name)
def test_game_describes_itself(game: Game[Any]) -> None:
    assert game.name and game.title
    assert len(game.side_names) == 2 and all(game.side_names)
    start = game.new_state()
    assert not start.is_over()
    assert game.state_from_text(start.to_text()).to_text() == start.to_text()


@pytest.mark.parametrize("name", game_names())
def test_every_state_reads_as_its_class_and_position(name: str) -> None:
    state = get_game(name).new_state()
    assert repr(state) == f"<{type(state).__name__} {state.to_text()!r}>"
