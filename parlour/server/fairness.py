"""Dice anyone can check, and a computer nobody can read ahead of time.

Every game the server creates gets a secret of 32 random bytes, kept with the
game's options in the store and never sent to a client while the game (or match)
goes on. What clients see from the start is its *commitment*, the SHA-256 hash.
The game's throws of the dice are :class:`~parlour.core.dice.CommittedDice` of the
secret, throw after throw; when the game is over with no next game of its match to
play, the secret is shown beside the commitment. Then anyone holding the game's
*dice record* (``GET /api/games/{id}/dice``: the game, the commitment, the secret
and the event log) can check that the secret hashes to the commitment and that
every throw in the log is the one the secret gives: :func:`check_record`, which
``parlour verify`` runs. A game started from a set-up position names it in its
record (``start``), and the check replays the log from there.

The computer's choices among equal moves and its deliberate mistakes are seeded
from the same secret (an HMAC of the version), so they cannot be worked out from
the game's public id either.

Games made before secrets (and imported games, whose throws were made elsewhere)
have none: their dice are the server's unpredictable ones, not checkable.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass, field
from typing import Any

from parlour.core import registry
from parlour.core.dice import CommittedDice, Dice
from parlour.core.errors import ParlourError
from parlour.server.errors import Refusal
from parlour.server.play import Progress, apply
from parlour.server.storage import EventRow
from parlour.server.table import Table

#: The key of the secret (hexadecimal) in a game's options.
SECRET = "secret"
#: What a dice record says it is, for programs that read one.
RECORD_FORMAT = "parlour dice record 1"


def new_secret(options: dict[str, Any]) -> None:
    """Give a game about to be created its secret."""
    options[SECRET] = CommittedDice.new_secret().hex()


def _secret(options: dict[str, Any]) -> bytes | None:
    """The secret of a game with these options (None: a game without one)."""
    text = options.get(SECRET)
    return None if text is None else bytes.fromhex(text)


def dice_for(options: dict[str, Any], thrown: int, fallback: Dice) -> Dice:
    """The dice of a game with these options after ``thrown`` throws: its
    committed dice, or ``fallback`` for a game without a secret."""
    secret = _secret(options)
    return fallback if secret is None else CommittedDice(secret, thrown)


def throws_in(*logs: list[EventRow]) -> int:
    """How many throws of the dice the logs hold."""
    return sum(event.kind == "throw" for log in logs for event in log)


def computer_seed(table: Table, version: int) -> int:
    """The seed of the computer's choice at ``version``: from the secret, so that
    nobody can compute it from public data."""
    secret = _secret(table.options)
    if secret is None:
        return zlib.crc32(f"{table.id}:{version}".encode())
    return int(CommittedDice(secret).point(f"computer {version}") * (1 << 32))


def public_options(table: Table) -> dict[str, Any]:
    """The game's options as clients see them: without the secret."""
    return {key: value for key, value in table.options.items() if key != SECRET}


def dice_json(table: Table) -> dict[str, Any] | None:
    """The commitment, and the secret once the game is over for good (None for a
    game without one)."""
    secret = _secret(table.options)
    if secret is None:
        return None
    return {
        "commitment": CommittedDice.commitment(secret),
        "secret": secret.hex() if table.progress.series_over else None,
    }


def dice_record(table: Table) -> dict[str, Any]:
    """Everything needed to check the game's dice, as one JSON document."""
    dice = dice_json(table)
    return {
        "format": RECORD_FORMAT,
        "id": table.id,
        "game": table.game.name,
        "rules": table.rules,
        # Where the game began when it was set up from a position (None: as usual).
        "start": table.options.get("start"),
        "commitment": None if dice is None else dice["commitment"],
        "secret": None if dice is None else dice["secret"],
        "events": [event.to_json() for event in table.events],
    }


@dataclass
class DiceCheck:
    """What :func:`check_record` found: whether every throw is the secret's, and
    the throws that are not."""

    ok: bool
    summary: str
    throws: int = 0
    wrong: list[str] = field(default_factory=list)


def check_record(record: dict[str, Any]) -> DiceCheck:
    """Check a dice record: the secret against the commitment, then every throw of
    the log against the throw the secret gives, replaying the game by its rules.

    A record that cannot be read or replayed is reported, not raised."""
    try:
        return _check(record)
    except (KeyError, TypeError, ValueError, ParlourError) as error:
        return DiceCheck(False, f"the record cannot be read: {error}")


def _check(record: dict[str, Any]) -> DiceCheck:
    if record.get("format") != RECORD_FORMAT:
        return DiceCheck(False, f"this is not a dice record (format {record.get('format')!r})")
    commitment, secret_text = record["commitment"], record["secret"]
    if commitment is None:
        return DiceCheck(False, "this game's dice were not committed to: nothing to check")
    if secret_text is None:
        return DiceCheck(False, "the secret is revealed when the game is over: check it then")
    secret = bytes.fromhex(secret_text)
    if CommittedDice.commitment(secret) != commitment:
        return DiceCheck(False, "the secret revealed does not hash to the commitment")
    game = registry.get_game(record["game"])
    series = registry.get_face(game).series(record["rules"])
    start = record.get("start")  # a game set up from a position begins there
    first = series.first() if start is None else series.game.state_from_text(start)
    progress = Progress(first, series)
    dice = CommittedDice(secret)
    wrong: list[str] = []
    for number, data in enumerate(record["events"], start=1):
        event = EventRow.from_json(data)
        if event.version != number:
            return DiceCheck(False, f"the log skips from version {number - 1} to {event.version}")
        if event.kind == "throw":
            state = progress.state
            expected = state.move_to_text(dice.choose(state.chance_outcomes()))
            if expected != event.payload:
                wrong.append(
                    f"throw {dice.thrown} (version {event.version}): the log says "
                    f"{event.payload}, the secret gives {expected}"
                )
        try:
            apply(progress, event)
        except (ParlourError, Refusal, ValueError) as error:
            summary = f"the log does not replay at version {number}: {error}"
            return DiceCheck(False, summary, dice.thrown, wrong)
    if wrong:
        summary = f"{len(wrong)} of {dice.thrown} throws are not the secret's"
        return DiceCheck(False, summary, dice.thrown, wrong)
    return DiceCheck(True, f"all {dice.thrown} throws are the ones the secret gives", dice.thrown)
