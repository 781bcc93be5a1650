"""Clocks, kept by the server from the times of a game's events.

A game created with a time control (``options["clock"]``) gives each side ``base``
seconds; each move adds ``increment`` (Fischer's clock, as lichess plays chess and
checkers), and in backgammon each action may take ``delay`` seconds before the side's
reserve runs (the delay clock of online backgammon). The clocks are not stored: they
follow from the stored time of each event, charged to the side that was on turn
between it and the one before, so a restarted server, and every process of a fleet,
has the same clocks to the microsecond. The server's time is what counts: a move
counts when the server stores it, never by the client's word.

As on lichess, a side's clock starts once both sides have moved once (a friend who
has not yet joined, or a player reading the position, loses nothing). A side whose
time is out when it is to act loses on time (the game's own rule for it: in chess a
draw when the opponent could not mate), recorded as a ``time`` event.

>>> import datetime as dt
>>> control = TimeControl.from_json({"base": 60, "increment": 2})
>>> control.label
'1+2'
>>> clock = Clock(control)
>>> start = dt.datetime(2026, 1, 1, tzinfo=dt.UTC)
>>> clock.moved(Side.FIRST, start)
>>> clock.moved(Side.SECOND, start + dt.timedelta(seconds=5))
>>> clock.charge(Side.FIRST, start + dt.timedelta(seconds=15))
>>> clock.remaining
[50.0, 60.0]
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

from parlour.core.protocol import Side

#: The longest time control offered (seconds each), and increment or delay.
MOST_BASE = 3 * 3600
MOST_STEP = 180
#: A computer player thinks for this share of its time left on each move (as
#: engines manage a clock: about thirty moves still to come), plus most of its
#: increment and all of its delay.
SHARE_OF_TIME_LEFT = 1 / 30
SHARE_OF_INCREMENT = 0.8
#: Seconds a computer's move takes besides thinking: the worker's start, storing it.
MOVE_OVERHEAD = 0.15
#: The least a computer player thinks, however short its time.
LEAST_THOUGHT = 0.05


@dataclass(frozen=True, slots=True)
class TimeControl:
    """Seconds each side starts with; added after each of its moves; and free at the
    start of each action before the reserve runs."""

    base: float
    increment: float = 0.0
    delay: float = 0.0

    @classmethod
    def from_json(cls, data: Any) -> TimeControl:
        """The time control a request or a game's options give; ValueError naming
        what is wrong."""
        if not isinstance(data, dict):
            raise ValueError('a clock is {"base": seconds, "increment": seconds, "delay": seconds}')
        unknown = set(data) - {"base", "increment", "delay"}
        if unknown:
            raise ValueError(f"a clock has no {', '.join(sorted(unknown))}")
        values = {}
        for name, default, most in (
            ("base", None, MOST_BASE),
            ("increment", 0, MOST_STEP),
            ("delay", 0, MOST_STEP),
        ):
            value = data.get(name, default)
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise ValueError(f"the clock's {name} must be a number of seconds")
            if not 0 <= value <= most or (name == "base" and value < 1):
                low = 1 if name == "base" else 0
                raise ValueError(f"the clock's {name} must be from {low} to {most} seconds")
            values[name] = float(value)
        return cls(values["base"], values["increment"], values["delay"])

    def to_json(self) -> dict[str, float]:
        return {"base": self.base, "increment": self.increment, "delay": self.delay}

    @property
    def label(self) -> str:
        """As players name it: minutes + increment ("5+3"), and a delay."""
        minutes = self.base / 60
        shown = f"{minutes:g}" if minutes >= 1 else f"{self.base:g}s"
        text = f"{shown}+{self.increment:g}"
        return f"{text}, {self.delay:g} s delay" if self.delay else text


@dataclass(slots=True)
class Clock:
    """Both sides' time as of the last event (``since``)."""

    control: TimeControl
    remaining: list[float] = field(default_factory=list)
    since: dt.datetime | None = None
    #: The moves each side has made: the clocks run once both have made one.
    moves: list[int] = field(default_factory=lambda: [0, 0])

    def __post_init__(self) -> None:
        if not self.remaining:
            self.remaining = [self.control.base, self.control.base]

    def copy(self) -> Clock:
        return Clock(self.control, list(self.remaining), self.since, list(self.moves))

    @property
    def started(self) -> bool:
        return all(self.moves)

    def spent(self, at: dt.datetime) -> float:
        """The time the side on turn has used of its reserve from ``since`` to ``at``
        (nothing before the clocks start; the delay first)."""
        if not self.started or self.since is None:
            return 0.0
        return max(0.0, (at - self.since).total_seconds() - self.control.delay)

    def charge(self, side: Side | None, at: dt.datetime) -> None:
        """An event at ``at``: ``side`` (on turn until then; None: nobody, the dice)
        is charged its time since the last event."""
        if side is not None:
            self.remaining[int(side)] -= self.spent(at)
        self.since = at

    def moved(self, side: Side, at: dt.datetime) -> None:
        """``side`` made a move at ``at`` (charged first): its increment."""
        self.charge(side, at)
        if self.started:
            self.remaining[int(side)] += self.control.increment
        self.moves[int(side)] += 1

    def left(self, side: Side, at: dt.datetime) -> float:
        """What ``side``, on turn since the last event, has left at ``at``."""
        return self.remaining[int(side)] - self.spent(at)

    def thinking_time(self, side: Side, at: dt.datetime) -> float | None:
        """How long a computer player at ``side``, on turn, may think at ``at``: a
        share of its time left and most of its increment, never more than a third
        of what is left (the delay, which costs nothing, on top); None before the
        clocks start, when its move costs nothing.

        >>> clock = Clock(TimeControl(60, increment=2), moves=[1, 1])
        >>> now = dt.datetime(2026, 1, 1, tzinfo=dt.UTC)
        >>> clock.since = now
        >>> round(clock.thinking_time(Side.FIRST, now), 2)
        3.45
        >>> Clock(TimeControl(60)).thinking_time(Side.FIRST, now) is None
        True
        """
        if not self.started:
            return None
        left = max(0.0, self.left(side, at))
        share = left * SHARE_OF_TIME_LEFT + self.control.increment * SHARE_OF_INCREMENT
        thought = min(share, left / 3) - MOVE_OVERHEAD
        return max(LEAST_THOUGHT, thought) + self.control.delay

    def to_json(self, running: Side | None) -> dict[str, Any]:
        """The clocks as the wire sends them: each side's time in milliseconds as of
        ``since``, and whose is running (its client counts down from ``since``)."""
        return {
            **self.control.to_json(),
            "label": self.control.label,
            "remaining": [round(max(0.0, left) * 1000) for left in self.remaining],
            "since": None if self.since is None else self.since.timestamp(),
            "running": None if running is None or not self.started else int(running),
        }


def clock_for(options: dict[str, Any]) -> Clock | None:
    """The clock of a game created with ``options`` (None without a time control)."""
    data = options.get("clock")
    return None if data is None else Clock(TimeControl.from_json(data))
