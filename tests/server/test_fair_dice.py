"""Dice anyone can check: a backgammon game's commitment is published at its start,
its secret only when the match is over; then every throw of the log recomputes from
the secret (by the server's record, by `parlour verify` on a file and on the game's
address), and a tampered log or a wrong secret is caught."""

from __future__ import annotations

import copy
import hashlib
import json
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import uvicorn

from parlour.cli import main
from parlour.server.app import create_app
from parlour.server.fairness import check_record
from tests.server.conftest import new_table, serving
from tests.server.test_matches import next_game, resigns


def _played_match(client: Any) -> tuple[Any, dict[str, Any], dict[str, Any]]:
    """A 2-point match at one screen, each game played a little and resigned until
    the match is over: the table, its dice record during the first game, and at
    the end."""
    table = new_table(client, "backgammon", opponent="local", rules={"match_length": 2})
    for _ in range(6):
        table.move(pick=0)
    during = client.get(f"/api/games/{table.id}/dice").json()
    for _ in range(5):
        ended = resigns(table, "single")
        if ended["series"]["over"]:
            break
        next_game(table)
        for _ in range(4):
            table.move(pick=0)
    assert ended["series"]["over"]
    return table, during, client.get(f"/api/games/{table.id}/dice").json()


def test_the_commitment_comes_first_and_the_secret_at_the_end(sqlite_url: str) -> None:
    with serving(sqlite_url) as client:  # the server's own dice: committed
        table = new_table(client, "backgammon", opponent="local", rules={"match_length": 2})
        game = table.game()
        commitment = game["dice"]["commitment"]
        assert len(commitment) == 64 and game["dice"]["secret"] is None
        assert "secret" not in game["options"]
        table, during, after = _played_match(client)
        assert during["secret"] is None and during["commitment"]
        game = table.game()
        assert game["series"]["over"]
        secret = game["dice"]["secret"]
        assert hashlib.sha256(bytes.fromhex(secret)).hexdigest() == game["dice"]["commitment"]
        assert secret not in json.dumps(during)  # never shown before the end
        assert after["secret"] == secret
        throws = [e for e in after["events"] if e["kind"] == "throw"]
        assert len(throws) >= 6  # two opening throws and the turns rolled

        found = check_record(after)
        assert found.ok, found.summary
        assert found.throws == len(throws)
        assert not check_record(during).ok  # nothing to check before the end


def test_a_tampered_log_or_secret_is_caught(sqlite_url: str) -> None:
    with serving(sqlite_url) as client:
        _, _, record = _played_match(client)
    assert check_record(record).ok

    tampered = copy.deepcopy(record)
    # A throw after the opening, written the other way round ("61" as "16"): the
    # same play follows, but it is not the throw the secret gives.
    throw = next(
        e
        for e in tampered["events"][3:]
        if e["kind"] == "throw" and e["payload"][0] != e["payload"][1]
    )
    throw["payload"] = throw["payload"][::-1]
    found = check_record(tampered)
    assert not found.ok and len(found.wrong) == 1
    assert f"the log says {throw['payload']}" in found.wrong[0]

    # Another throw altogether: the game no longer replays either.
    other = copy.deepcopy(record)
    throw = next(e for e in other["events"][3:] if e["kind"] == "throw")
    throw["payload"] = "66" if throw["payload"] != "66" else "11"
    found = check_record(other)
    assert not found.ok and found.wrong and "the log says" in found.wrong[0]

    wrong_secret = dict(record, secret="00" * 32)
    assert "does not hash to the commitment" in check_record(wrong_secret).summary

    assert not check_record({"format": "something else"}).ok
    assert "cannot be read" in check_record(dict(record, events=[{"version": 1}])).summary


def test_dice_loaded_for_tests_are_not_committed(sqlite_url: str) -> None:
    from parlour.core.dice import Dice

    with serving(sqlite_url, dice=Dice(seed=3)) as client:
        table = new_table(client, "backgammon", opponent="local")
        assert table.game()["dice"] is None
        record = client.get(f"/api/games/{table.id}/dice").json()
        assert "not committed" in check_record(record).summary


@pytest.fixture
def live_server(tmp_path: Path) -> Iterator[str]:
    """The app on a real port, for `parlour verify` to fetch from."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    app = create_app(f"sqlite:///{tmp_path / 'live.db'}", workers=1)
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="error"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    for _ in range(200):
        if server.started:
            break
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(10)


def test_parlour_verify_checks_a_file_and_a_game_address(
    live_server: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import httpx

    from tests.server.conftest import Table

    with httpx.Client(base_url=live_server) as client:
        table, _, record = _played_match(client)
        assert isinstance(table, Table)
    saved = tmp_path / "dice.json"
    saved.write_text(json.dumps(record))
    assert main(["verify", str(saved)]) == 0
    assert "dice verified: all" in capsys.readouterr().out
    assert main(["verify", f"{live_server}/#game={table.id}"]) == 0
    assert "dice verified" in capsys.readouterr().out

    throw = next(e for e in record["events"][3:] if e["kind"] == "throw")
    throw["payload"] = "66" if throw["payload"] != "66" else "11"
    saved.write_text(json.dumps(record))
    assert main(["verify", str(saved)]) == 1
    assert "dice NOT verified" in capsys.readouterr().out
    assert main(["verify", str(tmp_path / "missing.json")]) == 1
    assert "cannot read" in capsys.readouterr().err
    assert main(["verify", "http://127.0.0.1:1/nothing-here"]) == 1
