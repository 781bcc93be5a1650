"""The live connection's error path: a fault of the server's own while answering an
action is reported with the action's id, so the client that sent it stops waiting."""

from __future__ import annotations

from typing import Any

import pytest
from starlette.applications import Starlette

from tests.server.conftest import new_table, serving


def test_an_internal_error_answers_with_the_request_id(
    sqlite_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    with serving(sqlite_url) as client:
        table = new_table(client, opponent="local")
        assert isinstance(client.app, Starlette)
        hall = client.app.state.hall

        async def broken(*args: Any, **kwargs: Any) -> None:
            raise RuntimeError("a fault of the server's own")

        monkeypatch.setattr(hall, "act_as", broken)
        with client.websocket_connect(f"/api/games/{table.id}/live") as ws:
            ws.send_json({"type": "hello", "token": table.tokens[0]})
            assert ws.receive_json()["type"] == "welcome"
            version = ws.receive_json()["game"]["version"]
            ws.send_json({"type": "action", "id": "req-42", "action": "resign", "version": version})
            reply = ws.receive_json()
        assert reply == {
            "type": "error",
            "id": "req-42",
            "error": "internal",
            "detail": "the server failed; the game was not changed",
        }
        assert table.game()["version"] == version
