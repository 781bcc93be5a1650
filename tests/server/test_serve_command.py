"""``parlour serve``: a bad store is one clear line, never a traceback; a good one
serves the placeholder page and the API (the real process is run by test_restart)."""

from __future__ import annotations

import pytest

from parlour import cli
from tests.server.conftest import serving


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
