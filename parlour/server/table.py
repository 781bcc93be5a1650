"""One game being served: a *table*, with its seats, the log of its events, its
progress rebuilt from that log, and the connections watching it.

A table changes only through the hall (:mod:`parlour.server.hall`), under its lock;
what it sends its watchers is written by :mod:`parlour.server.wire`.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from parlour.core import registry
from parlour.core.protocol import Game, Side, State
from parlour.server.clocks import clock_for
from parlour.server.errors import BadRequest, NotAuthorized
from parlour.server.play import Progress, apply
from parlour.server.seats import token_matches
from parlour.server.storage import EventRow

#: The most messages waiting for one WebSocket before it is dropped.
MAX_BACKLOG = 500
#: A look-back keeps the game as it stood at every this many versions it replays
#: through, so that the next replays at most this many events from the nearest.
SNAPSHOT_EVERY = 64


@dataclass(slots=True)
class Seat:
    """One side's place at the table: a person (holding a token, or invited by a
    code not yet exchanged) or the computer at a level."""

    side: Side
    player: str  # "human" or "computer"
    token_hash: str | None = None
    level: str | None = None
    invite_hash: str | None = None

    @property
    def taken(self) -> bool:
        return self.player == "computer" or self.token_hash is not None


class Table:
    """One game being served: its event log, its progress, its seats and watchers."""

    def __init__(
        self,
        game_id: str,
        game: Game[Any],
        seats: list[Seat],
        events: Sequence[EventRow],
        created: str,
        options: dict[str, Any],
    ) -> None:
        self.id = game_id
        series = registry.get_face(game).series(options.get("rules"))
        self.series = series
        self.game = series.game  # with the optional rules the game was created with
        self.seats = seats
        self.created = created
        self.options = options
        self.events: list[EventRow] = []
        self.progress = Progress(self.first_position(), series, clock=clock_for(options))
        self.lock = asyncio.Lock()
        self.watchers: set[asyncio.Queue[str | None]] = set()
        self.thinking: asyncio.Task[None] | None = None
        #: Set while a side's clock runs: it flags the side when its time is out.
        self.clock_timer: asyncio.TimerHandle | None = None
        #: The game as the wire last wrote it, with the version it was written at.
        self.json_cache: tuple[int, dict[str, Any]] | None = None
        #: The game as it stood at versions looked back at (see :meth:`progress_at`).
        self._snapshots: dict[int, Progress] = {}
        #: When the game was last asked for (``time.monotonic()``): an idle game
        #: leaves the server's memory (see :meth:`Hall.forget_idle`).
        self.last_used = time.monotonic()
        for event in events:
            apply(self.progress, event)
            self.events.append(event)

    def first_position(self) -> State[Any]:
        """Where the game began: the series' first position, or the position set up
        when the game was created (an imported game from a set-up position)."""
        start = self.options.get("start")
        if start is not None:
            return self.game.state_from_text(start)
        return self.series.first()

    @property
    def version(self) -> int:
        return self.progress.version

    @property
    def status(self) -> str:
        """The game's status, "over" once the game in play is over (a match waits
        there for a player to start its next game), else "playing"."""
        return "over" if self.progress.state.is_over() else "playing"

    @property
    def rules(self) -> dict[str, Any]:
        """The optional rules the game was created with (none: {})."""
        rules: dict[str, Any] = self.options.get("rules") or {}
        return rules

    @property
    def player_names(self) -> tuple[str, str]:
        """The players' names as a game file writes them: a person by the side's
        name, the computer by its level ("Parlour-5"); an imported game's players
        by the names in its file."""
        named = self.options.get("names")
        if isinstance(named, list) and len(named) == 2:
            return str(named[0]), str(named[1])
        first, second = (
            self.game.side_name(seat.side) if seat.player == "human" else f"Parlour-{seat.level}"
            for seat in self.seats
        )
        return first, second

    def side_of(self, token: str) -> Side:
        """The seat that ``token`` holds; NotAuthorized when none."""
        for seat in self.seats:
            if token_matches(token, seat.token_hash):
                return seat.side
        raise NotAuthorized("bad-token", "this token holds no seat in this game")

    def events_since(self, version: int) -> list[EventRow]:
        return self.events[version:]

    def progress_at(self, version: int) -> Progress:
        """The game as it stood at ``version`` (0 to the current one), for a player
        looking back over it: replayed from the log, like a restart, from the
        nearest position kept by an earlier look-back (a few dozen events at most,
        once the game has been looked back over)."""
        if not 0 <= version <= self.version:
            raise BadRequest(
                "bad-request",
                f"version must be from 0 to the game's version {self.version}",
                version=self.version,
            )
        start = version - version % SNAPSHOT_EVERY
        while start and start not in self._snapshots:
            start -= SNAPSHOT_EVERY
        if start:
            progress = self._snapshots[start].copy()
        else:
            progress = Progress(self.first_position(), self.series)
        for event in self.events[start:version]:
            apply(progress, event)
            if event.version % SNAPSHOT_EVERY == 0:
                self._snapshots[event.version] = progress.copy()
        return progress

    def publish(self, message: str) -> None:
        """Send ``message`` to every watcher. One who has fallen :data:`MAX_BACKLOG`
        messages behind (a connection that stopped reading) is dropped rather than
        buffered for ever: None tells its sender to close, and the client reconnects
        with the last version it has."""
        for queue in list(self.watchers):
            if queue.qsize() >= MAX_BACKLOG:
                self.watchers.discard(queue)
                queue.put_nowait(None)
            else:
                queue.put_nowait(message)
