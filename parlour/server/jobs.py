"""Engine work shared fairly by the fleet: computer moves, the computer's answers to
draw offers, hints and the tutor's judgements, each a job in the store.

A job is a row of the store's ``jobs`` table (:meth:`Store.add_job`). Every process
of a fleet (one process without Redis) runs as many job takers as it has engine
workers; a free taker takes the job that comes first (:meth:`Store.take_job`): the
most urgent kind (a computer's move or draw answer before anyone's hint), then the
job of the client with the fewest jobs being worked on, taking clients in turn, then
the oldest. So one client's flood of level-10 games or hints waits behind itself:
another client's computer move waits at most for a job already being worked on.

A taker holds its job on a lease (:data:`LEASE` seconds), renewed while it works. A
process that dies stops renewing, the lease runs out and another process's taker
takes the job again: a computer move is never lost with the process that was
thinking. Each job counts its tries: the work decides what to do with a job whose
takers died :data:`MOST_TRIES` times (a hint is refused; a computer's move is made at
random, so that no game waits for ever on a position that kills its workers).

The same work asked for twice is one job (its key: a game, a version, a seat): two
clicks on "Hint" start one search, and every process of the fleet may post a
computer's move it hears is due without the computer thinking twice. Each client may
have :data:`MOST_PER_CLIENT` hints and judgements waiting or worked on at once; more
are refused with 429 until one is answered. Whoever asked for a hint waits for its
outcome: told at once by the process that finished it (here, or through the fleet's
Redis), or found in the store by a look every :data:`LOOK_EVERY` seconds should the
word be lost.

>>> order_key("hint", "0123abcd", 7, side=1)
'hint:0123abcd:7:1'
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import socket
import time
from collections.abc import Awaitable, Callable
from typing import Any

from parlour.server.errors import REFUSALS, Refusal, TooMany, Unavailable
from parlour.server.storage import JobRow, Store

log = logging.getLogger("parlour.server")

#: How urgent each kind of job is (lower first): a game waiting on the computer
#: comes before a player's question.
PRIORITY: dict[str, int] = {"move": 0, "draw": 0, "hint": 1, "judge": 1}
#: Seconds a taker holds a job without renewing its lease; past it, the taker is
#: presumed dead and the job is taken again.
LEASE = 20.0
#: A job whose takers died this many times is not worked on in earnest again.
MOST_TRIES = 3
#: Hints and judgements one client may have waiting or worked on at once.
MOST_PER_CLIENT = 4
#: Seconds a finished job's outcome is kept for those waiting for it.
KEEP_FINISHED = 60.0
#: Seconds one waits for a hint or a judgement before the answer is "busy".
WAIT_AT_MOST = 90.0
#: Seconds between looks at the store by idle takers (for jobs whose word was lost,
#: and leases that ran out) and by those waiting for outcomes.
LOOK_EVERY = 1.0

#: Does the work of a job: returns what the asker is answered (JSON), or raises a
#: Refusal.
Worker = Callable[[JobRow], Awaitable[Any]]
#: Tells the other processes of the fleet something about the jobs (through Redis).
Teller = Callable[[dict[str, Any]], Awaitable[None]]


def order_key(kind: str, game_id: str, version: int, **detail: object) -> str:
    """The key that makes the same work asked for twice one job."""
    return ":".join([kind, game_id, str(version), *(str(value) for value in detail.values())])


def worker_name() -> str:
    """This process, as the jobs table names the holder of a lease."""
    return f"{socket.gethostname()[:40]}:{os.getpid()}"


class Jobs:
    """The engine jobs as this process sees them: it posts jobs and waits for their
    outcomes, and its takers work on whatever job comes first, from any process."""

    def __init__(
        self,
        store: Store,
        in_db: Callable[..., Awaitable[Any]],
        work: Worker,
        *,
        takers: int,
        most_per_client: int = MOST_PER_CLIENT,
        lease: float | None = None,
    ) -> None:
        self.store = store
        self._in_db = in_db
        self._work = work
        self.takers = takers
        self.most_per_client = most_per_client
        self.lease = LEASE if lease is None else lease  # read now: tests may change it
        self.name = worker_name()
        #: Set when the fleet joins: tells the other processes of new and finished jobs.
        self.tell: Teller | None = None
        self._wake = asyncio.Event()
        self._waiters: dict[int, list[asyncio.Future[Any]]] = {}
        self._held: set[int] = set()
        self._tasks: list[asyncio.Task[None]] = []
        self._collecting: set[asyncio.Task[None]] = set()

    def start(self) -> None:
        loop = asyncio.get_running_loop()
        self._tasks = [loop.create_task(self._take_jobs()) for _ in range(self.takers)]
        self._tasks.append(loop.create_task(self._keep_leases()))
        self._tasks.append(loop.create_task(self._look_for_outcomes()))

    async def stop(self) -> None:
        """Stop taking jobs, and hand back those being worked on (another process,
        or this one restarted, takes them at once)."""
        tasks = [*self._tasks, *self._collecting]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self._tasks = []
        try:
            await self._in_db(self.store.release_jobs, self.name)
        except Exception as error:  # the leases run out by themselves
            log.warning("could not hand back the jobs being worked on: %s", error)

    # -- asking -------------------------------------------------------------------------

    async def post(
        self, kind: str, game_id: str, version: int, request: dict[str, Any], key: str, client: str
    ) -> int:
        """Post a job without waiting for it (a computer's move: it acts on the game
        itself); its id. The same key posted again is the same job."""
        row = JobRow(0, key, kind, game_id, version, client, PRIORITY[kind], json.dumps(request))
        job_id: int = await self._in_db(self.store.add_job, row, time.time())
        self._wake.set()
        if self.tell is not None:
            await self.tell({"posted": job_id})
        return job_id

    async def ask(
        self, kind: str, game_id: str, version: int, request: dict[str, Any], key: str, client: str
    ) -> Any:
        """Post a job and wait for its outcome: what the work answered, or its
        refusal raised here. TooMany when ``client`` has its share of jobs already;
        Unavailable when no answer comes within :data:`WAIT_AT_MOST` seconds."""
        waiting: int = await self._in_db(self.store.client_jobs, client)
        if waiting >= self.most_per_client:
            raise TooMany(
                "engine-busy",
                f"{waiting} of your questions to the engine are still being answered: "
                "ask again once they are",
                retry_after=2,
            )
        job_id = await self.post(kind, game_id, version, request, key, client)
        answer: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._waiters.setdefault(job_id, []).append(answer)
        try:
            async with asyncio.timeout(WAIT_AT_MOST):
                return await answer
        except TimeoutError:
            raise Unavailable(
                "engine-busy", "the engines are busy: no answer came in time, ask again later"
            ) from None
        finally:
            waiters = self._waiters.get(job_id, [])
            if answer in waiters:
                waiters.remove(answer)
            if not waiters:
                self._waiters.pop(job_id, None)

    def heard(self, message: dict[str, Any]) -> None:
        """Word from another process: a job was posted (a taker here may be free),
        or one was finished (someone here may be waiting for it)."""
        if "posted" in message:
            self._wake.set()
        finished = message.get("finished")
        if isinstance(finished, int) and finished in self._waiters:
            task = asyncio.get_running_loop().create_task(self._collect([finished]))
            self._collecting.add(task)
            task.add_done_callback(self._collecting.discard)

    # -- working ------------------------------------------------------------------------

    async def _take_jobs(self) -> None:
        """One taker: take the first job, work on it, store its outcome; again."""
        while True:
            self._wake.clear()
            try:
                job: JobRow | None = await self._in_db(
                    self.store.take_job, self.name, time.time(), self.lease
                )
            except asyncio.CancelledError:
                raise
            except Exception as error:
                log.warning("could not look for engine jobs: %s", error)
                job = None
            if job is None:
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(LOOK_EVERY):
                        await self._wake.wait()
                continue
            self._held.add(job.id)
            try:
                outcome = await self._outcome_of(job)
                await self._in_db(self.store.finish_job, job.id, outcome, time.time())
            except asyncio.CancelledError:
                raise
            except Exception as error:  # the lease runs out and another takes it
                log.warning("could not store the outcome of job %d: %s", job.id, error)
                continue
            finally:
                self._held.discard(job.id)
            self._answer(job.id, outcome)
            if self.tell is not None:
                await self.tell({"finished": job.id})

    async def _outcome_of(self, job: JobRow) -> str:
        """The job's work, its answer or refusal as the store keeps it."""
        if job.tries > MOST_TRIES:
            log.error("job %s was taken %d times: its takers died", job.key, job.tries)
        refusal: Refusal
        try:
            return json.dumps({"result": await self._work(job)})
        except Refusal as refused:
            refusal = refused
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("engine job %s failed", job.key)
            refusal = Unavailable("engine-failed", "the engine failed on this position")
        told = [type(refusal).__name__, refusal.code, refusal.detail, refusal.extra]
        return json.dumps({"refusal": told})

    async def _keep_leases(self) -> None:
        while True:
            await asyncio.sleep(self.lease / 4)
            if self._held:
                try:
                    until = time.time() + self.lease
                    await self._in_db(self.store.renew_jobs, self.name, sorted(self._held), until)
                except asyncio.CancelledError:
                    raise
                except Exception as error:
                    log.warning("could not renew the leases of engine jobs: %s", error)

    # -- answering ----------------------------------------------------------------------

    def _answer(self, job_id: int, outcome: str | None) -> None:
        """Answer everyone here waiting for job ``job_id``."""
        for answer in self._waiters.pop(job_id, []):
            if answer.done():
                continue
            if outcome is None:
                answer.set_exception(
                    Unavailable("engine-lost", "the engine's answer was lost: ask again")
                )
                continue
            told = json.loads(outcome)
            if "result" in told:
                answer.set_result(told["result"])
            else:
                kind, code, detail, extra = told["refusal"]
                answer.set_exception(REFUSALS.get(kind, Unavailable)(code, detail, **extra))

    async def _collect(self, ids: list[int]) -> None:
        """Answer the waiters of those of ``ids`` that are finished (or gone)."""
        outcomes: dict[int, str | None] = await self._in_db(self.store.job_outcomes, ids)
        for job_id in ids:
            if job_id not in outcomes:
                self._answer(job_id, None)  # swept before anyone here read it
            elif outcomes[job_id] is not None:
                self._answer(job_id, outcomes[job_id])

    async def _look_for_outcomes(self) -> None:
        """The waiters' fallback when word of a finished job does not come, and
        the sweep of old outcomes."""
        swept = time.monotonic()
        while True:
            await asyncio.sleep(LOOK_EVERY)
            try:
                waited = [job_id for job_id in self._waiters if job_id not in self._held]
                if waited:
                    await self._collect(waited)
                if time.monotonic() - swept > KEEP_FINISHED:
                    swept = time.monotonic()
                    await self._in_db(self.store.sweep_jobs, time.time() - KEEP_FINISHED)
            except asyncio.CancelledError:
                raise
            except Exception as error:
                log.warning("could not look for the outcomes of engine jobs: %s", error)
