"""Fair shares of the server: how often one client may ask for each kind of thing.

Each client (by its address) has a bucket per kind of request that fills at the
kind's rate per minute up to one minute's worth, and each request takes one token
from it; a request that finds its bucket empty is answered 429 with ``Retry-After``,
the seconds until a token is back. So a client may come in bursts, but no client can
take more than its share of the games, the engines' hints or the server's time, and
the others are never slowed by it.

>>> buckets = RateBuckets(Limits(games_per_minute=2))
>>> [buckets.take("10.0.0.1", "games", now=0.0) for _ in range(3)]
[0.0, 0.0, 30.0]
>>> buckets.take("10.0.0.2", "games", now=0.0)
0.0
"""

from __future__ import annotations

import json
import math
from collections import OrderedDict
from contextvars import ContextVar
from dataclasses import dataclass, fields
from time import monotonic

from starlette.types import ASGIApp, Receive, Scope, Send


@dataclass(frozen=True, slots=True)
class Limits:
    """Requests per minute per client, by kind (0: no limit of that kind)."""

    #: Any request at all (pages, the API, static files).
    requests_per_minute: int = 1200
    #: New games (``POST /api/games``, and games imported from a file).
    games_per_minute: int = 30
    #: The engine's hints (``GET /api/games/{id}/hint``).
    hints_per_minute: int = 60
    #: Looking back at a position (``GET /api/games/{id}/at``).
    lookbacks_per_minute: int = 300
    #: Downloads of a game (``GET /api/games/{id}/export``).
    exports_per_minute: int = 60
    #: Analyses asked for (``POST /api/games/{id}/analysis``): each keeps the
    #: analysing worker busy for a minute or two.
    analyses_per_minute: int = 6

    def __post_init__(self) -> None:
        for field in fields(self):
            if getattr(self, field.name) < 0:
                raise ValueError(f"{field.name} must be 0 (no limit) or more")

    def per_minute(self, kind: str) -> int:
        rate: int = getattr(self, f"{kind}_per_minute")
        return rate


#: The client (its address) on whose behalf the server works: set for each request
#: and live connection, and inherited by the work they start (a computer's move
#: after a player's), so that engine jobs count against the share of whoever caused
#: them (see :mod:`parlour.server.jobs`). None for the server's own work.
CLIENT: ContextVar[str | None] = ContextVar("parlour_client", default=None)

#: The most clients whose buckets are remembered; the longest unseen are forgotten
#: first (a forgotten client starts again with full buckets).
MOST_CLIENTS = 100_000


class RateBuckets:
    """Every client's buckets, by kind."""

    def __init__(self, limits: Limits, most_clients: int = MOST_CLIENTS) -> None:
        self.limits = limits
        self.most_clients = most_clients
        #: (client, kind) -> (tokens, when they were counted)
        self._buckets: OrderedDict[tuple[str, str], tuple[float, float]] = OrderedDict()

    def take(self, client: str, kind: str, now: float | None = None) -> float:
        """Take a token: 0.0 if there was one, else the seconds until there is."""
        rate = self.limits.per_minute(kind)
        if rate == 0:
            return 0.0
        now = monotonic() if now is None else now
        key = (client, kind)
        tokens, then = self._buckets.pop(key, (float(rate), now))
        tokens = min(float(rate), tokens + (now - then) * rate / 60)
        wait = 0.0
        if tokens >= 1:
            tokens -= 1
        else:
            wait = (1 - tokens) * 60 / rate
        self._buckets[key] = (tokens, now)
        while len(self._buckets) > self.most_clients:
            self._buckets.popitem(last=False)
        return wait


def request_kinds(method: str, path: str) -> list[str]:
    """The kinds of limit a request counts against."""
    kinds = ["requests"]
    if method == "POST" and (
        path in ("/api/games", "/api/games/import") or path.endswith("/rematch")
    ):
        kinds.append("games")
    elif method == "POST" and path.startswith("/api/games/") and path.endswith("/analysis"):
        kinds.append("analyses")
    elif method == "POST" and path.startswith("/api/games/") and path.endswith("/judge"):
        kinds.append("hints")  # a judged move is a hint in all but name
    elif method == "GET" and path.startswith("/api/games/"):
        last = path.rsplit("/", 1)[-1]
        kinds.extend({"hint": ["hints"], "at": ["lookbacks"], "export": ["exports"]}.get(last, []))
    return kinds


class RateLimitMiddleware:
    """Answers 429 with Retry-After to a client past its share of a kind."""

    def __init__(self, app: ASGIApp, limits: Limits | None = None) -> None:
        self.app = app
        self.buckets = RateBuckets(limits or Limits())

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        client = scope.get("client")
        address = client[0] if client else "unknown"
        if scope["type"] in ("http", "websocket"):
            CLIENT.set(address)
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for kind in request_kinds(scope["method"], scope["path"]):
            wait = self.buckets.take(address, kind)
            if wait > 0:
                await _too_many(send, kind, wait)
                return
        await self.app(scope, receive, send)


async def _too_many(send: Send, kind: str, wait: float) -> None:
    seconds = max(1, math.ceil(wait))
    what = {"requests": "requests", "lookbacks": "look-backs"}.get(kind, kind)
    body = json.dumps(
        {
            "error": "too-many-requests",
            "detail": f"too many {what} from this address: try again in {seconds} s",
            "retry_after": seconds,
        }
    ).encode()
    await send(
        {
            "type": "http.response.start",
            "status": 429,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                (b"retry-after", str(seconds).encode()),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})
