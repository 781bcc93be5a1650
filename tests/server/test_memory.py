"""Memory that does not grow with history: a game nobody asks for leaves the
server's memory and comes back from the store, exactly, when asked for; a watched
game stays; a restarted server serves before it has resumed every unfinished game."""

from __future__ import annotations

import asyncio
import time

from parlour.core.dice import Dice
from parlour.server.hall import Hall
from parlour.server.storage import Store


def test_an_idle_game_leaves_memory_and_comes_back_exactly(sqlite_url: str) -> None:
    async def scenario() -> None:
        store = Store(sqlite_url)
        hall = Hall(store, dice=Dice(seed=4), forget_after=60)
        await hall.start()
        try:
            idle, tokens, _ = await hall.create("race", "local", 0, None)
            await hall.act(idle.id, tokens[0]["token"], "move", idle.version, "+1")
            watched, _, _ = await hall.create("race", "local", 0, None)
            watched.watchers.add(asyncio.Queue())
            busy, _, _ = await hall.create("race", "local", 0, None)
            fresh, _, _ = await hall.create("race", "local", 0, None)
            before = (idle.version, idle.progress.state.to_text(), idle.progress.record)

            now = time.monotonic()
            fresh.last_used = now + 120  # asked for a moment ago
            async with busy.lock:  # a change under way
                gone = hall.forget_idle(now + 61)
            assert gone == [idle.id]
            assert set(hall.tables) == {watched.id, busy.id, fresh.id}
            assert hall.forget_idle(now + 30) == []  # not idle long enough yet

            back = await hall.get(idle.id)
            assert back is not idle  # read from the store again
            assert (back.version, back.progress.state.to_text(), back.progress.record) == before
            await hall.act(idle.id, tokens[1]["token"], "move", back.version, "+1")
            assert back.version > before[0]  # the game played on from where it was
        finally:
            await hall.stop()
            store.close()

    asyncio.run(scenario())


def test_a_restarted_server_serves_before_every_game_is_resumed(sqlite_url: str) -> None:
    async def scenario() -> None:
        store = Store(sqlite_url)
        first = Hall(store, dice=Dice(seed=4))
        await first.start()
        made = [(await first.create("race", "local", 0, None))[0].id for _ in range(40)]
        await first.stop()

        again = Hall(store, dice=Dice(seed=4))
        await again.start()
        try:
            # start() has returned: nothing waited for the games to be resumed ...
            assert len(again.tables) < len(made)
            # ... and one is served on demand all the same.
            asked = await again.get(made[-1])
            assert asked.id == made[-1] and asked.version >= 0
            for _ in range(200):  # the rest follow in the background
                if set(made) <= set(again.tables):
                    break
                await asyncio.sleep(0.01)
            assert set(made) <= set(again.tables)
        finally:
            await again.stop()
            store.close()

    asyncio.run(scenario())
