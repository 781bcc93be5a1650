"""The fleet: several ``parlour serve`` processes on one database, each told by the
others which games changed, through Redis's publish and subscribe.

The database is the source of truth. Every change is one transaction that checks the
game's version, so two processes can never both write version n + 1, whichever of them
a player's request reached. Redis carries news -- "these events brought game g to
version v" -- so that a process holding game g brings its copy up to date and passes
the events on to its own watchers, in order. Nothing depends on the news arriving: a
process acting on an old copy is refused by the version check and catches up from the
database; a client that says it has seen a later version than the process's copy makes
it catch up; and after Redis comes back, a process catches up every game it holds.

A process whose copy is just before the news's events takes them as they are, without
reading the database, and passes its watchers the update the writer's watchers were
sent (it comes with the news: written once for the fleet); one further behind, or told
of a seat taken (whose token hash only the database holds), reads what it lacks from
the database.

>>> text = news_text("4f2a", "0123456789ab", 17, [{"version": 17, "kind": "move"}])
>>> parse_news(text)  # doctest: +NORMALIZE_WHITESPACE
News(sender='4f2a', game_id='0123456789ab', version=17, events=[{'version': 17, 'kind': 'move'}],
     update=None)
>>> parse_news("nonsense") is None
True
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
from collections.abc import Awaitable, Callable
from typing import Any, NamedTuple

import redis.asyncio as aioredis
from redis.exceptions import RedisError

log = logging.getLogger("parlour.server")

#: The channel on which the processes of a fleet tell one another of changes.
CHANNEL = "parlour:games"
#: Seconds between attempts to reach Redis again after losing it (at most).
RETRY_SECONDS = 5.0


class News(NamedTuple):
    """One process's word that a game changed: the new version and the events that
    led to it (as the wire writes them), and the update message its watchers were
    sent (None if it wrote none)."""

    sender: str
    game_id: str
    version: int
    events: list[dict[str, Any]]
    update: str | None = None


def news_text(
    sender: str,
    game_id: str,
    version: int,
    events: list[dict[str, Any]],
    update: str | None = None,
) -> str:
    """The text of a piece of news: the sender's name first, before the JSON, so
    that a process passes over its own news (Redis hands it back) without reading it."""
    news = {"game": game_id, "version": version, "events": events}
    if update is not None:
        news["update"] = update
    return f"{sender} {json.dumps(news)}"


def parse_news(text: str) -> News | None:
    """The news in a message, or None if it is not ours (another program may
    publish on the channel too)."""
    sender, _, body = text.partition(" ")
    try:
        data = json.loads(body)
        news = News(sender, data["game"], data["version"], data["events"], data.get("update"))
    except (ValueError, KeyError, TypeError, AttributeError):
        return None
    if not (
        isinstance(news.version, int)
        and isinstance(news.events, list)
        and isinstance(news.update, str | None)
    ):
        return None
    return news


class Fleet:
    """This process's membership of a fleet: :meth:`announce` tells the others of a
    change; news from them is handed to ``on_news(news)``, and after a
    lost connection to Redis comes back, ``on_reconnect()`` is called, since news may
    have been missed meanwhile. Word of engine jobs goes out by :meth:`tell_jobs`
    and comes in to :attr:`on_jobs`."""

    def __init__(
        self,
        url: str,
        on_news: Callable[[News], Awaitable[None]],
        on_reconnect: Callable[[], Awaitable[None]],
        *,
        channel: str = CHANNEL,
    ) -> None:
        self.url = url
        self.channel = channel
        #: Where word of engine jobs posted and finished goes (parlour.server.jobs).
        self.jobs_channel = f"{channel}:jobs"
        #: Handed each word of the jobs from another process (a JSON object).
        self.on_jobs: Callable[[dict[str, Any]], None] | None = None
        self.name = secrets.token_hex(6)  # tells this process's own news from others'
        self._own = f"{self.name} ".encode()
        self._on_news = on_news
        self._on_reconnect = on_reconnect
        self._redis: aioredis.Redis | None = None
        self._listener: asyncio.Task[None] | None = None
        self._handling: set[asyncio.Task[None]] = set()
        self.connected = asyncio.Event()

    async def start(self) -> None:
        """Connect and listen; a Redis that does not answer now is an error (a
        fleet that starts without it would serve stale games unnoticed)."""
        self._redis = aioredis.from_url(self.url, socket_connect_timeout=3)
        try:
            await self._redis.ping()
        except (RedisError, OSError) as error:
            await self._redis.aclose()
            raise ConnectionError(f"cannot reach Redis at {self.url}: {error}") from None
        self._listener = asyncio.create_task(self._listen())
        await asyncio.wait_for(self.connected.wait(), 10)

    async def stop(self) -> None:
        tasks = [t for t in (self._listener, *self._handling) if t is not None]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        if self._redis is not None:
            await self._redis.aclose()

    async def ping(self) -> None:
        """Raises if Redis does not answer (for the readiness check)."""
        assert self._redis is not None
        await self._redis.ping()

    async def announce(
        self,
        game_id: str,
        version: int,
        events: list[dict[str, Any]],
        update: str | None = None,
    ) -> None:
        """Tell the other processes that ``events`` brought ``game_id`` to
        ``version`` (and ``update``: what this process's watchers were sent). A
        failure is logged, not raised: the change is stored, and the others catch up
        when they act on the game or reconnect."""
        assert self._redis is not None
        try:
            text = news_text(self.name, game_id, version, events, update)
            await self._redis.publish(self.channel, text)
        except (RedisError, OSError) as error:
            log.warning("could not tell the fleet of game %s: %s", game_id, error)

    async def tell_jobs(self, word: dict[str, Any]) -> None:
        """Tell the other processes of an engine job posted or finished. A failure
        is logged: the others find the job in the store by themselves, a moment later."""
        assert self._redis is not None
        try:
            await self._redis.publish(self.jobs_channel, json.dumps({"from": self.name, **word}))
        except (RedisError, OSError) as error:
            log.warning("could not tell the fleet of an engine job: %s", error)

    async def _listen(self) -> None:
        assert self._redis is not None
        first = True
        while True:
            try:
                async with self._redis.pubsub(ignore_subscribe_messages=True) as pubsub:
                    await pubsub.subscribe(self.channel, self.jobs_channel)
                    self.connected.set()
                    if not first:
                        log.info("back in touch with the fleet: catching up every game")
                        self._handle(self._on_reconnect())
                    first = False
                    async for message in pubsub.listen():
                        self._receive(message)
            except asyncio.CancelledError:
                raise
            except (RedisError, OSError) as error:
                self.connected.clear()
                log.warning("lost touch with the fleet (%s); trying again", error)
                await asyncio.sleep(RETRY_SECONDS)

    def _receive(self, message: dict[str, object]) -> None:
        data = message.get("data")
        if message.get("type") != "message" or not isinstance(data, bytes):
            return
        if message.get("channel") == self.jobs_channel.encode():
            self._hear_jobs(data)
            return
        if data.startswith(self._own):
            return  # this process's own news, back from Redis
        news = parse_news(data.decode("utf-8", "replace"))
        if news is None:
            return
        self._handle(self._on_news(news))

    def _hear_jobs(self, data: bytes) -> None:
        try:
            word = json.loads(data)
        except ValueError:
            return
        if isinstance(word, dict) and word.get("from") != self.name and self.on_jobs is not None:
            self.on_jobs(word)

    def _handle(self, work: Awaitable[None]) -> None:
        """Run ``work`` beside the listener, so that a slow database read never holds
        up the news of other games."""

        async def guarded() -> None:
            with contextlib.suppress(asyncio.CancelledError):
                try:
                    await work
                except Exception:
                    log.exception("could not catch up with the fleet's news")

        task = asyncio.create_task(guarded())
        self._handling.add(task)
        task.add_done_callback(self._handling.discard)
