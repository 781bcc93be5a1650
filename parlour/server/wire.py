"""The wire format: a game as its clients read it, for any game.

:func:`game_json` is everything a client needs to draw a table's game and offer its
legal moves (the board as the game's face describes it, the seats, the series, the
outcome); :func:`update_message` is what a watcher is sent after each change;
:func:`position_json` a position looked back at. The server knows no game: what is
particular to one comes from its rules and its face.
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from typing import Any

from parlour.core import registry
from parlour.core.protocol import CHANCE, Game, Outcome
from parlour.server import fairness, players
from parlour.server.play import Progress
from parlour.server.storage import EventRow
from parlour.server.table import Table


def game_json(table: Table) -> dict[str, Any]:
    """Everything a client needs to draw the game and offer the legal moves (written
    once per version; a clock's reading of the server's time, ``now``, added each
    time, so that a client counts down from the server's time, not its own)."""
    if table.json_cache is None or table.json_cache[0] != table.version:
        table.json_cache = (table.version, _game_json(table))
    data = table.json_cache[1]
    if data["clock"] is not None:
        data = {**data, "clock": {**data["clock"], "now": time.time()}}
    return data


def _game_json(table: Table) -> dict[str, Any]:
    game, progress = table.game, table.progress
    state = progress.state
    outcome = state.outcome()
    turn: int | str | None
    legal: list[str] = []
    if outcome is not None:
        turn = None
    elif state.turn is CHANCE:
        turn = "chance"
    else:
        turn = int(state.turn)
        legal = [state.move_to_text(move) for move in state.legal_moves()]
    face = registry.get_face(game)
    data: dict[str, Any] = {
        "id": table.id,
        "game": game.name,
        "title": game.title,
        "side_names": list(game.side_names),
        "has_chance": game.has_chance,
        "has_draws": game.has_draws,
        "options": fairness.public_options(table),
        # The commitment to the dice's secret, and the secret once the game is over.
        "dice": fairness.dice_json(table),
        "created": table.created,
        "version": table.version,
        "status": table.status,
        "position": state.to_text(),
        "turn": turn,
        "legal_moves": legal,
        "moves": progress.record,
        "move_rows": face.move_rows(state, progress.record),
        "series": series_json(progress),
        "draw_offer": None if progress.draw_offer is None else int(progress.draw_offer),
        # The rematch offered after a game between friends: the new game's id.
        "rematch": progress.rematch,
        "claimable_draw": state.claimable_draw() if outcome is None else None,
        "board": registry.get_face(state.game).board(state),
        # The position in words, for a player who cannot see the board.
        "description": face.describe(state),
        "can_export": face.export_suffix is not None,
        "export_kind": face.export_kind,
        # What the page shows beside the board: the page holds no rule of any game.
        "page": face.page(state),
        # Advice comes from the game's engine, in a game against the computer.
        "hints": any(seat.player == "computer" for seat in table.seats)
        and bool(players.engine_levels(game.name)),
        "outcome": None if outcome is None else outcome_json(game, outcome),
        # Both sides' time, in a game with a clock (the server's reckoning).
        "clock": None if progress.clock is None else progress.clock.to_json(progress.on_clock),
        "seats": [
            {
                "side": int(seat.side),
                "name": game.side_name(seat.side),
                "player": seat.player,
                "level": seat.level,
                "taken": seat.taken,
            }
            for seat in table.seats
        ],
    }
    return data


def summary_json(table: Table) -> dict[str, Any]:
    """A line about a game for a list of one's games: what it is, whose turn, how it
    ended, when it last changed."""
    data = game_json(table)
    last = table.events[-1].time.isoformat() if table.events else table.created
    return {
        key: data[key]
        for key in ("id", "game", "title", "side_names", "status", "turn", "version", "created")
    } | {
        "outcome": data["outcome"],
        "opponent": table.options.get("opponent"),
        "players": [seat["player"] for seat in data["seats"]],
        "levels": [seat["level"] for seat in data["seats"]],
        # What the players did: not the dice thrown, nor a backgammon player's roll.
        "moves": sum(
            1 for move in data["moves"] if move["side"] is not None and move["text"] != "roll"
        ),
        "last_change": last,
        "clock": None if data["clock"] is None else data["clock"]["label"],
    }


def outcome_json(game: Game[Any], outcome: Outcome) -> dict[str, Any]:
    """How a game ended: the winner (None for a draw), why, and for how many points."""
    return {
        "winner": None if outcome.winner is None else int(outcome.winner),
        "winner_name": None if outcome.winner is None else game.side_name(outcome.winner),
        "reason": outcome.reason,
        "points": outcome.points,
    }


def series_json(progress: Progress) -> dict[str, Any] | None:
    """The match so far (None for a lone game): the score counting the game in play
    once it is over, and whether a next game may be started."""
    summary = progress.series.summary((*progress.finished, progress.state))
    if summary is not None:
        summary["game_number"] = len(progress.finished) + 1
        summary["next_game"] = progress.next_game() is not None
    return summary


def update_message(table: Table, events: Sequence[EventRow]) -> str:
    """What a watcher is sent after ``events``: the events and the game now."""
    return json.dumps(
        {
            "type": "update",
            "events": [event.to_json() for event in events],
            "game": game_json(table),
        }
    )


def position_json(table: Table, version: int) -> dict[str, Any]:
    """The game as it stood at ``version``, for a player looking back over it."""
    progress = table.progress_at(version)
    state = progress.state
    last = progress.record[-1] if progress.record else None
    return {
        "version": version,
        "game_number": len(progress.finished) + 1,
        "position": state.to_text(),
        "board": registry.get_face(state.game).board(state),
        "page": registry.get_face(state.game).page(state),
        "description": registry.get_face(state.game).describe(state),
        "last_move": last,
        "over": state.is_over(),
    }
