"""Browser tests: a real ``parlour serve`` on a free port over a fresh SQLite file,
and Debian's Chromium driven headless through Playwright.

Chromium must be installed (``apt-get install -y chromium``); without it these
tests fail, they are not skipped. Playwright's own browser download is never used.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import fields
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, sync_playwright

from parlour.server.limits import Limits
from tests.server.live import free_port, wait_until_serving

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
#: Playwright waits at most this long (ms) for anything: a wrong locator fails fast.
TIMEOUT = 8000


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The base URL of a real server process (its log goes to test-artifacts)."""
    port = free_port()
    db = tmp_path_factory.mktemp("web") / "games.db"
    ARTIFACTS.mkdir(exist_ok=True)
    log = (ARTIFACTS / "server.log").open("w")
    # Every page of the suite comes from one address, standing for many players:
    # the per-client limits (tested in tests/server) are lifted, or a fast machine
    # makes games quicker than one person may (30 a minute) and a test fails by 429.
    unlimited = [f"--{kind.name.replace('_', '-')}=0" for kind in fields(Limits)]
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "parlour",
            "serve",
            "--port",
            str(port),
            "--db",
            f"sqlite:///{db}",
            *unlimited,
        ],
        cwd=ROOT,
        stdout=log,
        stderr=subprocess.STDOUT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    base = f"http://127.0.0.1:{port}"
    try:
        if not wait_until_serving(process, base, timeout=30):
            raise RuntimeError(f"the server did not start; see {ARTIFACTS / 'server.log'}")
        yield base
    finally:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
        log.close()


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """Chromium for one test module. Playwright's sync API runs an event loop in
    this thread while it is open: closing it after each module leaves no loop
    behind for tests that start their own (asyncio.run)."""
    if not Path(CHROMIUM).exists():
        pytest.fail(f"Chromium is missing at {CHROMIUM}: apt-get install -y chromium")
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True
        )
        yield launched
        launched.close()


def new_page(browser: Browser, base: str, width: int = 1200, height: int = 800) -> Page:
    context: BrowserContext = browser.new_context(
        base_url=base, viewport={"width": width, "height": height}
    )
    context.set_default_timeout(TIMEOUT)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.js_errors = errors  # type: ignore[attr-defined]
    return page


@pytest.fixture
def page(browser: Browser, server: str) -> Iterator[Page]:
    made = new_page(browser, server)
    yield made
    assert made.js_errors == []  # type: ignore[attr-defined]
    made.context.close()


@pytest.fixture
def two_pages(browser: Browser, server: str) -> Iterator[tuple[Page, Page]]:
    """Two browsers of two people: separate contexts, nothing shared but the server."""
    first, second = new_page(browser, server), new_page(browser, server, 420, 860)
    yield first, second
    for made in (first, second):
        assert made.js_errors == []  # type: ignore[attr-defined]
        made.context.close()


@pytest.fixture
def phone(browser: Browser, server: str) -> Iterator[Page]:
    """A phone: a narrow touch screen (390 x 844 CSS pixels, three device pixels
    each), tapped rather than clicked."""
    context = browser.new_context(
        base_url=server,
        viewport={"width": 390, "height": 844},
        device_scale_factor=3,
        is_mobile=True,
        has_touch=True,
    )
    context.set_default_timeout(TIMEOUT)
    made = context.new_page()
    errors: list[str] = []
    made.on("pageerror", lambda error: errors.append(str(error)))
    yield made
    assert errors == []
    context.close()


@pytest.fixture
def checked(browser: Browser, server: str) -> Iterator[Page]:
    """A page whose context lets the test add axe's script: the server's
    Content-Security-Policy rightly refuses inline scripts, so the check bypasses it."""
    context = browser.new_context(
        base_url=server, viewport={"width": 1200, "height": 800}, bypass_csp=True
    )
    context.set_default_timeout(TIMEOUT)
    yield context.new_page()
    context.close()
