"""Helpers for tests that run a real server process on loopback."""

from __future__ import annotations

import socket
import subprocess
import time

import httpx


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
