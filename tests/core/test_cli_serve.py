"""``parlour serve``'s operator flags reach the server: limits, hosts, the proxy."""

from __future__ import annotations

from typing import Any

import pytest

import parlour.server.app
from parlour import cli
from parlour.server.limits import Limits


@pytest.fixture
def served(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    calls: list[dict[str, Any]] = []

    def fake_serve(*args: Any, **kwargs: Any) -> int:
        calls.append({"args": args, **kwargs})
        return 0

    monkeypatch.setattr(parlour.server.app, "serve", fake_serve)
    return calls


def test_by_default_the_server_s_own_limits_and_any_host(served: list[dict[str, Any]]) -> None:
    assert cli.main(["serve"]) == 0
    (call,) = served
    assert call["limits"] == Limits()
    assert call["allowed_hosts"] == ("*",)
    assert call["behind_proxy"] is False
    assert call["max_header_bytes"] == parlour.server.app.MAX_HEADER_BYTES
    assert call["idle_seconds"] == parlour.server.app.IDLE_SECONDS


def test_every_flag_reaches_the_server(served: list[dict[str, Any]]) -> None:
    arguments = [
        "serve",
        "--allowed-host",
        "parlour.example.org",
        "--allowed-host",
        "*.example.net",
        "--behind-proxy",
        "--trusted-proxies",
        "10.0.0.1,10.0.0.2",
        "--max-header-bytes",
        "8192",
        "--idle-timeout",
        "9",
        "--requests-per-minute",
        "100",
        "--games-per-minute",
        "0",
        "--hints-per-minute",
        "7",
        "--lookbacks-per-minute",
        "8",
        "--exports-per-minute",
        "9",
    ]
    assert cli.main(arguments) == 0
    (call,) = served
    assert call["limits"] == Limits(100, 0, 7, 8, 9)
    assert call["allowed_hosts"] == ["parlour.example.org", "*.example.net"]
    assert call["behind_proxy"] is True
    assert call["trusted_proxies"] == "10.0.0.1,10.0.0.2"
    assert (call["max_header_bytes"], call["idle_seconds"]) == (8192, 9)


def test_a_negative_limit_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        cli.main(["serve", "--hints-per-minute", "-1"])
    assert stopped.value.code == cli.EXIT_USAGE
    assert "argument --hints-per-minute: -1 is not a count" in capsys.readouterr().err
