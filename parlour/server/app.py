"""The HTTP and WebSocket API (Starlette, served by uvicorn).

Every game is served through the core protocol and the registry; nothing here knows
one game from another.

HTTP (JSON in, JSON out; every refusal is ``{"error": code, "detail": sentence}``
with a 4xx status, and changes nothing):

==========================================  ===========================================
``GET  /api/catalogue``                     the games that can be played
``POST /api/games``                         ``{"game", "opponent", "side", "level",
                                            "rules", "tutor", "start"}``: a new game, the
                                            creator's seat tokens and (for a friend) an
                                            invite code; ``rules`` are the game's optional
                                            rules (backgammon: ``match_length``,
                                            ``jacoby``, ``beavers``, ``automatic_doubles``,
                                            ``max_cube``); ``start``, optional, the
                                            position to start from in the game's own
                                            text (a FEN, a PDN FEN, gnubg's
                                            ``PositionID:MatchID``), refused with 400
                                            ``bad-start`` naming why
``POST /api/games/import``                  ``{"game", "text"}``: the first game (or
                                            match) of a PGN, PDN or .mat file, as a
                                            game at one screen: both seats' tokens
``GET  /api/games?ids=ID,ID,...``           a line about each of these games (at most
                                            50; unknown ids left out): for a list of
                                            one's games
``GET  /api/games/{id}``                    the game: position, turn, legal moves...
``GET  /api/games/{id}/events?since=N``     the events after version N
``GET  /api/games/{id}/at?version=N``       the position at version N (looking back)
``POST /api/games/{id}/join``               ``{"invite"}``: claim the invited seat once
``POST /api/games/{id}/actions``            ``{"action", "version", "move"}`` with
                                            ``Authorization: Bearer TOKEN``
``POST /api/games/{id}/rematch``            a new game for the same two friends, colours
                                            swapped, once this one is over (a seat's
                                            token); the other player joins it with the
                                            token it held here as the invite
``GET  /api/games/{id}/hint``               the engine's advice for the seat on turn
                                            (``Authorization: Bearer TOKEN``), in a
                                            game against the computer
``GET  /api/games/{id}/export``             the game as a file in its notation (PGN,
                                            PDN, .mat)
``POST /api/games/{id}/analysis``           the coach analyses the game in play once
                                            it is over (a game at one screen or
                                            imported: at once) (202); ``GET`` its state:
                                            ``{"status": "none" | "running" | "done"
                                            | "failed", "done", "total", "moves",
                                            "review"}``, moves judged as they come
``POST /api/games/{id}/judge``              ``{"version", "move"}``: how good the move
                                            would be there (the tutor, before a move;
                                            learning from a mistake, in a finished
                                            game): ``{"judgement", "loss", "best",
                                            "best_line", ...}``
``POST /api/games/{id}/steps``              ``{"steps": [...]}``: a turn entered one
                                            piece at a time (backgammon): the board
                                            after them and what may come next
``GET  /rules/{game}``                      the rules of a game, in a page
``GET  /static/...``                        the front end's files
==========================================  ===========================================

Actions: ``move`` (with its text), ``resign``, ``offer-draw``, ``accept-draw``,
``decline-draw``, ``claim-draw``, and ``next-game`` (in a backgammon match or money
table, once a game is over: the next game, from its opening throw). ``version`` is
the game version the player saw; a stale one is refused with 409 and the current
version.

WebSocket ``/api/games/{id}/live``: the first message is
``{"type": "hello", "since": N, "token": TOKEN}`` (the token only for a seat; without
it the connection watches read-only). The server answers ``welcome`` (the seat, if
any), then one ``update`` with every event after version N and the game, then an
``update`` for each change. A seat may send
``{"type": "action", "id": ..., "action": ..., "version": ..., "move": ...}`` and
gets ``result`` or ``error`` with the same id; ``{"type": "ping"}`` gets ``pong``.
Connections from a page of another origin are refused.

``parlour serve`` keeps its games, unless ``--db`` names another store, in the SQLite
file ``parlour.db`` in the user's data directory (``$XDG_DATA_HOME/parlour``, by
default ``~/.local/share/parlour``), so every ``parlour serve`` of one user finds the
same games wherever it is started. One server process per SQLite file.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import logging
import logging.config
from collections.abc import AsyncIterator, Iterable
from importlib import resources
from typing import Any, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from parlour.core import registry
from parlour.core.dice import Dice
from parlour.core.errors import ParlourError
from parlour.core.face import StepwiseFace
from parlour.core.protocol import Side
from parlour.server import fairness, players, security
from parlour.server.errors import (
    BadRequest,
    NotAuthorized,
    NotFound,
    Refusal,
    RulesRefuse,
    TimedOut,
    TooLarge,
    Unavailable,
    http_status,
    ws_close_code,
    ws_error,
)
from parlour.server.hall import ABANDON_AFTER, FORGET_AFTER, MOST_EVENTS, Hall
from parlour.server.jobs import MOST_PER_CLIENT
from parlour.server.limits import Limits, RateLimitMiddleware
from parlour.server.logs import log_config
from parlour.server.security import SecurityMiddleware
from parlour.server.storage import Store, default_url, normalize_url
from parlour.server.table import Table
from parlour.server.wire import game_json, position_json, summary_json, update_message

log = logging.getLogger("parlour.server")

#: The largest request body or WebSocket message accepted, in bytes.
MAX_BODY = 16 * 1024
#: The largest game file imported (a long backgammon match is some 40 KB).
MAX_IMPORT = 256 * 1024
#: The longest position text a new game may start from (a FEN is under 90 characters).
MAX_START = 200
#: How long a new WebSocket may take to say hello, in seconds.
HELLO_TIMEOUT = 10.0

Model = TypeVar("Model", bound=BaseModel)


class _Input(BaseModel):
    # Strict: "1" is not a number and unknown fields are mistakes, not extras.
    model_config = ConfigDict(strict=True, extra="forbid")


class CreateGame(_Input):
    game: str = Field(min_length=1, max_length=32)
    opponent: Literal["friend", "computer", "local"] = "friend"
    side: int = Field(default=0, ge=0, le=1)
    level: str | None = Field(default=None, min_length=1, max_length=32)
    rules: dict[str, bool | int | None] | None = Field(default=None, max_length=8)
    #: The tutor, as a rule of the game both players see: from which judgement it
    #: warns ("" for none). Between friends apart only a game created with it may ask
    #: the tutor.
    tutor: Literal["", "inaccuracy", "mistake", "blunder"] = ""
    #: The position to start from, in the game's own position text (a FEN, a PDN
    #: FEN, gnubg's ``PositionID:MatchID``); none: the game's usual start.
    start: str | None = Field(default=None, max_length=MAX_START)
    #: A time control: {"base": seconds, "increment": seconds, "delay": seconds}
    #: (see :mod:`parlour.server.clocks`); none: no clock.
    clock: dict[str, int | float] | None = Field(default=None, max_length=3)


class ImportGame(_Input):
    game: str = Field(min_length=1, max_length=32)
    #: The game file's text: PGN, PDN or .mat.
    text: str = Field(min_length=1, max_length=MAX_IMPORT)
    #: Who plays on from where the file stops: both seats at one screen (the
    #: default), or the side ``side`` against the computer at ``level`` or a friend.
    opponent: Literal["friend", "computer", "local"] = "local"
    side: int = Field(default=0, ge=0, le=1)
    level: str | None = Field(default=None, min_length=1, max_length=32)


class JoinGame(_Input):
    invite: str = Field(min_length=1, max_length=128)


class Action(_Input):
    action: str = Field(min_length=1, max_length=32)
    version: int = Field(ge=0)
    move: str | None = Field(default=None, min_length=1, max_length=200)


class JudgeMove(_Input):
    version: int = Field(ge=0)
    move: str = Field(min_length=1, max_length=200)


class Steps(_Input):
    steps: list[str] = Field(max_length=8)


class Hello(_Input):
    type: Literal["hello"]
    since: int = Field(default=0, ge=0)
    token: str | None = Field(default=None, min_length=1, max_length=128)


class LiveAction(Action):
    type: Literal["action"]
    id: int | str | None = None
    # A second seat's token, for a game of two at one screen over one connection.
    token: str | None = Field(default=None, min_length=1, max_length=128)


def _validation_error(error: ValidationError) -> Refusal:
    first = error.errors()[0]
    where = ".".join(str(part) for part in first["loc"]) or "body"
    if first["type"] == "json_invalid":
        return BadRequest("bad-json", "the body is not valid JSON")
    return BadRequest("bad-request", f"{where}: {first['msg']}")


def parse(model: type[Model], raw: bytes | str) -> Model:
    try:
        return model.model_validate_json(raw)
    except ValidationError as error:
        raise _validation_error(error) from None


async def read_body(request: Request, most: int = MAX_BODY) -> bytes:
    """The request body, refusing more than ``most`` bytes without reading them all."""
    declared = request.headers.get("content-length")
    if declared is not None and (not declared.isdigit() or int(declared) > most):
        raise TooLarge("too-large", f"a request body may have at most {most} bytes")
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > most:
            raise TooLarge("too-large", f"a request body may have at most {most} bytes")
    return bytes(body)


def bearer_token(request: Request) -> str:
    header = request.headers.get("authorization", "")
    scheme, _, token = header.partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token or len(token) > 128:
        raise NotAuthorized("bad-token", "send the seat's token as 'Authorization: Bearer TOKEN'")
    return token


def hall_of(request: Request | WebSocket) -> Hall:
    hall: Hall = request.app.state.hall
    return hall


def game_id_of(request: Request | WebSocket) -> str:
    game_id = str(request.path_params["game_id"])
    if not (0 < len(game_id) <= 32):
        raise NotFound("unknown-game-id", "there is no such game")
    return game_id


# -- HTTP ------------------------------------------------------------------------------


async def health(request: Request) -> Response:
    """Liveness: the process answers."""
    return JSONResponse({"status": "ok"})


async def ready(request: Request) -> Response:
    """Readiness: the process can serve games, its database answering."""
    store: Store = request.app.state.store
    try:
        await asyncio.wait_for(asyncio.to_thread(store.ping), READY_TIMEOUT)
    except Exception as error:  # the database is away, whatever the driver says
        log.warning("not ready: the database does not answer (%s)", type(error).__name__)
        return JSONResponse(
            {"status": "unavailable", "detail": "the database does not answer"}, status_code=503
        )
    fleet = hall_of(request).fleet
    if fleet is not None:
        try:
            await asyncio.wait_for(fleet.ping(), READY_TIMEOUT)
        except Exception as error:
            log.warning("not ready: Redis does not answer (%s)", type(error).__name__)
            return JSONResponse(
                {"status": "unavailable", "detail": "Redis (the fleet's news) does not answer"},
                status_code=503,
            )
    return JSONResponse({"status": "ready"})


#: Seconds the readiness check waits for the database.
READY_TIMEOUT = 3.0


async def index(request: Request) -> Response:
    page = resources.files("parlour").joinpath("web", "index.html").read_text(encoding="utf-8")
    return HTMLResponse(page)


def _web_file(*parts: str) -> str:
    return resources.files("parlour").joinpath("web", *parts).read_text(encoding="utf-8")


async def rules_page(request: Request) -> Response:
    name = str(request.path_params["game"])
    if name not in registry.game_names():
        raise NotFound("unknown-game", f"there are no rules for {name!r}")
    try:
        return HTMLResponse(_web_file("rules", f"{name}.html"))
    except FileNotFoundError:
        raise NotFound("no-rules", f"the rules of {name} are not written yet") from None


async def catalogue(request: Request) -> Response:
    games = []
    for name in registry.game_names():
        game = registry.get_game(name)
        games.append(
            {
                "name": game.name,
                "title": game.title,
                "side_names": list(game.side_names),
                "has_chance": game.has_chance,
                "has_draws": game.has_draws,
                "levels": [
                    {"name": level, "about": players.about(name, level)}
                    for level in players.levels_of(name)
                ],
                "default_level": players.default_level(name),
                # The optional rules a player may choose, for the home page's form.
                "rules": registry.get_face(name).rule_choices,
                # The file format a game is downloaded and imported in ("pgn"), or None.
                "file_format": registry.get_face(name).export_suffix,
            }
        )
    return JSONResponse(
        {
            "games": games,
            "levels": [
                {"name": name, "about": players.ABOUT.get(name, "")}
                for name in sorted(players.LEVELS)
            ],
        }
    )


async def create_game(request: Request) -> Response:
    body = parse(CreateGame, await read_body(request))
    table, tokens, invite = await hall_of(request).create(
        body.game,
        body.opponent,
        body.side,
        body.level,
        body.rules,
        tutor=body.tutor,
        start=body.start,
        clock=body.clock,
    )
    return JSONResponse(
        {
            "game": game_json(table),
            "seats": tokens,
            "invite": invite,
            # The fragment never reaches a server, so the code stays out of logs.
            "invite_url": None if invite is None else f"/#join={table.id}.{invite}",
        },
        status_code=201,
    )


async def import_game(request: Request) -> Response:
    """A game from a game file, to look back over, analyse or play on (at one screen,
    against the computer or a friend)."""
    body = parse(ImportGame, await read_body(request, 2 * MAX_IMPORT))  # JSON escapes
    table, tokens, invite, games = await hall_of(request).import_game(
        body.game, body.text, body.opponent, body.side, body.level
    )
    return JSONResponse(
        {
            "game": game_json(table),
            "seats": tokens,
            "games": games,
            "invite": invite,
            "invite_url": None if invite is None else f"/#join={table.id}.{invite}",
        },
        status_code=201,
    )


#: The most games one ``GET /api/games?ids=`` may ask about.
MOST_LISTED = 50


async def list_games(request: Request) -> Response:
    """A line about each game of ``ids`` (a browser's list of its games)."""
    ids = [part for part in request.query_params.get("ids", "").split(",") if part]
    if not ids:
        raise BadRequest("bad-request", "name the games: ?ids=ID,ID,...")
    if len(ids) > MOST_LISTED:
        raise BadRequest("bad-request", f"at most {MOST_LISTED} games at once")
    hall = hall_of(request)
    listed = []
    for game_id in dict.fromkeys(ids):
        if not (0 < len(game_id) <= 32):
            raise BadRequest("bad-request", f"{game_id[:40]!r} is not a game id")
        try:
            listed.append(summary_json(await hall.get(game_id)))
        except NotFound:
            continue  # a game this server does not have (another server's, say)
        except Unavailable as error:
            if error.code != "unreadable-game":
                raise  # the database away: the whole list waits for it
            # One game whose log no longer replays does not hide the others.
            listed.append({"id": game_id, "status": "unreadable", "detail": error.detail})
    return JSONResponse({"games": listed})


async def show_game(request: Request) -> Response:
    table = await hall_of(request).get(game_id_of(request))
    return JSONResponse(game_json(table))


async def game_events(request: Request) -> Response:
    table = await hall_of(request).get(game_id_of(request))
    raw = request.query_params.get("since", "0")
    if not raw.isdigit() or len(raw) > 9:
        raise BadRequest("bad-request", "since must be a version number (0 or more)")
    since = int(raw)
    if since > table.version:
        raise BadRequest(
            "bad-request",
            f"since {since} is past the game's version {table.version}",
            version=table.version,
        )
    events = table.events_since(since)
    return JSONResponse({"version": table.version, "events": [event.to_json() for event in events]})


async def game_dice(request: Request) -> Response:
    """The game's dice record: the commitment, the secret once the game is over,
    and the log, for anyone to check (``parlour verify``)."""
    table = await hall_of(request).get(game_id_of(request))
    return JSONResponse(fairness.dice_record(table))


async def game_at(request: Request) -> Response:
    table = await hall_of(request).get(game_id_of(request))
    raw = request.query_params.get("version", "")
    if not raw.isdigit() or len(raw) > 9:
        raise BadRequest("bad-request", "version must be a version number (0 or more)")
    # Replaying is work for the processor: a thread keeps the loop answering others.
    return JSONResponse(await asyncio.to_thread(position_json, table, int(raw)))


async def join_game(request: Request) -> Response:
    body = parse(JoinGame, await read_body(request))
    hall = hall_of(request)
    side, token = await hall.join(game_id_of(request), body.invite)
    table = await hall.get(game_id_of(request))
    return JSONResponse({"side": int(side), "token": token, "game": game_json(table)})


async def game_action(request: Request) -> Response:
    token = bearer_token(request)
    body = parse(Action, await read_body(request))
    table = await hall_of(request).act(
        game_id_of(request), token, body.action, body.version, body.move
    )
    return JSONResponse(game_json(table))


async def game_rematch(request: Request) -> Response:
    """A new game for the same two friends, colours swapped (a seat's token)."""
    token = bearer_token(request)
    hall = hall_of(request)
    table = await hall.get(game_id_of(request))
    fresh, seats = await hall.rematch(table, table.side_of(token))
    return JSONResponse({"game": game_json(fresh), "seats": seats}, status_code=201)


async def game_hint(request: Request) -> Response:
    token = bearer_token(request)
    hall = hall_of(request)
    table = await hall.get(game_id_of(request))
    return JSONResponse(await hall.hint(table, table.side_of(token)))


async def game_judge(request: Request) -> Response:
    body = parse(JudgeMove, await read_body(request))
    token = bearer_token(request) if request.headers.get("authorization") else None
    hall = hall_of(request)
    table = await hall.get(game_id_of(request))
    return JSONResponse(await hall.judge(table, body.version, body.move, token))


async def game_analysis(request: Request) -> Response:
    """GET: the analysis of the game in play so far; POST: begin it."""
    hall = hall_of(request)
    table = await hall.get(game_id_of(request))
    if request.method == "POST":
        return JSONResponse(await hall.analyses.begin(table), status_code=202)
    return JSONResponse(await hall.analyses.state_of(table))


async def game_export(request: Request) -> Response:
    table = await hall_of(request).get(game_id_of(request))
    face = registry.get_face(table.game)
    if face.export_suffix is None:
        raise NotFound("no-export", f"{table.game.title} games cannot be downloaded yet")
    try:
        written = face.export([*table.progress.finished, table.progress.state], table.player_names)
    except ParlourError as error:
        raise RulesRefuse("no-export", str(error)) from None
    assert written is not None
    # The day the game began first, so that a folder of downloads sorts by date.
    day = table.created[:10] if table.created else "undated"
    filename = f"parlour-{table.game.name}-{day}-{table.id}.{written.suffix}"
    return Response(
        written.text,
        media_type="text/plain; charset=utf-8",
        headers={"Content-Disposition": f'attachment; filename="{filename}"'},
    )


async def game_steps(request: Request) -> Response:
    body = parse(Steps, await read_body(request))
    table = await hall_of(request).get(game_id_of(request))
    face = registry.get_face(table.game)
    if not isinstance(face, StepwiseFace):
        raise NotFound("no-steps", f"{table.game.title} moves are entered whole")
    try:
        data = face.steps(table.progress.state, body.steps)
    except ParlourError as error:
        raise RulesRefuse("illegal-move", str(error), rule=getattr(error, "rule", None)) from None
    data["version"] = table.version
    return JSONResponse(data)


# -- WebSocket -------------------------------------------------------------------------


def origin_allowed(websocket: WebSocket, allowed: Iterable[str]) -> bool:
    """A browser always names the page's origin; it must be this server's own (by
    the Host it connected to) or one configured. Clients that are not browsers send
    no Origin and are let in: the Origin check protects browsers' users."""
    return security.origin_allowed(
        websocket.headers.get("origin"), websocket.headers.get("host", ""), allowed
    )


async def live(websocket: WebSocket) -> None:
    if not origin_allowed(websocket, websocket.app.state.allowed_origins):
        await websocket.close(code=1008)  # refused in the handshake: HTTP 403
        return
    await websocket.accept()
    outbox: asyncio.Queue[str | None] = asyncio.Queue()
    table: Table | None = None
    sender: asyncio.Task[None] | None = None
    try:
        try:
            table = await hall_of(websocket).get(game_id_of(websocket))
            raw = await asyncio.wait_for(_receive_text(websocket), HELLO_TIMEOUT)
            hello = parse(Hello, raw)
            side = None if hello.token is None else table.side_of(hello.token)
            await hall_of(websocket).seen(table, hello.since)
            if hello.since > table.version:
                raise BadRequest(
                    "bad-request",
                    f"since {hello.since} is past the game's version {table.version}",
                    version=table.version,
                )
        except TimeoutError:
            await _refuse(websocket, TimedOut("timeout", "say hello first"))
            return
        except Refusal as error:
            await _refuse(websocket, error)
            return
        # No await between the catch-up and joining the watchers: nothing is missed
        # and nothing comes twice.
        welcome = {"type": "welcome", "seat": None if side is None else int(side)}
        outbox.put_nowait(json.dumps(welcome))
        outbox.put_nowait(update_message(table, table.events_since(hello.since)))
        table.watchers.add(outbox)
        sender = asyncio.create_task(_send_all(websocket, outbox))
        while True:
            try:
                raw = await _receive_text(websocket)
                reply = await _answer(websocket, table, side, raw)
            except Refusal as error:
                reply = ws_error(error)
            except (WebSocketDisconnect, asyncio.CancelledError):
                raise
            except Exception:
                # A fault of ours: the game is unchanged (changes apply to a copy).
                log.exception("internal error on the live connection to %s", table.id)
                reply = {
                    "type": "error",
                    "error": "internal",
                    "detail": "the server failed; the game was not changed",
                }
                request_id = _request_id(raw)
                if request_id is not None:
                    reply["id"] = request_id  # so the client stops waiting for it
            outbox.put_nowait(json.dumps(reply))
    except WebSocketDisconnect:
        pass
    finally:
        if table is not None:
            table.watchers.discard(outbox)
        if sender is not None:
            sender.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await sender


def _request_id(raw: str) -> int | str | None:
    """The ``id`` a client gave its message, if the message has a readable one."""
    try:
        request_id = json.loads(raw).get("id")
    except (ValueError, AttributeError, RecursionError):
        return None
    return request_id if isinstance(request_id, int | str) else None


async def _receive_text(websocket: WebSocket) -> str:
    message = await websocket.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000))
    text = message.get("text")
    if text is None:
        raise BadRequest("bad-message", "messages are JSON text frames, not binary")
    if len(text) > MAX_BODY:
        raise TooLarge("too-large", f"a message may have at most {MAX_BODY} characters")
    return str(text)


async def _answer(
    websocket: WebSocket, table: Table, side: Side | None, raw: str
) -> dict[str, Any]:
    try:
        kind = json.loads(raw).get("type")
    except (ValueError, AttributeError, RecursionError):
        raise BadRequest("bad-json", "a message is a JSON object with a type") from None
    if kind == "ping":
        return {"type": "pong", "version": table.version}
    if kind != "action":
        raise BadRequest("bad-message", f"unknown message type {kind!r} (action or ping)")
    try:
        action = LiveAction.model_validate_json(raw)
    except ValidationError as error:
        return ws_error(_validation_error(error), _request_id(raw))
    if action.token is not None:
        try:
            side = table.side_of(action.token)
        except Refusal as error:
            return ws_error(error, action.id)
    if side is None:
        return {
            "type": "error",
            "id": action.id,
            "error": "read-only",
            "detail": "this connection watches; say hello with a seat's token to play",
        }
    hall = hall_of(websocket)
    try:
        await hall.act_as(table, side, action.action, action.version, action.move)
    except Refusal as error:
        return ws_error(error, action.id)
    return {"type": "result", "id": action.id, "version": table.version}


async def _send_all(websocket: WebSocket, outbox: asyncio.Queue[str | None]) -> None:
    while True:
        message = await outbox.get()
        if message is None:  # dropped for not reading: come back with "since"
            await websocket.close(code=1013)
            return
        await websocket.send_text(message)


async def _refuse(websocket: WebSocket, error: Refusal) -> None:
    with contextlib.suppress(Exception):
        await websocket.send_text(json.dumps(ws_error(error)))
        await websocket.close(code=ws_close_code(error))


# -- errors and the app --------------------------------------------------------------


async def refused(request: Request, error: Exception) -> Response:
    assert isinstance(error, Refusal)
    headers = {}
    if "retry_after" in error.extra:  # a client past its share: when to ask again
        headers["Retry-After"] = str(error.extra["retry_after"])
    return JSONResponse(error.to_json(), status_code=http_status(error), headers=headers)


async def http_error(request: Request, error: Exception) -> Response:
    assert isinstance(error, HTTPException)
    codes = {404: "not-found", 405: "method-not-allowed"}
    return JSONResponse(
        {"error": codes.get(error.status_code, "http-error"), "detail": str(error.detail)},
        status_code=error.status_code,
    )


async def internal_error(request: Request, error: Exception) -> Response:
    log.exception("internal error on %s", request.url.path, exc_info=error)
    return JSONResponse(
        {"error": "internal", "detail": "the server failed; the game was not changed"},
        status_code=500,
    )


def create_app(
    db: str | None = None,
    *,
    allowed_origins: Iterable[str] = (),
    dice: Dice | None = None,
    workers: int = 2,
    limits: Limits | None = None,
    allowed_hosts: Iterable[str] = ("*",),
    redis_url: str | None = None,
    forget_after: float = FORGET_AFTER,
    engine_jobs: int = MOST_PER_CLIENT,
    abandon_after: float = ABANDON_AFTER,
    most_events: int = MOST_EVENTS,
) -> Starlette:
    """The web app over the store at the SQLAlchemy URL ``db`` (by default the
    embedded SQLite file, see :func:`parlour.server.storage.default_url`).
    ``allowed_origins`` are page origins besides the server's own that may open
    WebSockets; ``dice`` replaces the server's unpredictable dice (for tests);
    ``limits`` are each client's shares (by default :class:`Limits`' own);
    ``allowed_hosts`` the names the server answers to (its Host header, for HTTP and
    WebSockets alike; ``*.example.org`` patterns, ``*`` for any); ``redis_url``
    makes this process one of a fleet of servers on the same database, told of one
    another's changes through Redis (see :mod:`parlour.server.fleet`);
    ``forget_after`` the seconds a game may go unasked for before it leaves memory
    (0: never); ``engine_jobs`` the hints and judgements one client may have waiting
    at once (see :mod:`parlour.server.jobs`); ``abandon_after`` the days after which an
    unfinished game nobody has moved in is marked abandoned (0: never);
    ``most_events`` the most moves (and throws, offers) one game may have."""

    allowed_origins = frozenset(allowed_origins)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        store = Store(db or default_url())
        hall = Hall(
            store,
            dice=dice,
            workers=workers,
            redis_url=redis_url,
            forget_after=forget_after,
            engine_jobs=engine_jobs,
            abandon_after=abandon_after,
            most_events=most_events,
        )
        app.state.hall = hall
        app.state.store = store
        await hall.start()
        try:
            yield
        finally:
            await hall.stop()
            store.close()

    app = Starlette(
        routes=[
            Route("/", index),
            Route("/health", health),
            Route("/ready", ready),
            Route("/api/catalogue", catalogue),
            Route("/api/games", create_game, methods=["POST"]),
            Route("/api/games", list_games, methods=["GET"]),
            Route("/api/games/import", import_game, methods=["POST"]),
            Route("/api/games/{game_id}", show_game),
            Route("/api/games/{game_id}/events", game_events),
            Route("/api/games/{game_id}/at", game_at),
            Route("/api/games/{game_id}/dice", game_dice),
            Route("/api/games/{game_id}/join", join_game, methods=["POST"]),
            Route("/api/games/{game_id}/actions", game_action, methods=["POST"]),
            Route("/api/games/{game_id}/hint", game_hint),
            Route("/api/games/{game_id}/rematch", game_rematch, methods=["POST"]),
            Route("/api/games/{game_id}/export", game_export),
            Route("/api/games/{game_id}/analysis", game_analysis, methods=["GET", "POST"]),
            Route("/api/games/{game_id}/judge", game_judge, methods=["POST"]),
            Route("/api/games/{game_id}/steps", game_steps, methods=["POST"]),
            Route("/rules/{game}", rules_page),
            Mount(
                "/static",
                StaticFiles(packages=[("parlour", "web")]),
                name="static",
            ),
            WebSocketRoute("/api/games/{game_id}/live", live),
        ],
        middleware=[
            Middleware(TrustedHostMiddleware, allowed_hosts=list(allowed_hosts)),
            Middleware(RateLimitMiddleware, limits=limits),
            Middleware(SecurityMiddleware, allowed_origins=allowed_origins),
        ],
        exception_handlers={
            Refusal: refused,
            HTTPException: http_error,
            Exception: internal_error,
        },
        lifespan=lifespan,
    )
    app.state.allowed_origins = allowed_origins
    return app


#: The most bytes a request's line and headers may take.
MAX_HEADER_BYTES = 64 * 1024
#: Seconds a connection may stay idle between requests before it is closed.
IDLE_SECONDS = 5


#: The garbage collector's thresholds in a server (Python's default: 700, 10, 10).
COLLECTOR_THRESHOLDS = (50_000, 20, 100)


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    db: str | None = None,
    allowed_origins: Iterable[str] = (),
    limits: Limits | None = None,
    max_header_bytes: int = MAX_HEADER_BYTES,
    idle_seconds: int = IDLE_SECONDS,
    allowed_hosts: Iterable[str] = ("*",),
    behind_proxy: bool = False,
    trusted_proxies: str = "127.0.0.1",
    redis_url: str | None = None,
    log_format: str = "text",
    forget_after: float = FORGET_AFTER,
    engine_jobs: int = MOST_PER_CLIENT,
    abandon_after: float = ABANDON_AFTER,
    most_events: int = MOST_EVENTS,
) -> int:
    """Run the app under uvicorn until interrupted (``parlour serve``). A request's
    headers may take ``max_header_bytes`` at most (a larger request is refused before
    its memory is kept); a connection idle for ``idle_seconds`` between requests is
    closed. ``behind_proxy``: the client's address and scheme are taken from the
    forwarded headers of a reverse proxy at ``trusted_proxies`` (and only then: a
    client cannot claim another address by sending the headers itself).
    ``redis_url``: join the fleet of servers on the same database (PostgreSQL).
    ``log_format``: "text" for people, "json" a line for log collectors.
    ``forget_after``: seconds a game may go unasked for before it leaves memory;
    ``engine_jobs``, ``abandon_after`` and ``most_events`` as :func:`create_app`'s."""
    import uvicorn

    url = db or default_url()
    _check_store(url)
    if redis_url is not None:
        _check_fleet(url, redis_url)
    logging_config = log_config(log_format)
    app = create_app(
        url,
        allowed_origins=allowed_origins,
        limits=limits,
        allowed_hosts=allowed_hosts,
        redis_url=redis_url,
        forget_after=forget_after,
        engine_jobs=engine_jobs,
        abandon_after=abandon_after,
        most_events=most_events,
    )
    # The garbage collector's pauses are the tail of a move's latency: a full
    # collection walks every object of every game held. What the server has made by
    # now lives as long as it does (frozen: never walked again); young objects are
    # collected after 50,000 allocations rather than 700, and all of them more rarely
    # (p99 under a 500-game load through two processes about halved:
    # docs/benchmarks.md).
    gc.freeze()
    gc.set_threshold(*COLLECTOR_THRESHOLDS)
    banner = f"Parlour: http://{host}:{port}/  (games stored in {_safe(url)})"
    if log_format == "json":
        logging.config.dictConfig(logging_config)
        log.info(banner)  # every line of a JSON log is JSON
    else:
        print(banner, flush=True)
    uvicorn.run(
        app,
        host=host,
        port=port,
        proxy_headers=behind_proxy,
        forwarded_allow_ips=trusted_proxies,
        # h11 bounds what a request's headers may take; httptools keeps them all.
        http="h11",
        h11_max_incomplete_event_size=max_header_bytes,
        timeout_keep_alive=idle_seconds,
        ws_max_size=MAX_BODY,
        # Moves are small messages: compressing each costs more CPU than it saves.
        ws_per_message_deflate=False,
        log_level="info",
        log_config=logging_config,
    )
    return 0


def _check_store(url: str) -> None:
    """Open the store once before serving, so a bad ``--db`` is one clear line."""
    import sqlalchemy as sa

    try:
        Store(url).close()
    except (sa.exc.SQLAlchemyError, ImportError) as error:
        # ImportError: a database whose driver is not installed (mysql://...).
        first_line = (str(error).strip().splitlines() or [type(error).__name__])[0]
        raise ParlourError(f"cannot open the store {_safe(url)}: {first_line}") from None


def _check_fleet(db_url: str, redis_url: str) -> None:
    """A fleet needs a shared database server and a Redis that answers: say which
    is missing in one line, before serving."""
    import redis
    from redis.exceptions import RedisError

    if normalize_url(db_url).get_backend_name() == "sqlite":
        raise ParlourError(
            "--redis joins a fleet of servers on one database server: give --db "
            "postgresql://... (an SQLite file belongs to one process)"
        )
    try:
        client = redis.Redis.from_url(redis_url, socket_connect_timeout=3)
        try:
            client.ping()
        finally:
            client.close()
    except (RedisError, OSError, ValueError) as error:
        raise ParlourError(f"cannot reach Redis at {_safe(redis_url)}: {error}") from None


def _safe(url: str) -> str:
    """The URL without a password, for printing."""
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    try:
        return make_url(url).render_as_string(hide_password=True)
    except ArgumentError:
        return repr(url.split("@")[-1])
