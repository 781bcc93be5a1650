"""What every HTTP reply and request passes through, whatever its route: the headers
that keep a page from being framed, sniffed or leaking its address, and the checks
that keep another site's page from changing a game in a player's name.

A page of another site can make a browser send a form (``text/plain``, no preflight)
to any address; it cannot make it send ``application/json`` without the server's
consent (CORS, which this server never gives). So a request that changes something
must be JSON, and when a browser names the page it came from (``Origin``), that page
must be this server's own or one the operator allowed. Clients that are not browsers
send no Origin and are let through: the checks protect browsers' users.
"""

from __future__ import annotations

import json
from collections.abc import Iterable

from starlette.types import ASGIApp, Message, Receive, Scope, Send

#: Where a page of ours may load things from: only this server (the boards are SVG
#: drawn by our scripts; WebSockets go back to the same host). No page may frame it.
CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "connect-src 'self' ws: wss:",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)

SECURITY_HEADERS: list[tuple[bytes, bytes]] = [
    (b"content-security-policy", CONTENT_SECURITY_POLICY.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    # Invitation links carry a code: never send a page's address to another site.
    (b"referrer-policy", b"no-referrer"),
]

#: Methods whose body changes something on the server.
CHANGING = frozenset({"POST", "PUT", "PATCH"})


def own_origins(host: str) -> set[str]:
    """The origins of pages this server itself serves at ``host`` (its Host header)."""
    return {f"http://{host}", f"https://{host}"}


def origin_allowed(origin: str | None, host: str, allowed: Iterable[str]) -> bool:
    """Whether a request naming ``origin`` may act: no Origin (not a browser), this
    server's own, or one the operator allowed."""
    return origin is None or origin in own_origins(host) or origin in set(allowed)


class SecurityMiddleware:
    """Adds :data:`SECURITY_HEADERS` to every HTTP reply and refuses a changing
    request that is not JSON (415) or comes from another site's page (403)."""

    def __init__(self, app: ASGIApp, allowed_origins: Iterable[str] = ()) -> None:
        self.app = app
        self.allowed_origins = frozenset(allowed_origins)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *SECURITY_HEADERS]
            await send(message)

        refusal = self.refusal(scope)
        if refusal is not None:
            status, error, detail = refusal
            await _reply(send_with_headers, status, error, detail)
            return
        await self.app(scope, receive, send_with_headers)

    def refusal(self, scope: Scope) -> tuple[int, str, str] | None:
        """Why a request may not go on: (status, error code, sentence), or None."""
        if scope["method"] not in CHANGING:
            return None
        headers = {
            name.decode("latin-1"): value.decode("latin-1") for name, value in scope["headers"]
        }
        if not origin_allowed(headers.get("origin"), headers.get("host", ""), self.allowed_origins):
            return 403, "foreign-origin", "requests from another site's page are refused"
        media_type = headers.get("content-type", "").split(";")[0].strip().lower()
        if media_type != "application/json":
            return (
                415,
                "not-json",
                f"a request that changes a game must be JSON (Content-Type: application/json), "
                f"not {media_type or 'without a content type'}",
            )
        return None


async def _reply(send: Send, status: int, error: str, detail: str) -> None:
    body = json.dumps({"error": error, "detail": detail}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})
