"""A real server process killed with SIGKILL in the middle of games, then started
again on the same database: every acknowledged action is there, every game resumes
exactly where it was, the same tokens play on and a watcher catches up."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

from tests.server.live import server

ROOT = Path(__file__).resolve().parents[2]


#: Seconds an engine job is held without renewal (the server's own is 20): the job
#: of a computer thinking when its server was killed is taken again once the lease
#: runs out, so the test waits that long for nothing but the clock.
LEASE = 3.0


def slow_server(
    db_url: str, log: Path, thinking: float
) -> contextlib.AbstractContextManager[tuple[subprocess.Popen[bytes], str]]:
    """A real server process; its "slow" computer level thinks ``thinking`` seconds;
    its engine jobs are held on a lease of :data:`LEASE` seconds."""
    env = {"PARLOUR_TEST_THINKING": str(thinking), "PARLOUR_TEST_LEASE": str(LEASE)}
    return server(db_url, log, env=env)


def children(pid: int) -> list[int]:
    path = Path(f"/proc/{pid}/task/{pid}/children")
    return [int(child) for child in path.read_text().split()]


def alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie waiting to be reaped has ended)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        return False
    return state != "Z"


class Seat:
    def __init__(self, base: str, game_id: str, tokens: dict[int, str]) -> None:
        self.base, self.id, self.tokens = base, game_id, tokens

    def game(self) -> dict[str, Any]:
        data: dict[str, Any] = httpx.get(f"{self.base}/api/games/{self.id}", timeout=10).json()
        return data

    def act(self, side: int, action: str, version: int, move: str | None = None) -> httpx.Response:
        body: dict[str, Any] = {"action": action, "version": version}
        if move is not None:
            body["move"] = move
        return httpx.post(
            f"{self.base}/api/games/{self.id}/actions",
            json=body,
            headers={"Authorization": f"Bearer {self.tokens[side]}"},
            timeout=10,
        )


def create(base: str, **body: Any) -> Seat:
    data = httpx.post(f"{base}/api/games", json={"game": "race", **body}, timeout=10).json()
    return Seat(base, data["game"]["id"], {s["side"]: s["token"] for s in data["seats"]})


def hammer(busy: Seat, acknowledged: list[int], stop: threading.Event) -> None:
    """Offer and decline draws in ``busy`` as fast as the server answers, noting each
    version acknowledged, until ``stop`` or the server dies."""
    version = busy.game()["version"]
    while not stop.is_set():
        for side, action in ((0, "offer-draw"), (1, "decline-draw")):
            try:
                response = busy.act(side, action, version)
            except httpx.TransportError:
                return
            assert response.status_code == 200, response.text
            version = response.json()["version"]
            acknowledged.append(version)


def last_version_seen(watcher: Any) -> int:
    """The last version a live connection was told of, reading it until it ends."""
    seen = 0
    try:
        while True:
            message = json.loads(watcher.recv(timeout=2))
            if message["type"] == "update":
                seen = message["game"]["version"]
    except Exception:
        watcher.close()
    return seen


def all_gone(pids: list[int], within: float) -> bool:
    """Whether every process of ``pids`` has ended within ``within`` seconds."""
    deadline = time.monotonic() + within
    while any(alive(pid) for pid in pids) and time.monotonic() < deadline:
        time.sleep(0.1)
    return not any(alive(pid) for pid in pids)


def play_to_the_end(seat: Seat, game: dict[str, Any]) -> dict[str, Any]:
    """Play ``game`` on through ``seat``'s tokens, declining every draw offer."""
    while game["status"] == "playing":
        if game["turn"] is None or game["draw_offer"] is not None:
            response = seat.act(1, "decline-draw", game["version"])
        else:
            response = seat.act(game["turn"], "move", game["version"], game["legal_moves"][-1])
        assert response.status_code == 200, response.text
        game = response.json()
    return game


@pytest.mark.slow
def test_a_killed_server_resumes_every_game_exactly(tmp_path: Path) -> None:
    db_url = f"sqlite:///{tmp_path / 'games.db'}"
    log = tmp_path / "server.log"
    # The computer thinks for longer than the first server lives...
    with slow_server(db_url, log, thinking=60) as (process, base):
        quiet = [create(base, opponent="local") for _ in range(3)]
        for index, seat in enumerate(quiet):
            for _ in range(index + 1):
                game = seat.game()
                assert seat.act(game["turn"], "move", game["version"], "+1").status_code == 200
        busy = create(base, opponent="local")

        # A watcher follows the busy game while its players offer and decline draws
        # as fast as they can, until the server dies under them.
        watcher = connect(f"{base.replace('http', 'ws')}/api/games/{busy.id}/live").__enter__()
        watcher.send(json.dumps({"type": "hello"}))
        acknowledged: list[int] = []
        stop = threading.Event()

        before = {seat.id: seat.game() for seat in quiet}
        versus = create(base, opponent="computer", side=0, level="slow")
        game = versus.game()
        assert versus.act(0, "move", game["version"], "+1").status_code == 200
        thread = threading.Thread(target=hammer, args=(busy, acknowledged, stop))
        thread.start()
        while len(acknowledged) < 20:
            time.sleep(0.02)
        thinking = versus.game()
        workers = children(process.pid)
        assert len(workers) == 2  # the computer's worker processes
        os.kill(process.pid, signal.SIGKILL)
        process.wait(timeout=10)
        stop.set()
        thread.join(timeout=30)
        seen = last_version_seen(watcher)
        # The computer was thinking when the server died.
        assert thinking["turn"] == 1 and thinking["version"] == 3
        last = acknowledged[-1]
        # The workers do not outlive their server, though one was thinking.
        assert all_gone(workers, within=15)

    # ...and briefly once it is back.
    with slow_server(db_url, log, thinking=0.2) as (_, base):
        for seat in quiet:
            seat.base = base
            assert seat.game() == before[seat.id]
        busy.base = versus.base = base
        resumed = busy.game()
        # Everything acknowledged is there; an action in flight is wholly there or not.
        assert resumed["version"] in (last, last + 1)
        assert resumed["draw_offer"] == (0 if resumed["version"] % 2 == 0 else None)
        # The watcher reconnects with what it had and receives all it missed.
        with connect(f"{base.replace('http', 'ws')}/api/games/{busy.id}/live") as again:
            again.send(json.dumps({"type": "hello", "since": seen}))
            assert json.loads(again.recv(timeout=10))["type"] == "welcome"
            catch_up = json.loads(again.recv(timeout=10))
            versions = [event["version"] for event in catch_up["events"]]
            assert versions == list(range(seen + 1, resumed["version"] + 1))
        # The same tokens play on, to the end.
        game = play_to_the_end(busy, resumed)
        assert game["outcome"]["reason"] in ("reached ten", "deadlock")
        # The computer, on turn when the server died, moves again after the restart.
        deadline = time.monotonic() + 30
        while versus.game()["turn"] != 0 and time.monotonic() < deadline:
            time.sleep(0.1)
        game = versus.game()
        assert game["turn"] == 0 and [m["side"] for m in game["moves"]] == [None, 0, None, 1, None]
    assert "Traceback" not in log.read_text()
