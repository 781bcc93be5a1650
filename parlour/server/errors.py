"""What the server refuses, and how each refusal is told to the client.

Play, the hall and the app raise a :class:`Refusal` of the kind that says what went
wrong -- the request is malformed, the token holds no seat, the seat may not do this,
there is no such thing, the game is not where the request thought, the rules refuse
-- with a short stable code for programs and a sentence for people. This module alone
turns a refusal into a reply: an HTTP status with a JSON body, or an error message
(and a close code) on a live connection.

>>> error = Conflict("stale-version", "the game is at version 3, not 2", version=3)
>>> http_status(error), error.to_json()["error"]
(409, 'stale-version')
>>> ws_error(error, request_id=7)["id"]
7
"""

from __future__ import annotations

from typing import Any

from parlour.core.errors import IllegalMoveError, NotationError, ParlourError


class Refusal(Exception):
    """A request the server refuses: a stable ``code`` (``"illegal-move"``), a
    sentence for people, and any extra fields (the current version, the rule)."""

    def __init__(self, code: str, detail: str, **extra: Any) -> None:
        super().__init__(detail)
        self.code = code
        self.detail = detail
        self.extra = extra

    def to_json(self) -> dict[str, Any]:
        return {"error": self.code, "detail": self.detail, **self.extra}


class BadRequest(Refusal):
    """The request is malformed: not JSON, a field missing or out of range."""


class NotAuthorized(Refusal):
    """No seat's token was sent, or the token holds no seat."""


class Forbidden(Refusal):
    """The seat may not do this: it is not its turn, hints are not given here."""


class NotFound(Refusal):
    """There is no such game, game id, level, rules page or file format."""


class TimedOut(Refusal):
    """The client was too slow to say what it wants."""


class Conflict(Refusal):
    """The game is not where the request thought: another version, an offer pending
    or none to answer."""


class TooLarge(Refusal):
    """A body or a message longer than the server reads."""


class TooMany(Refusal):
    """The client has asked for more than its share (its ``retry_after`` says when
    to ask again)."""


class RulesRefuse(Refusal):
    """Understood, but the game's rules (or its file format) refuse it."""


class Unavailable(Refusal):
    """The server cannot serve this now (a stored game that does not replay)."""


#: The HTTP status of each kind of refusal.
HTTP_STATUS: dict[type[Refusal], int] = {
    BadRequest: 400,
    NotAuthorized: 401,
    Forbidden: 403,
    NotFound: 404,
    TimedOut: 408,
    Conflict: 409,
    TooLarge: 413,
    RulesRefuse: 422,
    TooMany: 429,
    Unavailable: 503,
}

#: Each kind of refusal by its name (a refusal told by another process is rebuilt).
REFUSALS: dict[str, type[Refusal]] = {kind.__name__: kind for kind in HTTP_STATUS}


def http_status(error: Refusal) -> int:
    """The HTTP status that tells ``error``."""
    for kind in type(error).__mro__:
        if kind in HTTP_STATUS:
            return HTTP_STATUS[kind]
    return 400


def ws_error(error: Refusal, request_id: int | str | None = None) -> dict[str, Any]:
    """The error message for a live connection, with the ``id`` of the request it
    answers (when the client gave one), so that the client stops waiting."""
    message: dict[str, Any] = {"type": "error", **error.to_json()}
    if request_id is not None:
        message["id"] = request_id
    return message


def ws_close_code(error: Refusal) -> int:
    """The close code of a live connection refused outright: 4000 + the HTTP status
    (the range WebSocket leaves to applications)."""
    return 4000 + http_status(error)


def from_rules(error: ParlourError) -> Refusal:
    """A rules engine's refusal, worded for the client."""
    if isinstance(error, IllegalMoveError):
        return RulesRefuse("illegal-move", str(error), rule=error.rule)
    if isinstance(error, NotationError):
        return RulesRefuse("bad-notation", str(error))
    return RulesRefuse("refused", str(error))
