"""American checkers (English draughts): a game in progress and how it ends.

The board, its numbering and the moves on it are :mod:`parlour.checkers.board`; this
module is the protocol's State on it.

The moves are the American Checkers Federation's (see the board module); this module
adds how a game goes on and ends: a side with no legal move loses, and the draws by
repetition and the forty-move rule are claimed, not automatic.

>>> state = CHECKERS.new_state()
>>> [state.move_to_text(move) for move in state.legal_moves()][:3]
['9-13', '9-14', '10-14']
>>> state.play("11-15"); state.play("24-19"); state.play("15x24")
Move(path=(11, 15))
Move(path=(24, 19))
Move(path=(15, 24))
"""

from __future__ import annotations

import itertools
from collections.abc import Hashable
from dataclasses import dataclass
from typing import Self

from parlour.checkers.board import (
    BIT_SQUARE,
    BLACK,
    CROWN_ROW,
    FORTY_MOVE_PLIES,
    FORWARD,
    SQUARE_BIT,
    START,
    Move,
    Position,
    is_jump,
    legal_moves,
    perft,
    sides,
    step_between,
)
from parlour.checkers.notation import board_picture, parse_fen, parse_move, position_to_fen
from parlour.core.errors import IllegalMoveError
from parlour.core.protocol import Game, Outcome, Side, State

# -- the state ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Undo:
    move: Move
    position: Position
    quiet_plies: int


#: Bit masks of a move's start, end and jumped pieces, by path: computed once
#: per path, as the same moves are played again and again in a search.
_EFFECTS: dict[tuple[int, ...], tuple[int, int, int]] = {}


def _effect(move: Move) -> tuple[int, int, int]:
    taken = 0
    for square in move.captured:
        taken |= 1 << SQUARE_BIT[square]
    return 1 << SQUARE_BIT[move.start], 1 << SQUARE_BIT[move.end], taken


class CheckersState(State[Move]):
    """A checkers position with the history its draw rules need.

    Draws by the rules are *claimed*, not automatic. The rule sheets in the box say
    only that a game neither side can win is drawn; the ACF (and the world
    federation's harmonised English rules) let a player show the referee that a
    position has come round for the third time, or that neither side has moved a
    man or captured for forty moves each, and the game is then declared drawn. The
    rules do not stop the game by themselves, so neither does this class:
    :meth:`claimable_draw` names the draw that may be claimed and
    :meth:`claim_draw` ends the game with it. :meth:`rules_outcome` decides only
    what the position itself decides: the side to move has no legal move and loses.

    >>> state = CheckersState.from_position((0, 1 << SQUARE_BIT[1], 1 << SQUARE_BIT[32], 0))
    >>> state.to_text()
    'B:W32:BK1'
    """

    def __init__(self) -> None:
        self.game = CHECKERS
        self.position: Position = START
        self._turn = BLACK
        #: Plies since a man moved or a piece was captured (for the 40-move rule).
        self.quiet_plies = 0
        self._history: list[_Undo] = []
        #: The position keys met so far, the current one last (for repetition).
        self._seen: list[tuple[int, int, int, int, int]] = [(*START, BLACK)]
        self._moves: list[Move] | None = None

    @classmethod
    def from_position(cls, position: Position, turn: Side = BLACK, quiet_plies: int = 0) -> Self:
        state = cls()
        state.position = position
        state._turn = turn
        state.quiet_plies = quiet_plies
        state._seen = [(*position, turn)]
        return state

    # -- the protocol ---------------------------------------------------------------

    @property
    def turn(self) -> Side:
        return self._turn

    def legal_moves(self) -> list[Move]:
        if self._declared is not None:
            return []  # resigned or drawn by agreement or claim
        return list(self._legal())

    def _legal(self) -> list[Move]:
        """The moves the rules allow in this position (cached until it changes)."""
        if self._moves is None:
            self._moves = self._generate()
        return self._moves

    def _generate(self) -> list[Move]:
        return legal_moves(self.position, self._turn)

    def _sides(self) -> tuple[int, int, int, int]:
        """The mover's men and kings, the opponents' pieces, the empty squares."""
        return sides(self.position, self._turn)

    def push_unchecked(self, move: Move) -> None:
        black_men, black_kings, white_men, white_kings = self.position
        side = self._turn
        if side is BLACK:
            men, kings, their_men, their_kings = black_men, black_kings, white_men, white_kings
        else:
            men, kings, their_men, their_kings = white_men, white_kings, black_men, black_kings
        effect = _EFFECTS.get(move.path)
        if effect is None:
            effect = _EFFECTS[move.path] = _effect(move)
        start, end, taken = effect
        if kings & start:
            kings = kings ^ start | end
            quiet = not taken
        elif end & CROWN_ROW[side]:
            men, kings = men ^ start, kings | end
            quiet = False
        else:
            men = men ^ start | end
            quiet = False
        their_men &= ~taken
        their_kings &= ~taken
        self._history.append(_Undo(move, self.position, self.quiet_plies))
        if side is BLACK:
            self.position = (men, kings, their_men, their_kings)
        else:
            self.position = (their_men, their_kings, men, kings)
        self._turn = side.other
        self.quiet_plies = self.quiet_plies + 1 if quiet else 0
        self._seen.append((*self.position, self._turn))
        self._moves = None

    def pop(self) -> Move:
        undo = self._history.pop()
        self.position = undo.position
        self.quiet_plies = undo.quiet_plies
        self._turn = self._turn.other
        self._seen.pop()
        self._moves = None
        return undo.move

    def rules_outcome(self) -> Outcome | None:
        if self._legal():
            return None
        men, kings, _, _ = self._sides()
        reason = "no pieces left" if not men | kings else "no legal move"
        return Outcome(self._turn.other, reason)

    def claimable_draw(self) -> str | None:
        if self.is_over():
            return None
        if self.repetitions() >= 3:
            return "threefold repetition"
        if self.quiet_plies >= FORTY_MOVE_PLIES:
            return "40-move rule"
        return None

    def repetitions(self) -> int:
        """How many times the current position (side to move included) has stood
        on the board. Only positions since the last man move or capture can
        repeat, as those cannot be undone."""
        current = self._seen[-1]
        recent = self._seen[-1 - self.quiet_plies :]
        return sum(1 for key in recent[::-2] if key == current)

    def to_svg(self, *, flipped: bool = False) -> str:
        """The position as an SVG diagram, Black's side at the top unless ``flipped``."""
        from parlour.checkers.svg import draw  # drawing is rarely needed: load it then

        return draw(self.piece_at, flipped=flipped)

    def key(self) -> Hashable:
        """The position, any declared ending, the quiet plies (the 40-move rule)
        and the positions since the last man move or capture as a multiset (what
        repetition counts)."""
        recent = self._seen[-1 - self.quiet_plies : -1]
        return (
            self.game.name,
            self.to_text(),
            self._declared,
            self.quiet_plies,
            tuple(sorted(recent)),
        )

    def to_text(self) -> str:
        return position_to_fen(self.position, self._turn)

    def move_to_text(self, move: Move) -> str:
        return str(move)

    def parse_move(self, text: str) -> Move:
        return parse_move(self, text)

    def copy(self) -> Self:
        twin = type(self).from_position(self.position, self._turn, self.quiet_plies)
        twin._history = list(self._history)
        twin._seen = list(self._seen)
        twin._declared = self._declared
        return twin

    def board_text(self) -> str:
        return board_picture(self.position, self._turn)

    # -- pieces ---------------------------------------------------------------------

    def piece_at(self, square: int) -> str | None:
        """The piece on a square: 'b' / 'B' for a Black man / king, 'w' / 'W' for
        White's, None when empty."""
        bit = 1 << SQUARE_BIT[square]
        for letter, mask in zip("bBwW", self.position, strict=True):
            if mask & bit:
                return letter
        return None

    @property
    def move_stack(self) -> list[Move]:
        """The moves pushed so far, oldest first."""
        return [undo.move for undo in self._history]

    # -- why a move is illegal -------------------------------------------------------

    def explain_illegal(self, move: Move) -> IllegalMoveError:
        if not isinstance(move, Move) or len(move.path) < 2:
            return IllegalMoveError(f"{move!r} is not a checkers move", rule="not-a-move")
        path = move.path
        if any(not 1 <= square <= 32 for square in path):
            return IllegalMoveError("squares are numbered 1 to 32", rule="no-such-square")
        me = "Black" if self._turn is BLACK else "White"
        piece = self.piece_at(path[0])
        if piece is None:
            return IllegalMoveError(f"there is no piece on square {path[0]}", rule="empty-square")
        if (piece in "bB") != (self._turn is BLACK):
            return IllegalMoveError(
                f"the piece on {path[0]} is not yours: it is {me}'s turn", rule="not-your-piece"
            )
        is_king = piece.isupper()
        forward = FORWARD[self._turn]
        legal = self.legal_moves()
        captures = [m for m in legal if m.is_capture]
        if not move.is_capture:
            step = step_between(path[0], path[1])
            if len(path) != 2 or step is None:
                return IllegalMoveError(
                    "a piece steps one square diagonally, or jumps over a piece",
                    rule="not-diagonal",
                )
            if not is_king and step not in forward:
                return IllegalMoveError("men move only forward", rule="men-forward")
            if self.piece_at(path[1]) is not None:
                return IllegalMoveError(f"that square is occupied: {path[1]}", rule="occupied")
            if captures:
                return _capture_required(captures)
        else:
            crown = CROWN_ROW[self._turn]
            for index, (a, b) in enumerate(itertools.pairwise(path)):
                if not is_jump(a, b):
                    return IllegalMoveError(
                        f"{a} to {b} is not a jump: a jump goes over one diagonal neighbour",
                        rule="not-diagonal",
                    )
                step = (SQUARE_BIT[b] - SQUARE_BIT[a]) // 2
                if not is_king and step not in forward:
                    return IllegalMoveError("men move and jump only forward", rule="men-forward")
                over = BIT_SQUARE[SQUARE_BIT[a] + step]
                if over in move.captured[:index]:
                    return IllegalMoveError("a piece cannot be jumped twice", rule="jumped-twice")
                jumped = self.piece_at(over)
                if jumped is None or (jumped in "bB") == (self._turn is BLACK):
                    return IllegalMoveError(
                        f"there is no opposing piece on {over} to jump", rule="nothing-to-jump"
                    )
                if b != path[0] and self.piece_at(b) is not None:
                    return IllegalMoveError(f"that square is occupied: {b}", rule="occupied")
                if not is_king and 1 << SQUARE_BIT[b] & crown and b != path[-1]:
                    return IllegalMoveError(
                        f"the man is crowned on {b} and the move ends there",
                        rule="crowning-ends-move",
                    )
            longer = [m for m in captures if m.path[: len(path)] == path]
            if longer:
                goes_on = " or ".join(str(n) for n in sorted({m.path[len(path)] for m in longer}))
                return IllegalMoveError(
                    f"the jump must go on: {move} can continue to {goes_on}",
                    rule="multi-jump-incomplete",
                )
        return IllegalMoveError(f"{move} is not a legal move here", rule="illegal")


def _capture_required(captures: list[Move]) -> IllegalMoveError:
    if len(captures) == 1:
        text = f"{captures[0]} must be played"
    else:
        listed = ", ".join(map(str, captures[:6]))
        more = ", ..." if len(captures) > 6 else ""
        text = f"one of {listed}{more} must be played"
    return IllegalMoveError(f"a capture is available: {text}", rule="capture-compulsory")


class CheckersGame(Game[Move]):
    """American checkers. ``state_from_text`` reads the PDN FEN tag value.

    >>> CHECKERS.perft(CHECKERS.new_state(), 3)
    302
    """

    name = "checkers"
    title = "Checkers"
    side_names = ("Black", "White")

    def new_state(self) -> CheckersState:
        return CheckersState()

    def state_from_text(self, text: str) -> CheckersState:
        position, turn = parse_fen(text)
        return CheckersState.from_position(position, turn)

    def perft(self, state: State[Move], depth: int) -> int:
        if depth < 0:
            raise ValueError("perft depth must be 0 or more")
        if not isinstance(state, CheckersState):
            return super().perft(state, depth)
        if depth > 0 and state.is_over():
            return 0
        return perft(state.position, state.turn, depth)


CHECKERS = CheckersGame()

__all__ = ["CHECKERS", "CheckersGame", "CheckersState"]
