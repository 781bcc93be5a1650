"""The engines' work as jobs in the store (parlour.server.jobs): taken in the order
that keeps clients' shares fair, never by two processes at once, taken again when a
taker's lease runs out; each client's share of hints bounded; abandoned games
marked. On SQLite and on the real PostgreSQL."""

from __future__ import annotations

import asyncio
import datetime as dt
import json
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from parlour.server import jobs as jobs_module
from parlour.server.errors import NotFound, TooMany
from parlour.server.jobs import Jobs, order_key
from parlour.server.storage import EventRow, JobRow, NewGame, SeatRow, Store, jobs_table
from tests.server.conftest import new_table, serving
from tests.server.live import server


@pytest.fixture
def store(db_url: str) -> Iterator[Store]:
    """The store, with no job in it (the PostgreSQL database lasts the session)."""
    opened = Store(db_url)
    empty_jobs(opened)
    yield opened
    opened.close()


def empty_jobs(store: Store) -> None:
    with store.engine.begin() as conn:
        conn.execute(jobs_table.delete())


def post(store: Store, key: str, client: str, kind: str = "hint", now: float = 0.0) -> int:
    row = JobRow(0, key, kind, "g", 1, client, jobs_module.PRIORITY[kind], "{}")
    return store.add_job(row, now)


def taken(store: Store, now: float = 0.0, lease: float = 10.0, worker: str = "w") -> str | None:
    job = store.take_job(worker, now, lease)
    return None if job is None else job.key


def test_the_same_work_asked_twice_is_one_job(store: Store) -> None:
    first = post(store, "hint:g:1:0", "a")
    assert post(store, "hint:g:1:0", "b") == first
    assert post(store, "hint:g:1:1", "a") != first
    assert store.client_jobs("a") == 2 and store.client_jobs("b") == 0


def test_a_game_waiting_on_the_computer_comes_before_a_hint(store: Store) -> None:
    post(store, "hint-1", "a")
    post(store, "hint-2", "b")
    post(store, "move-1", "c", kind="move")
    assert [taken(store) for _ in range(4)] == ["move-1", "hint-1", "hint-2", None]


def test_clients_take_turns_and_a_flood_waits_behind_itself(store: Store) -> None:
    for n in range(5):
        post(store, f"a{n}", "flood", kind="move")
    post(store, "b0", "calm", kind="move")
    post(store, "b1", "calm", kind="move")
    # a0 is taken first (the oldest); then the calm client, who has nothing being
    # worked on; then each in turn, oldest first when both have as much under way.
    order = [taken(store) for _ in range(7)]
    assert order == ["a0", "b0", "a1", "b1", "a2", "a3", "a4"]


def test_a_job_whose_lease_runs_out_is_taken_again(store: Store) -> None:
    post(store, "move-1", "a", kind="move")
    first = store.take_job("dead", 100.0, 10.0)
    assert first is not None and first.tries == 1
    assert store.take_job("alive", 105.0, 10.0) is None  # still held
    again = store.take_job("alive", 111.0, 10.0)
    assert again is not None and again.key == "move-1" and again.tries == 2
    # the lease renewed by its holder keeps it; a finished job is taken by nobody
    store.renew_jobs("alive", [again.id], 200.0)
    assert store.take_job("other", 150.0, 10.0) is None
    store.finish_job(again.id, json.dumps({"result": None}), 151.0)
    assert store.take_job("other", 300.0, 10.0) is None
    assert store.job_outcomes([again.id]) == {again.id: '{"result": null}'}
    assert store.sweep_jobs(152.0) == 1 and store.job_outcomes([again.id]) == {}


def test_a_stopping_process_hands_its_jobs_back(store: Store) -> None:
    post(store, "move-1", "a", kind="move")
    assert taken(store, worker="stopping") == "move-1"
    assert taken(store) is None
    store.release_jobs("stopping")
    assert taken(store) == "move-1"


def test_processes_taking_side_by_side_never_take_one_job_twice(postgres_url: str) -> None:
    """SKIP LOCKED: four takers in threads, each with its own connection, on the
    real PostgreSQL; every job taken exactly once."""
    stores = [Store(postgres_url) for _ in range(4)]
    empty_jobs(stores[0])
    try:
        for n in range(120):
            post(stores[0], f"job-{n}", f"client-{n % 7}", kind="move")
        seen: list[list[str]] = [[] for _ in stores]

        def take_all(index: int) -> None:
            while (job := stores[index].take_job(f"w{index}", 0.0, 60.0)) is not None:
                seen[index].append(job.key)

        threads = [threading.Thread(target=take_all, args=(i,)) for i in range(len(stores))]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        every = [key for keys in seen for key in keys]
        assert sorted(every) == sorted(f"job-{n}" for n in range(120))
        assert sum(1 for keys in seen if keys) >= 2  # they did work side by side
    finally:
        for opened in stores:
            opened.close()


def test_each_client_has_a_bounded_share_of_questions(db_url: str) -> None:
    """A client with its share of hints waiting is refused with 429 and a time to
    ask again; another client is served meanwhile; a refusal of the work reaches
    the asker as itself."""

    async def scene() -> None:
        store = Store(db_url)
        empty_jobs(store)
        release = asyncio.Event()

        async def work(job: JobRow) -> Any:
            if job.kind == "judge":
                raise NotFound("no-hint", "no engine here")
            await release.wait()
            return {"move": job.key}

        async def in_db(function: Any, *args: Any) -> Any:
            return function(*args)

        jobs = Jobs(store, in_db, work, takers=4, most_per_client=2)
        jobs.start()
        try:
            asked = [
                asyncio.create_task(jobs.ask("hint", "g", 1, {}, order_key("hint", "g", n), "a"))
                for n in range(2)
            ]
            await asyncio.sleep(0.2)
            with pytest.raises(TooMany) as refused:
                await jobs.ask("hint", "g", 1, {}, "hint:g:9", "a")
            assert refused.value.extra["retry_after"] > 0
            other = asyncio.create_task(jobs.ask("hint", "g", 1, {}, "hint:g:b", "b"))
            with pytest.raises(NotFound, match="no engine here"):
                await jobs.ask("judge", "g", 1, {}, "judge:g:1", "c")
            release.set()
            answers = await asyncio.gather(*asked, other)
            assert answers == [{"move": "hint:g:0"}, {"move": "hint:g:1"}, {"move": "hint:g:b"}]
        finally:
            await jobs.stop()
            store.close()

    asyncio.run(scene())


def test_an_unfinished_game_nobody_moved_in_is_abandoned(db_url: str) -> None:
    store = Store(db_url)
    try:
        store.abandon_idle(dt.datetime.now(dt.UTC) - dt.timedelta(days=30))  # others' games
        long_ago = dt.datetime.now(dt.UTC) - dt.timedelta(days=40)
        seats = [SeatRow(0, "human", "h" * 64), SeatRow(1, "human", "i" * 64)]
        old = [EventRow(1, "move", "+1", 0, long_ago)]
        fresh = [EventRow(1, "move", "+1", 0)]
        store.create_game(NewGame("old", "race", "{}", seats, old, long_ago))
        store.create_game(NewGame("unmoved", "race", "{}", seats, [], long_ago))
        store.create_game(
            NewGame("moved", "race", "{}", seats, [*old, EventRow(2, "move", "+2", 1)], long_ago)
        )
        store.create_game(NewGame("new", "race", "{}", seats, fresh))
        cutoff = dt.datetime.now(dt.UTC) - dt.timedelta(days=30)
        assert store.abandon_idle(cutoff) == 2
        assert {"moved", "new"} <= set(store.game_ids("playing"))
        assert {"old", "unmoved"} <= set(store.game_ids("abandoned"))
        assert not {"old", "unmoved"} & set(store.game_ids("playing"))
        assert store.load_game("old").events == old  # nothing of it is lost
        assert store.abandon_idle(cutoff) == 0
    finally:
        store.close()


@pytest.mark.slow
def test_a_client_flooding_the_engines_does_not_delay_anothers_computer(
    sqlite_url: str, tmp_path: Path
) -> None:
    """A real server with two engine workers behind a trusted proxy: one client
    opens six games against a computer that thinks 1.5 s a move (nine seconds of
    work, three rounds of both workers); another client's computer, asked after,
    moves as soon as a worker is free, not after the flood."""
    thinking = 1.5
    env = {"PARLOUR_TEST_THINKING": str(thinking)}
    with server(sqlite_url, tmp_path / "flood.log", "--behind-proxy", env=env) as (_, base):

        def new_game(address: str, level: str) -> str:
            response = httpx.post(
                f"{base}/api/games",
                json={"game": "race", "opponent": "computer", "level": level, "side": 1},
                headers={"X-Forwarded-For": address},
            )
            assert response.status_code == 201, response.text
            game_id: str = response.json()["game"]["id"]
            return game_id

        flood = [new_game("10.0.0.1", "slow") for _ in range(6)]
        time.sleep(0.3)  # the flood's first two are being worked on
        asked = time.monotonic()
        calm = new_game("10.0.0.2", "random")
        while httpx.get(f"{base}/api/games/{calm}").json()["version"] < 2:
            assert time.monotonic() - asked < 20
            time.sleep(0.05)
        waited = time.monotonic() - asked
        # at most the rest of one of the flood's moves (first come, first served
        # would be three of them: 4.5 s)
        assert waited < 2 * thinking, waited
        versions = [httpx.get(f"{base}/api/games/{g}").json()["version"] for g in flood]
        assert sum(v >= 2 for v in versions) <= 3, versions  # the flood was still going


def test_a_hint_past_the_clients_share_is_429_with_retry_after(sqlite_url: str) -> None:
    with serving(sqlite_url, engine_jobs=0) as client:
        table = new_table(client, "chess", opponent="computer", side=0, level="1")
        response = client.get(
            f"/api/games/{table.id}/hint", headers={"Authorization": f"Bearer {table.tokens[0]}"}
        )
        assert response.status_code == 429, response.text
        assert response.json()["error"] == "engine-busy"
        assert int(response.headers["retry-after"]) > 0
