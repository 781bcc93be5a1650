"""Line-by-line play in a terminal, for any game, through the core protocol.

This is the plain fallback: it needs nothing but a terminal and reads moves typed in
each game's notation. Two people share the keyboard; the dice are thrown for them.
"""

from __future__ import annotations

import sys
from typing import Any, TextIO

from parlour.core.dice import Dice
from parlour.core.errors import ParlourError
from parlour.core.protocol import CHANCE, Game, Side, State

HELP = """Type a move in the game's notation, or one of:
  moves   list the legal moves
  undo    take back the last move
  board   show the board again
  resign  resign the game
  draw    agree a draw (both players)
  claim   claim a draw the rules allow
  quit    leave the game"""


def play_in_terminal(
    game: Game[Any],
    *,
    position: str | None = None,
    seed: int | None = None,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
) -> int:
    """Run a game at one keyboard until it ends or the players leave."""
    read = stdin or sys.stdin
    out = stdout or sys.stdout
    state = game.new_state() if position is None else game.state_from_text(position)
    dice = Dice(seed)

    def say(text: str) -> None:
        out.write(text + "\n")
        out.flush()

    say(f"{game.title}. Type 'help' for the commands.")
    say(state.board_text())
    while True:
        outcome = state.outcome()
        if outcome is not None:
            if outcome.winner is None:
                say(f"Draw: {outcome.reason}.")
            else:
                points = f" ({outcome.points} points)" if outcome.points != 1 else ""
                say(f"{game.side_name(outcome.winner)} wins: {outcome.reason}{points}.")
            return 0
        turn = state.turn
        if turn is CHANCE:
            throw = dice.choose(state.chance_outcomes())
            state.push_unchecked(throw)
            say(_thrown(game, state, state_move_text(state, throw)))
            continue
        out.write(f"{game.side_name(turn)} to move> ")
        out.flush()
        line = read.readline()
        if not line:
            say("\nGame left unfinished.")
            return 0
        command = line.strip()
        if not command:
            continue
        try:
            if _command(command, state, turn, say):
                return 0
        except ParlourError as error:
            say(f"Not allowed: {error}")


def _thrown(game: Game[Any], state: State[Any], text: str) -> str:
    """A throw of the dice just made, in words: "White rolled 6-2." (two dice written
    as digits, ``62``, are read as a pair; the side is the one to move after it)."""
    words = f"{text[0]}-{text[1]}" if len(text) == 2 and text.isdigit() else text
    if state.is_over() or not isinstance(state.turn, Side):
        return f"The dice show {words}."
    return f"{game.side_name(state.turn)} rolled {words}."


def state_move_text(state: State[Any], move: object) -> str:
    """The text of a move just pushed, read from the position before it."""
    state_before = state.copy()
    state_before.pop()
    return state_before.move_to_text(move)


def _command(command: str, state: State[Any], turn: Side, say: Any) -> bool:
    """Carry out one line typed by a player; True when they leave."""
    word = command.lower()
    if word in ("quit", "exit"):
        say("Game left unfinished.")
        return True
    if word in ("help", "?"):
        say(HELP)
    elif word == "moves":
        say(" ".join(state.move_to_text(move) for move in state.legal_moves()))
    elif word == "board":
        say(state.board_text())
    elif word == "undo":
        _undo(state)
        say(state.board_text())
    elif word == "resign":
        state.resign(turn)
    elif word == "draw":
        state.agree_draw()
    elif word == "claim":
        state.claim_draw()
    else:
        state.play(command)
        say(state.board_text())
    return False


def _undo(state: State[Any]) -> None:
    """Take back the last player's move, keeping the dice that were thrown for it
    (taking back a throw would let a player throw again)."""
    probe = state.copy()
    try:
        probe.pop()
    except IndexError:
        raise ParlourError("there is no move to take back") from None
    if probe.turn is CHANCE:
        raise ParlourError("the dice have been thrown; there is no move of yours to take back")
    state.pop()
