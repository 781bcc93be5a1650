"""Hostile and careless input: every one is refused with a clear JSON error and a 4xx
status (never a 500, never a traceback), and the game and its log stay as they were."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from starlette.websockets import WebSocketDisconnect

from parlour.server.app import MAX_BODY
from tests.server.conftest import Table, TestClient, new_table, serving, stored_events


@pytest.fixture
def client(sqlite_url: str) -> Iterator[TestClient]:
    with serving(sqlite_url, allowed_origins=["https://friends.example"]) as client:
        yield client


@pytest.fixture
def table(client: TestClient) -> Table:
    table = new_table(client, opponent="local")
    table.move()
    return table


def assert_unchanged(table: Table, url: str, game: dict[str, Any], log: list[Any]) -> None:
    assert table.game() == game
    assert stored_events(url, table.id) == log


def assert_error(response: Any, status: int, error: str) -> dict[str, Any]:
    assert response.status_code == status, response.text
    body: dict[str, Any] = response.json()
    assert body["error"] == error and isinstance(body["detail"], str) and body["detail"]
    assert "Traceback" not in response.text
    return body


def action(**fields: Any) -> bytes:
    """An action body: a move at version 3 unless the fields say otherwise."""
    return json.dumps({"action": "move", "version": 3, **fields}).encode()


ACTION_BODIES: list[tuple[str, bytes, int, str]] = [
    ("not JSON", b"{move: +1", 400, "bad-json"),
    ("empty body", b"", 400, "bad-json"),
    ("a JSON list", b"[1, 2]", 400, "bad-request"),
    ("version as text", action(version="3", move="+1"), 400, "bad-request"),
    ("negative version", action(version=-1, move="+1"), 400, "bad-request"),
    ("huge version", b'{"action": "move", "version": 1e400, "move": "+1"}', 400, "bad-request"),
    ("move as a number", action(move=1), 400, "bad-request"),
    ("an extra field", action(move="+1", x=1), 400, "bad-request"),
    ("no version", b'{"action": "move", "move": "+1"}', 400, "bad-request"),
    ("unknown action", action(action="castle"), 400, "bad-action"),
    ("a move without text", action(), 400, "bad-request"),
    ("resign with a move", action(action="resign", move="+1"), 400, "bad-request"),
    ("text that is no move", action(move="e4"), 422, "bad-notation"),
    ("an illegal move", action(move="+9"), 422, "illegal-move"),
    ("a throw by a player", action(move="throw 2"), 422, "illegal-move"),
    ("a very long move", action(move="+" * 5000), 400, "bad-request"),
    ("deep nesting", b"[" * 5000 + b"]" * 5000, 400, "bad-json"),
    ("a huge body", action(move="x" * (MAX_BODY + 10)), 413, "too-large"),
    ("invalid UTF-8", b'{"action": "move", "version": 3, "move": "\xff\xfe"}', 400, "bad-json"),
]


@pytest.mark.parametrize(
    ("body", "status", "error"),
    [case[1:] for case in ACTION_BODIES],
    ids=[case[0] for case in ACTION_BODIES],
)
def test_bad_action_bodies_are_refused(
    client: TestClient, table: Table, sqlite_url: str, body: bytes, status: int, error: str
) -> None:
    game, log = table.game(), stored_events(sqlite_url, table.id)
    assert game["version"] == 3 and game["turn"] == 1
    response = client.post(
        f"/api/games/{table.id}/actions",
        content=body,
        headers={"Authorization": f"Bearer {table.tokens[1]}", "Content-Type": "application/json"},
    )
    answer = assert_error(response, status, error)
    if error == "illegal-move":
        assert answer["rule"] in ("step", "not-chance")
    assert_unchanged(table, sqlite_url, game, log)


@pytest.mark.parametrize(
    "header",
    [None, "", "Bearer", "Bearer ", "Basic abc", "Bearer wrong-token", "Bearer " + "x" * 500],
)
def test_bad_tokens_are_refused(
    client: TestClient, table: Table, sqlite_url: str, header: str | None
) -> None:
    game, log = table.game(), stored_events(sqlite_url, table.id)
    headers = {} if header is None else {"Authorization": header}
    response = client.post(
        f"/api/games/{table.id}/actions",
        json={"action": "move", "version": 3, "move": "+1"},
        headers=headers,
    )
    assert_error(response, 401, "bad-token")
    assert_unchanged(table, sqlite_url, game, log)


def test_a_token_of_another_game_holds_no_seat_here(
    client: TestClient, table: Table, sqlite_url: str
) -> None:
    other = new_table(client, opponent="local")
    game, log = table.game(), stored_events(sqlite_url, table.id)
    response = client.post(
        f"/api/games/{table.id}/actions",
        json={"action": "resign", "version": 3},
        headers={"Authorization": f"Bearer {other.tokens[1]}"},
    )
    assert_error(response, 401, "bad-token")
    assert_unchanged(table, sqlite_url, game, log)


@pytest.mark.parametrize(
    ("body", "status", "error"),
    [
        ({"game": "go"}, 404, "unknown-game"),
        ({"game": "chess-but-longer-than-thirty-two-letters"}, 400, "bad-request"),
        ({"game": 5}, 400, "bad-request"),
        ({"game": "race", "opponent": "robot"}, 400, "bad-request"),
        ({"game": "race", "side": 2}, 400, "bad-request"),
        ({"game": "race", "side": True}, 400, "bad-request"),
        ({"game": "race", "opponent": "computer", "level": "grandmaster"}, 400, "unknown-level"),
        ({"game": "race", "opponent": "local", "level": "random"}, 400, "bad-request"),
        ({}, 400, "bad-request"),
    ],
)
def test_bad_new_games_are_refused(
    client: TestClient, body: dict[str, Any], status: int, error: str
) -> None:
    assert_error(client.post("/api/games", json=body), status, error)


def test_a_huge_body_without_a_length_is_cut_off(
    client: TestClient, table: Table, sqlite_url: str
) -> None:
    game, log = table.game(), stored_events(sqlite_url, table.id)

    def chunks() -> Iterator[bytes]:
        yield b'{"action": "move", "version": 3, "move": "'
        for _ in range(MAX_BODY // 1000 + 5):
            yield b"x" * 1000
        yield b'"}'

    response = client.post(
        f"/api/games/{table.id}/actions",
        content=chunks(),  # sent chunked: no Content-Length to trust
        headers={"Authorization": f"Bearer {table.tokens[1]}", "Content-Type": "application/json"},
    )
    assert_error(response, 413, "too-large")
    assert_unchanged(table, sqlite_url, game, log)


def test_unknown_games_routes_and_methods_answer_json(client: TestClient, table: Table) -> None:
    assert_error(client.get("/api/games/nosuchgame"), 404, "unknown-game-id")
    assert_error(client.get("/api/games/" + "x" * 40), 404, "unknown-game-id")
    assert_error(client.get("/api/nothing-here"), 404, "not-found")
    assert_error(client.delete(f"/api/games/{table.id}"), 405, "method-not-allowed")
    assert_error(client.get(f"/api/games/{table.id}/events?since=-1"), 400, "bad-request")
    assert_error(client.get(f"/api/games/{table.id}/events?since=99"), 400, "bad-request")
    join = {"invite": "x"}
    assert_error(client.post("/api/games/nosuchgame/join", json=join), 404, "unknown-game-id")
    assert_error(client.post(f"/api/games/{table.id}/join", json=join), 403, "bad-invite")
    assert_error(
        client.post(
            "/api/games",
            content=b"x",
            headers={"Content-Length": str(10**12), "Content-Type": "application/json"},
        ),
        413,
        "too-large",
    )


# -- WebSocket ------------------------------------------------------------------------


def hello(ws: Any, **fields: Any) -> dict[str, Any]:
    ws.send_json({"type": "hello", **fields})
    welcome: dict[str, Any] = ws.receive_json()
    ws.receive_json()  # the catch-up update
    return welcome


@pytest.mark.parametrize(
    ("frame", "error"),
    [
        ("not json", "bad-json"),
        ("[1, 2]", "bad-json"),
        ('{"type": "subscribe"}', "bad-message"),
        ('{"no": "type"}', "bad-message"),
        ('{"type": "action", "action": "move", "version": "3", "move": "+1"}', "bad-request"),
        ('{"type": "action", "action": "move", "version": 3, "move": "+9"}', "illegal-move"),
        ('{"type": "action", "action": "move", "version": 1, "move": "+1"}', "stale-version"),
        ('{"type": "action", "action": "resign", "version": 3, "token": "x"}', "bad-token"),
        ('{"type": "action", "action": "fly", "version": 3}', "bad-action"),
        ("[" * 5000 + "]" * 5000, "bad-json"),
        ("x" * (MAX_BODY + 1), "too-large"),
        (b"\x00\x01binary", "bad-message"),
    ],
)
def test_bad_websocket_messages_are_refused_and_the_connection_goes_on(
    client: TestClient, table: Table, sqlite_url: str, frame: str | bytes, error: str
) -> None:
    game, log = table.game(), stored_events(sqlite_url, table.id)
    with client.websocket_connect(f"/api/games/{table.id}/live") as ws:
        assert hello(ws, since=3, token=table.tokens[1]) == {"type": "welcome", "seat": 1}
        if isinstance(frame, bytes):
            ws.send_bytes(frame)
        else:
            ws.send_text(frame)
        reply = ws.receive_json()
        assert reply["type"] == "error" and reply["error"] == error, reply
        assert reply["detail"]
        ws.send_json({"type": "ping"})
        assert ws.receive_json() == {"type": "pong", "version": 3}
    assert_unchanged(table, sqlite_url, game, log)


@pytest.mark.parametrize(
    ("first", "error"),
    [
        ({"type": "action", "action": "resign", "version": 3}, "bad-request"),
        ({"type": "hello", "token": "not-a-seat"}, "bad-token"),
        ({"type": "hello", "since": 99}, "bad-request"),
        ({"type": "hello", "since": "0"}, "bad-request"),
    ],
)
def test_a_bad_hello_closes_the_connection(
    client: TestClient, table: Table, first: dict[str, Any], error: str
) -> None:
    with client.websocket_connect(f"/api/games/{table.id}/live") as ws:
        ws.send_json(first)
        reply = ws.receive_json()
        assert reply["type"] == "error" and reply["error"] == error
        with pytest.raises(WebSocketDisconnect):
            ws.receive_json()


def test_websockets_to_unknown_games_are_refused(client: TestClient) -> None:
    with client.websocket_connect("/api/games/nosuchgame/live") as ws:
        assert ws.receive_json()["error"] == "unknown-game-id"
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4404


def test_websocket_origins_are_checked(client: TestClient, table: Table) -> None:
    path = f"/api/games/{table.id}/live"
    for origin in ("https://evil.example", "null", "http://testserver.evil.example"):
        with (
            pytest.raises(WebSocketDisconnect) as refused,
            client.websocket_connect(path, headers={"Origin": origin}),
        ):
            pass
        assert refused.value.code == 1008
    for origin in ("http://testserver", "https://friends.example"):
        with client.websocket_connect(path, headers={"Origin": origin}) as ws:
            assert hello(ws) == {"type": "welcome", "seat": None}
