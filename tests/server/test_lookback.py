"""Looking back over a long game: every version is the game as a full replay has
it, and once looked back over, a look-back replays a few dozen events at most."""

from __future__ import annotations

import random
from typing import Any

import pytest

from parlour.core import registry
from parlour.core.protocol import Side
from parlour.server import table as table_module
from parlour.server.play import Progress, apply
from parlour.server.storage import EventRow
from parlour.server.table import SNAPSHOT_EVERY, Seat, Table


def _long_chess_game(plies: int) -> list[EventRow]:
    """Random legal chess moves, as the server logs them (the game may end first)."""
    game = registry.get_game("chess")
    state = game.new_state()
    rng = random.Random(3)
    events: list[EventRow] = []
    while len(events) < plies and not state.is_over():
        move = rng.choice(state.legal_moves())
        events.append(EventRow(len(events) + 1, "move", state.move_to_text(move), int(state.turn)))
        state.push(move)
    return events


def test_every_look_back_is_the_replayed_game_and_replays_little(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = registry.get_game("chess")
    events = _long_chess_game(400)
    assert len(events) > 3 * SNAPSHOT_EVERY
    seats = [Seat(Side.FIRST, "human"), Seat(Side.SECOND, "human")]
    table = Table("g", game, seats, events, "", {"opponent": "local"})

    applied = 0

    def counting(progress: Progress, event: EventRow, move: Any = None) -> None:
        nonlocal applied
        applied += 1
        apply(progress, event, move)

    monkeypatch.setattr(table_module, "apply", counting)
    last = len(events)
    table.progress_at(last)  # the first look-back replays the whole game once
    for version in [*random.Random(5).sample(range(last + 1), 60), 0, last]:
        applied = 0
        looked = table.progress_at(version)
        assert applied < SNAPSHOT_EVERY
        replayed = Progress(game.new_state(), table.series)
        for event in events[:version]:
            apply(replayed, event)
        assert looked.state.to_text() == replayed.state.to_text()
        assert looked.record == replayed.record
        assert looked.version == version
    # A look-back hands out its own copy: changing it changes no later look-back.
    looked = table.progress_at(2 * SNAPSHOT_EVERY)
    looked.state.push(looked.state.legal_moves()[0])
    assert table.progress_at(2 * SNAPSHOT_EVERY).version == 2 * SNAPSHOT_EVERY
    assert table.progress_at(2 * SNAPSHOT_EVERY).state.to_text() != looked.state.to_text()
