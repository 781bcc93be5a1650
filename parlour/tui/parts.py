"""The per-game parts of the terminal app beyond the core protocol: its board widget,
its file format for export, and (backgammon) the choices offered as buttons, the moves
made for the player when there is nothing to choose, and the next game of a match.
Each game's board module builds its :class:`GameUI`; :mod:`parlour.tui.games` finds
them by name.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from parlour.core.protocol import CHANCE, Side, State
from parlour.core.registry import get_face
from parlour.tui.board import Board
from parlour.tui.choice import Choice
from parlour.tui.session import Session


def numbered_moves(session: Session) -> list[str]:
    """The moves as numbered pairs, ``1. e4 e5``; a game starting with the second
    side's move begins ``1. ... e5``."""
    probe = session.game.state_from_text(session.start_text)
    lines: list[str] = []
    number = 1
    current = ""
    for text in session.texts:
        if probe.turn is Side.FIRST:
            current = f"{number}. {text}"
        else:
            current = (current or f"{number}. ...") + f"  {text}"
            lines.append(current)
            current = ""
            number += 1
        probe.push(probe.parse_move(text))
    if current:
        lines.append(current)
    return lines


def face_move_list(session: Session) -> list[str]:
    """The moves as the game's face groups them (a backgammon turn a line), rebuilt
    from the session's texts: who moved each is read from a replay."""
    probe = session.game.state_from_text(session.start_text)
    record = []
    for version, text in enumerate(session.texts, start=1):
        turn = probe.turn
        record.append(
            {"version": version, "side": None if turn is CHANCE else int(turn), "text": text}
        )
        probe.push(probe.parse_move(text))
    rows = get_face(session.game).move_rows(probe, record)
    lines = []
    for row in rows:
        cells = "  ".join(cell["text"] for cell in row["cells"])
        lines.append(cells if row["number"] is None else f"{row['number']} {cells}")
    return lines


def series_lines(session: Session) -> list[str]:
    """The series so far (a match's score and the Crawford game next, a money
    session's points and its rules), from the game's series; none for a lone game."""
    finished = list(session.earlier_states)
    if session.state.is_over():
        finished.append(session.state)
    summary = session.series.summary([*session.earlier_states, session.state])
    if summary is None:
        return []
    names = session.game.side_names
    points = summary["points"]
    lines = []
    if summary["kind"] == "match":
        line = f"Match to {summary['match_length']}: {names[0]} {points[0]}, {names[1]} {points[1]}"
        if summary["over"] and summary["winner"] is not None:
            lines.append(line)
            winner = names[summary["winner"]]
            line = f"[b]{winner} wins the match {max(points)}-{min(points)}[/b]"
        lines.append(line)
    elif finished:
        lines.append(f"Money play: {names[0]} {points[0]}, {names[1]} {points[1]} points")
    rules = summary.get("rules_in_words") or []
    if rules:
        lines.append(f"Rules: {', '.join(rules)}")
    lines.extend(summary.get("notes") or [])
    return lines


@dataclass
class GameUI:
    """The per-game parts of the app."""

    board: type[Board]
    move_list: Callable[[Session], list[str]] = numbered_moves
    #: Choices shown as buttons for the side to act: (label, move text).
    actions: Callable[[Session], list[tuple[str, str]]] = field(default=lambda session: [])
    #: A move to make for a person who has no choice (backgammon's roll when the
    #: cube may not be turned, a turn with no legal play): its text, or None.
    automatic: Callable[[Session], str | None] = field(default=lambda session: None)
    #: Extra lines for the side panel (dice, cube, pips, match score).
    details: Callable[[Session], list[str]] = field(default=lambda session: [])
    #: The last move, as the side panel shows it.
    last_move: Callable[[Session], str | None] = field(
        default=lambda session: session.last_move_text()
    )
    #: Whether resigning is a move of the game (backgammon: an offer to answer).
    resign_is_move: bool = False
    #: What F7 offers: the resignations, by their key and the command that makes each.
    resign_choices: list[Choice] = field(
        default_factory=lambda: [Choice("r", "Resign the game", "resign")]
    )
    #: The side whose pieces are at the bottom of the board when it is not flipped
    #: (White in chess; White in checkers, whose books put Black at the top);
    #: None for a board that always shows the player's own side (backgammon).
    bottom_side: Side | None = Side.FIRST


def side_to_act(state: State[Any]) -> Side | None:
    """The side to act, or None at a chance node or when the game is over."""
    if state.is_over():
        return None
    turn = state.turn
    return None if turn is CHANCE else Side(turn)
