"""A fleet: two real ``parlour serve`` processes on one PostgreSQL database, told of each
other's moves through the Redis on this machine. A game is played with its moves going
alternately through each; watchers on either see every update in order; a process that
holds an old copy is corrected by the database, not believed; one process killed with
SIGKILL under a swarm loses nothing acknowledged, and its games go on through the other.
Redis stopped and started again under the fleet (a Redis of the test's own) leaves no
process behind. Redis and PostgreSQL are real: if either cannot be reached, these
tests fail."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import socket
import subprocess
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa
from starlette.applications import Starlette
from websockets.sync.client import ClientConnection, connect

from parlour import cli
from parlour.server.fleet import News, news_text, parse_news
from parlour.server.storage import Store, jobs_table
from tests.server.conftest import new_table, serving
from tests.server.live import free_port, server

REDIS = "redis://127.0.0.1:6379/0"

pytestmark = pytest.mark.slow


@contextmanager
def fleet_of_two(
    db_url: str, log: Path, env: dict[str, str] | None = None
) -> Iterator[tuple[list[subprocess.Popen[bytes]], list[str]]]:
    """Two server processes on ``db_url`` joined by Redis: the processes, their URLs."""
    with contextlib.ExitStack() as stack:
        started = [stack.enter_context(server(db_url, log, "--redis", REDIS, env=env))]
        started.append(stack.enter_context(server(db_url, log, "--redis", REDIS, env=env)))
        yield [process for process, _ in started], [base for _, base in started]


def new_game(base: str, game: str = "chess") -> tuple[str, dict[int, str], dict[str, Any]]:
    """A game between two people at one screen: its id, both seats' tokens, the game."""
    response = httpx.post(f"{base}/api/games", json={"game": game, "opponent": "local"})
    assert response.status_code == 201, response.text
    data = response.json()
    tokens = {seat["side"]: seat["token"] for seat in data["seats"]}
    return data["game"]["id"], tokens, data["game"]


def act(base: str, game_id: str, token: str, version: int, move: str) -> httpx.Response:
    return httpx.post(
        f"{base}/api/games/{game_id}/actions",
        json={"action": "move", "version": version, "move": move},
        headers={"Authorization": f"Bearer {token}"},
        timeout=10,
    )


@contextmanager
def watching(base: str, game_id: str, since: int = 0) -> Iterator[ClientConnection]:
    """A watcher of ``game_id`` through ``base``, welcomed, having seen ``since``."""
    with connect(f"{base.replace('http', 'ws')}/api/games/{game_id}/live") as ws:
        ws.send(json.dumps({"type": "hello", "since": since}))
        assert json.loads(ws.recv(timeout=10))["type"] == "welcome"
        yield ws


def versions_until(ws: ClientConnection, last: int, within: float = 20) -> list[int]:
    """The event versions a watcher receives, in the order received, until ``last``."""
    seen: list[int] = []
    deadline = time.monotonic() + within
    while not seen or seen[-1] < last:
        message = json.loads(ws.recv(timeout=max(0.1, deadline - time.monotonic())))
        assert message["type"] == "update", message
        seen.extend(event["version"] for event in message["events"])
    return seen


def test_a_game_played_through_two_processes_reaches_every_watcher_in_order(
    postgres_url: str, tmp_path: Path
) -> None:
    log = tmp_path / "fleet.log"
    with fleet_of_two(postgres_url, log) as (_, (first, second)):
        game_id, tokens, game = new_game(first)
        stack = contextlib.ExitStack()
        watchers = [stack.enter_context(watching(base, game_id)) for base in (first, second)]
        bases = [first, second]
        for ply in range(16):
            # The version and the moves come from the last answer, whichever process
            # gave it: the other must not refuse them as stale.
            response = act(
                bases[ply % 2],
                game_id,
                tokens[game["turn"]],
                game["version"],
                game["legal_moves"][0],
            )
            assert response.status_code == 200, response.text
            game = response.json()
        assert game["version"] == 16
        with stack:
            for ws in watchers:
                assert versions_until(ws, 16) == list(range(1, 17))
        # Both processes now show the same game, and say so at once.
        assert httpx.get(f"{second}/api/games/{game_id}").json()["moves"] == game["moves"]
        assert httpx.get(f"{first}/api/games/{game_id}").json()["moves"] == game["moves"]
        for base in bases:
            assert httpx.get(f"{base}/ready").json() == {"status": "ready"}
    assert "Traceback" not in log.read_text()


def test_a_seat_taken_through_one_process_plays_through_the_other(
    postgres_url: str, tmp_path: Path
) -> None:
    log = tmp_path / "seat.log"
    with fleet_of_two(postgres_url, log) as (_, (first, second)):
        created = httpx.post(f"{first}/api/games", json={"game": "chess", "opponent": "friend"})
        game_id, invite = created.json()["game"]["id"], created.json()["invite"]
        creator = created.json()["seats"][0]["token"]
        with watching(first, game_id) as ws:
            joined = httpx.post(f"{second}/api/games/{game_id}/join", json={"invite": invite})
            assert joined.status_code == 200, joined.text
            assert versions_until(ws, 1) == [1]  # the join, heard through Redis
            assert act(first, game_id, creator, 1, "e4").status_code == 200
            played = act(first, game_id, joined.json()["token"], 2, "e5")
            assert played.status_code == 200, played.text
        # The invite, used once through the second, is refused by the first too.
        again = httpx.post(f"{first}/api/games/{game_id}/join", json={"invite": invite})
        assert again.status_code == 403, again.text
    assert "Traceback" not in log.read_text()


def test_a_process_with_an_old_copy_is_corrected_by_the_database(
    postgres_url: str, tmp_path: Path
) -> None:
    """Without Redis the second process hears nothing, yet serves no stale move: the
    database's version check refuses its old copy, and it catches up at once."""
    log = tmp_path / "stale.log"
    with (
        server(postgres_url, log) as (_, first),
        server(postgres_url, log) as (_, second),
    ):
        game_id, tokens, _ = new_game(first)
        assert httpx.get(f"{second}/api/games/{game_id}").json()["version"] == 0  # loaded
        played = act(first, game_id, tokens[0], 0, "e4").json()
        # A player who reloads from the second process sees version 0 and moves on it.
        refused = act(second, game_id, tokens[0], 0, "d4")
        assert refused.status_code == 409, refused.text
        assert refused.json()["version"] == 1 and "version 1" in refused.json()["detail"]
        assert httpx.get(f"{second}/api/games/{game_id}").json()["moves"] == played["moves"]
        # The opponent, who saw version 1 through the first, plays it on the second.
        answered = act(second, game_id, tokens[1], 1, "e5")
        assert answered.status_code == 200, answered.text
        # ...and the first, a step behind, catches up when told a later version.
        with watching(first, game_id, since=2) as ws:
            assert json.loads(ws.recv(timeout=10))["game"]["version"] == 2
    assert "Traceback" not in log.read_text()


def test_one_process_killed_under_a_swarm_loses_nothing_and_its_games_go_on(
    postgres_url: str, tmp_path: Path
) -> None:
    log = tmp_path / "swarm.log"
    acknowledged: dict[str, list[str]] = {}
    failures: list[str] = []
    with fleet_of_two(postgres_url, log) as ((victim, _), (first, second)):
        killed = threading.Event()
        games = [new_game(first if i % 2 else second) for i in range(6)]

        def play(game_id: str, tokens: dict[int, str], game: dict[str, Any]) -> None:
            moves = acknowledged.setdefault(game_id, [])
            ply = 0
            while len(moves) < 30 and not failures:
                base = second if killed.is_set() or ply % 2 else first
                move = game["legal_moves"][len(moves) % len(game["legal_moves"])]
                try:
                    response = act(base, game_id, tokens[game["turn"]], game["version"], move)
                except httpx.HTTPError:
                    # The first process is gone: this action was not acknowledged.
                    # The player reloads from the second and goes on.
                    game = httpx.get(f"{second}/api/games/{game_id}", timeout=10).json()
                    if game["version"] > len(moves):  # it was written before the kill
                        moves.append(game["moves"][-1]["text"])
                    continue
                if response.status_code == 409:
                    # A read after a timed-out request can be a step behind (the
                    # other process had not heard the news yet): a stale version is
                    # refused with the current one, and the player reloads, as the
                    # web page does.
                    game = httpx.get(f"{base}/api/games/{game_id}", timeout=10).json()
                    moves[:] = [move["text"] for move in game["moves"]]
                    continue
                if response.status_code != 200:
                    failures.append(f"{game_id} ply {ply}: {response.text}")
                    return
                game = response.json()
                moves.append(move)
                ply += 1
                if ply == 10 and game_id == games[0][0]:
                    os.killpg(victim.pid, signal.SIGKILL)
                    killed.set()

        threads = [threading.Thread(target=play, args=game) for game in games]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=240)
        assert killed.is_set() and not failures, failures
        for game_id, moves in acknowledged.items():
            stored = httpx.get(f"{second}/api/games/{game_id}").json()
            texts = [move["text"] for move in stored["moves"]]
            assert texts == moves and len(moves) == 30, (game_id, texts, moves)
    assert "Traceback" not in log.read_text()


def test_a_computer_move_lost_with_its_process_is_made_by_another(
    postgres_url: str, tmp_path: Path
) -> None:
    """The computer's move is a job in the database, taken by one process of the
    fleet on a lease; that process killed while it thinks, the lease runs out and
    the other process takes the job again and makes the move."""
    log = tmp_path / "takeover.log"
    env = {"PARLOUR_TEST_THINKING": "2", "PARLOUR_TEST_LEASE": "3"}
    with fleet_of_two(postgres_url, log, env) as (processes, bases):
        created = httpx.post(
            f"{bases[0]}/api/games",
            json={"game": "race", "opponent": "computer", "level": "slow", "side": 0},
        ).json()
        game_id, token, game = created["game"]["id"], created["seats"][0]["token"], created["game"]
        assert game["turn"] == 0
        moved = act(bases[1], game_id, token, game["version"], game["legal_moves"][0])
        assert moved.status_code == 200, moved.text
        thinking = moved.json()
        assert thinking["turn"] == 1  # the computer's
        key = f"move:{game_id}:{thinking['version']}"
        holder = taken_job(postgres_url, key, lambda row: row.taken_by is not None)
        pid = int(holder.taken_by.rsplit(":", 1)[1])
        (victim,) = [process for process in processes if process.pid == pid]
        (survivor,) = [
            base for process, base in zip(processes, bases, strict=True) if process is not victim
        ]
        os.killpg(victim.pid, signal.SIGKILL)
        deadline = time.monotonic() + 30
        game = thinking
        while game["version"] <= thinking["version"] + 1 and time.monotonic() < deadline:
            time.sleep(0.2)
            game = httpx.get(f"{survivor}/api/games/{game_id}").json()
        assert game["turn"] == 0 and game["version"] > thinking["version"], game
        assert [move["side"] for move in game["moves"]][-2:] == [1, None]  # moved, then dice
        done = taken_job(postgres_url, key, lambda row: row.finished is not None)
        assert done.tries == 2 and done.taken_by != holder.taken_by, done


def taken_job(db_url: str, key: str, ready: Any, within: float = 20) -> Any:
    """The jobs table's row of ``key`` once ``ready(row)``, read by a connection of
    the test's own."""
    store = Store(db_url)
    try:
        deadline = time.monotonic() + within
        while True:
            with store.engine.connect() as conn:
                query = sa.select(jobs_table).where(jobs_table.c.key == key)
                row = conn.execute(query).one_or_none()
            if row is not None and ready(row):
                return row
            assert time.monotonic() < deadline, f"job {key}: {row}"
            time.sleep(0.05)
    finally:
        store.close()


@pytest.mark.parametrize(
    ("db", "redis", "words"),
    [
        ("sqlite:///{tmp}/games.db", REDIS, "give --db postgresql://"),
        ("{postgres}", "redis://127.0.0.1:1/0", "cannot reach Redis at"),
        ("{postgres}", "http://nonsense", "cannot reach Redis at"),
    ],
)
def test_a_fleet_that_cannot_work_is_a_clear_error(
    db: str,
    redis: str,
    words: str,
    postgres_url: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    url = db.format(tmp=tmp_path, postgres=postgres_url)
    assert cli.main(["serve", "--port", "1", "--db", url, "--redis", redis]) == 1
    err = capsys.readouterr().err
    assert words in err and "Traceback" not in err and len(err.splitlines()) == 1, err


def _answers(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.2):
            return True
    except OSError:
        return False


@contextmanager
def private_redis(port: int) -> Iterator[subprocess.Popen[bytes]]:
    """A Redis server of this test's own on ``port`` (the machine's shared one is left
    alone): keeps nothing on disk; stopped afterwards."""
    process = subprocess.Popen(
        [
            "redis-server",
            "--port",
            str(port),
            "--bind",
            "127.0.0.1",
            "--save",
            "",
            "--appendonly",
            "no",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 10
        while not _answers(port):
            assert process.poll() is None and time.monotonic() < deadline, "redis did not start"
            time.sleep(0.05)
        yield process
    finally:
        process.terminate()
        process.wait(10)


def test_a_restarted_redis_leaves_no_process_behind(postgres_url: str, tmp_path: Path) -> None:
    """Redis stops and starts again under a fleet of two: a move made through one
    process meanwhile is stored (its news lost), and the other, back in touch, reads
    it from the database: its watcher sees it and it takes the next move."""
    port = free_port()
    url = f"redis://127.0.0.1:{port}/0"
    log = tmp_path / "fleet.log"
    with private_redis(port) as redis_process, contextlib.ExitStack() as stack:
        first = stack.enter_context(server(postgres_url, log, "--redis", url))[1]
        second = stack.enter_context(server(postgres_url, log, "--redis", url))[1]
        game_id, tokens, _ = new_game(first)
        with watching(second, game_id) as ws:
            redis_process.terminate()
            redis_process.wait(10)
            response = act(first, game_id, tokens[0], 0, "e4")
            assert response.status_code == 200, response.text
            with private_redis(port):
                assert versions_until(ws, 1, within=30) == [1]
                response = act(second, game_id, tokens[1], 1, "e5")
                assert response.status_code == 200, response.text
                assert httpx.get(f"{first}/api/games/{game_id}").json()["version"] == 2
    text = log.read_text()
    assert "lost touch with the fleet" in text and "back in touch with the fleet" in text


def test_news_heard_while_the_game_is_read_from_the_store_is_not_lost(
    postgres_url: str,
) -> None:
    """A process reading a game from the store when another process's news of a
    move comes may have read it before the move: it catches up once the read is
    done, rather than keep the old copy (its watchers would wait for the move until
    the next one). Two apps on one database; the news handed over by hand."""
    with serving(postgres_url) as first, serving(postgres_url) as second:
        table = new_table(first, "chess", opponent="local")
        assert isinstance(second.app, Starlette)
        hall = second.app.state.hall
        was_read, go_on = threading.Event(), threading.Event()
        load = hall._load  # the hall's one way to read a game from the store

        async def slow_load(game_id: str) -> Any:
            stored = await load(game_id)
            was_read.set()
            assert await asyncio.to_thread(go_on.wait, 10)
            return stored

        hall._load = slow_load
        loaded: list[httpx.Response] = []
        reader = threading.Thread(
            target=lambda: loaded.append(second.get(f"/api/games/{table.id}"))
        )
        reader.start()
        assert was_read.wait(10)  # the second process has read version 0 ...
        moved = table.act(0, "move", 0, "e4")  # ... and the first plays a move
        assert moved.status_code == 200, moved.text
        events = first.get(f"/api/games/{table.id}/events").json()["events"]
        news = News("the-first", table.id, 1, events)
        assert second.portal is not None  # the client's, while it serves
        second.portal.call(hall.hear, news)
        go_on.set()
        reader.join(10)
        hall._load = load
        assert loaded[0].status_code == 200
        assert second.get(f"/api/games/{table.id}").json()["version"] == 1


def test_news_carries_the_writers_update_and_malformed_news_is_ignored() -> None:
    """The update the writer's watchers were sent travels with the news (the other
    processes pass it on rather than write it again); news that is not ours, or
    whose update is not text, is dropped."""
    events = [{"version": 3, "kind": "move", "payload": "e4", "seat": 0}]
    update = json.dumps({"type": "update", "events": events, "game": {"version": 3}})
    news = parse_news(news_text("a-process", "g1", 3, events, update))
    assert news == News("a-process", "g1", 3, events, update)
    assert parse_news(news_text("a-process", "g1", 3, events)) == News("a-process", "g1", 3, events)
    base = {"game": "g1", "version": 3, "events": events}
    for hostile in ({**base, "update": 7}, {**base, "version": "3"}, [base], {"game": "x"}):
        assert parse_news("x " + json.dumps(hostile)) is None
    assert parse_news(json.dumps(base)) is None  # no sender
