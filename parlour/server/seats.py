"""Seat tokens and invite codes.

Each seat of a game is held by whoever has its token: 32 random bytes from the
operating system (``secrets.token_urlsafe(32)``), handed out once and stored only as
its SHA-256 hash, so a copy of the database seats nobody. Tokens travel in an
``Authorization: Bearer`` header (or the first WebSocket message), never in a URL,
where access logs would keep them.

An invite code is a token of the same kind for the seat a friend will take: it is
sent by link (in the URL's fragment, which browsers never send to the server), and
exchanged once for that seat's own token.

>>> token = new_token()
>>> len(token) >= 43 and token_matches(token, hash_token(token))
True
>>> token_matches("guess", hash_token(token))
False
"""

from __future__ import annotations

import hashlib
import hmac
import secrets


def new_token() -> str:
    """An unguessable token (256 random bits, URL-safe text)."""
    return secrets.token_urlsafe(32)


def new_game_id() -> str:
    """A short public id for a game (not a secret: anyone may watch a game)."""
    return secrets.token_urlsafe(9)


def hash_token(token: str) -> str:
    """The SHA-256 hash that is stored in place of a token, as 64 hex digits."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def token_matches(token: str, stored_hash: str | None) -> bool:
    """Whether ``token`` is the one whose hash was stored (in constant time)."""
    if stored_hash is None:
        return False
    return hmac.compare_digest(hash_token(token), stored_hash)
