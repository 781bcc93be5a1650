"""Bad input of every kind is refused with a Parlour error and changes nothing."""

from __future__ import annotations

import random

from parlour.checkers.board import Move
from parlour.checkers.pdn import PdnGame, read_pdn, write_pdn
from parlour.checkers.rules import CHECKERS, CheckersState
from parlour.core.errors import IllegalMoveError, NotationError, ParlourError

RING = "W:WK10,27:B6,7,14,15,22,23"


def snapshot(state: CheckersState) -> tuple[object, ...]:
    return state.to_text(), state.turn, state.quiet_plies, state.move_stack, state.outcome()


def positions() -> list[CheckersState]:
    rng = random.Random(7)
    found = [CHECKERS.new_state(), CHECKERS.state_from_text(RING)]
    state = CHECKERS.new_state()
    while not state.is_over():
        state.push(rng.choice(state.legal_moves()))
        found.append(state.copy())
    return found


def test_random_move_values_are_refused_or_legal() -> None:
    rng = random.Random(1)
    refused = 0
    for state in positions():
        legal = set(state.legal_moves())
        before = snapshot(state)
        for _ in range(60):
            path = tuple(rng.randint(-1, 34) for _ in range(rng.randint(1, 5)))
            move = Move(path)
            if move in legal:
                continue
            try:
                state.push(move)
            except IllegalMoveError as error:
                assert str(error) and error.rule
                refused += 1
            else:
                raise AssertionError(f"{move} was accepted at {state.to_text()}")
            assert snapshot(state) == before
    assert refused > 1000


def test_random_move_text_is_refused_with_a_parlour_error() -> None:
    rng = random.Random(2)
    alphabet = "0123456789-x :aAbhK!?"
    for state in positions()[:20]:
        before = snapshot(state)
        for _ in range(100):
            text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 9)))
            try:
                move = state.parse_move(text)
            except ParlourError as error:
                assert str(error)
            else:
                assert move in state.legal_moves()
            assert snapshot(state) == before


def test_mangled_fen_is_refused_with_a_notation_error() -> None:
    rng = random.Random(3)
    texts = [state.to_text() for state in positions()[::5]]
    for text in texts:
        for _ in range(40):
            chars = list(text)
            for _ in range(rng.randint(1, 3)):
                index = rng.randrange(len(chars))
                chars[index] = rng.choice("0123456789,:KBW-x ")
            mangled = "".join(chars)
            try:
                state = CHECKERS.state_from_text(mangled)
            except NotationError as error:
                assert str(error)
            else:
                assert CHECKERS.state_from_text(state.to_text()).to_text() == state.to_text()


def test_mangled_pdn_is_refused_with_a_notation_error() -> None:
    rng = random.Random(4)
    state = positions()[-1]
    text = write_pdn(PdnGame.from_state(state, {"Event": "Fuzz"}))
    for _ in range(300):
        chars = list(text)
        for _ in range(rng.randint(1, 4)):
            index = rng.randrange(len(chars))
            chars[index] = rng.choice('0123456789-x. []{}()"*\n')
        try:
            read_pdn("".join(chars))
        except NotationError as error:
            assert str(error)
