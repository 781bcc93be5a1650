"""What a player sees at a glance in a contact position, as numbers for the network.

A network that reads only where the checkers stand must discover for itself that a
blot six pips in front of an enemy checker is in danger, or that a checker behind a
five-point prime is trapped. GNU Backgammon's networks are given such judgements
ready-made, as hand-made inputs beside the raw board. These are Parlour's own,
computed for both sides of many positions at once with numpy:

* **shots**: the share of the 36 throws on which the side could hit at least one of
  the other side's blots (as if it were on roll; a side with a checker on the bar
  is counted as hitting only with a checker from the bar);
* **back escapes**: the share of throws the side's rearmost checker could play in
  full by itself, every number of the throw landing on a point the other side has
  not made (only the 12 points ahead are looked at);
* **containment**: how well the other side's points hold the side's checkers in:
  one minus the fewest escapes from any point of the other side's home and outer
  boards (points 15 to 24), and that squared;
* **pips to break contact**: how far the side's checkers behind the other side's
  rearmost checker have to travel to pass it (out of 100);
* **entry**: the chance that a checker on the bar fails to enter, from the points
  made in the other side's home board;
* **contact**: whether any checker still has to pass an enemy one (the same for both
  sides).

Positions are also sorted into three kinds, as GNU Backgammon sorts them, so that
each kind may have a network of its own (:func:`kinds_of_counts`): a **race** (no
contact left), a **crashed** position (contact, and one side with few checkers left
at work: its board has collapsed, or it is bearing off against a checker held back),
and the rest, **contact**.

>>> from parlour.backgammon.board import Position
>>> side = features([Position.start()])[0]
>>> [round(float(x), 3) for x in side[:FEATURES_PER_SIDE]]   # the player on roll
[0.0, 0.611, 0.417, 0.174, 1.52, 0.028]
>>> float(side[-1])   # contact
1.0
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import product

import numpy as np
import numpy.typing as npt

from parlour.backgammon.board import Position

Array = npt.NDArray[np.float64]

FEATURES_PER_SIDE = 6
#: Six for each side, then contact.
FEATURES = 2 * FEATURES_PER_SIDE + 1

#: The kinds of position (:func:`kinds_of_counts`).
CONTACT, CRASHED, RACE = range(3)
#: A side with no more checkers than this at work has crashed: checkers borne off do
#: not count, nor those piled on its one-point (two or more) and on its two-point
#: beyond the first.
CRASHED_CHECKERS = 6

#: The 36 throws, each ordered pair once.
_THROWS = list(product(range(1, 7), repeat=2))


def _escapes(window: int) -> int:
    """The throws (of 36) a checker could play in full by itself: every number of
    the throw, landing and stopping only on open points. Bit ``j`` of ``window``
    says the point ``12 - j`` pips ahead is blocked (beyond 12 counts as open)."""
    blocked = {12 - j for j in range(12) if window >> j & 1}
    escapes = 0
    whole: list[tuple[int, tuple[int, ...]]]
    for first, second in _THROWS:
        if first != second:
            whole = [(first + second, (first,)), (first + second, (second,))]
        else:
            whole = [(4 * first, (first, 2 * first, 3 * first))]
        escapes += any(
            pips not in blocked and not blocked.intersection(stops) for pips, stops in whole
        )
    return escapes


#: Escapes for every pattern of blocked points in the 12 in front of a checker.
_ESCAPES = np.array([_escapes(window) for window in range(1 << 12)], dtype=np.float64)

# Bitboards: bit p - 1 of a side's board stands for its point p (the bar is point
# 25). Shifting a board left by d lines each point up with the one d pips ahead of
# it, so one AND over the whole board asks a question of every checker at once.
#: The bits of the points 1-24 (not the bar).
_POINTS = (1 << 24) - 1
#: The non-doubles (each stands for two of the 36 throws) and the doubles.
_HIGH, _LOW = np.array([(a, b) for a in range(2, 7) for b in range(1, a)]).T
_DOUBLES = np.arange(1, 7)
_SHIFTS = np.arange(25, dtype=np.int64)
_BIT = np.int64(1) << _SHIFTS


#: Positions as rows of 50 checker counts (the layout of :func:`packed`): how the
#: engine's look ahead carries the many positions it meets, without building a
#: :class:`Position` for each.
Counts = npt.NDArray[np.uint8]


def packed(positions: Sequence[Position]) -> bytes:
    """The checker counts of positions, 50 bytes each: the player on roll's 25, then
    the other side's (one byte a count: far quicker to read into an array than
    tuples of ints)."""
    return b"".join([bytes(p.mover) + bytes(p.opponent) for p in positions])


def counts_of(positions: Sequence[Position], *, swapped: bool = False) -> Counts:
    """:func:`packed` counts as rows of 50; ``swapped``: each position as the other
    side sees it (the opponent's counts first), as after a play the turn passes."""
    if swapped:
        raw = b"".join([bytes(p.opponent) + bytes(p.mover) for p in positions])
    else:
        raw = packed(positions)
    return np.frombuffer(raw, dtype=np.uint8).reshape(-1, 50)


def unpacked(raw: bytes) -> npt.NDArray[np.uint8]:
    """:func:`packed` counts as an array ``[position, side, point - 1]``."""
    return np.frombuffer(raw, dtype=np.uint8).reshape(-1, 2, 25)


def _rearmost(present: npt.NDArray[np.bool_]) -> npt.NDArray[np.intp]:
    """``present[n, side, i]``: whether ``side`` has a checker on point i+1 (index
    24 the bar). The index (point - 1) of each side's rearmost checker; 24 for a
    side with none left (one that has borne off)."""
    index: npt.NDArray[np.intp] = 24 - np.argmax(present[:, :, ::-1], axis=2)
    return index


def kinds_of_counts(counts: Counts) -> npt.NDArray[np.int8]:
    """The kind of each position (rows of 50 counts): :data:`RACE`,
    :data:`CRASHED` or :data:`CONTACT`.

    >>> from parlour.backgammon.board import Position
    >>> kinds_of_counts(counts_of([Position.start()])).tolist() == [CONTACT]
    True
    """
    sides = np.asarray(counts, dtype=np.int64).reshape(-1, 2, 25)
    # the point (1 to 25, the bar) of each side's rearmost checker, 0 with none
    present = sides > 0
    rearmost = np.where(present.any(axis=2), _rearmost(present) + 1, 0)
    # a checker on point p meets the other side's rearmost, on its point q, unless
    # it already stands past it: p + q > 25
    contact = rearmost[:, 0] + rearmost[:, 1] > 25
    ace, deuce = sides[:, :, 0], sides[:, :, 1]
    idle = np.where(ace >= 2, ace, 0) + np.maximum(deuce - 1, 0)
    at_work = sides.sum(axis=2) - idle
    crashed = (at_work <= CRASHED_CHECKERS).any(axis=1)
    kinds = np.full(len(sides), RACE, dtype=np.int8)
    kinds[contact] = np.where(crashed[contact], CRASHED, CONTACT)
    return kinds


def features(positions: Sequence[Position]) -> Array:
    """The features of each position, one row each: the player on roll's six, the
    other side's six, then contact."""
    return features_of_counts(unpacked(packed(positions)))


def features_of_counts(counts: npt.NDArray[np.uint8]) -> Array:
    """``counts[n, side, i]``: checkers of ``side`` (0 on roll, 1 not) on point
    i+1 in its own numbering, index 24 the bar."""
    n = len(counts)
    own = counts.astype(np.int64)
    # the other side's checkers on this side's points 1-24 (its points 24-1)
    other = own[:, ::-1, 23::-1]
    held = (own > 0) @ _BIT
    made = (other >= 2) @ _BIT[:24]
    blots = (other == 1) @ _BIT[:24]
    out = np.empty((n, 2, FEATURES_PER_SIDE))

    # shots: a checker of the side, a blot of the other side the throw's distance
    # ahead, and every stop on the way open; a checker on the bar must move first.
    # blot_ahead[..., d]: the points with a blot d pips ahead; open_ahead the same
    # for open points.
    on_bar = own[:, :, 24] > 0
    movers = np.where(on_bar, 1 << 24, held)[:, :, None]
    blot_ahead = blots[:, :, None] << _SHIFTS
    open_ahead = (~made & _POINTS)[:, :, None] << _SHIFTS
    by_one_die = blot_ahead[..., _HIGH] | blot_ahead[..., _LOW]
    by_both = blot_ahead[..., _HIGH + _LOW] & (open_ahead[..., _HIGH] | open_ahead[..., _LOW])
    non_doubles = (movers & (by_one_die | by_both)) != 0
    one, two, three = (open_ahead[..., k * _DOUBLES] for k in (1, 2, 3))
    by_double = (
        blot_ahead[..., _DOUBLES]
        | (blot_ahead[..., 2 * _DOUBLES] & one)
        | (blot_ahead[..., 3 * _DOUBLES] & one & two)
        | (blot_ahead[..., 4 * _DOUBLES] & one & two & three)
    )
    doubles = (movers & by_double) != 0
    out[:, :, 0] = (2 * non_doubles.sum(axis=2) + doubles.sum(axis=2)) / 36

    # escapes from every point, from the other side's made points 1-12 pips ahead
    windows = ((made << 12)[:, :, None] >> np.arange(25)) & 0xFFF
    escapes = _ESCAPES[windows]  # [n, side, point - 1]
    present = own > 0
    rearmost = _rearmost(present)
    back = np.take_along_axis(escapes, rearmost[:, :, None], axis=2)[:, :, 0]
    out[:, :, 1] = np.where(held != 0, back / 36, 1.0)
    contained = 1 - escapes[:, :, 14:24].min(axis=2) / 36
    out[:, :, 2] = contained
    out[:, :, 3] = contained**2

    # pips to break contact: past the other side's rearmost checker, which stands on
    # this side's point 25 - (its own point), 0 when it is on the bar
    other_rearmost = 24 - rearmost[:, ::-1]
    behind = np.clip(np.arange(1, 26) - other_rearmost[:, :, None], 0, None)
    out[:, :, 4] = (own * behind).sum(axis=2) / 100
    # entry: the other side's home board is this side's points 19-24
    home_made = (other[:, :, 18:24] >= 2).sum(axis=2)
    out[:, :, 5] = (home_made / 6) ** 2

    rows = np.empty((n, FEATURES))
    rows[:, : 2 * FEATURES_PER_SIDE] = out.reshape(n, 2 * FEATURES_PER_SIDE)
    rows[:, -1] = out[:, 0, 4] > 0
    return rows
