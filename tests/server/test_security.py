"""The headers on every reply and the checks on every changing request: a page of
ours cannot be framed or sniffed, and another site's page cannot change a game."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.server.conftest import new_table, serving


@pytest.mark.parametrize("path", ["/", "/api/catalogue", "/static/style.css", "/rules/chess"])
def test_every_reply_carries_the_security_headers(path: str, sqlite_url: str) -> None:
    with serving(sqlite_url) as client:
        response = client.get(path)
    assert response.status_code == 200
    policy = response.headers["content-security-policy"]
    assert "frame-ancestors 'none'" in policy and "default-src 'self'" in policy
    assert response.headers["x-content-type-options"] == "nosniff"
    assert response.headers["x-frame-options"] == "DENY"
    assert response.headers["referrer-policy"] == "no-referrer"


def test_errors_carry_them_too(sqlite_url: str) -> None:
    with serving(sqlite_url) as client:
        response = client.get("/api/games/nosuchgame")
    assert response.status_code == 404
    assert response.headers["x-content-type-options"] == "nosniff"


def test_a_cross_site_form_post_creates_nothing(sqlite_url: str, tmp_path: Path) -> None:
    # What a hostile page can send without the server's consent: text/plain.
    with serving(sqlite_url) as client:
        response = client.post(
            "/api/games",
            content=b'{"game": "chess", "opponent": "local"}',
            headers={"Content-Type": "text/plain", "Origin": "https://evil.example"},
        )
        assert response.status_code == 403
        assert response.json()["error"] == "foreign-origin"
        response = client.post(
            "/api/games",
            content=b'{"game": "chess", "opponent": "local"}',
            headers={"Content-Type": "text/plain"},
        )
        assert response.status_code == 415
        assert response.json()["error"] == "not-json"
        assert "application/json" in response.json()["detail"]


def test_another_sites_page_may_not_act_in_a_game(sqlite_url: str) -> None:
    with serving(sqlite_url) as client:
        table = new_table(client, "race", opponent="local")
        before = table.game()
        response = client.post(
            f"/api/games/{table.id}/actions",
            json={"action": "resign", "version": before["version"]},
            headers={
                "Authorization": f"Bearer {table.tokens[0]}",
                "Origin": "https://evil.example",
            },
        )
        assert response.status_code == 403 and response.json()["error"] == "foreign-origin"
        assert table.game() == before


def test_our_own_pages_and_allowed_origins_may_act(sqlite_url: str) -> None:
    with serving(sqlite_url, allowed_origins=["https://parlour.example"]) as client:
        for origin in ("http://testserver", "https://parlour.example"):
            response = client.post(
                "/api/games", json={"game": "race", "opponent": "local"}, headers={"Origin": origin}
            )
            assert response.status_code == 201, response.text
