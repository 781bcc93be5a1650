"""Fair shares: one client past its share of games, hints, look-backs or requests is
answered 429 with Retry-After, and another client is served as before; a request
whose headers are too large is refused by a real server before it keeps them."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest

from parlour.server.app import create_app
from parlour.server.limits import Limits, request_kinds
from tests.server.conftest import new_table, serving
from tests.server.live import free_port, wait_until_serving

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

ROOT = Path(__file__).resolve().parents[2]


def new_game(client: TestClient) -> int:
    status: int = client.post("/api/games", json={"game": "race", "opponent": "local"}).status_code
    return status


def test_game_creation_past_the_share_is_refused_with_retry_after(sqlite_url: str) -> None:
    app = create_app(sqlite_url, limits=Limits(games_per_minute=3))
    with (
        TestClient(app, client=("10.0.0.1", 4000)) as greedy,
        TestClient(app, client=("10.0.0.2", 4000)) as other,
    ):
        assert [new_game(greedy) for _ in range(3)] == [201, 201, 201]
        refused = greedy.post("/api/games", json={"game": "race", "opponent": "local"})
        assert refused.status_code == 429
        assert refused.json()["error"] == "too-many-requests"
        assert "too many games from this address" in refused.json()["detail"]
        assert 1 <= int(refused.headers["retry-after"]) <= 20
        # Another client is not slowed, and the greedy one may still play.
        assert new_game(other) == 201
        assert greedy.get("/api/catalogue").status_code == 200


def test_every_request_counts_against_the_whole_share(sqlite_url: str) -> None:
    app = create_app(sqlite_url, limits=Limits(requests_per_minute=5))
    with TestClient(app) as client:
        answers = [client.get("/api/catalogue").status_code for _ in range(7)]
    assert answers == [200] * 5 + [429] * 2


@pytest.mark.parametrize(
    ("method", "path", "kinds"),
    [
        ("POST", "/api/games", ["requests", "games"]),
        ("GET", "/api/games/abc/hint", ["requests", "hints"]),
        ("GET", "/api/games/abc/at", ["requests", "lookbacks"]),
        ("GET", "/api/games/abc/export", ["requests", "exports"]),
        ("GET", "/api/games/abc", ["requests"]),
        ("GET", "/static/app.js", ["requests"]),
    ],
)
def test_each_request_is_counted_by_its_kind(method: str, path: str, kinds: list[str]) -> None:
    assert request_kinds(method, path) == kinds


def test_a_negative_limit_is_refused() -> None:
    with pytest.raises(ValueError, match="hints_per_minute must be 0"):
        Limits(hints_per_minute=-1)


@pytest.fixture
def real_server(tmp_path: Path) -> Iterator[int]:
    port = free_port()
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "parlour",
            "serve",
            "--port",
            str(port),
            "--db",
            f"sqlite:///{tmp_path / 'games.db'}",
        ],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    try:
        assert wait_until_serving(process, f"http://127.0.0.1:{port}", timeout=30)
        yield port
    finally:
        process.terminate()
        process.wait(10)


def test_oversized_headers_are_refused_by_a_real_server(real_server: int) -> None:
    header = b"X-Padding: " + b"x" * (1024 * 1024) + b"\r\n"
    with socket.create_connection(("127.0.0.1", real_server), timeout=10) as conn:
        try:
            conn.sendall(b"GET /api/catalogue HTTP/1.1\r\nHost: 127.0.0.1\r\n" + header + b"\r\n")
        except (BrokenPipeError, ConnectionResetError):
            return  # refused while it was still being sent
        answer = conn.recv(4096)
    assert answer == b"" or answer.split(b" ", 2)[1] in (b"400", b"431")


def test_a_game_past_the_most_moves_can_only_end(sqlite_url: str) -> None:
    with serving(sqlite_url, most_events=4) as client:
        table = new_table(client, opponent="local")
        refused = None
        for _ in range(10):
            game = table.game()
            assert game["status"] == "playing"
            response = table.act(game["turn"], "move", game["version"], game["legal_moves"][0])
            if response.status_code != 200:
                refused = response
                break
        assert refused is not None and refused.status_code == 413, refused
        assert refused.json()["error"] == "game-too-long"
        assert "most moves" in refused.json()["detail"]
        game = table.game()
        assert game["version"] <= 4  # the refused move changed nothing
        resigned = table.act(game["turn"], "resign", game["version"])
        assert resigned.status_code == 200 and resigned.json()["status"] == "over"
