"""``parlour serve``: a bad store is one clear line, never a traceback; a good one
serves the placeholder page and the API (the real process is run by test_restart);
``--log-format json`` writes a JSON object a line."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
import pytest

from parlour import cli
from tests.server.conftest import serving
from tests.server.live import server


@pytest.mark.parametrize(
    ("url", "words"),
    [
        ("nonsense", "Could not parse"),
        ("mysql://someone:secret@127.0.0.1/x", "No module named"),
        ("sqlite:////nonexistent/folder/games.db", "unable to open database file"),
        ("postgresql://postgres@127.0.0.1:1/x", "connection"),
    ],
)
def test_a_store_that_cannot_be_opened_is_a_clear_error(
    url: str, words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["serve", "--port", "1", "--db", url]) == 1
    err = capsys.readouterr().err
    assert err.startswith("parlour: cannot open the store ") and words in err
    assert "secret" not in err and "Traceback" not in err


def test_the_home_page_is_served(sqlite_url: str) -> None:
    with serving(sqlite_url) as client:
        page = client.get("/")
        assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
        assert "<title>Parlour</title>" in page.text and "/api/catalogue" in page.text


def test_the_log_is_one_json_object_a_line_when_asked(sqlite_url: str, tmp_path: Path) -> None:
    log = tmp_path / "server.log"
    with server(sqlite_url, log, "--log-format", "json") as (_, base):
        assert httpx.get(f"{base}/api/catalogue").status_code == 200
        assert httpx.get(f"{base}/api/games/nosuchgame").status_code == 404
    lines = [line for line in log.read_text().splitlines() if line.strip()]
    records = [json.loads(line) for line in lines]  # every line is JSON
    assert all({"time", "level", "logger", "message"} <= set(r) for r in records)
    access = [r for r in records if r["logger"] == "uvicorn.access"]
    assert any(r["path"] == "/api/catalogue" and r["status"] == 200 for r in access)
    assert any(r["path"] == "/api/games/nosuchgame" and r["status"] == 404 for r in access)
    assert any("Uvicorn running" in r["message"] for r in records)
