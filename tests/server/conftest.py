"""Fixtures for the server tests: the race game registered, an app over a fresh
SQLite file or a fresh PostgreSQL database, and a small client that plays."""

from __future__ import annotations

import secrets
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from parlour.core import registry
from parlour.server.app import create_app
from parlour.server.storage import EventRow, Store

with warnings.catch_warnings():
    # Starlette would rather have the httpx2 fork; httpx works the same for us.
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient as TestClient  # re-exported for the tests

POSTGRES = "postgresql://postgres@127.0.0.1:5432/test"
RACE_ENTRY = registry.GameEntry(rules="tests.conformance.toygame:RACE")


@pytest.fixture(scope="session", autouse=True)
def race_registered() -> Iterator[None]:
    registry.register("race", RACE_ENTRY)
    yield
    registry.unregister("race")


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'games.db'}"


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    """A fresh database on the local PostgreSQL for this run, dropped afterwards.
    An unreachable server fails the tests that need it (never a skip)."""
    name = f"parlour_test_{secrets.token_hex(6)}"
    admin = sa.create_engine(
        POSTGRES.replace("postgresql://", "postgresql+psycopg://"), isolation_level="AUTOCOMMIT"
    )
    with admin.connect() as conn:
        conn.exec_driver_sql(f'CREATE DATABASE "{name}"')
    try:
        yield POSTGRES.rsplit("/", 1)[0] + "/" + name
    finally:
        with admin.connect() as conn:
            conn.exec_driver_sql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.dispose()


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest) -> str:
    if request.param == "sqlite":
        url: str = request.getfixturevalue("sqlite_url")
    else:
        url = request.getfixturevalue("postgres_url")
    return url


@contextmanager
def serving(url: str, **options: Any) -> Iterator[TestClient]:
    """The app over ``url``, started (its lifespan run) and stopped around the block."""
    with TestClient(create_app(url, **options)) as client:
        yield client


@dataclass
class Table:
    """One game seen from the client side: its id and the seats' tokens."""

    client: TestClient
    id: str
    tokens: dict[int, str]
    invite: str | None = None

    def game(self) -> dict[str, Any]:
        response = self.client.get(f"/api/games/{self.id}")
        assert response.status_code == 200, response.text
        data: dict[str, Any] = response.json()
        return data

    def act(
        self, side: int, action: str, version: int | None = None, move: str | None = None
    ) -> Any:
        if version is None:
            version = self.game()["version"]
        body: dict[str, Any] = {"action": action, "version": version}
        if move is not None:
            body["move"] = move
        return self.client.post(
            f"/api/games/{self.id}/actions",
            json=body,
            headers={"Authorization": f"Bearer {self.tokens[side]}"},
        )

    def move(self, pick: int = -1) -> dict[str, Any]:
        """The side on turn plays one of its legal moves (the last by default)."""
        game = self.game()
        response = self.act(game["turn"], "move", game["version"], game["legal_moves"][pick])
        assert response.status_code == 200, response.text
        data: dict[str, Any] = response.json()
        return data


def new_table(client: TestClient, game: str = "race", **body: Any) -> Table:
    response = client.post("/api/games", json={"game": game, **body})
    assert response.status_code == 201, response.text
    data = response.json()
    tokens = {seat["side"]: seat["token"] for seat in data["seats"]}
    return Table(client, data["game"]["id"], tokens, data["invite"])


def stored_events(url: str, game_id: str) -> list[EventRow]:
    """The event log as the database holds it, read by a separate connection."""
    store = Store(url)
    try:
        return store.load_game(game_id).events
    finally:
        store.close()
