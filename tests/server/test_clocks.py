"""Clocks kept by the server (issue 18): each side's time from the stored times of
the events, the clock running once both sides have moved, an increment per move, a
side whose time is out flagged by the server itself (a loss, or in chess a draw when
the opponent could not mate), the same clocks after a restart, and bad time controls
refused."""

from __future__ import annotations

import datetime as dt
import time
from typing import Any

import pytest

from parlour.core.protocol import Side
from parlour.server.clocks import Clock, TimeControl
from tests.server.conftest import Table, new_table, serving, stored_events


def play(table: Table, *moves: str) -> dict[str, Any]:
    game = table.game()
    for move in moves:
        response = table.act(game["turn"], "move", game["version"], move)
        assert response.status_code == 200, response.text
        game = response.json()
    return game


def wait_until_over(table: Table, within: float) -> dict[str, Any]:
    deadline = time.monotonic() + within
    while (game := table.game())["outcome"] is None:
        assert time.monotonic() < deadline, game["clock"]
        time.sleep(0.05)
    return game


def test_the_clock_runs_once_both_have_moved_and_the_server_flags(db_url: str) -> None:
    with serving(db_url) as client:
        table = new_table(client, "chess", opponent="local", clock={"base": 1.5})
        game = table.game()
        assert game["clock"]["label"] == "1.5s+0" and game["clock"]["remaining"] == [1500, 1500]
        assert game["clock"]["running"] is None
        time.sleep(0.3)  # the first moves are free
        game = play(table, "e4", "e5")
        assert game["clock"]["remaining"] == [1500, 1500]
        assert game["clock"]["running"] == 0 and game["clock"]["now"] >= game["clock"]["since"]
        started = time.monotonic()
        over = wait_until_over(table, 5)
        assert 1.4 < time.monotonic() - started < 3.0
        assert over["outcome"]["winner"] == 1 and over["outcome"]["reason"] == "loss on time"
        assert over["clock"]["remaining"][0] == 0 and over["clock"]["running"] is None
        events = stored_events(db_url, table.id)
        assert (events[-1].kind, events[-1].seat) == ("time", 0)
        exported = client.get(f"/api/games/{table.id}/export")
        assert '[Termination "time forfeit"]' in exported.text and "0-1" in exported.text
        late = table.act(0, "move", over["version"], "Nf3")
        assert late.status_code == 422 and "over" in late.json()["detail"]


def test_an_increment_is_added_after_each_move_and_a_restart_keeps_the_clocks(
    sqlite_url: str,
) -> None:
    with serving(sqlite_url) as client:
        table = new_table(client, "checkers", opponent="local", clock={"base": 60, "increment": 5})
        game = table.game()
        for _ in range(2):
            game = play(table, game["legal_moves"][0])
        time.sleep(0.4)
        game = play(table, game["legal_moves"][0])  # the first side's clock ran 0.4 s
        first, second = game["clock"]["remaining"]
        assert 64_400 < first < 64_700 and second == 60_000, game["clock"]
        before = game["clock"]
    with serving(sqlite_url) as client:
        again = Table(client, table.id, table.tokens).game()["clock"]
        assert (again["remaining"], again["since"], again["running"]) == (
            before["remaining"],
            before["since"],
            before["running"],
        )


def test_a_flag_against_a_side_that_cannot_mate_is_a_draw(sqlite_url: str) -> None:
    # White has a queen, Black a lone king: White's flag falling draws.
    with serving(sqlite_url) as client:
        table = new_table(
            client,
            "chess",
            opponent="local",
            start="7k/8/8/8/8/8/8/K5Q1 w - - 0 1",
            clock={"base": 1},
        )
        play(table, "Kb1", "Kh7")
        over = wait_until_over(table, 5)
        assert over["outcome"]["winner"] is None
        assert "cannot mate" in over["outcome"]["reason"]


@pytest.mark.parametrize(
    ("clock", "words"),
    [
        ({"base": 0}, "base must be from 1"),
        ({"base": 99999}, "base must be from 1 to 10800"),
        ({"base": 60, "increment": -1}, "increment must be from 0"),
        ({"increment": 5}, "base must be a number"),
        ({"base": 60, "bonus": 2}, "has no bonus"),
    ],
)
def test_a_bad_time_control_is_refused(sqlite_url: str, clock: dict[str, Any], words: str) -> None:
    with serving(sqlite_url) as client:
        response = client.post("/api/games", json={"game": "chess", "clock": clock})
        assert response.status_code == 400, response.text
        assert words in response.json()["detail"]


def test_a_delay_is_spent_before_the_reserve() -> None:
    clock = Clock(TimeControl(base=60, delay=12))
    start = dt.datetime(2026, 1, 1, tzinfo=dt.UTC)
    clock.moved(Side.FIRST, start)
    clock.moved(Side.SECOND, start)
    assert clock.left(Side.FIRST, start + dt.timedelta(seconds=10)) == 60
    clock.moved(Side.FIRST, start + dt.timedelta(seconds=20))
    assert clock.remaining == [52, 60]
    assert TimeControl(300, 0, 12).label == "5+0, 12 s delay"


def test_the_computer_thinks_within_its_clock(sqlite_url: str) -> None:
    # Level 6 thinks 1.5 s a move: on a 4-second clock it would lose on time by its
    # third move. With the clock running it takes a share of what it has left.
    with serving(sqlite_url) as client:
        table = new_table(
            client, "chess", opponent="computer", side=0, level="6", clock={"base": 4}
        )
        game = table.game()
        for _ in range(5):
            game = play(table, game["legal_moves"][0])
            deadline = time.monotonic() + 10
            while (game := table.game())["turn"] != 0 and game["outcome"] is None:
                assert time.monotonic() < deadline, "the computer did not move"
                time.sleep(0.02)
            assert game["outcome"] is None, game["outcome"]
        computer_left = game["clock"]["remaining"][1]
        assert computer_left > 2500, game["clock"]
