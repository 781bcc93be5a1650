"""Race to ten: a tiny game with dice, so the conformance suite has a game with chance
nodes, draws and resignations to run on before (and beside) the real games.

Each side has a token starting at 0. On a turn the die (1, 2 or 3) is thrown, then
the side advances its token by the die or by one. The first token to reach ten wins;
if both stand on nine, the game is drawn ("deadlock").
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Self

from parlour.core.errors import IllegalMoveError, NotationError
from parlour.core.protocol import CHANCE, Chance, Game, Outcome, Side, State

GOAL = 10


@dataclass(frozen=True, slots=True, order=True)
class RaceMove:
    kind: str  # "throw" (chance) or "step"
    amount: int


class RaceState(State[RaceMove]):
    def __init__(
        self, tokens: tuple[int, int] = (0, 0), side: Side = Side.FIRST, die: int | None = None
    ) -> None:
        self.game = RACE
        self.tokens = list(tokens)
        self.side = side
        self.die = die
        self.history: list[tuple[RaceMove, int | None]] = []

    @property
    def turn(self) -> Side | Chance:
        return CHANCE if self.die is None else self.side

    def chance_outcomes(self) -> list[tuple[RaceMove, Fraction]]:
        if self.die is not None:
            return super().chance_outcomes()
        return [(RaceMove("throw", n), Fraction(1, 3)) for n in (1, 2, 3)]

    def legal_moves(self) -> list[RaceMove]:
        if self.rules_outcome() is not None:
            return []
        if self.die is None:
            return [move for move, _ in self.chance_outcomes()]
        return sorted({RaceMove("step", 1), RaceMove("step", self.die)})

    def explain_illegal(self, move: RaceMove) -> IllegalMoveError:
        if move.kind == "throw":
            return IllegalMoveError("the die has been thrown already", rule="not-chance")
        return IllegalMoveError(f"advance by 1 or by the die ({self.die})", rule="step")

    def push_unchecked(self, move: RaceMove) -> None:
        self.history.append((move, self.die))
        if move.kind == "throw":
            self.die = move.amount
        else:
            self.tokens[self.side] += move.amount
            self.side = self.side.other
            self.die = None

    def pop(self) -> RaceMove:
        move, die = self.history.pop()
        if move.kind == "step":
            self.side = self.side.other
            self.tokens[self.side] -= move.amount
        self.die = die
        return move

    def rules_outcome(self) -> Outcome | None:
        for side in Side:
            if self.tokens[side] >= GOAL:
                return Outcome(side, "reached ten")
        if self.tokens == [GOAL - 1, GOAL - 1]:
            return Outcome(None, "deadlock", 0)
        return None

    def to_text(self) -> str:
        die = "-" if self.die is None else str(self.die)
        return f"{self.tokens[0]},{self.tokens[1]},{int(self.side)},{die}"

    def move_to_text(self, move: RaceMove) -> str:
        return f"throw {move.amount}" if move.kind == "throw" else f"+{move.amount}"

    def parse_move(self, text: str) -> RaceMove:
        text = text.strip()
        if text.startswith("throw ") and text[6:].isdigit():
            move = RaceMove("throw", int(text[6:]))
        elif text.startswith("+") and text[1:].isdigit():
            move = RaceMove("step", int(text[1:]))
        else:
            raise NotationError(f"{text!r} is not a race move: write +1 or +N")
        if move not in self.legal_moves():
            raise self.explain_illegal(move)
        return move

    def copy(self) -> Self:
        twin = type(self)(tuple(self.tokens), self.side, self.die)  # type: ignore[arg-type]
        twin.history = list(self.history)
        twin._declared = self._declared
        return twin


class RaceGame(Game[RaceMove]):
    name = "race"
    title = "Race to ten"
    side_names = ("Red", "Blue")
    has_chance = True

    def new_state(self) -> RaceState:
        return RaceState()

    def state_from_text(self, text: str) -> RaceState:
        fields = text.split(",")
        if len(fields) != 4:
            raise NotationError("a race position has four fields: red,blue,side,die")
        red, blue, side, die = fields
        if not (red.isdigit() and blue.isdigit() and side in ("0", "1")):
            raise NotationError(f"{text!r} is not a race position")
        if die not in ("-", "1", "2", "3"):
            raise NotationError(f"the die must be 1, 2, 3 or -, not {die!r}")
        return RaceState((int(red), int(blue)), Side(int(side)), None if die == "-" else int(die))


RACE = RaceGame()
