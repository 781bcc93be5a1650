"""Helpers to drive the app headless with Textual's pilot."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from textual.pilot import Pilot
from textual.widgets import Static

from parlour.core.registry import get_game
from parlour.tui.app import ParlourApp
from parlour.tui.session import Options, Session

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
SIZE = (112, 40)


def make_app(
    game: str, start: str | None = None, directory: Path | None = None, **options: Any
) -> ParlourApp:
    session = Session(get_game(game), Options(**options), start=start)
    return ParlourApp(session, directory=directory)


def drive(app: ParlourApp, script: Callable[[Pilot[None]], Awaitable[None]]) -> None:
    """Run ``app`` headless and play ``script`` against it."""

    async def main() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            await script(pilot)

    asyncio.run(main())


async def settle(pilot: Pilot[None]) -> None:
    """Wait until the computer (or a hint) has answered and the screen is drawn."""
    app = pilot.app
    for _ in range(400):
        await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.pause()
        if not getattr(app, "thinking", False):
            return
    raise AssertionError("the computer did not answer")


async def type_line(pilot: Pilot[None], text: str) -> None:
    """Type ``text`` in the move line and press Enter."""
    await pilot.press(*text, "enter")
    await pilot.pause()


def status(app: ParlourApp) -> str:
    return str(app.query_one("#status", Static).render())


def screenshot(app: ParlourApp, name: str) -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return Path(app.save_screenshot(f"{name}.svg", str(ARTIFACTS)))
