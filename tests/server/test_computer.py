"""The computer opponent: it thinks in a worker process, so a slow one delays no
other game; until the engines come, its only level is "random" (seeded)."""

from __future__ import annotations

import time
from typing import Any

import pytest

from parlour.server import players
from tests.conformance.toygame import RACE
from tests.server import slowplayer
from tests.server.conftest import new_table, serving


def wait_for(table: Any, done: Any, seconds: float) -> dict[str, Any]:
    deadline = time.monotonic() + seconds
    while True:
        game: dict[str, Any] = table.game()
        if done(game) or time.monotonic() > deadline:
            return game
        time.sleep(0.05)


def test_the_random_level_plays_seeded_legal_moves() -> None:
    picks = {players.random_move(RACE, "3,4,1,3", seed) for seed in range(40)}
    assert picks == {"+1", "+3"}
    assert players.random_move(RACE, "3,4,1,3", 7) == players.random_move(RACE, "3,4,1,3", 7)
    with pytest.raises(ValueError, match="no legal move"):
        players.random_move(RACE, "10,0,1,-", 1)


def test_the_computer_answers_each_move(sqlite_url: str) -> None:
    with serving(sqlite_url) as client:
        levels = client.get("/api/catalogue").json()["levels"]
        assert [level["name"] for level in levels] == ["random"]
        assert "random legal move" in levels[0]["about"]
        # The computer holds Red, who starts.
        table = new_table(client, opponent="computer", side=1)
        seats = table.game()["seats"]
        assert seats[0]["player"] == "computer" and seats[0]["level"] == "random"
        for _ in range(4):
            game = wait_for(table, lambda g: g["turn"] != 0, 30)
            if game["status"] == "over":
                break
            assert game["turn"] == 1
            computer = [m for m in game["moves"] if m["side"] == 0]
            assert computer, "the computer has not moved"
            table.move(pick=0)
        game = table.game()
        assert game["status"] == "over" or len([m for m in game["moves"] if m["side"] == 0]) >= 3


def test_a_slow_computer_delays_no_other_game(
    sqlite_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(players.LEVELS, "slow", "tests.server.slowplayer:slow_move")
    with serving(sqlite_url) as client:
        slow = new_table(client, opponent="computer", side=1, level="slow")
        started = time.monotonic()
        other = new_table(client, opponent="local")
        timings = []
        for _ in range(6):
            before = time.monotonic()
            game = other.move(pick=0)
            timings.append(time.monotonic() - before)
            if game["status"] == "over":
                break
        elapsed = time.monotonic() - started
        # The other game moved freely while the computer was still thinking.
        assert elapsed < slowplayer.THINKING, (elapsed, timings)
        assert max(timings) < 1.0, timings
        assert slow.game()["version"] == 1
        game = wait_for(slow, lambda g: g["version"] > 1, slowplayer.THINKING + 30)
        assert [m["side"] for m in game["moves"]][:2] == [None, 0]


def test_a_measured_level_is_described_by_its_measure() -> None:
    from parlour.checkers.engine import CheckersEngine

    words = CheckersEngine.level_strengths[3]
    assert players.about("checkers", "3") == f"level 3 of 10: {words}"
    assert players.about("checkers", "random") == players.ABOUT["random"]
