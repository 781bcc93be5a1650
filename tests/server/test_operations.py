"""What an operator relies on: health and readiness endpoints, and a server that
answers only to the host names it was given, on HTTP and WebSocket alike."""

from __future__ import annotations

import warnings

import pytest
from starlette.applications import Starlette

from parlour.server.app import create_app
from tests.server.conftest import serving

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient
    from starlette.websockets import WebSocketDisconnect


def test_health_and_readiness(sqlite_url: str) -> None:
    with serving(sqlite_url) as client:
        assert client.get("/health").json() == {"status": "ok"}
        assert client.get("/ready").json() == {"status": "ready"}


def test_not_ready_while_the_database_is_away(
    sqlite_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    with serving(sqlite_url) as client:
        assert isinstance(client.app, Starlette)
        store = client.app.state.store

        def away() -> None:
            raise OSError("connection refused")

        monkeypatch.setattr(store, "ping", away)
        answer = client.get("/ready")
        assert answer.status_code == 503
        assert answer.json() == {"status": "unavailable", "detail": "the database does not answer"}
        assert client.get("/health").status_code == 200


def test_only_the_allowed_hosts_are_served(sqlite_url: str) -> None:
    app = create_app(sqlite_url, allowed_hosts=["parlour.example"])
    with TestClient(app, base_url="http://parlour.example") as client:
        assert client.get("/api/catalogue").status_code == 200
        refused = client.get("/api/catalogue", headers={"Host": "evil.example"})
        assert refused.status_code == 400
        with (
            pytest.raises(WebSocketDisconnect),
            client.websocket_connect("/api/games/x/live", headers={"Host": "evil.example"}) as ws,
        ):
            ws.receive_json()
