"""Games kept as event logs through SQLAlchemy, in SQLite or PostgreSQL.

A game is a row in ``games`` (its name, options, status and version), its two seats
in ``seats`` (who sits there; a token's SHA-256 hash, never the token) and everything
that happened in it as rows of ``events``, appended and never changed. The position
is not stored: it is rebuilt by replaying the events through the game's rules, so
the log is the single truth and a server killed at any moment loses nothing that it
had acknowledged.

Every write is one transaction that checks the version the writer saw
(``UPDATE games SET version = new WHERE id = ? AND version = seen``): two writers
racing on one game cannot both win, even in two server processes.

SQLite under concurrent writers: the busy timeout is set before WAL mode (switching
to WAL itself needs the lock, and without a timeout a second process fails at once);
writers open their transactions with ``BEGIN IMMEDIATE``, so they queue for the write
lock at the start instead of failing half-way when a read lock cannot be upgraded; and
``synchronous=NORMAL``, which in WAL mode is still safe against a crash of the process
(only a power cut can lose the last commits) and saves an fsync per move.

>>> store = Store("sqlite://")
>>> store.create_game(NewGame("g1", "race", "{}", [SeatRow(0, "human", "h" * 64)], []))
>>> store.load_game("g1").name
'race'
"""

from __future__ import annotations

import datetime as dt
import json
import os
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psycopg
import sqlalchemy as sa
from psycopg.rows import namedtuple_row
from sqlalchemy.engine import URL, Connection, Engine, make_url
from sqlalchemy.pool import StaticPool


class _IsoTime(sa.types.TypeDecorator[dt.datetime]):
    """A UTC time kept in SQLite as ISO 8601 text: SQLite has no time type, and
    SQLAlchemy's generic conversion costs more than the rest of an event's write."""

    impl = sa.String(40)
    cache_ok = True

    def process_bind_param(self, value: dt.datetime | None, dialect: sa.Dialect) -> str | None:
        return None if value is None else value.isoformat()

    def process_result_value(self, value: str | None, dialect: sa.Dialect) -> dt.datetime | None:
        return None if value is None else dt.datetime.fromisoformat(value)


#: A moment in UTC: timestamptz in PostgreSQL, ISO text in SQLite.
Time = sa.DateTime(timezone=True).with_variant(_IsoTime(), "sqlite")

metadata = sa.MetaData()

games_table = sa.Table(
    "games",
    metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("game", sa.String(32), nullable=False),
    sa.Column("options", sa.Text, nullable=False, default="{}"),
    sa.Column("created", Time, nullable=False),
    sa.Column("status", sa.String(16), nullable=False),
    sa.Column("version", sa.Integer, nullable=False),
)
# Only the unfinished games are loaded when the server starts.
sa.Index("games_by_status", games_table.c.status)

seats_table = sa.Table(
    "seats",
    metadata,
    sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
    sa.Column("side", sa.Integer, primary_key=True),
    # "human" or "computer"
    sa.Column("player", sa.String(16), nullable=False),
    sa.Column("level", sa.String(32), nullable=True),
    sa.Column("token_hash", sa.String(64), nullable=True),
    sa.Column("invite_hash", sa.String(64), nullable=True),
)

events_table = sa.Table(
    "events",
    metadata,
    sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
    # The game's version once this event is applied: 1, 2, 3... without gaps.
    sa.Column("version", sa.Integer, primary_key=True),
    sa.Column("kind", sa.String(16), nullable=False),
    sa.Column("payload", sa.Text, nullable=False, default=""),
    sa.Column("seat", sa.Integer, nullable=True),
    sa.Column("time", Time, nullable=False),
)

analyses_table = sa.Table(
    "analyses",
    metadata,
    sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
    # Which game of the series it is (a backgammon match has several): 1, 2...
    sa.Column("number", sa.Integer, primary_key=True),
    # The version of the game when it was analysed (the game was over by then).
    sa.Column("version", sa.Integer, nullable=False),
    # The coach's review, as JSON (parlour.analysis.coach.GameReview.to_json).
    sa.Column("review", sa.Text, nullable=False),
)

# Engine work waiting for, or taken by, a worker of the fleet (parlour.server.jobs).
# Rows live only as long as their work: a finished job's row is swept a minute on.
jobs_table = sa.Table(
    "jobs",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    # The same work asked for twice is one job: "move:<game>:<version>", say.
    sa.Column("key", sa.String(200), nullable=False, unique=True),
    sa.Column("kind", sa.String(16), nullable=False),
    sa.Column("game_id", sa.String(32), nullable=False),
    sa.Column("version", sa.Integer, nullable=False),
    # Whose share it counts against: a client's address, or the game's.
    sa.Column("client", sa.String(64), nullable=False),
    sa.Column("priority", sa.Integer, nullable=False),
    sa.Column("request", sa.Text, nullable=False),
    # Times are seconds since the epoch by the clock of the process that wrote them.
    sa.Column("created", sa.Float, nullable=False),
    sa.Column("taken_by", sa.String(64), nullable=True),
    sa.Column("taken_until", sa.Float, nullable=True),
    sa.Column("tries", sa.Integer, nullable=False, default=0),
    sa.Column("finished", sa.Float, nullable=True),
    # JSON: {"result": ...} or {"refusal": {...}}, once finished.
    sa.Column("outcome", sa.Text, nullable=True),
)
sa.Index("jobs_by_client", jobs_table.c.client)
sa.Index("jobs_waiting", jobs_table.c.finished, jobs_table.c.priority)


# Built once: building a statement per write costs more than running it.
_UPDATE_VERSION = (
    games_table.update()
    .where(games_table.c.id == sa.bindparam("b_id"))
    .where(games_table.c.version == sa.bindparam("b_seen"))
    .values(version=sa.bindparam("b_new"), status=sa.bindparam("b_status"))
)
_GAME = sa.select(games_table).where(games_table.c.id == sa.bindparam("b_id"))
_SEATS = (
    sa.select(seats_table)
    .where(seats_table.c.game_id == sa.bindparam("b_id"))
    .order_by(seats_table.c.side)
)
_EVENTS = (
    sa.select(events_table)
    .where(events_table.c.game_id == sa.bindparam("b_id"))
    .order_by(events_table.c.version)
)
# A game with its seats and events (see Reader): one round trip instead of three,
# and psycopg parses the arrays' JSON in C.
_LOAD_GAME_POSTGRESQL = """
SELECT g.id, g.game, g.options, g.created, g.status, g.version,
    (SELECT json_agg(
        json_build_array(s.side, s.player, s.token_hash, s.level, s.invite_hash)
        ORDER BY s.side
    ) FROM seats s WHERE s.game_id = g.id) AS seats,
    (SELECT json_agg(
        json_build_array(e.version, e.kind, e.payload, e.seat, e.time)
        ORDER BY e.version
    ) FROM events e WHERE e.game_id = g.id) AS events
FROM games g WHERE g.id = %(b_id)s
"""
_UPDATE_SEAT = (
    seats_table.update()
    .where(seats_table.c.game_id == sa.bindparam("b_id"))
    .where(seats_table.c.side == sa.bindparam("b_side"))
    .values(token_hash=sa.bindparam("b_token_hash"), invite_hash=None)
)

# PostgreSQL writes a whole batch -- new games, and appends of events -- in one
# statement: one round trip and its own transaction, where the statements one by one
# (a version check, then the events) cost three times the CPU and twice the time.
# Every append's check is its own row of ``checks``, so a stale one is left out
# without rolling back the others; the statement answers with the games written.
# (A data-modifying WITH runs in full whether or not the final SELECT reads it, and
# the foreign keys are checked at the end of the statement, new games included.)
_WRITE_ALL_POSTGRESQL = """
WITH born AS (
    INSERT INTO games (id, game, options, created, status, version)
    SELECT * FROM unnest(
        %(g_id)s::text[], %(g_game)s::text[], %(g_options)s::text[],
        %(g_created)s::timestamptz[], %(g_status)s::text[], %(g_version)s::int[]
    )
    RETURNING id
), seated AS (
    INSERT INTO seats (game_id, side, player, level, token_hash, invite_hash)
    SELECT * FROM unnest(
        %(s_game_id)s::text[], %(s_side)s::int[], %(s_player)s::text[],
        %(s_level)s::text[], %(s_token_hash)s::text[], %(s_invite_hash)s::text[]
    )
), checks AS (
    SELECT * FROM unnest(
        %(b_id)s::text[], %(b_seen)s::int[], %(b_new)s::int[], %(b_status)s::text[]
    ) AS checks (id, seen, new, status)
), moved AS (
    UPDATE games SET version = checks.new, status = checks.status
    FROM checks WHERE games.id = checks.id AND games.version = checks.seen
    RETURNING games.id
), logged AS (
    INSERT INTO events (game_id, version, kind, payload, seat, time)
    SELECT * FROM unnest(
        %(e_game_id)s::text[], %(e_version)s::int[], %(e_kind)s::text[],
        %(e_payload)s::text[], %(e_seat)s::int[], %(e_time)s::timestamptz[]
    ) AS event (game_id, version, kind, payload, seat, time)
    WHERE event.game_id IN (SELECT id FROM moved UNION ALL SELECT id FROM born)
)
SELECT id FROM moved UNION ALL SELECT id FROM born
"""


class StaleVersionError(Exception):
    """The game's stored version is not the one the writer saw."""


class AppendFailedError(Exception):
    """The event loop's appender could not store a batch (see :class:`Appender`)."""


class ReadFailedError(Exception):
    """The event loop's reader could not read a game (see :class:`Reader`)."""


class _SomeStale(Exception):
    """A batch's version checks did not all match (rolled back, to be retried)."""


class UnknownGameIdError(LookupError):
    """No stored game has this id."""


@dataclass(frozen=True, slots=True)
class EventRow:
    """One entry of a game's log. ``payload`` is text in the game's notation (a move,
    a throw of the dice, the reason of a draw claim); ``seat`` is the side that acted,
    None for the server (the dice)."""

    version: int
    kind: str
    payload: str = ""
    seat: int | None = None
    time: dt.datetime = field(default_factory=lambda: dt.datetime.now(dt.UTC))

    def to_json(self) -> dict[str, Any]:
        return {
            "version": self.version,
            "kind": self.kind,
            "payload": self.payload,
            "seat": self.seat,
            "time": self.time.isoformat(),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> EventRow:
        """The event :meth:`to_json` wrote (as the fleet's news carries it)."""
        return cls(
            int(data["version"]),
            str(data["kind"]),
            str(data["payload"]),
            None if data["seat"] is None else int(data["seat"]),
            dt.datetime.fromisoformat(data["time"]),
        )


@dataclass(frozen=True, slots=True)
class SeatRow:
    side: int
    player: str
    token_hash: str | None = None
    level: str | None = None
    invite_hash: str | None = None


@dataclass(frozen=True, slots=True)
class Append:
    """Events to add to a game that must still be at ``seen_version``."""

    game_id: str
    seen_version: int
    events: Sequence[EventRow]
    status: str
    seat_update: SeatRow | None = None


@dataclass(frozen=True, slots=True)
class NewGame:
    id: str
    name: str
    options: str
    seats: list[SeatRow]
    events: list[EventRow]
    created: dt.datetime = field(default_factory=lambda: dt.datetime.now(dt.UTC))

    @property
    def game_id(self) -> str:
        """The new game's id (as an :class:`Append` names its game)."""
        return self.id


@dataclass(slots=True)
class StoredGame:
    id: str
    name: str
    options: dict[str, Any]
    created: dt.datetime
    status: str
    version: int
    seats: list[SeatRow]
    events: list[EventRow]


@dataclass(frozen=True, slots=True)
class JobRow:
    """A piece of engine work as the ``jobs`` table holds it (see
    :mod:`parlour.server.jobs`); ``request`` and ``outcome`` are JSON."""

    id: int
    key: str
    kind: str
    game_id: str
    version: int
    client: str
    priority: int
    request: str
    tries: int = 0
    outcome: str | None = None


def default_url() -> str:
    """The embedded store: ``parlour.db`` in the user's data directory
    (``$XDG_DATA_HOME/parlour``, by default ``~/.local/share/parlour``), so every
    ``parlour serve`` of one user finds the same games wherever it is started."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    folder = Path(base) / "parlour"
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'parlour.db'}"


def normalize_url(url: str | URL) -> URL:
    """Read an SQLAlchemy URL; a bare ``postgresql://`` means the psycopg 3 driver,
    the one Parlour depends on."""
    parsed = make_url(url)
    if parsed.drivername in ("postgresql", "postgres"):
        parsed = parsed.set(drivername="postgresql+psycopg")
    return parsed


def make_engine(url: str | URL) -> Engine:
    parsed = normalize_url(url)
    if parsed.get_backend_name() != "sqlite":
        return sa.create_engine(parsed, pool_size=8, max_overflow=4, pool_pre_ping=True)
    memory = parsed.database in (None, "", ":memory:")
    engine = sa.create_engine(
        parsed,
        # One shared connection for an in-memory database (each new one would be
        # empty); otherwise a small pool of file connections.
        poolclass=StaticPool if memory else None,
        connect_args={"check_same_thread": False},
    )

    @sa.event.listens_for(engine, "connect")
    def _pragmas(dbapi_connection: Any, _record: Any) -> None:
        # Take transaction control from the sqlite3 module so BEGIN IMMEDIATE is ours.
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA busy_timeout = 10000")  # before WAL: switching may wait
        if not memory:
            cursor.execute("PRAGMA journal_mode = WAL")
        cursor.execute("PRAGMA synchronous = NORMAL")
        cursor.execute("PRAGMA foreign_keys = ON")
        cursor.close()

    @sa.event.listens_for(engine, "begin")
    def _begin(connection: Connection) -> None:
        if connection.get_execution_options().get("writer"):
            connection.exec_driver_sql("BEGIN IMMEDIATE")
        else:
            connection.exec_driver_sql("BEGIN")

    return engine


class Store:
    """The tables of one database, with the few operations the server needs.

    The methods block (they talk to the database); the server calls them from a
    worker thread so that its event loop keeps serving other games."""

    def __init__(self, url: str | URL) -> None:
        self.url = normalize_url(url)
        self.engine = make_engine(self.url)
        # Whether an executemany UPDATE reports its total row count (it does in
        # SQLite and psycopg): then one statement checks a whole batch's versions.
        self._counts_many = bool(self.engine.dialect.supports_sane_multi_rowcount)
        metadata.create_all(self.engine)

    @property
    def is_sqlite(self) -> bool:
        return self.url.get_backend_name() == "sqlite"

    def close(self) -> None:
        self.engine.dispose()

    @contextmanager
    def _writing(self) -> Iterator[Connection]:
        with self.engine.connect().execution_options(writer=True) as conn, conn.begin():
            yield conn

    def ping(self) -> None:
        """Ask the database a trivial question; raises if it cannot answer."""
        with self.engine.connect() as conn:
            conn.execute(sa.text("SELECT 1"))

    def create_game(self, new: NewGame) -> None:
        """Store a new game with its seats and first events."""
        (error,) = self.write_many([new])
        if error is not None:
            raise error

    def append(
        self,
        game_id: str,
        seen_version: int,
        events: Sequence[EventRow],
        status: str,
        seat_update: SeatRow | None = None,
    ) -> None:
        """Append ``events`` (numbered from ``seen_version + 1``) in one transaction,
        provided the game is still at ``seen_version``; else StaleVersionError.
        ``seat_update`` changes a seat in the same transaction (an invite claimed)."""
        (error,) = self.write_many([Append(game_id, seen_version, events, status, seat_update)])
        if error is not None:
            raise error

    def write_many(self, writes: Sequence[Append | NewGame]) -> list[Exception | None]:
        """Several games' writes in one transaction (a group commit: under load the
        server hands over all the writes that queued while the last transaction was
        written). Each append is checked against its own version; a stale one is
        refused alone (its UPDATE changed nothing) and the others go through.
        Returns, in order, None for each write done and the error for each refused."""
        together = self._counts_many and len(writes) > 1
        try:
            if self.in_one_statement(writes):
                return self._write_all_at_once(writes)
            with self._writing() as conn:
                return self._write_all(conn, writes, together)
        except _SomeStale:
            # Rolled back: again, one UPDATE each, to tell which were stale.
            with self._writing() as conn:
                return self._write_all(conn, writes, together=False)
        except sa.exc.DBAPIError:
            if len(writes) == 1:
                raise
        return self.write_each(writes)

    def write_each(self, writes: Sequence[Append | NewGame]) -> list[Exception | None]:
        """``writes`` each in a transaction of its own, so that what fails in a batch
        fails alone: results as :meth:`write_many` gives them."""
        results: list[Exception | None] = []
        for write in writes:
            # The result counts only once the commit is through: a commit that
            # fails makes the write's result its error, not a second entry.
            try:
                with self._writing() as conn:
                    done = self._write_all(conn, [write], together=False)
            except sa.exc.DBAPIError as error:
                done = [error]
            results.extend(done)
        return results

    def in_one_statement(self, writes: Sequence[Append | NewGame]) -> bool:
        """Whether ``writes`` can go as :data:`_WRITE_ALL_POSTGRESQL`: on PostgreSQL,
        new games and appends of events (all but a seat taken), one per game."""
        return (
            not self.is_sqlite
            and len({write.game_id for write in writes}) == len(writes)
            and all(
                isinstance(write, NewGame) or (write.events and write.seat_update is None)
                for write in writes
            )
        )

    def _write_all_at_once(self, writes: Sequence[Append | NewGame]) -> list[Exception | None]:
        with self.engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
            moved = conn.exec_driver_sql(_WRITE_ALL_POSTGRESQL, _write_all_parameters(writes))
            return _write_all_results(writes, {row[0] for row in moved})

    def appender(self) -> Appender | None:
        """What appends from the event loop, on PostgreSQL (None on SQLite)."""
        return None if self.is_sqlite else Appender(self.url)

    def reader(self) -> Reader | None:
        """What reads games from the event loop, on PostgreSQL (None on SQLite)."""
        return None if self.is_sqlite else Reader(self.url)

    def _write_all(
        self, conn: Connection, writes: Sequence[Append | NewGame], together: bool
    ) -> list[Exception | None]:
        """The statements of a batch. ``together``: all the version checks in one
        executemany, whose total row count says whether every one matched (the
        common case, and much cheaper); if not, _SomeStale rolls the batch back."""
        results: list[Exception | None] = []
        games: list[dict[str, Any]] = []
        seats: list[dict[str, Any]] = []
        events: list[dict[str, Any]] = []
        versions: list[dict[str, Any]] = []
        seat_updates: list[dict[str, Any]] = []
        for write in writes:
            if isinstance(write, NewGame):
                games.append(_game_row(write))
                seats.extend(_seat_row(write.id, seat) for seat in write.seats)
                events.extend(_event_row(write.id, event) for event in write.events)
                results.append(None)
                continue
            version = _version_check(write)
            if together:
                versions.append(version)
            elif conn.execute(_UPDATE_VERSION, version).rowcount != 1:
                results.append(StaleVersionError(write.game_id))
                continue
            if write.seat_update is not None:
                seat_updates.append(
                    {
                        "b_id": write.game_id,
                        "b_side": write.seat_update.side,
                        "b_token_hash": write.seat_update.token_hash,
                    }
                )
            events.extend(_event_row(write.game_id, event) for event in write.events)
            results.append(None)
        if versions and conn.execute(_UPDATE_VERSION, versions).rowcount != len(versions):
            raise _SomeStale()
        if seat_updates:
            conn.execute(_UPDATE_SEAT, seat_updates)
        # New games before their seats and events (the foreign keys).
        for table, rows in ((games_table, games), (seats_table, seats), (events_table, events)):
            if rows:
                conn.execute(table.insert(), rows)
        return results

    def save_analysis(
        self, game_id: str, number: int, version: int, review: dict[str, Any]
    ) -> None:
        """Keep the coach's review of game ``number`` of the series ``game_id`` (a
        later one replaces it), so that a second request does not repeat it."""
        key = (analyses_table.c.game_id == game_id) & (analyses_table.c.number == number)
        with self._writing() as conn:
            conn.execute(analyses_table.delete().where(key))
            conn.execute(
                analyses_table.insert().values(
                    game_id=game_id, number=number, version=version, review=json.dumps(review)
                )
            )

    def forget_analysis(self, game_id: str, number: int) -> None:
        """Drop what is kept of game ``number``'s analysis (one that failed)."""
        key = (analyses_table.c.game_id == game_id) & (analyses_table.c.number == number)
        with self._writing() as conn:
            conn.execute(analyses_table.delete().where(key))

    def load_analysis(self, game_id: str, number: int) -> tuple[int, dict[str, Any]] | None:
        """The version analysed and the review of game ``number``, if it was kept."""
        key = (analyses_table.c.game_id == game_id) & (analyses_table.c.number == number)
        with self.engine.connect() as conn:
            row = conn.execute(sa.select(analyses_table).where(key)).one_or_none()
        if row is None:
            return None
        review: dict[str, Any] = json.loads(row.review)
        return row.version, review

    # -- engine work ------------------------------------------------------------------

    def add_job(self, job: JobRow, now: float) -> int:
        """Store ``job`` (its id is ignored) unless a job with its key is stored
        already; the stored job's id either way."""
        same_key = sa.select(jobs_table.c.id).where(jobs_table.c.key == job.key)
        try:
            with self._writing() as conn:
                found = conn.execute(same_key).scalar_one_or_none()
                if found is not None:
                    return int(found)
                inserted = conn.execute(
                    jobs_table.insert()
                    .returning(jobs_table.c.id)
                    .values(
                        key=job.key,
                        kind=job.kind,
                        game_id=job.game_id,
                        version=job.version,
                        client=job.client,
                        priority=job.priority,
                        request=job.request,
                        created=now,
                        tries=0,
                    )
                )
                return int(inserted.scalar_one())
        except sa.exc.IntegrityError:
            # Another process stored the same work a moment before (the key is unique).
            with self.engine.connect() as conn:
                return int(conn.execute(same_key).scalar_one())

    def client_jobs(self, client: str) -> int:
        """How many jobs of ``client`` are waiting or being worked on."""
        query = (
            sa.select(sa.func.count())
            .select_from(jobs_table)
            .where(jobs_table.c.client == client, jobs_table.c.finished.is_(None))
        )
        with self.engine.connect() as conn:
            return int(conn.execute(query).scalar_one())

    def take_job(self, worker: str, now: float, lease: float) -> JobRow | None:
        """Take the job that comes first for ``worker`` until ``now + lease``: of the
        jobs unfinished and untaken (or whose taker's lease ran out), the most urgent
        kind; then the one of the client with the fewest jobs being worked on; then
        the client's oldest before another's second (turn about between clients);
        then the oldest. ``SKIP LOCKED`` lets the processes of a fleet take jobs
        side by side, never the same one."""
        jobs, other = jobs_table, jobs_table.alias("other")
        free = sa.or_(jobs.c.taken_until.is_(None), jobs.c.taken_until <= now)
        other_free = sa.or_(other.c.taken_until.is_(None), other.c.taken_until <= now)
        mine = sa.and_(other.c.client == jobs.c.client, other.c.finished.is_(None))
        count = sa.select(sa.func.count()).select_from(other)
        working = count.where(mine, other.c.taken_until > now).scalar_subquery()
        ahead = count.where(mine, other_free, other.c.id < jobs.c.id).scalar_subquery()
        query = (
            sa.select(jobs)
            .where(jobs.c.finished.is_(None), free)
            .order_by(jobs.c.priority, working, ahead, jobs.c.id)
            .limit(1)
            .with_for_update(skip_locked=True, of=jobs)
        )
        with self._writing() as conn:
            row = conn.execute(query).one_or_none()
            if row is None:
                return None
            conn.execute(
                jobs.update()
                .where(jobs.c.id == row.id)
                .values(taken_by=worker, taken_until=now + lease, tries=row.tries + 1)
            )
        return JobRow(
            row.id,
            row.key,
            row.kind,
            row.game_id,
            row.version,
            row.client,
            row.priority,
            row.request,
            row.tries + 1,
        )

    def renew_jobs(self, worker: str, ids: Sequence[int], until: float) -> None:
        """Extend ``worker``'s lease on the jobs ``ids`` it is still working on."""
        if not ids:
            return
        with self._writing() as conn:
            conn.execute(
                jobs_table.update()
                .where(
                    jobs_table.c.id.in_(ids),
                    jobs_table.c.taken_by == worker,
                    jobs_table.c.finished.is_(None),
                )
                .values(taken_until=until)
            )

    def release_jobs(self, worker: str) -> None:
        """Hand back ``worker``'s unfinished jobs at once (a process stopping)."""
        with self._writing() as conn:
            conn.execute(
                jobs_table.update()
                .where(jobs_table.c.taken_by == worker, jobs_table.c.finished.is_(None))
                .values(taken_by=None, taken_until=None)
            )

    def finish_job(self, job_id: int, outcome: str, now: float) -> None:
        with self._writing() as conn:
            conn.execute(
                jobs_table.update()
                .where(jobs_table.c.id == job_id, jobs_table.c.finished.is_(None))
                .values(finished=now, outcome=outcome, taken_until=None)
            )

    def job_outcomes(self, ids: Sequence[int]) -> dict[int, str | None]:
        """The outcome of each of the jobs ``ids`` still stored (None: unfinished)."""
        query = sa.select(jobs_table.c.id, jobs_table.c.outcome).where(jobs_table.c.id.in_(ids))
        with self.engine.connect() as conn:
            return {row.id: row.outcome for row in conn.execute(query)}

    def sweep_jobs(self, finished_before: float) -> int:
        """Delete the jobs finished before ``finished_before``; how many."""
        with self._writing() as conn:
            deleted = conn.execute(
                jobs_table.delete().where(jobs_table.c.finished < finished_before)
            )
        return int(deleted.rowcount)

    def abandon_idle(self, before: dt.datetime) -> int:
        """Mark abandoned every unfinished game created, and last moved in, before
        ``before``; how many. Nothing of them is lost: a move through a seat's token
        makes a game "playing" again."""
        recent = sa.exists().where(
            events_table.c.game_id == games_table.c.id, events_table.c.time >= before
        )
        with self._writing() as conn:
            marked = conn.execute(
                games_table.update()
                .where(
                    games_table.c.status == "playing",
                    games_table.c.created < before,
                    ~recent,
                )
                .values(status="abandoned")
            )
        return int(marked.rowcount)

    def game_ids(self, status: str | None = None) -> list[str]:
        query = sa.select(games_table.c.id).order_by(games_table.c.created)
        if status is not None:
            query = query.where(games_table.c.status == status)
        with self.engine.connect() as conn:
            return [row.id for row in conn.execute(query)]

    def load_game(self, game_id: str) -> StoredGame:
        # SQLite reads the three in one transaction, from one snapshot. PostgreSQL's
        # transactions (READ COMMITTED) give each statement its own snapshot anyway,
        # so its reads go without one: two round trips fewer (BEGIN, ROLLBACK).
        reading = self.engine.connect()
        if not self.is_sqlite:
            reading = reading.execution_options(isolation_level="AUTOCOMMIT")
        with reading as conn:
            row = conn.execute(_GAME, {"b_id": game_id}).one_or_none()
            if row is None:
                raise UnknownGameIdError(game_id)
            seats = [
                SeatRow(s.side, s.player, s.token_hash, s.level, s.invite_hash)
                for s in conn.execute(_SEATS, {"b_id": game_id})
            ]
            events = [
                EventRow(e.version, e.kind, e.payload, e.seat, _aware(e.time))
                for e in conn.execute(_EVENTS, {"b_id": game_id})
            ]
        return _stored_game(row, seats, events)


def _stored_game(row: Any, seats: list[SeatRow], events: list[EventRow]) -> StoredGame:
    """A game from its row in ``games`` (SQLAlchemy's or psycopg's named tuple)."""
    return StoredGame(
        id=row.id,
        name=row.game,
        options=json.loads(row.options),
        created=_aware(row.created),
        status=row.status,
        version=row.version,
        seats=seats,
        events=events,
    )


class _OnTheLoop:
    """A connection of psycopg's own (asyncio) on which the server's event loop
    talks to PostgreSQL: no worker thread, and no SQLAlchemy, between a request and
    its statements. Opened at first use, and again after it was lost."""

    def __init__(self, url: URL) -> None:
        self._conninfo = url.set(drivername="postgresql").render_as_string(hide_password=False)
        self._connection: psycopg.AsyncConnection[Any] | None = None

    async def _connected(self) -> psycopg.AsyncConnection[Any]:
        if self._connection is None or self._connection.closed:
            self._connection = await psycopg.AsyncConnection.connect(
                self._conninfo, autocommit=True, connect_timeout=5
            )
        return self._connection

    async def _lost(self) -> None:
        """After a failure: a broken connection is closed, to be opened again."""
        if self._connection is not None and self._connection.broken:
            await self.close()

    async def close(self) -> None:
        if self._connection is not None:
            connection, self._connection = self._connection, None
            await connection.close()


class Reader(_OnTheLoop):
    """PostgreSQL's reads of a game from the event loop: the game's row with its
    seats and events in one statement (:data:`_LOAD_GAME_POSTGRESQL`), one round
    trip. The server falls back on :meth:`Store.load_game` when this fails."""

    async def load_game(self, game_id: str) -> StoredGame:
        try:
            connection = await self._connected()
            cursor = connection.cursor(row_factory=namedtuple_row)
            await cursor.execute(_LOAD_GAME_POSTGRESQL, {"b_id": game_id})
            row: Any = await cursor.fetchone()
        except (psycopg.Error, OSError) as error:
            await self._lost()
            raise ReadFailedError(str(error)) from error
        if row is None:
            raise UnknownGameIdError(game_id)
        # The arrays' items are in the order of SeatRow's and EventRow's fields.
        seats = [SeatRow(*seat) for seat in row.seats or ()]
        events = [
            EventRow(version, kind, payload, seat, dt.datetime.fromisoformat(time))
            for version, kind, payload, seat, time in row.events or ()
        ]
        return _stored_game(row, seats, events)


class Appender(_OnTheLoop):
    """PostgreSQL's group commits of moves and new games, sent from the server's
    event loop in one statement (:data:`_WRITE_ALL_POSTGRESQL`). The server falls
    back on :meth:`Store.write_many` for anything else, and on
    :meth:`Store.write_each` when this fails (that tells each write's fate apart).

    The statement is one transaction. Should the connection be lost after it
    committed and before the answer came, the fallback finds a move stale (the
    player sees the game move on) and a new game's id taken (the creation fails):
    nothing is written twice."""

    async def write_all(self, writes: Sequence[Append | NewGame]) -> list[Exception | None]:
        """``writes`` (each for which :meth:`Store.in_one_statement` holds) stored:
        None for each done, StaleVersionError for each whose game had moved on."""
        try:
            connection = await self._connected()
            cursor = await connection.execute(_WRITE_ALL_POSTGRESQL, _write_all_parameters(writes))
            moved = {row[0] for row in await cursor.fetchall()}
        except (psycopg.Error, OSError) as error:
            await self._lost()
            raise AppendFailedError(str(error)) from error
        return _write_all_results(writes, moved)


def _write_all_parameters(writes: Sequence[Append | NewGame]) -> dict[str, list[Any]]:
    """The arrays :data:`_WRITE_ALL_POSTGRESQL` takes: the columns of the rows the
    statements one by one would write (a new game's, its seats', each append's
    version check, every event's), one array a column."""
    games: list[dict[str, Any]] = []
    seats: list[dict[str, Any]] = []
    checks: list[dict[str, Any]] = []
    events: list[dict[str, Any]] = []
    for write in writes:
        if isinstance(write, NewGame):
            games.append(_game_row(write))
            seats.extend(_seat_row(write.id, seat) for seat in write.seats)
        else:
            checks.append(_version_check(write))
        events.extend(_event_row(write.game_id, event) for event in write.events)
    return (
        _arrays("g_", games_table.c.keys(), games)
        | _arrays("s_", seats_table.c.keys(), seats)
        | _arrays("", _CHECK_KEYS, checks)
        | _arrays("e_", events_table.c.keys(), events)
    )


def _arrays(prefix: str, keys: Sequence[str], rows: list[dict[str, Any]]) -> dict[str, list[Any]]:
    return {prefix + key: [row[key] for row in rows] for key in keys}


def _write_all_results(
    writes: Sequence[Append | NewGame], written: set[str]
) -> list[Exception | None]:
    return [
        None if write.game_id in written else StaleVersionError(write.game_id) for write in writes
    ]


_CHECK_KEYS = ("b_id", "b_seen", "b_new", "b_status")


def _version_check(append: Append) -> dict[str, Any]:
    """The parameters of :data:`_UPDATE_VERSION` for ``append``."""
    return {
        "b_id": append.game_id,
        "b_seen": append.seen_version,
        "b_new": append.seen_version + len(append.events),
        "b_status": append.status,
    }


def _game_row(new: NewGame) -> dict[str, Any]:
    return {
        "id": new.id,
        "game": new.name,
        "options": new.options,
        "created": new.created,
        "status": "playing",
        "version": len(new.events),
    }


def _seat_row(game_id: str, seat: SeatRow) -> dict[str, Any]:
    return {
        "game_id": game_id,
        "side": seat.side,
        "player": seat.player,
        "level": seat.level,
        "token_hash": seat.token_hash,
        "invite_hash": seat.invite_hash,
    }


def _event_row(game_id: str, event: EventRow) -> dict[str, Any]:
    return {
        "game_id": game_id,
        "version": event.version,
        "kind": event.kind,
        "payload": event.payload,
        "seat": event.seat,
        "time": event.time,
    }


def _aware(moment: dt.datetime) -> dt.datetime:
    """SQLite hands back naive datetimes; every time Parlour stores is UTC."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=dt.UTC)
