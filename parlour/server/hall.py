"""The hall: every game the server knows, and the one path by which any changes.

Every change, from a player or from the server itself, goes the same way: under the
table's lock, check the version the player saw and that the seat may act, apply the
action to a copy of the game's progress through the game's rules (which refuse an
illegal move with the rule it breaks), throw the dice on the server whenever the
position reaches a chance node, append all the resulting events to the store in one
transaction, and only then adopt the new progress and tell the watchers. A refused
action therefore changes nothing, in memory or in the store.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import json
import logging
import multiprocessing
import os
import time
from collections.abc import Callable, Coroutine
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from functools import partial
from typing import Any, TypeVar

from parlour.analysis.coach import opening_of
from parlour.core import registry
from parlour.core.dice import Dice
from parlour.core.errors import IllegalMoveError, ParlourError, UnknownGameError
from parlour.core.face import Series
from parlour.core.protocol import CHANCE, Game, Side, State
from parlour.server import fairness, players
from parlour.server.analyses import Analyses
from parlour.server.clocks import TimeControl
from parlour.server.errors import (
    BadRequest,
    Conflict,
    Forbidden,
    NotFound,
    Refusal,
    TooLarge,
    Unavailable,
    from_rules,
)
from parlour.server.fleet import Fleet, News
from parlour.server.jobs import MOST_PER_CLIENT, MOST_TRIES, Jobs, order_key
from parlour.server.limits import CLIENT
from parlour.server.play import (
    ACTIONS,
    REMATCH,
    TIME,
    Progress,
    apply,
    replay_record,
    throw_dice,
)
from parlour.server.seats import hash_token, new_game_id, new_token, token_matches
from parlour.server.storage import (
    Append,
    AppendFailedError,
    EventRow,
    JobRow,
    NewGame,
    ReadFailedError,
    SeatRow,
    StaleVersionError,
    Store,
    StoredGame,
    UnknownGameIdError,
)
from parlour.server.table import Seat, Table
from parlour.server.wire import update_message

log = logging.getLogger("parlour.server")
T = TypeVar("T")

#: By default a game nobody has asked for in this many seconds leaves memory.
FORGET_AFTER = 600.0
#: By default an unfinished game nobody has moved in for this many days is
#: abandoned: no longer resumed at start-up (it stays stored; a move revives it).
ABANDON_AFTER = 30.0
#: Seconds between looks for abandoned games.
ABANDON_EVERY = 3600.0

OPPONENTS = ("friend", "computer", "local")

#: The actions that end a game (or answer an offer to): taken past :data:`MOST_EVENTS`.
ENDINGS = ("resign", "draw-accept", "draw-decline", "claim", "draw-offer")

#: The most moves (dice throws included) of an imported game or match.
MOST_IMPORTED = 5000

#: By default the most events (moves, throws of the dice, offers) one game may have:
#: far more than any game played to its end needs (the 75-move rule ends chess in
#: under 9,000 plies), so that a client cannot make one game grow without end.
MOST_EVENTS = 20_000

#: The most appends written in one transaction.
MAX_BATCH = 256


class Hall:
    """Every game the server knows: creates them, finds them (loading from the store
    on first use), and carries out the seats' actions. Appends to the store are
    group-committed; SQLite is written on the event loop, PostgreSQL's writes are
    sent from it (the rest of its work waited on in worker threads). Computer
    players think in worker processes, taking their work as jobs shared by the
    fleet (:mod:`parlour.server.jobs`)."""

    def __init__(
        self,
        store: Store,
        *,
        dice: Dice | None = None,
        workers: int = 2,
        redis_url: str | None = None,
        forget_after: float = FORGET_AFTER,
        engine_jobs: int = MOST_PER_CLIENT,
        abandon_after: float = ABANDON_AFTER,
        most_events: int = MOST_EVENTS,
    ) -> None:
        self.store = store
        #: Seconds a game may go unasked for before it leaves memory (0: never);
        #: it loads from the store again when someone asks for it.
        self.forget_after = forget_after
        if redis_url is not None and store.is_sqlite:
            raise ValueError(
                "a fleet of servers shares a database server such as PostgreSQL; "
                "an SQLite file belongs to one process"
            )
        #: With ``redis_url``, this process is one of a fleet on the same database.
        self.fleet: Fleet | None = None
        if redis_url is not None:
            self.fleet = Fleet(redis_url, self.hear, self.catch_up_all)
        self.dice = dice or Dice()  # SystemRandom: nobody can predict a throw
        #: Whether each new game's dice follow from a secret committed to at its
        #: start (see :mod:`parlour.server.fairness`); not when tests load the dice.
        self.committed = dice is None
        self.tables: dict[str, Table] = {}
        self._db: Executor = ThreadPoolExecutor(max_workers=8, thread_name_prefix="parlour-db")
        self._workers = workers
        # SQLite is a library in this process: a write is a fraction of a millisecond
        # of work, cheaper done at once on the event loop than handed to a thread
        # (two thread switches per write, each a wait for the GIL and a core on a
        # busy machine). It assumes one server process per database file, so that
        # no other writer holds the lock. A database server is waited on in threads
        # (but for the moves, new games and reads of a game, which psycopg sends from
        # the event loop).
        self._inline = store.is_sqlite
        #: PostgreSQL's writes of moves and new games, and its reads of a game, go
        #: from the event loop.
        self._appender = store.appender()
        self._reader = store.reader()
        self._pool: ProcessPoolExecutor | None = None
        #: The coach: finished games analysed in a worker of their own.
        self.analyses = Analyses(store, self._in_db, os.getpid())
        #: The engine's work (computer moves, hints, judgements), shared fairly.
        self.jobs = Jobs(
            store, self._in_db, self._work, takers=workers, most_per_client=engine_jobs
        )
        #: Days after which an unfinished game nobody moved in is abandoned (0: never).
        self.abandon_after = abandon_after
        #: The most events a game may have: past them only resigning or a draw is taken.
        self.most_events = most_events
        self._loading = asyncio.Lock()
        #: Games being read from the store, each with the latest version another
        #: process's news named meanwhile (-1: none), which the read may predate.
        self._heard_while_loading: dict[str, int] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        # Writes waiting for the writer, which takes them all in one transaction.
        self._queued: list[tuple[Append | NewGame, asyncio.Future[None]]] = []
        self._writer: asyncio.Task[None] | None = None

    async def _in_db(self, function: Callable[..., T], *args: Any) -> T:
        if self._inline:
            return function(*args)
        return await asyncio.get_running_loop().run_in_executor(self._db, partial(function, *args))

    async def start(self) -> None:
        """Load every unfinished game and let the computer move where it is to."""
        # Forked workers, started now, before the server has other threads: a fork
        # copies only the calling thread, and a spawned worker would re-run the
        # ``parlour serve`` command that started the server.
        self._pool = ProcessPoolExecutor(
            max_workers=self._workers,
            mp_context=multiprocessing.get_context("fork"),
            initializer=players.start_worker,
            initargs=(os.getpid(),),
        )
        await asyncio.get_running_loop().run_in_executor(self._pool, players.ready)
        self.analyses.start()
        if self.fleet is not None:
            self.fleet.on_jobs = self.jobs.heard
            await self.fleet.start()
            self.jobs.tell = self.fleet.tell_jobs
        self.jobs.start()
        # Serve at once: unfinished games are resumed in the background (one asked
        # for meanwhile is loaded on demand), and idle ones leave memory.
        if self.abandon_after:
            await self.abandon_idle()  # before the unfinished games are resumed
            self._background(self._abandon_idle_games())
        self._background(self._resume_unfinished())
        if self.forget_after:
            self._background(self._forget_idle_games())

    def _background(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _resume_unfinished(self) -> None:
        """Load every unfinished game (loading one lets the computer move where it
        is to, and starts the clock that runs: see :meth:`get`)."""
        for game_id in await self._in_db(self.store.game_ids, "playing"):
            try:
                await self.get(game_id)
            except Refusal as error:
                log.error("game %s cannot be resumed: %s", game_id, error.detail)
                continue
            await asyncio.sleep(0)  # requests come first
        log.info("unfinished games resumed")

    def forget_idle(self, now: float) -> list[str]:
        """Take out of memory the games nobody has asked for in :attr:`forget_after`
        seconds by ``now`` (``time.monotonic()``) that nobody is watching, thinking
        for or changing; returns their ids. They load from the store when asked for."""
        gone = []
        for game_id, table in list(self.tables.items()):
            if (
                now - table.last_used >= self.forget_after
                and not table.watchers
                and table.thinking is None
                and table.clock_timer is None
                and not table.lock.locked()
            ):
                del self.tables[game_id]
                gone.append(game_id)
        return gone

    async def _forget_idle_games(self) -> None:
        while True:
            await asyncio.sleep(max(1.0, self.forget_after / 4))
            gone = self.forget_idle(time.monotonic())
            if gone:
                log.info("%d idle games left memory; %d stay", len(gone), len(self.tables))

    async def abandon_idle(self) -> int:
        """Mark abandoned the unfinished games nobody has moved in for
        :attr:`abandon_after` days; how many."""
        before = dt.datetime.now(dt.UTC) - dt.timedelta(days=self.abandon_after)
        count: int = await self._in_db(self.store.abandon_idle, before)
        if count:
            days = self.abandon_after
            log.info("%d unfinished games untouched for %g days marked abandoned", count, days)
        return count

    async def _abandon_idle_games(self) -> None:
        while True:
            await asyncio.sleep(ABANDON_EVERY)
            try:
                await self.abandon_idle()
            except Exception as error:
                log.warning("could not look for abandoned games: %s", error)

    async def stop(self) -> None:
        for table in self.tables.values():
            if table.clock_timer is not None:
                table.clock_timer.cancel()
        await self.jobs.stop()
        if self.fleet is not None:
            await self.fleet.stop()
        for task in list(self._tasks):
            task.cancel()
        if self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)
        if self._writer is not None:
            await asyncio.gather(self._writer, return_exceptions=True)
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
        await self.analyses.stop()
        for link in (self._appender, self._reader):
            if link is not None:
                await link.close()
        self._db.shutdown(wait=True)

    # -- creating and joining ----------------------------------------------------------

    async def create(
        self,
        game_name: str,
        opponent: str,
        side: int,
        level: str | None,
        rules: dict[str, Any] | None = None,
        *,
        tutor: str = "",
        start: str | None = None,
        clock: dict[str, Any] | None = None,
    ) -> tuple[Table, list[dict[str, Any]], str | None]:
        """A new game (under the optional ``rules``, such as a backgammon match's
        length; with ``tutor``, the tutor's threshold, a rule both players see; from
        the position ``start``, in the game's own position text, when given; see
        :func:`start_position`): returns the table, the creator's seat tokens and,
        for a friend's game, the invite code for the other seat."""
        try:
            game = registry.get_game(game_name)
        except UnknownGameError as error:
            raise NotFound("unknown-game", str(error)) from None
        try:
            series = registry.get_face(game).series(rules)
        except ValueError as error:
            raise BadRequest("bad-rules", str(error)) from None
        seat_rows, tokens, invite = _seats(game.name, opponent, side, level)
        try:
            control = None if clock is None else TimeControl.from_json(clock)
        except ValueError as error:
            raise BadRequest("bad-clock", str(error)) from None
        first = None if start is None else start_position(series, start)
        if first is not None and first.to_text() == series.first().to_text():
            first = None  # the usual start, set up by hand
        game_id = new_game_id()
        options: dict[str, Any] = {"opponent": opponent}
        if series.rules:
            options["rules"] = series.rules
        if tutor:
            options["tutor"] = tutor
        if control is not None:
            options["clock"] = control.to_json()
        if first is not None:
            options["start"] = first.to_text()  # where the table (and a restart) begins
        events = self._opening(options, series, first)
        new = NewGame(game_id, game.name, json.dumps(options), seat_rows, events)
        await self._write(new)
        table = Table(
            game_id,
            game,
            [Seat(Side(r.side), r.player, r.token_hash, r.level, r.invite_hash) for r in seat_rows],
            events,
            new.created.isoformat(),
            options,
        )
        self.tables[game_id] = table
        self._computer_turn(table)
        return table, tokens, invite

    def _opening(
        self, options: dict[str, Any], series: Series, first: State[Any] | None = None
    ) -> list[EventRow]:
        """A new game's first events (the opening throw where the game begins with
        the dice, or a throw where the set-up position ``first`` waits on them), from
        its secret, given to ``options`` now, when dice are committed."""
        if self.committed:
            fairness.new_secret(options)
        events: list[EventRow] = []
        begin = series.first() if first is None else first.copy()
        throw_dice(Progress(begin, series), fairness.dice_for(options, 0, self.dice), events)
        return events

    async def import_game(
        self,
        game_name: str,
        text: str,
        opponent: str = "local",
        side: int = 0,
        level: str | None = None,
    ) -> tuple[Table, list[dict[str, Any]], str | None, int]:
        """A game read from a game file (PGN, PDN, .mat: the first game, or match, of
        ``text``), replayed move by move through the rules and stored, to look back
        over, analyse or play on: at one screen (both seats the importer's), or from
        the side ``side`` against the computer at ``level`` or a friend. Returns the
        table, the seat tokens, a friend's invite code, and how many games (of a
        match) were read."""
        try:
            game = registry.get_game(game_name)
        except UnknownGameError as error:
            raise NotFound("unknown-game", str(error)) from None
        seat_rows, tokens, invite = _seats(game.name, opponent, side, level)
        # Reading and replaying a long match is work for a thread, not the event loop.
        table, games = await asyncio.to_thread(
            _read_import, game, text, seat_rows, self.dice, opponent
        )
        new = NewGame(table.id, game.name, json.dumps(table.options), seat_rows, table.events)
        await self._write(new)
        table.created = new.created.isoformat()
        self.tables[table.id] = table
        self._computer_turn(table)  # the computer plays on where the file stops
        return table, tokens, invite, games

    async def rematch(self, table: Table, side: Side) -> tuple[Table, list[dict[str, Any]]]:
        """A new game for the same two friends, once this one (or its match) is over,
        the colours swapped and the rules the same. The asker's seat is theirs at once
        (its token returned); the other seat is claimed by the token its player held
        here, presented as the invitation (``POST /join``): no new secret is sent. The
        old game records the new one's id, so that the other player's page offers it."""
        if table.options.get("opponent") != "friend":
            raise Forbidden(
                "no-rematch",
                "a rematch is offered to a friend playing elsewhere; at one screen or "
                "against the computer, play again",
            )
        async with table.lock:
            other = table.seats[int(side.other)]
            if other.token_hash is None:
                raise Conflict("no-opponent", "your friend never took their seat in this game")
            progress = table.progress.copy()
            new_id = new_game_id()
            event = EventRow(progress.version + 1, REMATCH, new_id, int(side))
            apply(progress, event)
            token = new_token()
            seat_rows = sorted(
                [
                    SeatRow(int(side.other), "human", hash_token(token)),
                    SeatRow(int(side), "human", invite_hash=other.token_hash),
                ],
                key=lambda row: row.side,
            )
            kept = ("opponent", "rules", "tutor", "clock")  # the old game's choices carried over
            options: dict[str, Any] = {k: table.options[k] for k in kept if k in table.options}
            series = registry.get_face(table.game).series(table.rules)
            events = self._opening(options, series)
            new = NewGame(new_id, table.game.name, json.dumps(options), seat_rows, events)
            await self._write(new)
            await self._commit(table, progress, [event])
            update = self._publish(table, [event])
        await self._announce(table, [event], update)
        fresh = Table(
            new_id,
            registry.get_game(table.game.name),
            [Seat(Side(r.side), r.player, r.token_hash, r.level, r.invite_hash) for r in seat_rows],
            events,
            new.created.isoformat(),
            options,
        )
        self.tables[new_id] = fresh
        return fresh, [{"side": int(side.other), "token": token}]

    async def join(self, game_id: str, invite: str) -> tuple[Side, str]:
        """Exchange an invite code, once, for its seat's token."""
        table = await self.get(game_id)
        async with table.lock:
            for seat in table.seats:
                if token_matches(invite, seat.invite_hash):
                    break
            else:
                raise Forbidden("bad-invite", "this invite is not valid (or already used)")
            token = new_token()
            event = EventRow(table.version + 1, "join", "", int(seat.side))
            row = SeatRow(int(seat.side), "human", hash_token(token))
            progress = table.progress.copy()
            apply(progress, event)
            await self._commit(table, progress, [event], row)
            seat.token_hash, seat.invite_hash = row.token_hash, None
            update = self._publish(table, [event])
        await self._announce(table, [event], update)
        return seat.side, token

    # -- finding -----------------------------------------------------------------------

    async def get(self, game_id: str) -> Table:
        table = self.tables.get(game_id)
        if table is not None:
            table.last_used = time.monotonic()
            return table
        async with self._loading:
            table = self.tables.get(game_id)
            if table is not None:
                table.last_used = time.monotonic()
                return table
            self._heard_while_loading[game_id] = -1
            try:
                stored = await self._load(game_id)
            except UnknownGameIdError:
                raise NotFound("unknown-game-id", f"there is no game {game_id!r}") from None
            finally:
                heard = self._heard_while_loading.pop(game_id)
            table = self._replay(stored)
            self.tables[game_id] = table
            if heard > table.version:  # news that came while the store was being read
                async with table.lock:
                    await self._catch_up_locked(table)
        # Should the process that owed the computer's move have died before posting
        # it, whoever loads the game posts it (the same job, if it was posted); and a
        # running clock is watched here too.
        self._carry_on(table)
        return table

    async def _load(self, game_id: str) -> StoredGame:
        """The game as the store has it: through the event loop's reader where
        there is one, else (or should it fail) through the store in a thread."""
        if self._reader is not None:
            with contextlib.suppress(ReadFailedError):
                return await self._reader.load_game(game_id)
        return await self._in_db(self.store.load_game, game_id)

    @staticmethod
    def _replay(stored: StoredGame) -> Table:
        try:
            game = registry.get_game(stored.name)
            return Table(
                stored.id,
                game,
                [
                    Seat(Side(s.side), s.player, s.token_hash, s.level, s.invite_hash)
                    for s in stored.seats
                ],
                stored.events,
                stored.created.isoformat(),
                stored.options,
            )
        except (ParlourError, Refusal, ValueError) as error:
            log.error("game %s does not replay: %s", stored.id, error)
            raise Unavailable(
                "unreadable-game", f"game {stored.id} cannot be rebuilt: {error}"
            ) from None

    # -- keeping up with the fleet ---------------------------------------------------------

    async def catch_up(self, game_id: str) -> None:
        """Bring this process's copy of ``game_id`` (if it holds one) up to the
        store. What another process wrote goes to this process's watchers as if it
        had been played here."""
        table = self.tables.get(game_id)
        if table is None:
            return  # loaded from the store, fresh, when someone asks for it
        async with table.lock:
            await self._catch_up_locked(table)

    async def hear(self, news: News) -> None:
        """News from another process of the fleet: take its events as they are if
        this copy is just before them, else read what is missing from the store."""
        table = self.tables.get(news.game_id)
        if table is None:
            if news.game_id in self._heard_while_loading:  # the read may predate it
                heard = self._heard_while_loading[news.game_id]
                self._heard_while_loading[news.game_id] = max(heard, news.version)
            return  # loaded from the store, fresh, when someone asks for it
        async with table.lock:
            if table.version >= news.version:
                return
            try:
                events = [EventRow.from_json(event) for event in news.events]
            except (KeyError, TypeError, ValueError):
                events = []
            # Taken as they are only if they follow on from this copy, and do not
            # take a seat (only the store knows the new holder's token hash).
            follows = (
                bool(events)
                and events[0].version == table.version + 1
                and events[-1].version == news.version
                and all(event.kind != "join" for event in events)
            )
            if not (follows and self._adopt(table, events, news.update)):
                await self._catch_up_locked(table)

    async def catch_up_all(self) -> None:
        """Catch up every game held (after news may have been missed)."""
        for game_id in list(self.tables):
            await self.catch_up(game_id)

    async def _catch_up_locked(self, table: Table) -> None:
        """Read what the store has past ``table``'s version and adopt it; the caller
        holds the table's lock."""
        try:
            stored = await self._load(table.id)
        except UnknownGameIdError:
            return
        for seat, row in zip(table.seats, stored.seats, strict=True):
            seat.token_hash, seat.invite_hash = row.token_hash, row.invite_hash
        fresh = stored.events[table.version :]
        if fresh and not self._adopt(table, fresh):
            self.tables.pop(table.id, None)  # read afresh from the store next time

    def _adopt(self, table: Table, fresh: list[EventRow], update: str | None = None) -> bool:
        """Apply events another process wrote, tell the watchers (``update``: what
        the writer's watchers were sent, if it came with the news), and stand by for
        the computer; False (and nothing changed) if they do not replay here."""
        progress = table.progress.copy()
        try:
            for event in fresh:
                apply(progress, event)
        except (ParlourError, Refusal, ValueError) as error:
            # Another process wrote them, so they were legal there: a fault of ours.
            log.error("game %s: the fleet's events do not replay here: %s", table.id, error)
            return False
        table.progress = progress
        table.events.extend(fresh)
        if update is None:
            self._publish(table, fresh)
        else:
            table.publish(update)
        # The process that moved posted the computer's move, if one is due; should it
        # have died before it could, this posts it (the same job if it did).
        self._carry_on(table)
        return True

    def _publish(self, table: Table, events: list[EventRow]) -> str | None:
        """Send this process's watchers of ``table`` the update after ``events``;
        the update, which the fleet's news carries on so that the other processes
        need not write it again (None when no one here or there is told)."""
        if not table.watchers and self.fleet is None:
            return None
        update = update_message(table, events)
        table.publish(update)
        return update

    async def _announce(
        self, table: Table, events: list[EventRow], update: str | None = None
    ) -> None:
        """Tell the rest of the fleet (if any) that ``events`` changed ``table``,
        with the ``update`` its watchers are sent. Awaited before the player hears
        that the action is done: whatever is acknowledged has been announced, so a
        process that dies the next moment leaves no game unheard of (another then
        posts a computer move it owed)."""
        if self.fleet is not None:
            events_json = [event.to_json() for event in events]
            await self.fleet.announce(table.id, table.version, events_json, update)

    async def seen(self, table: Table, version: int) -> None:
        """A client has seen ``version`` of ``table``: if that is past this
        process's copy, another process made it, so catch up first."""
        if version > table.version:
            async with table.lock:
                await self._catch_up_locked(table)

    # -- acting --------------------------------------------------------------------------

    async def act(
        self,
        game_id: str,
        token: str,
        action: str,
        version: int,
        move: str | None = None,
    ) -> Table:
        """Carry out a seat's action (see :data:`ACTIONS`) against ``version``."""
        table = await self.get(game_id)
        try:
            side = table.side_of(token)
        except Refusal:
            if self.fleet is None:
                raise
            # The seat may have been taken through another process a moment ago.
            await self.catch_up(game_id)
            side = table.side_of(token)
        await self.act_as(table, side, action, version, move)
        return table

    async def act_as(
        self, table: Table, side: Side, action: str, version: int, move_text: str | None
    ) -> None:
        """Carry out an action of the seat ``side`` (already authenticated); the
        side on turn whose time is out has lost on time first."""
        if await self._flag_if_out(table):
            out = table.progress.state.outcome()
            raise Conflict(
                "out-of-time",
                f"the game is over: {out.reason if out else 'time ran out'}",
                version=table.version,
            )
        kind = ACTIONS.get(action)
        if kind is None:
            known = ", ".join(ACTIONS)
            raise BadRequest("bad-action", f"unknown action {action!r} (one of: {known})")
        if (kind == "move") != (move_text is not None):
            detail = "a move needs its text" if kind == "move" else f"{action} takes no move"
            raise BadRequest("bad-request", detail)
        async with table.lock:
            if version > table.version:
                await self._catch_up_locked(table)  # played through another process
            if version != table.version:
                raise Conflict(
                    "stale-version",
                    f"the game is at version {table.version}, not {version}",
                    version=table.version,
                )
            progress = table.progress.copy()
            state = progress.state
            events: list[EventRow] = []
            try:
                if kind == "move":
                    assert move_text is not None
                    if state.is_over():
                        raise IllegalMoveError("the game is over", rule="game-over")
                    if state.turn is not side:
                        raise Forbidden("not-your-turn", "it is not your turn")
                    parsed = state.parse_move(move_text)
                    text = state.move_to_text(parsed)
                    event = EventRow(progress.version + 1, kind, text, int(side))
                    apply(progress, event, parsed)
                else:
                    payload = ""
                    if kind == "claim":
                        payload = state.claimable_draw() or ""
                    event = EventRow(progress.version + 1, kind, payload, int(side))
                    apply(progress, event)
                events.append(event)
                thrown = fairness.throws_in(table.events, events)
                throw_dice(progress, fairness.dice_for(table.options, thrown, self.dice), events)
            except ParlourError as error:
                raise from_rules(error) from None
            if progress.version > self.most_events and kind not in ENDINGS:
                raise TooLarge(
                    "game-too-long",
                    f"this game has reached the most moves a game may have on this server "
                    f"({self.most_events}): it can only end now, by resigning or a draw",
                )
            await self._commit(table, progress, events)
            update = self._publish(table, events)
        await self._announce(table, events, update)
        if kind == "draw-offer":
            self._computer_answers_draw(table, side.other)
        self._carry_on(table)

    def _computer_answers_draw(self, table: Table, side: Side) -> None:
        """If the seat ``side`` offered a draw to is the computer's, let it answer
        (a job: see :meth:`_answer_draw`)."""
        if table.seats[int(side)].player == "computer":
            self._post(table, "draw", side=int(side))

    async def _commit(
        self,
        table: Table,
        progress: Progress,
        events: list[EventRow],
        seat_update: SeatRow | None = None,
    ) -> None:
        """Store ``events`` (one transaction) and adopt ``progress``; the caller holds
        the table's lock."""
        status = "over" if progress.state.is_over() else "playing"
        try:
            await self._write(Append(table.id, table.version, events, status, seat_update))
        except StaleVersionError:
            # Another process of the fleet wrote to this game first: take what it
            # wrote (our watchers see it), and the player sees the game move on.
            seen = table.version
            await self._catch_up_locked(table)
            raise Conflict(
                "stale-version",
                f"the game is at version {table.version}, not {seen}",
                version=table.version,
            ) from None
        table.progress = progress
        table.events.extend(events)

    async def _write(self, write: Append | NewGame) -> None:
        """Have ``write`` stored, together with whatever else is waiting."""
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._queued.append((write, done))
        if self._writer is None or self._writer.done():
            self._writer = asyncio.create_task(self._write_queued())
        await done

    async def _write_queued(self) -> None:
        """Group commit: while one transaction is being written, the appends that
        arrive queue up, and the next transaction takes them all (at most
        :data:`MAX_BATCH`). One game has at most one append queued (its lock).
        Every waiting append gets an answer, whatever fails."""
        while self._queued:
            if self._inline:
                await asyncio.sleep(0)  # let the appends of this loop turn gather
            batch, self._queued = self._queued[:MAX_BATCH], self._queued[MAX_BATCH:]
            results: list[Exception | None]
            try:
                results = await self._store([w for w, _ in batch])
                if len(results) != len(batch):
                    raise RuntimeError("the store answered a batch with the wrong count")
            except BaseException as failure:
                error = failure if isinstance(failure, Exception) else RuntimeError("stopped")
                results = [error] * len(batch)
                if not isinstance(failure, Exception):
                    self._answer(batch, results)
                    raise
            self._answer(batch, results)

    async def _store(self, writes: list[Append | NewGame]) -> list[Exception | None]:
        """One batch's results: through the event loop's appender where it can take
        it, else (or should it fail) through the store, which tells each write's
        fate apart."""
        if self._appender is not None and self.store.in_one_statement(writes):
            try:
                return await self._appender.write_all(writes)
            except AppendFailedError:
                return await self._in_db(self.store.write_each, writes)
        return await self._in_db(self.store.write_many, writes)

    @staticmethod
    def _answer(
        batch: list[tuple[Append | NewGame, asyncio.Future[None]]],
        results: list[Exception | None],
    ) -> None:
        for (_, done), refusal in zip(batch, results, strict=True):
            if done.done():
                continue
            if refusal is None:
                done.set_result(None)
            else:
                done.set_exception(refusal)

    # -- the clocks ---------------------------------------------------------------------

    def _watch_clock(self, table: Table) -> None:
        """While a side's clock runs, be ready to flag it the moment its time is out
        (every process holding the game is: the store takes one flag)."""
        if table.clock_timer is not None:
            table.clock_timer.cancel()
            table.clock_timer = None
        progress = table.progress
        clock, side = progress.clock, progress.on_clock
        if clock is None or side is None or not clock.started:
            return
        seconds = max(0.0, clock.left(side, dt.datetime.now(dt.UTC))) + 0.01

        def due() -> None:
            table.clock_timer = None
            self._background(self._flag_when_out(table))

        table.clock_timer = asyncio.get_running_loop().call_later(seconds, due)

    async def _flag_when_out(self, table: Table) -> None:
        try:
            if not await self._flag_if_out(table):
                self._watch_clock(table)  # woken a moment early, or the game moved on
        except Refusal as error:
            log.warning("game %s: the flag could not be recorded: %s", table.id, error.detail)

    async def _flag_if_out(self, table: Table) -> bool:
        """If the side on turn has no time left, record that it lost on time
        (whether the store took this flag or another process's); False otherwise."""
        if not _out_of_time(table.progress):
            return False
        async with table.lock:
            if not _out_of_time(table.progress):
                return table.progress.state.is_over()
            progress = table.progress.copy()
            side = progress.on_clock
            assert side is not None
            event = EventRow(progress.version + 1, TIME, "", int(side))
            apply(progress, event)
            try:
                await self._commit(table, progress, [event])
            except Conflict:
                return table.progress.state.is_over()  # another process wrote first
            update = self._publish(table, [event])
        log.info("game %s: %s lost on time", table.id, table.game.side_name(side))
        await self._announce(table, [event], update)
        return True

    # -- the computer -------------------------------------------------------------------

    async def hint(self, table: Table, side: Side) -> dict[str, Any]:
        """The engine's advice for ``side``, in a game against the computer, when it
        is that side's turn. The engine thinks in a worker process."""
        state = table.progress.state
        if not any(seat.player == "computer" for seat in table.seats):
            raise Forbidden("no-hint", "hints are given only in a game against the computer")
        if state.is_over() or state.turn is not side:
            raise Conflict("not-your-turn", "a hint is for the player whose turn it is")
        version = table.version
        request = {"position": state.to_text()}
        key = order_key("hint", table.id, version, side=int(side))
        advice: dict[str, Any] = await self.jobs.ask(
            "hint", table.id, version, request, key, self._client(table)
        )
        advice["version"] = version
        return advice

    async def _in_worker(self, function: Callable[..., T], table: Table, *args: Any) -> T:
        """``function(game entry, game name, rules, *args)`` in a worker process."""
        assert self._pool is not None
        name = table.game.name
        return await asyncio.get_running_loop().run_in_executor(
            self._pool, partial(function, registry.GAMES[name], name, table.rules, *args)
        )

    @staticmethod
    def _client(table: Table) -> str:
        """Whose share engine work for ``table`` counts against: the client whose
        request caused it, or the game itself for the server's own work."""
        return CLIENT.get() or f"game:{table.id}"

    async def judge(
        self, table: Table, version: int, move: str, token: str | None
    ) -> dict[str, Any]:
        """How good ``move`` would be at ``version``: the game's present position
        (the tutor's question before a move: only for the seat on turn, and between
        friends apart only in a game created with the tutor, a rule both see), or in
        a finished game any earlier one (learning from a mistake). The engine judges
        in a worker process."""
        if version == table.version and not table.progress.state.is_over():
            if token is None or table.side_of(token) is not table.progress.state.turn:
                raise Forbidden("not-your-turn", "the tutor is for the player whose turn it is")
            if table.options.get("opponent") == "friend" and not table.options.get("tutor"):
                raise Forbidden(
                    "no-tutor",
                    "this game was created without the tutor: between friends apart it "
                    "is a rule both agree to when the game is made",
                )
        if version > table.version:
            raise Conflict(
                "stale-version", f"the game is at version {table.version}, not {version}"
            )
        if version < table.version and not table.progress.state.is_over():
            raise Conflict(
                "not-over", "an earlier position is judged once the game is over (no help mid-game)"
            )
        if not registry.has_engine(table.game):
            raise NotFound("no-analysis", f"{table.game.title} has no engine to judge a move")
        # the present needs no replay of the log (the tutor asks before every move)
        at = table.progress if version == table.version else table.progress_at(version)
        state = at.state
        if state.is_over():
            raise Conflict("game-over", "there is no move to judge in a finished position")
        request = {"position": state.to_text(), "move": move}
        key = order_key("judge", table.id, version, move=move)
        judged: dict[str, Any] = await self.jobs.ask(
            "judge", table.id, version, request, key, self._client(table)
        )
        judged["version"] = version
        return judged

    def _carry_on(self, table: Table) -> None:
        """What follows a change to ``table`` (or its loading): the computer's move
        posted if it is on turn, and the running clock watched."""
        self._computer_turn(table)
        self._watch_clock(table)

    def _computer_turn(self, table: Table) -> None:
        """If a computer seat is on turn, post its move as a job."""
        state = table.progress.state
        if state.is_over() or state.turn is CHANCE:
            return
        if table.seats[int(state.turn)].player == "computer":
            self._post(table, "move", side=int(state.turn))

    def _post(self, table: Table, kind: str, side: int) -> None:
        """Post the computer's job of ``kind`` for ``side`` at the present version."""
        version = table.version
        key = order_key(kind, table.id, version)
        client = self._client(table)

        async def post() -> None:
            try:
                await self.jobs.post(kind, table.id, version, {"side": side}, key, client)
            except asyncio.CancelledError:
                raise
            except Exception:
                # Posted again when the game is next loaded here or elsewhere.
                log.exception("could not post the computer's %s in game %s", kind, table.id)

        self._background(post())

    async def _work(self, job: JobRow) -> Any:
        """Do a job's work (for :class:`~parlour.server.jobs.Jobs`, whichever process
        posted it): a hint or judgement is answered; the computer's move or draw
        answer is played on the game (if the game is still where it was)."""
        request = json.loads(job.request)
        given_up = job.tries > MOST_TRIES  # its takers died on it each time
        if job.kind in ("hint", "judge"):
            if given_up:
                raise Unavailable("engine-failed", "the engine could not answer: ask again")
            table = await self.get(job.game_id)
            try:
                if job.kind == "hint":
                    return await self._in_worker(players.hint, table, request["position"])
                return await self._in_worker(
                    players.judge, table, request["position"], request["move"]
                )
            except ParlourError as error:
                if job.kind == "hint":
                    raise NotFound("no-hint", str(error)) from None
                raise from_rules(error) from None
        table = await self.get(job.game_id)
        if self.fleet is not None and table.version < job.version:
            await self.catch_up(job.game_id)
        state = table.progress.state
        side = Side(request["side"])
        seat = table.seats[int(side)]
        if table.version != job.version or state.is_over() or seat.player != "computer":
            return None  # the game moved on (a resignation, say) before the job was taken
        if job.kind == "draw":
            await self._answer_draw(table, seat, job.version, given_up)
        elif state.turn is side:
            table.thinking = asyncio.current_task()
            try:
                await self._think(table, seat, job.version, given_up)
            finally:
                table.thinking = None
        return None

    async def _answer_draw(self, table: Table, seat: Seat, version: int, given_up: bool) -> None:
        """The computer accepts a draw when it judges itself no better than even
        (the engine's own winning chances, in a worker), declines it otherwise (and
        when its judgement killed its workers). A move made meanwhile (its own, or a
        resignation) has answered already."""
        position = table.progress.state.to_text()
        accept = not given_up and await self._in_worker(
            players.draw_answer, table, position, int(seat.side)
        )
        action = "accept-draw" if accept else "decline-draw"
        with contextlib.suppress(Refusal):  # the game moved on, and the offer with it
            await self.act_as(table, seat.side, action, version, None)

    async def _think(self, table: Table, seat: Seat, version: int, given_up: bool) -> None:
        """The computer's move, thought out in a worker process and played; made at
        random when thinking killed its workers :data:`MOST_TRIES` times, rather
        than leave the game waiting for ever."""
        position = table.progress.state.to_text()
        seed = fairness.computer_seed(table, version)
        clock = table.progress.clock
        seconds = None if clock is None else clock.thinking_time(seat.side, dt.datetime.now(dt.UTC))
        if given_up:
            text = players.random_move(table.game, position, seed)
            await self.act_as(table, seat.side, "move", version, text)
            return
        assert self._pool is not None
        try:
            text = await asyncio.get_running_loop().run_in_executor(
                self._pool,
                players.think,
                players.target_of(seat.level or "random"),
                registry.GAMES[table.game.name],
                table.game.name,
                table.rules,
                position,
                seed,
                seconds,
            )
            await self.act_as(table, seat.side, "move", version, text)
        except Refusal as error:
            if isinstance(error, Conflict) or error.code == "not-your-turn":
                return  # the game moved on (a resignation, say) while it thought
            log.error("computer move refused in game %s: %s", table.id, error.detail)
            # A random legal move rather than a game that waits for ever.
            text = players.random_move(table.game, position, seed)
            await self.act_as(table, seat.side, "move", version, text)


def _out_of_time(progress: Progress) -> bool:
    """Whether the side on turn has run out of time, now."""
    clock, side = progress.clock, progress.on_clock
    return clock is not None and side is not None and clock.left(side, dt.datetime.now(dt.UTC)) <= 0


def _seats(
    game_name: str, opponent: str, side: int, level: str | None
) -> tuple[list[SeatRow], list[dict[str, Any]], str | None]:
    """A new game's seats: the player's at ``side`` (both at one screen), the other
    the computer's at ``level`` or a friend's to be invited; the tokens of the
    player's seats and the invite code (for a friend). BadRequest naming a bad choice."""
    if opponent not in OPPONENTS:
        raise BadRequest("bad-request", f"opponent must be one of {', '.join(OPPONENTS)}")
    if side not in (0, 1):
        raise BadRequest("bad-request", "side must be 0 or 1")
    if opponent == "computer":
        level = level or "random"
        known_levels = players.levels_of(game_name)
        if level not in known_levels:
            known = ", ".join(known_levels)
            raise BadRequest("unknown-level", f"no computer level {level!r} ({known})")
    elif level is not None:
        raise BadRequest("bad-request", "a level is only for a computer opponent")
    mine = Side(side)
    tokens: list[dict[str, Any]] = []
    invite: str | None = None
    rows: list[SeatRow] = []
    for seat_side in Side:
        if seat_side is mine or opponent == "local":
            token = new_token()
            tokens.append({"side": int(seat_side), "token": token})
            rows.append(SeatRow(int(seat_side), "human", hash_token(token)))
        elif opponent == "computer":
            rows.append(SeatRow(int(seat_side), "computer", level=level))
        else:
            invite = new_token()
            rows.append(SeatRow(int(seat_side), "human", invite_hash=hash_token(invite)))
    return rows, tokens, invite


def _read_import(
    game: Game[Any], text: str, seats: list[SeatRow], dice: Dice, opponent: str = "local"
) -> tuple[Table, int]:
    """The table of the first series of games in ``text`` (a game file of ``game``)
    with its ``seats`` (played on against ``opponent``), and how many games the
    series holds; BadRequest naming what is wrong. Where the file ends on the dice,
    ``dice`` throw them."""
    face = registry.get_face(game)
    try:
        recorded = next(iter(face.read_each(text)), None)
    except ParlourError as error:
        raise BadRequest("bad-file", f"the file cannot be read: {error}") from None
    if recorded is None:
        raise BadRequest("bad-file", f"the file holds no {game.title} game")
    try:
        series = face.series(recorded.rules)
    except ValueError as error:
        raise BadRequest("bad-file", f"the file's rules are not Parlour's: {error}") from None
    openings = [opening_of(state) for state in recorded.games]
    if sum(len(moves) for _, moves in openings) > MOST_IMPORTED:
        raise TooLarge("too-large", f"an imported game may have at most {MOST_IMPORTED} moves")
    options: dict[str, Any] = {"opponent": opponent, "imported": True}
    options["names"] = list(recorded.names)
    if series.rules:
        options["rules"] = series.rules
    start = openings[0][0]
    if start.to_text() != series.first().to_text():
        if len(recorded.games) > 1 or game.has_chance:
            raise BadRequest("bad-file", "a match from a set-up position cannot be imported")
        options["start"] = start.to_text()
    table = Table(
        new_game_id(),
        game,
        [
            Seat(Side(row.side), row.player, row.token_hash, row.level, row.invite_hash)
            for row in seats
        ],
        [],
        "",
        options,
    )
    try:
        events = replay_record(table.progress, recorded.games)
    except ParlourError as error:
        raise BadRequest("bad-file", f"the file's moves do not replay: {error}") from None
    throw_dice(table.progress, dice, events)  # to play on from where the file ends
    table.events = events
    return table, len(recorded.games)


def start_position(series: Series, text: str) -> State[Any]:
    """The position a new game of ``series`` starts from, given as ``text`` in the
    game's own position text (a FEN, a PDN FEN, gnubg's ``PositionID:MatchID``),
    read and checked by the game's rules; BadRequest (``bad-start``) naming what is
    wrong when the rules refuse it, when the game is already over in it, or when the
    series cannot begin there (a backgammon position of another match length than
    the one chosen, or a money position with a score: money play starts at 0-0).

    The position is the one its normalised text reads back as, which is what the
    stored game (and so a restarted server) begins from."""
    game = series.game
    text = text.strip()
    if not text:
        raise BadRequest(
            "bad-start", "the start position is empty: paste a position, or leave it out"
        )
    try:
        state = game.state_from_text(game.state_from_text(text).to_text())
    except ParlourError as error:
        raise BadRequest("bad-start", f"cannot start from this position: {error}") from None
    except ValueError:
        kind = game.title.lower()
        raise BadRequest(
            "bad-start", f"cannot start from this position: it is not a {kind} position"
        ) from None
    outcome = state.outcome()
    if outcome is not None:
        result = "a draw" if outcome.winner is None else f"{game.side_name(outcome.winner)} has won"
        raise BadRequest(
            "bad-start",
            f"cannot start from this position: the game is already over in it "
            f"({outcome.reason}: {result})",
        )
    why = series.cannot_begin_at(state)
    if why is not None:
        raise BadRequest("bad-start", f"cannot start from this position: {why}")
    return state
