"""The store and the one path of change under concurrency: two writers racing on one
game cannot both win, and a failed write leaves nothing behind."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from pathlib import Path

import pytest
import sqlalchemy as sa

from parlour.core.dice import Dice
from parlour.server.errors import Conflict, http_status
from parlour.server.hall import Hall
from parlour.server.storage import (
    Append,
    Appender,
    AppendFailedError,
    EventRow,
    NewGame,
    Reader,
    ReadFailedError,
    SeatRow,
    StaleVersionError,
    Store,
    StoredGame,
    UnknownGameIdError,
    default_url,
    make_engine,
)
from parlour.server.table import MAX_BACKLOG, Table
from parlour.server.wire import update_message
from tests.conformance.toygame import RACE


def test_appends_check_the_version_and_are_all_or_nothing(db_url: str) -> None:
    store = Store(db_url)
    try:
        store.create_game(
            NewGame("g1", "race", "{}", [SeatRow(0, "human", "a" * 64)], [EventRow(1, "throw")])
        )
        store.append(
            "g1", 1, [EventRow(2, "move", "+1", 0), EventRow(3, "throw", "throw 2")], "playing"
        )
        with pytest.raises(StaleVersionError):
            store.append("g1", 1, [EventRow(2, "move", "+2", 0)], "playing")
        # Event 3 exists already: the whole transaction fails, the version stays.
        with pytest.raises(sa.exc.IntegrityError):
            store.append("g1", 3, [EventRow(4, "move", "+1", 1), EventRow(3, "x")], "over")
        stored = store.load_game("g1")
        assert stored.version == 3 and stored.status == "playing"
        assert [(e.version, e.payload) for e in stored.events] == [
            (1, ""),
            (2, "+1"),
            (3, "throw 2"),
        ]
    finally:
        store.close()


def test_sqlite_is_set_up_for_concurrent_writers(sqlite_url: str) -> None:
    engine = make_engine(sqlite_url)
    try:
        with engine.connect() as conn:
            assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
            assert conn.exec_driver_sql("PRAGMA busy_timeout").scalar() == 10000
            assert conn.exec_driver_sql("PRAGMA synchronous").scalar() == 1  # NORMAL
    finally:
        engine.dispose()


@asynccontextmanager
async def open_hall(store: Store) -> AsyncIterator[Hall]:
    """A started hall over ``store`` (seeded dice); stopped, and the store closed,
    afterwards."""
    hall = Hall(store, dice=Dice(seed=4))
    await hall.start()
    try:
        yield hall
    finally:
        await hall.stop()
        store.close()


def test_two_racing_moves_on_one_version_cannot_both_win(db_url: str) -> None:
    async def race() -> None:
        store = Store(db_url)
        async with open_hall(store) as hall:
            session, tokens, _ = await hall.create("race", "local", 0, None)
            token = tokens[0]["token"]
            version = session.version
            results = await asyncio.gather(
                *(hall.act(session.id, token, "move", version, "+1") for _ in range(5)),
                return_exceptions=True,
            )
            refused = [r for r in results if isinstance(r, Conflict)]
            assert len(refused) == 4 and {http_status(e) for e in refused} == {409}
            assert session.version == version + 2
            assert [e.version for e in store.load_game(session.id).events] == [1, 2, 3]

    asyncio.run(race())


def test_a_group_commit_refuses_only_the_stale_append(db_url: str) -> None:
    store = Store(db_url)
    try:
        for game_id in ("a", "b", "c"):
            store.create_game(
                NewGame(game_id, "race", "{}", [SeatRow(0, "human")], [EventRow(1, "throw", "1")])
            )
        results = store.write_many(
            [
                Append("a", 1, [EventRow(2, "move", "+1", 0)], "playing"),
                Append("b", 5, [EventRow(6, "move", "+1", 0)], "playing"),  # stale
                Append("c", 1, [EventRow(2, "resign", "", 0)], "over"),
            ]
        )
        assert results[0] is None and results[2] is None
        assert isinstance(results[1], StaleVersionError)
        assert [len(store.load_game(g).events) for g in "abc"] == [2, 1, 2]
        assert store.load_game("c").status == "over" and store.load_game("b").version == 1
        # A batch where one append breaks a constraint: the others still go in.
        results = store.write_many(
            [
                Append("a", 2, [EventRow(3, "move", "+1", 1)], "playing"),
                Append("b", 1, [EventRow(2, "x"), EventRow(2, "y")], "playing"),  # duplicate
            ]
        )
        assert results[0] is None and isinstance(results[1], sa.exc.IntegrityError)
        assert store.load_game("a").version == 3 and store.load_game("b").version == 1
        assert len(store.load_game("b").events) == 1
        # New games and appends share a transaction.
        new = NewGame("d", "race", "{}", [SeatRow(0, "human"), SeatRow(1, "computer")], [])
        assert store.write_many([new, Append("a", 3, [EventRow(4, "resign", "", 0)], "over")]) == [
            None,
            None,
        ]
        assert [s.player for s in store.load_game("d").seats] == ["human", "computer"]
        assert store.load_game("a").status == "over"
    finally:
        store.close()


def test_the_embedded_store_lives_in_the_users_data_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert default_url() == f"sqlite:///{tmp_path / 'parlour' / 'parlour.db'}"
    assert (tmp_path / "parlour").is_dir()


def test_a_watcher_that_stops_reading_is_dropped_not_buffered() -> None:
    table = Table("g", RACE, [], [EventRow(1, "throw", "throw 2")], "now", {})
    stuck: asyncio.Queue[str | None] = asyncio.Queue()
    reading: asyncio.Queue[str | None] = asyncio.Queue()
    table.watchers.update((stuck, reading))
    for _ in range(MAX_BACKLOG + 3):
        table.publish(update_message(table, []))
        while not reading.empty():
            reading.get_nowait()
    assert table.watchers == {reading}
    assert stuck.qsize() == MAX_BACKLOG + 1
    backlog = [stuck.get_nowait() for _ in range(MAX_BACKLOG + 1)]
    assert backlog[-1] is None and all(isinstance(m, str) for m in backlog[:-1])


def test_postgresqls_appender_stores_a_batch_and_refuses_only_the_stale(
    postgres_url: str,
) -> None:
    """The event loop's appender: one statement for a batch of appends, each
    checked against its own version, and a new game; a lost connection is opened
    again."""
    store = Store(postgres_url)
    appender = store.appender()
    assert appender is not None and Store("sqlite://").appender() is None
    ids = [f"appender-{n}-{time.time_ns()}" for n in range(3)]
    try:
        for game_id in ids:
            store.create_game(
                NewGame(game_id, "race", "{}", [SeatRow(0, "human")], [EventRow(1, "throw", "1")])
            )
        batch = [
            Append(ids[0], 1, [EventRow(2, "move", "+1", 0), EventRow(3, "throw", "2")], "playing"),
            Append(ids[1], 4, [EventRow(5, "move", "+1", 0)], "playing"),  # stale
            Append(ids[2], 1, [EventRow(2, "resign", "", 0)], "over"),
        ]
        assert store.in_one_statement(batch)
        assert not store.in_one_statement([*batch, batch[0]])  # one game twice
        born = NewGame(
            f"appender-new-{time.time_ns()}",
            "race",
            "{}",
            [SeatRow(0, "human", "a-hash"), SeatRow(1, "computer", level="3")],
            [EventRow(1, "throw", "4")],
        )

        async def appends() -> tuple[list[Exception | None], list[Exception | None]]:
            first = await appender.write_all([*batch, born])
            await appender.close()  # as if the connection were lost: it opens again
            later = Append(ids[0], 3, [EventRow(4, "move", "+2", 1)], "playing")
            second = await appender.write_all([later])
            await appender.close()
            return first, second

        results, later = asyncio.run(appends())
        assert results[0] is None and results[2] is None and results[3] is None
        assert isinstance(results[1], StaleVersionError)
        assert later == [None]
        assert [store.load_game(g).version for g in ids] == [4, 1, 2]
        assert [e.seat for e in store.load_game(ids[0]).events] == [None, 0, None, 1]
        assert store.load_game(ids[2]).status == "over"
        stored = store.load_game(born.id)
        assert (stored.name, stored.version, stored.status) == ("race", 1, "playing")
        assert stored.seats == born.seats and stored.events[0].payload == "4"
    finally:
        store.close()


def test_postgresqls_reader_reads_a_game_as_the_store_does(postgres_url: str) -> None:
    """The event loop's reader: the same game as :meth:`Store.load_game` reads
    (its seats and events in order), many reads at once, an unknown id refused as
    there, and a lost connection opened again; when it fails the hall reads
    through the store."""
    store = Store(postgres_url)
    reader = store.reader()
    assert reader is not None and Store("sqlite://").reader() is None
    game_id = f"reader-{time.time_ns()}"
    # Both human: a computer's turn would leave a job in the database other tests share.
    seats = [SeatRow(0, "human", "a-hash"), SeatRow(1, "human", invite_hash="i-hash")]
    events = [
        EventRow(1, "throw", "throw 3"),
        EventRow(2, "move", "+3", 0),
        EventRow(3, "throw", "throw 2"),
    ]
    try:
        store.create_game(NewGame(game_id, "race", '{"opponent": "friend"}', seats, events))

        async def reads() -> tuple[StoredGame, StoredGame]:
            first = await reader.load_game(game_id)
            at_once = await asyncio.wait_for(  # many at once share the one connection
                asyncio.gather(*(reader.load_game(game_id) for _ in range(20))), 10
            )
            assert at_once == [first] * 20
            with pytest.raises(UnknownGameIdError):
                await reader.load_game("no-such-game")
            await reader.close()  # as if the connection were lost: it opens again
            second = await reader.load_game(game_id)
            await reader.close()
            return first, second

        first, second = asyncio.run(reads())
        assert first == second == store.load_game(game_id)
        assert first.options == {"opponent": "friend"} and first.version == 3
        assert first.seats == seats and [e.payload for e in first.events] == [
            "throw 3",
            "+3",
            "throw 2",
        ]
    finally:
        store.close()

    class Failing(Reader):
        tried = 0

        async def load_game(self, game_id: str) -> StoredGame:
            Failing.tried += 1
            raise ReadFailedError("the connection was lost")

    class WithFailingReader(Store):
        def reader(self) -> Reader | None:
            return Failing(self.url)

    async def play() -> None:
        async with open_hall(WithFailingReader(postgres_url)) as hall:
            table = await hall.get(game_id)
            assert table.version == 3 and table.seats[1].invite_hash == "i-hash"
            assert Failing.tried == 1

    asyncio.run(play())


def test_when_the_appender_fails_each_write_goes_on_its_own(postgres_url: str) -> None:
    """The server's fallback after a failed one-statement batch: each write in its
    own transaction (which tells their fates apart), not the same statement again."""

    class Failing(Appender):
        async def write_all(self, writes: Sequence[Append | NewGame]) -> list[Exception | None]:
            raise AppendFailedError("the connection was lost")

    class Counting(Store):
        at_once = 0

        def appender(self) -> Appender | None:
            return Failing(self.url)

        def _write_all_at_once(self, writes: Sequence[Append | NewGame]) -> list[Exception | None]:
            self.at_once += 1
            return super()._write_all_at_once(writes)

    async def play() -> None:
        store = Counting(postgres_url)
        async with open_hall(store) as hall:
            table, tokens, _ = await hall.create("race", "local", 0, None)
            await hall.act(table.id, tokens[0]["token"], "move", table.version, "+1")
            assert store.load_game(table.id).version == table.version == 3
            assert store.at_once == 0

    asyncio.run(play())
