"""A stand-in opponent for testing the app's handling of a computer player (its
turn, its worker thread, undo of a move and its reply) apart from any real
engine's strength: it plays the first legal move, once its gate is opened (so a test can look at the
app while the computer is still thinking)."""

from __future__ import annotations

import random
import threading
from typing import Any

from parlour.core.engine import Engine, Hint
from parlour.core.protocol import State


class FirstMoveEngine(Engine[Any]):
    def __init__(self) -> None:
        self.gate = threading.Event()
        self.gate.set()
        self.calls = 0

    def choose_move(
        self,
        state: State[Any],
        level: int | None = None,
        rng: random.Random | None = None,
        *,
        seconds: float | None = None,
    ) -> Any:
        self.calls += 1
        if not self.gate.wait(timeout=30):
            raise TimeoutError("the test never opened the gate")
        return state.legal_moves()[0]

    def hint(self, state: State[Any]) -> Hint[Any]:
        move = state.legal_moves()[0]
        return Hint(move, state.move_to_text(move), "first of the legal moves")
