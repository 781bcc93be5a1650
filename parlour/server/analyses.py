"""The coach on the server: games analysed in a worker of their own, the
findings heard as they come, the review kept with the game.

An analysis takes a minute or two of a core (each position searched for about a
second), so it runs in one worker process apart from the computer players' pool:
analyses wait for each other, never a player for an analysis. The worker tells the
server of each judged move and its progress through a queue given to it as it
starts; the server keeps each running job's findings so far for the page that polls
them, and stores the finished review, so that a second request does not repeat it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import queue
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from parlour.analysis.coach import opening_of
from parlour.core import registry
from parlour.core.engine import move_texts
from parlour.core.errors import ParlourError
from parlour.server import players
from parlour.server.errors import Conflict, NotFound, Unavailable
from parlour.server.storage import Store
from parlour.server.table import Table

log = logging.getLogger("parlour.server")

#: Analyses waiting or running at once in one server process; more are refused
#: (503) until one ends.
MOST_WAITING = 8
#: How often the findings of a running analysis are collected (seconds).
HEAR_EVERY = 0.25
#: An analysis begun by a process of the fleet is taken as running for this long
#: (seconds) by the others: past it, its process is presumed dead and the analysis
#: may be asked for again.
RUNNING_FOR = 15 * 60


@dataclass(slots=True)
class Job:
    """One analysis: of game ``number`` of a table's series, at ``version``."""

    number: int
    version: int
    total: int = 0
    done: int = 0
    moves: list[dict[str, Any]] = field(default_factory=list)
    review: dict[str, Any] | None = None
    error: str | None = None

    def to_json(self) -> dict[str, Any]:
        if self.review is not None:
            status = "done"
        elif self.error is not None:
            status = "failed"
        else:
            status = "running"
        return {
            "status": status,
            "number": self.number,
            "version": self.version,
            "done": self.done,
            "total": self.total,
            "moves": self.moves if self.review is None else self.review["moves"],
            "review": self.review,
            "error": self.error,
        }


class Analyses:
    """The analyses of one server process."""

    def __init__(self, store: Store, in_db: Callable[..., Awaitable[Any]], server_pid: int) -> None:
        self.store = store
        self._in_db = in_db
        self._server_pid = server_pid
        self.jobs: dict[str, Job] = {}
        self._pool: ProcessPoolExecutor | None = None
        self._heard: Any = None
        self._tasks: set[asyncio.Task[None]] = set()

    def start(self) -> None:
        """Start the analysing worker (forked now, with the queue it reports to)."""
        context = multiprocessing.get_context("fork")
        self._heard = context.Queue()
        self._pool = ProcessPoolExecutor(
            max_workers=1,
            mp_context=context,
            initializer=players.start_analyst,
            initargs=(self._server_pid, self._heard),
        )

    async def stop(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        if self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)

    @property
    def running(self) -> int:
        """How many analyses are under way (or waiting for the worker)."""
        return len(self._tasks)

    @staticmethod
    def key_of(table: Table) -> tuple[str, int]:
        """The job's key: the table and which game of its series is in play."""
        return f"{table.id}:{len(table.progress.finished) + 1}", len(table.progress.finished) + 1

    async def state_of(self, table: Table) -> dict[str, Any]:
        """The analysis of the game in play, as far as it has gone: status "none"
        before one was asked for, "running" with the moves judged so far, "done"
        with the review, "failed" with the error."""
        key, number = self.key_of(table)
        job = self.jobs.get(key)
        if job is not None:
            return job.to_json()
        stored = await self._in_db(self.store.load_analysis, table.id, number)
        if stored is None:
            return {"status": "none", "number": number}
        version, review = stored
        if "running_since" in review:
            # begun by another process of the fleet: its findings reach the store
            # only at the end
            if time.time() - review["running_since"] > RUNNING_FOR:
                return {"status": "none", "number": number}
            return Job(number, version, review.get("total", 0)).to_json()
        if version != table.version and not table.progress.state.is_over():
            return {"status": "none", "number": number}  # of a game played on since
        total = len(review.get("curve", [])) - 1
        return Job(number, version, total, total, review=review).to_json()

    async def begin(self, table: Table) -> dict[str, Any]:
        """Analyse the game in play; what is known of it now. A game is analysed once
        it is over, but for one whose both seats are one person's (at one screen, or
        imported from a file), which is analysed as far as it has gone: the coach
        helps no one against an opponent in a game still being played."""
        if not table.progress.state.is_over() and table.options.get("opponent") != "local":
            raise Conflict(
                "not-over",
                "a game is analysed once it is over (a game at one screen, or imported: "
                "at any time)",
            )
        if not registry.has_engine(table.game):
            raise NotFound("no-analysis", f"{table.game.title} has no engine to analyse with")
        known = await self.state_of(table)
        if known["status"] in ("running", "done"):
            return known
        key, number = self.key_of(table)
        begun = self.jobs.get(key)
        if begun is not None and begun.error is None:
            return begun.to_json()  # asked for twice at once: begun by the first
        running = sum(job.review is None and job.error is None for job in self.jobs.values())
        if running >= MOST_WAITING:
            raise Unavailable("busy", "the coach is busy with other games: try again soon")
        start, moves = opening_of(table.progress.state)
        texts = list(move_texts(start, moves))
        job = Job(number, table.version, total=len(texts))
        self.jobs[key] = job
        # the other processes of a fleet see it running (not its findings) meanwhile
        marker = {"running_since": time.time(), "total": len(texts)}
        await self._in_db(self.store.save_analysis, table.id, number, table.version, marker)
        task = asyncio.get_running_loop().create_task(
            self._run(table, key, job, start.to_text(), texts)
        )
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return job.to_json()

    async def _run(self, table: Table, key: str, job: Job, start: str, texts: list[str]) -> None:
        assert self._pool is not None
        name = table.game.name
        future = asyncio.get_running_loop().run_in_executor(
            self._pool,
            players.analyse,
            key,
            registry.GAMES[name],
            name,
            table.rules,
            start,
            texts,
            table.player_names,
        )
        try:
            while not future.done():
                await asyncio.wait([future], timeout=HEAR_EVERY)
                self._hear()
            review = await future
            self._hear()
            await self._in_db(self.store.save_analysis, table.id, job.number, job.version, review)
            job.review = review
        except ParlourError as error:
            job.error = str(error)
        except Exception as error:
            log.exception("the analysis of %s failed", key)
            job.error = f"the analysis failed: {type(error).__name__}"
        finally:
            if job.review is None:
                with contextlib.suppress(Exception):  # the marker must not outlive it
                    await self._in_db(self.store.forget_analysis, table.id, job.number)
            else:
                # kept in the store: a later request reads it from there
                self.jobs.pop(key, None)

    def _hear(self) -> None:
        """Take in what the worker has reported since last time."""
        while True:
            try:
                key, message = self._heard.get_nowait()
            except queue.Empty:
                return
            except (OSError, ValueError):  # the queue is closed: the server is stopping
                return
            job = self.jobs.get(key)
            if job is None:
                continue
            if "move" in message:
                job.moves.append(message["move"])
            else:
                job.done, job.total = message["done"], message["total"]
