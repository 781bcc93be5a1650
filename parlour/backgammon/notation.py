"""Backgammon in text, both ways, as GNU Backgammon writes it.

* the **Position ID**: 14 base64 characters for the checkers (:func:`position_id`,
  :func:`position_from_id`);
* the **Match ID**: 12 base64 characters for the cube, the score, the dice and whose
  turn it is (:class:`MatchId`, :func:`match_id`, :func:`match_id_from_text`);
* **move text**: ``24/18 13/11``, hits ``13/7*``, ``bar/22``, ``6/off``, ``8/5(2)``
  (:func:`format_play`), read back from whatever a player types (:func:`parse_play`);
* dice: ``31``, ``3-1`` (:func:`parse_dice`).

>>> start = Position.start()
>>> position_id(start)
'4HPwATDgc/ABMA'
>>> play = parse_play(start, (3, 1), "6/5 8/5")
>>> format_play(start, play), position_id(start.apply(play))
('8/5 6/5', '4HPwATCwZ/ABMA')
"""

from __future__ import annotations

import base64
import binascii
import itertools
import re
from collections.abc import Sequence
from dataclasses import dataclass

from parlour.backgammon.board import (
    BAR,
    CHECKERS,
    OFF,
    CheckerMove,
    Play,
    Position,
    _explain_move,
    _single_moves,
    explain_illegal_play,
    legal_plays,
    point_name,
)
from parlour.backgammon.cube import is_cube_value
from parlour.core.errors import IllegalMoveError, NotationError
from parlour.core.protocol import Side

__all__ = [
    "MatchId",
    "format_play",
    "list_plays",
    "match_id",
    "match_id_from_text",
    "parse_dice",
    "parse_play",
    "position_from_id",
    "position_id",
]

_BASE64 = re.compile(r"[A-Za-z0-9+/]*")

# -- Position ID ----------------------------------------------------------------------


def position_id(position: Position) -> str:
    """The gnubg Position ID: for the player *not* on roll and then the player on roll,
    each point 1 to 24 and the bar as that many one-bits and a zero-bit; 80 bits packed
    low bit first into ten bytes, in base64 without the padding.

    >>> position_id(Position.start())
    '4HPwATDgc/ABMA'
    """
    value = 0
    bit = 0
    for count in (*position.opponent, *position.mover):
        value |= ((1 << count) - 1) << bit
        bit += count + 1
    return base64.b64encode(value.to_bytes(10, "little")).decode("ascii")[:14]


def position_from_id(text: str) -> Position:
    """Read a gnubg Position ID; :class:`NotationError` names what is wrong with it.

    >>> position_from_id("4HPwATDgc/ABMA") == Position.start()
    True
    >>> position_from_id("4HPwATDgc/AB")
    Traceback (most recent call last):
    ...
    parlour.core.errors.NotationError: a Position ID has 14 characters, not 12
    """
    if not isinstance(text, str):
        raise NotationError(f"a Position ID is text, not {type(text).__name__}")
    text = text.strip()
    if text.startswith("Position ID:"):
        text = text[len("Position ID:") :].strip()
    if len(text) != 14:
        raise NotationError(f"a Position ID has 14 characters, not {len(text)}")
    bad = sorted(set(text) - set(_ALPHABET))
    if bad:
        raise NotationError(
            f"a Position ID uses only letters, digits, + and /, not {''.join(bad)!r}"
        )
    if _ALPHABET.index(text[-1]) & 0b1111:
        raise NotationError("the Position ID sets bits past the 80 it may use")
    value = int.from_bytes(base64.b64decode(text + "=="), "little")
    counts = []
    bit = 0
    for _ in range(50):
        count = 0
        while value >> bit & 1:
            count += 1
            bit += 1
        bit += 1
        counts.append(count)
    if bit > 80:
        raise NotationError("the Position ID has more checkers than two sides can")
    if value >> bit:
        raise NotationError("the Position ID has checkers after the last point of both sides")
    sides = (tuple(counts[:25]), tuple(counts[25:]))
    for name, side in zip(("the player not on roll", "the player on roll"), sides, strict=True):
        if sum(side) > CHECKERS:
            raise NotationError(f"the Position ID gives {name} {sum(side)} checkers; a side has 15")
    position = Position(mover=sides[1], opponent=sides[0])
    position.validate()
    return position


_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"

# -- Match ID -------------------------------------------------------------------------

#: Game states in the Match ID.
NO_GAME, PLAYING, GAME_OVER, RESIGNED, DROPPED = range(5)

# (field name, bits), low bits first, as gnubg packs them.
_MATCH_FIELDS = (
    ("cube", 4),
    ("cube_owner", 2),
    ("dice_owner", 1),
    ("crawford", 1),
    ("game_state", 3),
    ("turn", 1),
    ("double_offered", 1),
    ("resignation", 2),
    ("die1", 3),
    ("die2", 3),
    ("match_length", 15),
    ("score0", 15),
    ("score1", 15),
    ("no_jacoby", 1),
)


@dataclass(frozen=True)
class MatchId:
    """What gnubg's Match ID holds.

    ``cube_owner`` is None for a centred cube; ``dice_owner`` is the player on roll;
    ``turn`` the player who acts next (they differ while a double is offered);
    ``game_state`` 0 no game, 1 playing, 2 over, 3 resigned, 4 dropped; ``resignation``
    0 none offered, else 1 single, 2 gammon, 3 backgammon; ``dice`` None before the
    roll; ``match_length`` 0 for money play; ``score`` the two players' points;
    ``jacoby`` whether the Jacoby rule is in force (gnubg 1.07 writes a 67th bit when
    it is not, as in match play; IDs of the 66-bit layout leave it clear).

    >>> match_id_from_text("QYkqASAAIAAA").score
    (2, 4)
    """

    cube_value: int = 1
    cube_owner: Side | None = None
    dice_owner: Side = Side.FIRST
    crawford: bool = False
    game_state: int = PLAYING
    turn: Side = Side.FIRST
    double_offered: bool = False
    resignation: int = 0
    dice: tuple[int, int] | None = None
    match_length: int = 0
    score: tuple[int, int] = (0, 0)
    jacoby: bool = True


def match_id(fields: MatchId) -> str:
    """The gnubg Match ID of ``fields``; :class:`NotationError` for a field out of range.

    >>> match_id(MatchId(cube_value=2, cube_owner=Side.FIRST, dice_owner=Side.SECOND,
    ...     turn=Side.SECOND, dice=(5, 2), match_length=9, score=(2, 4)))
    'QYkqASAAIAAA'
    """
    cube = fields.cube_value
    if not isinstance(cube, int) or not is_cube_value(cube):
        raise NotationError(f"the cube shows a power of two up to 2^15, not {cube!r}")
    dice = fields.dice or (0, 0)
    if len(dice) != 2 or (dice != (0, 0) and any(not 1 <= die <= 6 for die in dice)):
        raise NotationError(f"dice show 1 to 6, not {dice!r}")
    if not 0 <= fields.game_state <= DROPPED:
        raise NotationError(f"the game state is 0 to 4, not {fields.game_state!r}")
    if not 0 <= fields.resignation <= 3:
        raise NotationError(f"a resignation is 0 to 3, not {fields.resignation!r}")
    limit = (1 << 15) - 1
    for name, number in (
        ("match length", fields.match_length),
        ("score", fields.score[0]),
        ("score", fields.score[1]),
    ):
        if not 0 <= number <= limit:
            raise NotationError(f"the {name} must be 0 to {limit}, not {number!r}")
    values = {
        "cube": cube.bit_length() - 1,
        "cube_owner": 3 if fields.cube_owner is None else int(fields.cube_owner),
        "dice_owner": int(fields.dice_owner),
        "crawford": int(fields.crawford),
        "game_state": fields.game_state,
        "turn": int(fields.turn),
        "double_offered": int(fields.double_offered),
        "resignation": fields.resignation,
        "die1": dice[0],
        "die2": dice[1],
        "match_length": fields.match_length,
        "score0": fields.score[0],
        "score1": fields.score[1],
        "no_jacoby": int(not fields.jacoby),
    }
    value = 0
    bit = 0
    for name, width in _MATCH_FIELDS:
        value |= values[name] << bit
        bit += width
    return base64.b64encode(value.to_bytes(9, "little")).decode("ascii")


def match_id_from_text(text: str) -> MatchId:
    """Read a gnubg Match ID; :class:`NotationError` names what is wrong with it.

    >>> fields = match_id_from_text("QYkqASAAIAAA")
    >>> fields.cube_value, fields.cube_owner, fields.dice, fields.match_length
    (2, <Side.FIRST: 0>, (5, 2), 9)
    """
    if not isinstance(text, str):
        raise NotationError(f"a Match ID is text, not {type(text).__name__}")
    text = text.strip()
    if text.startswith("Match ID:"):
        text = text[len("Match ID:") :].strip()
    if len(text) != 12:
        raise NotationError(f"a Match ID has 12 characters, not {len(text)}")
    bad = sorted(set(text) - set(_ALPHABET))
    if bad:
        raise NotationError(f"a Match ID uses only letters, digits, + and /, not {''.join(bad)!r}")
    try:
        value = int.from_bytes(base64.b64decode(text), "little")
    except binascii.Error as error:  # pragma: no cover - the alphabet is checked above
        raise NotationError(f"the Match ID is not base64: {error}") from None
    fields: dict[str, int] = {}
    bit = 0
    for name, width in _MATCH_FIELDS:
        fields[name] = value >> bit & ((1 << width) - 1)
        bit += width
    if value >> bit:
        raise NotationError("the Match ID sets bits past the 67 it uses")
    if fields["cube_owner"] == 2:
        raise NotationError("the Match ID's cube owner is 2; it must be 0, 1 or 3 (centred)")
    if fields["game_state"] > DROPPED:
        raise NotationError(
            f"the Match ID's game state is {fields['game_state']}; it must be 0 to 4"
        )
    dice = (fields["die1"], fields["die2"])
    if dice != (0, 0) and not all(1 <= die <= 6 for die in dice):
        raise NotationError(f"the Match ID's dice are {dice[0]} and {dice[1]}; a die shows 1 to 6")
    length = fields["match_length"]
    return MatchId(
        cube_value=1 << fields["cube"],
        cube_owner=None if fields["cube_owner"] == 3 else Side(fields["cube_owner"]),
        dice_owner=Side(fields["dice_owner"]),
        crawford=bool(fields["crawford"]),
        game_state=fields["game_state"],
        turn=Side(fields["turn"]),
        double_offered=bool(fields["double_offered"]),
        resignation=fields["resignation"],
        dice=None if dice == (0, 0) else dice,
        match_length=length,
        score=(fields["score0"], fields["score1"]),
        jacoby=not fields["no_jacoby"],
    )


# -- dice -----------------------------------------------------------------------------

_DICE = re.compile(r"\s*(\d)\s*[-,/x ]?\s*(\d)\s*")


def parse_dice(text: str) -> tuple[int, int]:
    """Read a roll: ``31``, ``3-1``, ``3 1``, ``3,1``.

    >>> parse_dice("3-1"), parse_dice("66")
    ((3, 1), (6, 6))
    """
    match = _DICE.fullmatch(text) if isinstance(text, str) else None
    if match is None:
        raise NotationError(f"dice are written like 31 or 3-1, not {text!r}")
    first, second = int(match[1]), int(match[2])
    for die in (first, second):
        if not 1 <= die <= 6:
            raise NotationError(f"a die shows 1 to 6, not {die}")
    return first, second


# -- move text ------------------------------------------------------------------------


def format_play(position: Position, play: Sequence[CheckerMove]) -> str:
    """The play as gnubg writes it: moves from the highest start down; one checker's
    moves joined (``13/8``) unless it hits on the way (``13/10*/8``); a hit marked
    ``*`` once; the same move repeated written once with a count (``8/5(2)``).

    >>> start = Position.start()
    >>> format_play(start, (CheckerMove(13, 10), CheckerMove(10, 8)))
    '13/8'
    >>> double = [CheckerMove(8, 5), CheckerMove(8, 5), CheckerMove(6, 3), CheckerMove(6, 3)]
    >>> format_play(start, double)
    '8/5(2) 6/3(2)'
    """
    if not play:
        return ""
    blots = position.opponent

    def hits(point: int) -> bool:
        return OFF < point < BAR and blots[24 - point] > 0

    moves = sorted(((move.start, move.end) for move in play), reverse=True)
    # Each path is a start, the points where it hit on the way, and an end.
    paths: list[list[int]] = []
    taken = [False] * len(moves)
    for i, (start, end) in enumerate(moves):
        if taken[i]:
            continue
        path = [start, end]
        for j in range(i + 1, len(moves)):
            if not taken[j] and moves[j][0] == path[-1]:
                if hits(path[-1]):
                    path.append(moves[j][1])
                else:
                    path[-1] = moves[j][1]
                taken[j] = True
        paths.append(path)
    counted: list[tuple[list[int], int]] = []
    for path in paths:
        for index, (seen, count) in enumerate(counted):
            if seen == path:
                counted[index] = (seen, count + 1)
                break
        else:
            counted.append((path, 1))
    marked: set[int] = set()
    words = []
    for path, count in counted:
        text = point_name(path[0])
        for point in path[1:-1]:
            text += f"/{point_name(point)}*"
            marked.add(point)
        end = path[-1]
        text += f"/{point_name(end)}"
        if hits(end) and end not in marked:
            text += "*"
            marked.add(end)
        if count > 1:
            text += f"({count})"
        words.append(text)
    return " ".join(words)


_POINT = r"(?:\d{1,2}|bar|b|off|o)"
_HOP_WORD = re.compile(rf"({_POINT}\*?(?:[/-]{_POINT}\*?)+)(?:\((\d)\))?")
_NO_PLAY = {"", "pass", "-", "no move", "no play", "cannot move", "can't move"}


def _point_value(word: str) -> int:
    if word in ("bar", "b"):
        return BAR
    if word in ("off", "o"):
        return OFF
    return int(word)


def _read_hops(text: str) -> tuple[list[tuple[int, int]], set[int]]:
    """The hops (start, end) the text names, each repeated as ``(n)`` says, and the
    points it marks as hits. A hop may stand for several dice (``13/8`` for 13/10/8)."""
    cleaned = text.strip().lower()
    cleaned = re.sub(r"\s*([/-])\s*", r"\1", cleaned)
    cleaned = re.sub(r"\s+\*", "*", cleaned)
    cleaned = re.sub(r"\s*\(\s*(\d+)\s*\)", r"(\1)", cleaned)
    words = [word for word in re.split(r"[\s,;]+", cleaned) if word]
    hops: list[tuple[int, int]] = []
    starred: set[int] = set()
    for word in words:
        match = _HOP_WORD.fullmatch(word)
        if match is None:
            raise NotationError(
                f"cannot read {word!r}: moves are written like "
                "24/18, 13/7*, bar/22, 6/off or 8/5(2)"
            )
        points = []
        for part in re.split(r"[/-]", match[1]):
            star = part.endswith("*")
            point = _point_value(part.rstrip("*"))
            if not 0 <= point <= BAR:
                raise NotationError(f"there is no point {point}: points run from 1 to 24")
            if star:
                starred.add(point)
            points.append(point)
        repeat = int(match[2]) if match[2] else 1
        if not 1 <= repeat <= 4:
            raise NotationError(f"a move is repeated 1 to 4 times, not {repeat}")
        for start, end in itertools.pairwise(points):
            if start == OFF:
                raise NotationError(f"{word!r}: a checker borne off cannot move again")
            if end == BAR:
                raise NotationError(f"{word!r}: a checker cannot move to the bar")
            if start == end:
                raise NotationError(f"{word!r}: a move must go from one point to another")
            hops.extend([(start, end)] * repeat)
    if len(hops) > 4:
        raise NotationError(f"{text!r} names {len(hops)} moves; a roll gives at most 4")
    return hops, starred


def parse_play(position: Position, dice: tuple[int, int], text: str) -> Play:
    """Read a play as a player types it, and return the legal play it stands for (one
    of :func:`legal_plays`). Moves may come in any order, one checker's moves may be
    joined (``13/8`` for 13/10/8), repeated (``8/5(2)``); ``bar`` or 25, ``off`` or 0.

    :class:`NotationError` for text that is not a play; :class:`IllegalMoveError`
    naming the rule for a play the rules forbid.

    >>> start = Position.start()
    >>> parse_play(start, (6, 5), "24/13") == parse_play(start, (6, 5), "24/18, 18/13")
    True
    >>> parse_play(start, (6, 5), "24/18")
    Traceback (most recent call last):
    ...
    parlour.core.errors.IllegalMoveError: both dice must be used when possible
    """
    if not isinstance(text, str):
        raise NotationError(f"a play is text, not {type(text).__name__}")
    if text.strip().lower() in _NO_PLAY:
        hops: list[tuple[int, int]] = []
        starred: set[int] = set()
    else:
        hops, starred = _read_hops(text)
    plays = legal_plays(position, dice)
    if not hops:
        if not plays:
            return ()
        raise explain_illegal_play(position, dice, ())
    by_result = {position.apply(play): play for play in plays}
    first_error: IllegalMoveError | None = None
    made: list[tuple[CheckerMove, ...]] = []
    pool = _dice_pool(dice)
    if plays and len(hops) > len(pool):
        raise IllegalMoveError(
            f"{text.strip()!r} makes {len(hops)} moves; this roll gives {len(pool)}",
            rule="no-dice-left",
        )
    mismatch = _dice_mismatch(hops, dice) if plays else None
    if mismatch is not None:
        raise mismatch
    errors: list[tuple[IllegalMoveError, int]] = []
    paths = tuple(sorted(hops, reverse=True))
    _realise(position, pool, paths, (), made, errors, set())
    if errors:
        first_error = min(errors, key=_error_order)[0]
    found: list[tuple[int, Play]] = []
    for sequence in made:
        result = position.apply(sequence)
        if result in by_result:
            hidden = len(_hit_points(position, sequence) - {end for _, end in hops} - starred)
            found.append((hidden, by_result[result]))
    if found:
        return min(found, key=lambda pair: pair[0])[1]
    if made:
        raise explain_illegal_play(position, dice, made[0])
    if first_error is None:  # pragma: no cover - every failed attempt records its error
        first_error = IllegalMoveError("this play is not legal with this roll", rule="illegal")
    raise first_error


def _dice_mismatch(
    hops: Sequence[tuple[int, int]], dice: tuple[int, int]
) -> IllegalMoveError | None:
    """A play whose typed moves the roll cannot make at all, said in the player's own
    terms: a move of a distance no die or dice of the roll make, or more pips in all
    than the roll gives (bearing off, which may use a higher die, is left to the
    rules)."""
    pool = _dice_pool(dice)
    roll = f"{dice[0]}-{dice[1]}"
    reachable = {sum(pool[:n]) for n in range(1, len(pool) + 1)} | set(pool)
    counted = [(start, end) for start, end in hops if end != OFF]
    for start, end in counted:
        distance = start - end
        if distance > 0 and distance not in reachable:
            words = "no number of the four" if dice[0] == dice[1] else "neither die nor both"
            return IllegalMoveError(
                f"{_hop_text(start, end)} is {distance} pips, which {words} of the roll {roll} "
                "make",
                rule="no-such-die",
            )
    total = sum(start - end for start, end in counted)
    if total > sum(pool):
        written = " ".join(_hop_text(start, end) for start, end in hops)
        return IllegalMoveError(
            f"{written} moves {total} pips, more than the {sum(pool)} of the roll {roll}",
            rule="no-dice-left",
        )
    return None


def _hop_text(start: int, end: int) -> str:
    return f"{'bar' if start == BAR else start}/{'off' if end == OFF else end}"


def _error_order(failure: tuple[IllegalMoveError, int]) -> tuple[bool, int, int]:
    """Which of the ways a play failed to name: a broken rule of moving before a
    die that does not fit, then the attempt that got furthest, then the rule that
    explains most."""
    error, depth = failure
    rank = _RULE_RANK.get(error.rule, len(_RULE_RANK))
    return error.rule in ("no-dice-left", "no-such-die"), -depth, rank


#: When a play fails in several ways, the rule named is the first of these that applies:
#: the ones that explain most come first.
_RULE_RANK = {
    rule: rank
    for rank, rule in enumerate(
        (
            "bar-first",
            "closed-point",
            "bear-off-not-home",
            "higher-point-first",
            "direction",
            "no-checker",
            "no-dice-left",
            "no-such-die",
        )
    )
}


def _dice_pool(dice: tuple[int, int]) -> tuple[int, ...]:
    first, second = dice
    return (first,) * 4 if first == second else (first, second)


def _hit_points(position: Position, sequence: Sequence[CheckerMove]) -> set[int]:
    return {
        move.end for move in sequence if move.end != OFF and position.opponent[24 - move.end] == 1
    }


def _realise(
    position: Position,
    remaining: tuple[int, ...],
    paths: tuple[tuple[int, int], ...],
    done: tuple[CheckerMove, ...],
    made: list[tuple[CheckerMove, ...]],
    errors: list[tuple[IllegalMoveError, int]],
    seen: set[tuple[Position, tuple[int, ...], tuple[tuple[int, int], ...]]],
) -> None:
    """Find every way to make the ``paths`` (each a checker's start and end, possibly
    several dice long) with single dice, their moves interleaved in any order (two
    checkers on the bar both enter before either goes on). Complete ways go to
    ``made``; the error of each move that could not be made goes to ``errors``, with
    the number of moves made before it."""
    if not paths:
        made.append(done)
        return
    state = (position, remaining, paths)
    if state in seen:
        return
    seen.add(state)
    for index, (start, end) in enumerate(paths):
        if index and paths[index - 1] == (start, end):
            continue  # the same path twice: moving either is the same
        if end >= start:
            errors.append(
                (
                    IllegalMoveError(
                        f"{point_name(start)}/{point_name(end)} goes backwards: checkers move "
                        "toward your home board, to lower points",
                        rule="direction",
                    ),
                    len(done),
                )
            )
            continue
        tried = False
        for die in sorted(set(remaining), reverse=True):
            land = start - die if start > die else OFF
            if land < end or (land == OFF and end != OFF):
                continue
            tried = True
            move = CheckerMove(start, land)
            if move not in _single_moves(position, die):
                errors.append((_explain_move(position, remaining, move), len(done)))
                continue
            left = list(remaining)
            left.remove(die)
            rest = list(paths)
            if land == end:
                del rest[index]
            else:
                rest[index] = (land, end)
            _realise(
                position.apply((move,)),
                tuple(left),
                tuple(sorted(rest, reverse=True)),
                (*done, move),
                made,
                errors,
                seen,
            )
        if not tried:
            errors.append((_explain_move(position, remaining, CheckerMove(start, end)), len(done)))


def list_plays(position_id_text: str, dice_text: str) -> list[tuple[str, str]]:
    """What ``parlour moves backgammon POSITION_ID DICE`` prints: for each distinct
    legal play, its text and the Position ID of the result, still seen from the mover
    (the mover stays the player on roll); ``[]`` when nothing can be played.

    >>> list_plays("4HPwATDgc/ABMA", "31")[0]
    ('24/23 24/21', '4HPwATDgc/ABEg')
    """
    position = position_from_id(position_id_text)
    dice = parse_dice(dice_text)
    plays = sorted(legal_plays(position, dice), reverse=True)
    return [(format_play(position, play), position_id(position.apply(play))) for play in plays]
