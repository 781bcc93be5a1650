"""The deployment of docs/deploy.md, run for real: Debian's nginx with the very site
file deploy/parlour-nginx.conf (its ports and certificate swapped for the test's), in
front of a fleet of two ``parlour serve --behind-proxy --redis`` processes on one
PostgreSQL database. Games are played through it over TLS, with a watcher on a
WebSocket through it; the moves land on both processes; one process is killed and
the games go on through the other. nginx missing is a failure, never a skip."""

from __future__ import annotations

import json
import os
import shutil
import signal
import ssl
import subprocess
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect
from websockets.typing import Origin

from tests.server.live import ROOT, free_port, server

REDIS = "redis://127.0.0.1:6379/0"
SITE = ROOT / "deploy" / "parlour-nginx.conf"

pytestmark = pytest.mark.slow


def certificate(folder: Path) -> tuple[Path, Path]:
    """A self-signed certificate for 127.0.0.1 (the test's own CA: itself)."""
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(
        [
            *("openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1"),
            *("-keyout", str(key), "-out", str(cert), "-subj", "/CN=127.0.0.1"),
            *("-addext", "subjectAltName=IP:127.0.0.1"),
        ],
        check=True,
        capture_output=True,
    )
    return cert, key


def site_for_test(upstreams: list[int], http: int, https: int, cert: Path, key: Path) -> str:
    """The shipped site file with the test's ports and certificate: every other line
    as shipped."""
    site = SITE.read_text()
    swaps = {
        "server 127.0.0.1:8001 ": f"server 127.0.0.1:{upstreams[0]} ",
        "server 127.0.0.1:8002 ": f"server 127.0.0.1:{upstreams[1]} ",
        "listen 80;": f"listen 127.0.0.1:{http};",
        "listen 443 ssl http2;": f"listen 127.0.0.1:{https} ssl http2;",
        "/etc/ssl/parlour/fullchain.pem": str(cert),
        "/etc/ssl/parlour/privkey.pem": str(key),
    }
    for shipped, ours in swaps.items():
        assert shipped in site, f"the site file no longer has {shipped!r}"
        site = site.replace(shipped, ours)
    return site


@contextmanager
def nginx(folder: Path, site: str) -> Iterator[None]:
    """nginx in the foreground with ``site`` in its http block, everything it writes
    kept in ``folder``."""
    binary = shutil.which("nginx") or "/usr/sbin/nginx"
    assert Path(binary).exists(), "nginx is not installed (scripts/setup.sh test installs it)"
    (folder / "parlour.conf").write_text(site)
    temp = {name: folder / name for name in ("body", "proxy", "fastcgi", "uwsgi", "scgi")}
    for path in temp.values():
        path.mkdir()
    user = "user root;" if os.geteuid() == 0 else ""  # as root, workers would be nobody
    (folder / "nginx.conf").write_text(
        f"""{user}
daemon off;
worker_processes 1;
pid {folder}/nginx.pid;
error_log {folder}/error.log warn;
events {{ worker_connections 512; }}
http {{
    access_log {folder}/access.log;
    client_body_temp_path {temp["body"]};
    proxy_temp_path {temp["proxy"]};
    fastcgi_temp_path {temp["fastcgi"]};
    uwsgi_temp_path {temp["uwsgi"]};
    scgi_temp_path {temp["scgi"]};
    include {folder}/parlour.conf;
}}
"""
    )
    process = subprocess.Popen(
        [binary, "-p", str(folder), "-c", str(folder / "nginx.conf")],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    try:
        time.sleep(0.5)
        if process.poll() is not None:
            output = process.stdout.read().decode() if process.stdout else ""
            raise AssertionError(f"nginx did not start: {output}")
        yield
    finally:
        process.send_signal(signal.SIGQUIT)
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def test_a_fleet_behind_nginx_plays_over_tls_and_survives_losing_a_process(
    postgres_url: str, tmp_path: Path
) -> None:
    cert, key = certificate(tmp_path)
    logs = [tmp_path / "first.log", tmp_path / "second.log"]
    with ExitStack() as stack:
        processes = []
        ports = []
        for log in logs:
            process, base = stack.enter_context(
                server(postgres_url, log, "--redis", REDIS, "--behind-proxy")
            )
            processes.append(process)
            ports.append(int(base.rsplit(":", 1)[1]))
        http_port, https_port = free_port(), free_port()
        stack.enter_context(nginx(tmp_path, site_for_test(ports, http_port, https_port, cert, key)))
        origin = f"https://127.0.0.1:{https_port}"
        tls = ssl.create_default_context(cafile=str(cert))
        client = stack.enter_context(
            httpx.Client(base_url=origin, verify=tls, headers={"Origin": origin})
        )
        # Plain HTTP is sent to HTTPS.
        plain = httpx.get(f"http://127.0.0.1:{http_port}/", follow_redirects=False)
        assert plain.status_code == 301 and plain.headers["location"].startswith("https://")
        # The app's own headers come through, with the proxy's HSTS.
        home = client.get("/")
        assert home.status_code == 200
        assert "frame-ancestors 'none'" in home.headers["content-security-policy"]
        assert home.headers["strict-transport-security"].startswith("max-age=")
        assert client.get("/ready").json() == {"status": "ready"}

        created = client.post("/api/games", json={"game": "chess", "opponent": "local"})
        assert created.status_code == 201, created.text
        game: dict[str, Any] = created.json()["game"]
        tokens = {seat["side"]: seat["token"] for seat in created.json()["seats"]}
        live = f"wss://127.0.0.1:{https_port}/api/games/{game['id']}/live"
        seen: list[int] = []
        watcher = stack.enter_context(watching(live, tls, origin, since=0))
        while game["version"] < 24:
            if game["version"] == 12 and processes[0].poll() is None:
                # One process dies; nginx sends the rest to the other.
                os.killpg(processes[0].pid, signal.SIGKILL)
                processes[0].wait()
            game = play(client, game, tokens)
        deadline = time.monotonic() + 20
        while (not seen or seen[-1] < 24) and time.monotonic() < deadline:
            try:
                message = json.loads(watcher.recv(timeout=max(0.1, deadline - time.monotonic())))
            except ConnectionClosed:
                # Its process died: the page reconnects, saying what it has seen.
                since = seen[-1] if seen else 0
                watcher = stack.enter_context(watching(live, tls, origin, since=since))
                continue
            seen.extend(event["version"] for event in message["events"])
        assert seen == list(range(1, 25))
        stored = client.get(f"/api/games/{game['id']}").json()
        assert stored["moves"] == game["moves"] and len(game["moves"]) == 24
    # Both processes took moves before the kill.
    for log in logs:
        assert '/actions HTTP/1.1" 200' in log.read_text(), log.read_text()[-2000:]
    assert "Traceback" not in logs[1].read_text()


@contextmanager
def watching(live: str, tls: ssl.SSLContext, origin: str, since: int) -> Iterator[ClientConnection]:
    """A watcher through nginx, welcomed, having seen ``since``."""
    with connect(live, ssl=tls, origin=Origin(origin)) as watcher:
        watcher.send(json.dumps({"type": "hello", "since": since}))
        assert json.loads(watcher.recv(timeout=10))["type"] == "welcome"
        yield watcher


def play(client: httpx.Client, game: dict[str, Any], tokens: dict[int, str]) -> dict[str, Any]:
    """The side on turn plays its first legal move; a process that died under the
    request is retried once by the player (as the page does on a network error)."""
    for _ in range(3):
        response = client.post(
            f"/api/games/{game['id']}/actions",
            json={"action": "move", "version": game["version"], "move": game["legal_moves"][0]},
            headers={"Authorization": f"Bearer {tokens[game['turn']]}"},
        )
        if response.status_code == 200:
            moved: dict[str, Any] = response.json()
            return moved
        assert response.status_code in (502, 409), response.text
        game = client.get(f"/api/games/{game['id']}").json()
    raise AssertionError(f"the move at version {game['version']} was never taken")
