"""Helpers for tests that run a real server process on loopback."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing is listening on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def wait_until_serving(process: subprocess.Popen[bytes], base: str, timeout: float) -> bool:
    """Wait until the server at ``base`` answers its catalogue; False if the process
    ended or ``timeout`` seconds passed first."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            if httpx.get(f"{base}/api/catalogue", timeout=2).status_code == 200:
                return True
        except httpx.HTTPError:
            pass
        if process.poll() is not None or time.monotonic() > deadline:
            return False
        time.sleep(0.1)


@contextmanager
def server(
    db_url: str, log: Path, *options: str, env: dict[str, str] | None = None
) -> Iterator[tuple[subprocess.Popen[bytes], str]]:
    """A real ``parlour serve`` process on ``db_url`` (with the race game and the
    "slow" level, see tests/server/serve_race.py), with ``options`` and ``env``,
    writing to ``log``: yields the process and its base URL; stopped afterwards, its
    workers too."""
    port = free_port()
    with log.open("ab") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "tests.server.serve_race", str(port), db_url, *options],
            cwd=ROOT,
            stdout=out,
            stderr=subprocess.STDOUT,
            env={**os.environ, **(env or {})},
            start_new_session=True,  # its own process group: the server and its workers
        )
    base = f"http://127.0.0.1:{port}"
    try:
        if not wait_until_serving(process, base, timeout=60):
            raise AssertionError(f"the server did not start:\n{log.read_text()}")
        yield process, base
    finally:
        if process.poll() is None:
            process.terminate()
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)  # any worker left behind
