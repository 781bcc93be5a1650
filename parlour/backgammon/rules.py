"""Backgammon through the core protocol: the game from the opening throw to the last
checker borne off, with the doubling cube and resignations.

Every step of a game is a protocol move, at one of these nodes (:class:`Phase`):

=============  ===========  ================================================
phase          who acts     moves (their text)
=============  ===========  ================================================
``OPENING``    the dice     each side throws one die: ``Throw((3, 1))`` means
                            the first side threw 3, the second 1 (``"31"``);
                            a tie is thrown again (and may turn the cube when
                            automatic doubles are on); the higher die moves
                            first, playing both dice
``CUBE``       the mover    ``roll``, ``double`` when allowed, or an offer to
                            resign: ``resign single|gammon|backgammon``
``THROW``      the dice     the mover's two dice, high die first (``"64"``)
``PLAY``       the mover    a play in gnubg text (``"24/18 13/11"``); with no
                            legal play the one move is the empty play, written
                            ``no move``
``DOUBLED``    the opponent ``take``, ``drop``, or ``beaver`` when beavers are on
``BEAVERED``   the mover    ``take`` or ``drop`` the beaver
``RESIGNING``  the opponent ``accept`` or ``decline`` the resignation offered
``OVER``       nobody
=============  ===========  ================================================

A double is therefore possible only at the start of one's own turn, before rolling.
The text of a state is gnubg's ``PositionID:MatchID`` pair, which records the turn,
the dice, the cube, the score, the match length and the Crawford game. One node has
no gnubg name: the moment after ``roll`` and before the dice land (``THROW``); gnubg
writes it exactly as the ``CUBE`` node before it, so our text adds ``:roll`` to tell
them apart (``4HPwATDgc/ABMA:cAkAAAAAAAAA:roll``).

>>> state = BACKGAMMON.new_state()
>>> for text in ["31", "8/5 6/5", "roll", "64", "24/18 13/9"]:
...     _ = state.play(text)
>>> state.turn, state.legal_moves()[:2]
(<Side.FIRST: 0>, [<Action.ROLL: 'roll'>, <Action.DOUBLE: 'double'>])
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Self

from parlour.backgammon.board import (
    CheckerMove,
    Play,
    Position,
    explain_illegal_play,
    legal_plays,
    next_steps,
)
from parlour.backgammon.cube import (
    BACKGAMMON as BACKGAMMON_WIN,
)
from parlour.backgammon.cube import (
    GAMMON,
    SINGLE,
    WIN_NAMES,
    Cube,
    CubeOptions,
    double_refusal,
    effective_win,
    win_reason,
)
from parlour.backgammon.notation import (
    MatchId,
    format_play,
    list_plays,
    match_id,
    match_id_from_text,
    parse_dice,
    parse_play,
    position_from_id,
    position_id,
)
from parlour.core.errors import IllegalMoveError, NotationError, ParlourError
from parlour.core.protocol import CHANCE, Chance, Game, Outcome, Side, State


class Phase(enum.Enum):
    """Where a game stands: who acts next and what they may do."""

    OPENING = "opening"
    CUBE = "cube"
    THROW = "throw"
    PLAY = "play"
    DOUBLED = "doubled"
    BEAVERED = "beavered"
    RESIGNING = "resigning"
    OVER = "over"


class Action(enum.Enum):
    """The moves that are words: the cube, the roll, and answers to a resignation."""

    ROLL = "roll"
    DOUBLE = "double"
    TAKE = "take"
    DROP = "drop"
    BEAVER = "beaver"
    ACCEPT = "accept"
    DECLINE = "decline"

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True, slots=True, order=True)
class Throw:
    """A chance outcome: the dice. At the opening throw ``dice`` is (the first side's
    die, the second side's die); later it is the mover's two dice, high die first."""

    dice: tuple[int, int]

    def __str__(self) -> str:
        return f"{self.dice[0]}{self.dice[1]}"


@dataclass(frozen=True, slots=True, order=True)
class Resign:
    """An offer to resign a single game (1), a gammon (2) or a backgammon (3)."""

    level: int

    def __str__(self) -> str:
        return f"resign {WIN_NAMES[self.level].split()[0]}"


#: Every protocol move of backgammon. A play is a tuple of checker moves; the empty
#: tuple is the play of a player who cannot move.
BackgammonMove = Throw | Action | Resign | Play

#: How a finished game ended, kept in the node so the outcome can be named.
_BORNE_OFF = "borne off"
_DROPPED = "dropped"
_BEAVER_DROPPED = "beaver dropped"
_RESIGNED = "resigned"

_RESIGN_WORDS = {"single": 1, "gammon": 2, "backgammon": 3, "1": 1, "2": 2, "3": 3}
_ACTION_WORDS = {
    "roll": Action.ROLL,
    "double": Action.DOUBLE,
    "redouble": Action.DOUBLE,
    "take": Action.TAKE,
    "drop": Action.DROP,
    "pass": Action.DROP,
    "beaver": Action.BEAVER,
    "accept": Action.ACCEPT,
    "decline": Action.DECLINE,
    "reject": Action.DECLINE,
}
_NO_MOVE_WORDS = ("no move", "cannot move", "")
NO_MOVE_TEXT = "no move"
_THROW_SUFFIX = ":roll"

# Game states of the gnubg Match ID.
_GS_NONE, _GS_PLAYING, _GS_OVER, _GS_RESIGNED, _GS_DROPPED = range(5)


_CENTRED = Cube()


@dataclass(frozen=True, slots=True)
class _Node:
    """Everything the rules need at one moment of a game (immutable: the history
    keeps the nodes, so taking a move back is exact)."""

    position: Position  # seen from the mover
    mover: Side  # whose turn of play it is (gnubg's "player on roll")
    phase: Phase
    cube: Cube = _CENTRED
    dice: tuple[int, int] | None = None
    resignation: int = 0  # the level offered (RESIGNING) or conceded (OVER)
    ending: str = ""  # how an OVER game ended


def _ordered(dice: tuple[int, int]) -> tuple[int, int]:
    return (dice[0], dice[1]) if dice[0] >= dice[1] else (dice[1], dice[0])


class BackgammonState(State[BackgammonMove]):
    """A game of backgammon in progress, in a match or a money session.

    ``match_length`` is 0 for money play; ``score`` is the match score before this
    game (FIRST, SECOND); ``crawford`` marks the Crawford game, in which nobody may
    double. The optional rules come from the game (:class:`BackgammonGame`); those
    that belong to money play (Jacoby, beavers, automatic doubles) apply only there.
    """

    game: BackgammonGame

    def __init__(
        self,
        game: BackgammonGame,
        node: _Node | None = None,
        *,
        match_length: int = 0,
        score: tuple[int, int] = (0, 0),
        crawford: bool = False,
    ) -> None:
        if match_length < 0:
            raise ValueError("the match length is 0 (money play) or more")
        if crawford and (match_length == 0 or match_length - 1 not in score):
            raise ValueError("the Crawford game needs a player one point from winning the match")
        self.game = game
        self.options: CubeOptions = game.options
        self.match_length = match_length
        self.score = score
        self.crawford = crawford
        self._node = node or _Node(Position.start(), Side.FIRST, Phase.OPENING)
        self._history: list[tuple[BackgammonMove, _Node]] = []
        self._plays_for: _Node | None = None
        self._plays: list[BackgammonMove] = []

    # -- what the position is ------------------------------------------------------

    @property
    def money(self) -> bool:
        """Whether this is money play (no match)."""
        return self.match_length == 0

    @property
    def phase(self) -> Phase:
        return self._node.phase

    @property
    def position(self) -> Position:
        """The checkers, seen from :attr:`mover`."""
        return self._node.position

    @property
    def mover(self) -> Side:
        """The side whose turn of play it is (it may be the opponent who must answer
        a double or a resignation: see :attr:`turn`)."""
        return self._node.mover

    @property
    def cube(self) -> Cube:
        return self._node.cube

    @property
    def dice(self) -> tuple[int, int] | None:
        """The mover's dice while they are to be played."""
        return self._node.dice

    @property
    def moves(self) -> list[BackgammonMove]:
        """Every move pushed so far, in order."""
        return [move for move, _ in self._history]

    @property
    def turn(self) -> Side | Chance:
        phase = self._node.phase
        if phase in (Phase.OPENING, Phase.THROW):
            return CHANCE
        if phase in (Phase.DOUBLED, Phase.RESIGNING):
            return self._node.mover.other
        return self._node.mover

    def _beavers(self) -> bool:
        return self.options.beavers and self.money

    def _automatic_doubles(self) -> int:
        return self.options.automatic_doubles if self.money else 0

    # -- the moves -----------------------------------------------------------------

    def chance_outcomes(self) -> list[tuple[BackgammonMove, Fraction]]:
        phase = self._node.phase
        if phase is Phase.OPENING:
            return [
                (Throw((first, second)), Fraction(1, 36))
                for first in range(1, 7)
                for second in range(1, 7)
            ]
        if phase is Phase.THROW:
            return [
                (Throw((high, low)), Fraction(1 if high == low else 2, 36))
                for high in range(6, 0, -1)
                for low in range(high, 0, -1)
            ]
        raise ParlourError("the dice are not to be thrown now")

    def legal_moves(self) -> list[BackgammonMove]:
        if self.is_over():
            return []
        node = self._node
        phase = node.phase
        if phase in (Phase.OPENING, Phase.THROW):
            return [move for move, _ in self.chance_outcomes()]
        if phase is Phase.CUBE:
            moves: list[BackgammonMove] = [Action.ROLL]
            if self.double_refusal(node.mover) is None:
                moves.append(Action.DOUBLE)
            moves.extend(Resign(level) for level in (SINGLE, GAMMON, BACKGAMMON_WIN))
            return moves
        if phase is Phase.PLAY:
            # Kept for the node: push() asks again right after a caller has asked.
            if self._plays_for is not node:
                assert node.dice is not None
                self._plays = list(legal_plays(node.position, node.dice)) or [()]
                self._plays_for = node
            return list(self._plays)
        if phase is Phase.DOUBLED:
            answers: list[BackgammonMove] = [Action.TAKE, Action.DROP]
            if self._beavers() and node.cube.value * 4 <= self.options.cube_limit:
                answers.append(Action.BEAVER)
            return answers
        if phase is Phase.BEAVERED:
            return [Action.TAKE, Action.DROP]
        if phase is Phase.RESIGNING:
            return [Action.ACCEPT, Action.DECLINE]
        return []

    def push_unchecked(self, move: BackgammonMove) -> None:
        node = self._node
        self._history.append((move, node))
        self._node = self._after(node, move)

    def _after(self, node: _Node, move: BackgammonMove) -> _Node:
        """The node that ``move`` (known to be legal) leads to."""
        phase = node.phase
        if isinstance(move, Throw):
            if phase is Phase.OPENING:
                first, second = move.dice
                if first == second:
                    turned = node.cube.value.bit_length() - 1  # automatic doubles so far
                    if (
                        turned < self._automatic_doubles()
                        and node.cube.value * 2 <= self.options.cube_limit
                    ):
                        return replace(node, cube=Cube(node.cube.value * 2))
                    return node
                starter = Side.FIRST if first > second else Side.SECOND
                position = node.position if starter == node.mover else node.position.swapped()
                return replace(
                    node, position=position, mover=starter, phase=Phase.PLAY, dice=move.dice
                )
            return replace(node, phase=Phase.PLAY, dice=move.dice)
        if isinstance(move, Resign):
            return replace(node, phase=Phase.RESIGNING, resignation=move.level)
        if isinstance(move, Action):
            if move is Action.ROLL:
                return replace(node, phase=Phase.THROW)
            if move is Action.DOUBLE:
                return replace(node, phase=Phase.DOUBLED)
            if move is Action.BEAVER:
                # The beaverer takes at twice the stake and at once offers to double again.
                return replace(
                    node, phase=Phase.BEAVERED, cube=Cube(node.cube.value * 2, node.mover.other)
                )
            if move is Action.TAKE:
                if phase is Phase.BEAVERED:
                    return replace(
                        node, phase=Phase.THROW, cube=Cube(node.cube.value * 2, node.mover.other)
                    )
                return replace(node, phase=Phase.THROW, cube=node.cube.doubled_by(node.mover))
            if move is Action.DROP:
                ending = _BEAVER_DROPPED if phase is Phase.BEAVERED else _DROPPED
                return replace(node, phase=Phase.OVER, ending=ending)
            if move is Action.ACCEPT:
                return replace(node, phase=Phase.OVER, ending=_RESIGNED)
            return replace(node, phase=Phase.CUBE, resignation=0)  # DECLINE
        # A play.
        position = node.position.apply(move)
        if position.win_kind():
            return replace(node, position=position, phase=Phase.OVER, dice=None, ending=_BORNE_OFF)
        return _Node(position.swapped(), node.mover.other, Phase.CUBE, node.cube)

    def pop(self) -> BackgammonMove:
        if not self._history:
            raise IndexError("no move to take back")
        move, self._node = self._history.pop()
        return move

    def copy(self) -> Self:
        twin = type(self)(
            self.game,
            self._node,
            match_length=self.match_length,
            score=self.score,
            crawford=self.crawford,
        )
        twin._history = list(self._history)
        twin._declared = self._declared
        return twin

    # -- the cube --------------------------------------------------------------------

    def double_refusal(self, side: Side) -> IllegalMoveError | None:
        """Why ``side`` may not double now, as an error naming the rule; None when
        it may. Apps call it when a player reaches for the cube out of turn.

        >>> state = BACKGAMMON.new_state()
        >>> str(state.double_refusal(Side.FIRST))
        'a double is offered at the start of your own turn, before you roll'
        """
        node = self._node
        if self.is_over():
            return IllegalMoveError("the game is over", rule="game-over")
        if self.turn != side:
            if node.phase is Phase.PLAY and node.mover == side.other:
                reason = "it is your opponent's turn: you may double only at the start of yours"
            else:
                reason = "it is not your turn: you may double only at the start of your own turn"
            if node.phase not in (Phase.PLAY, Phase.CUBE):
                reason = "a double is offered at the start of your own turn, before you roll"
            return IllegalMoveError(reason, rule="not-your-turn")
        if node.phase is Phase.PLAY:
            return IllegalMoveError(
                "you have rolled: a double is offered before rolling", rule="double-after-roll"
            )
        if node.phase is not Phase.CUBE:
            return IllegalMoveError(
                "a double is offered at the start of your own turn, before you roll",
                rule="double-timing",
            )
        return double_refusal(node.cube, side, self.options, crawford_game=self.crawford)

    def check_double(self, side: Side) -> None:
        """Raise the error naming the rule if ``side`` may not double now."""
        error = self.double_refusal(side)
        if error is not None:
            raise error

    # -- the outcome -----------------------------------------------------------------

    def rules_outcome(self) -> Outcome | None:
        node = self._node
        if node.phase is not Phase.OVER:
            return None
        money = self.money
        if node.ending == _BORNE_OFF:
            kind = node.position.win_kind()
            points = effective_win(kind, node.cube, self.options, money=money) * node.cube.value
            return Outcome(
                node.mover, win_reason(kind, node.cube, self.options, money=money), points
            )
        if node.ending == _BEAVER_DROPPED:
            return Outcome(node.mover.other, "beaver refused", node.cube.value)
        if node.ending == _DROPPED:
            return Outcome(node.mover, "double refused", node.cube.value)
        level = node.resignation
        points = effective_win(level, node.cube, self.options, money=money) * node.cube.value
        return Outcome(node.mover.other, f"resignation ({WIN_NAMES[level]} accepted)", points)

    def resignation_points(self, side: Side) -> int:
        """A plain resignation concedes what the game would be worth if the opponent
        bore off at once: a gammon while ``side`` has borne off none, a backgammon if
        also a checker of theirs is on the bar or in the opponent's home board."""
        node = self._node
        mine = node.position.mover if node.mover == side else node.position.opponent
        if sum(mine) < 15:
            kind = SINGLE
        elif any(mine[18:25]):
            kind = BACKGAMMON_WIN
        else:
            kind = GAMMON
        return effective_win(kind, node.cube, self.options, money=self.money) * node.cube.value

    # -- text ------------------------------------------------------------------------

    def match_id_fields(self) -> MatchId:
        """The gnubg Match ID fields of this state."""
        node = self._node
        phase = node.phase
        if phase is Phase.OPENING:
            game_state = _GS_NONE
        elif phase is Phase.OVER:
            game_state = {
                _BORNE_OFF: _GS_OVER,
                _DROPPED: _GS_DROPPED,
                _BEAVER_DROPPED: _GS_DROPPED,
                _RESIGNED: _GS_RESIGNED,
            }[node.ending]
        else:
            game_state = _GS_PLAYING
        deciding = node.mover
        if phase in (Phase.DOUBLED, Phase.RESIGNING) or (
            phase is Phase.OVER and node.ending == _RESIGNED
        ):
            deciding = node.mover.other
        if phase is Phase.OVER and node.ending == _DROPPED:
            deciding = node.mover.other
        double_offered = phase in (Phase.DOUBLED, Phase.BEAVERED) or node.ending in (
            _DROPPED,
            _BEAVER_DROPPED,
        )
        return MatchId(
            cube_value=node.cube.value,
            cube_owner=node.cube.owner,
            dice_owner=node.mover,
            crawford=self.crawford,
            game_state=game_state,
            turn=deciding,
            double_offered=double_offered,
            resignation=node.resignation,
            dice=node.dice,
            match_length=self.match_length,
            score=self.score,
        )

    def to_svg(self) -> str:
        """The position as an SVG diagram, seen by the first player, with the dice
        and the cube."""
        from parlour.backgammon.svg import draw  # drawing is rarely needed: load it then

        owner = self.cube.owner
        return draw(
            self.position,
            mover_is_first=self.mover is Side.FIRST,
            dice=self.dice,
            cube=self.cube.value,
            cube_owner=None if owner is None else int(owner),
        )

    def to_text(self) -> str:
        text = f"{position_id(self._node.position)}:{match_id(self.match_id_fields())}"
        return text + _THROW_SUFFIX if self._node.phase is Phase.THROW else text

    def move_to_text(self, move: BackgammonMove) -> str:
        if isinstance(move, tuple):
            return format_play(self._node.position, move) if move else NO_MOVE_TEXT
        return str(move)

    def split_line(self, text: str) -> list[str]:
        """The moves of a line: separated by commas (a play holds spaces), or a
        throw and its play written as a .mat file writes them, ``31: 8/5 6/5``.

        >>> BACKGAMMON.new_state().split_line("31: 8/5 6/5, roll, 64")
        ['31', '8/5 6/5', 'roll', '64']
        """
        moves = []
        for part in re.split(r"[,;\n]", text):
            throw, colon, play = part.partition(":")
            if colon:  # nothing after the colon: the throw left no move
                moves += [throw.strip(), " ".join(play.split()) or NO_MOVE_TEXT]
            elif part.strip():
                moves.append(" ".join(part.split()))
        return moves

    def join_line(
        self, texts: list[str], sides: list[Side | None], first_number: int | None = None
    ) -> str:
        """The moves separated by commas, a throw joined to the play after it as a
        .mat file writes them (``64: 24/18 13/9``); no move numbers (``first_number``
        is not used)."""
        parts: list[str] = []
        for index, text in enumerate(texts):
            if index and sides[index - 1] is None and sides[index] is not None:
                parts[-1] += f": {text}"
            else:
                parts.append(text)
        return ", ".join(parts)

    def parse_move(self, text: str) -> BackgammonMove:
        words = " ".join(text.lower().split())
        node = self._node
        move: BackgammonMove
        if words in _ACTION_WORDS:
            move = _ACTION_WORDS[words]
            if node.phase in (Phase.DOUBLED, Phase.BEAVERED) and move is Action.ACCEPT:
                move = Action.TAKE
            elif node.phase is Phase.RESIGNING and move is Action.DROP:
                move = Action.DECLINE
        elif words.startswith("resign"):
            level = words[len("resign") :].strip() or "single"
            if level not in _RESIGN_WORDS:
                raise NotationError(
                    f"cannot read {text!r}: say 'resign single', 'resign gammon' or "
                    "'resign backgammon'"
                )
            move = Resign(_RESIGN_WORDS[level])
        elif node.phase in (Phase.OPENING, Phase.THROW):
            dice = parse_dice(words)
            move = Throw(dice if node.phase is Phase.OPENING else _ordered(dice))
        elif node.phase is Phase.PLAY:
            assert node.dice is not None
            if words in _NO_MOVE_WORDS:
                move = ()
            else:
                move = parse_play(node.position, node.dice, text)
        elif (words and words[0].isdigit()) or "/" in words or words.startswith("bar"):
            raise IllegalMoveError(self._not_now("a play"), rule="roll-first")
        else:
            raise NotationError(
                f"cannot read {text!r} as a backgammon move: a play like '24/18 13/11', "
                "dice like '31', or roll, double, take, drop, beaver, resign, accept, decline"
            )
        if move not in self.legal_moves():
            raise self.explain_illegal(move)
        return move

    def _not_now(self, what: str) -> str:
        phase = self._node.phase
        if self.is_over():
            return "the game is over"
        if phase in (Phase.OPENING, Phase.THROW):
            return f"{what} is not possible now: the dice are to be thrown"
        if phase is Phase.CUBE:
            return f"{what} is not possible now: roll (or double) first"
        if phase is Phase.PLAY:
            return f"{what} is not possible now: play the dice you rolled"
        if phase is Phase.DOUBLED:
            return f"{what} is not possible now: a double waits for take or drop"
        if phase is Phase.BEAVERED:
            return f"{what} is not possible now: the beaver waits for take or drop"
        return f"{what} is not possible now: a resignation waits for accept or decline"

    def explain_illegal(self, move: BackgammonMove) -> IllegalMoveError:
        node = self._node
        phase = node.phase
        if self.is_over():
            return IllegalMoveError("the game is over", rule="game-over")
        if isinstance(move, Throw):
            return IllegalMoveError(self._not_now("throwing the dice"), rule="not-chance")
        if isinstance(move, tuple):
            if phase is Phase.PLAY:
                assert node.dice is not None
                return explain_illegal_play(node.position, node.dice, move)
            return IllegalMoveError(self._not_now("a play"), rule="roll-first")
        if isinstance(move, Resign):
            return IllegalMoveError(
                "a resignation is offered at the start of your own turn, before you roll",
                rule="resign-timing",
            )
        if move is Action.DOUBLE:
            turn = self.turn
            side = node.mover if isinstance(turn, Chance) else turn
            error = self.double_refusal(side)
            return error or IllegalMoveError(self._not_now("a double"), rule="double-timing")
        if move is Action.BEAVER:
            if not self._beavers():
                why = "beavers are not played here" if self.money else "beavers are for money play"
                return IllegalMoveError(why, rule="no-beavers")
            if phase is Phase.DOUBLED:
                return IllegalMoveError(
                    f"the cube is at its limit of {self.options.cube_limit}", rule="cube-limit"
                )
            if phase is Phase.BEAVERED:
                return IllegalMoveError("a beaver cannot be beavered back", rule="no-raccoon")
            return IllegalMoveError("there is no double to beaver", rule="no-double")
        if move in (Action.TAKE, Action.DROP):
            return IllegalMoveError("no double has been offered", rule="no-double")
        if move in (Action.ACCEPT, Action.DECLINE):
            return IllegalMoveError("no resignation has been offered", rule="no-resignation")
        return IllegalMoveError(self._not_now("rolling"), rule="roll-timing")

    def board_text(self) -> str:
        """The position as a few lines of text: the board from the mover's side,
        the cube, the dice and what is to be done."""
        node = self._node
        names = self.game.side_names
        lines = [self.to_text()]
        mover, opponent = node.position.mover, node.position.opponent
        top = "".join(f"{point:>4}" for point in range(13, 25))
        bottom = "".join(f"{point:>4}" for point in range(12, 0, -1))

        def cell(point: int) -> str:
            mine = mover[point - 1]
            theirs = opponent[24 - point]
            count, mark = (mine, "X") if mine else (theirs, "O")
            if not count:
                return "   ."
            return f"{mark if count == 1 else f'{count}{mark}':>4}"

        lines.append(top)
        lines.append("".join(cell(point) for point in range(13, 25)))
        lines.append("".join(cell(point) for point in range(12, 0, -1)))
        lines.append(bottom)
        pips = node.position.pips()
        position = node.position
        lines.append(
            f"X = {names[node.mover]} (bar {mover[24]}, off {position.mover_off}, pips {pips[0]})"
        )
        lines.append(
            f"O = {names[node.mover.other]} (bar {opponent[24]}, off {position.opponent_off}, "
            f"pips {pips[1]})"
        )
        owner = "middle" if node.cube.owner is None else names[node.cube.owner]
        cube = f"cube {node.cube.value} ({owner})"
        if self.match_length:
            cube += f"; match to {self.match_length}, score {self.score[0]}-{self.score[1]}"
            if self.crawford:
                cube += " (Crawford game)"
        lines.append(cube)
        if node.dice is not None:
            lines.append(f"dice {node.dice[0]}{node.dice[1]}")
        return "\n".join(lines)


class BackgammonGame(Game[BackgammonMove]):
    """Backgammon with a set of optional cube rules (:data:`BACKGAMMON` has them all
    off).

    >>> BackgammonGame(CubeOptions(jacoby=True)).options.jacoby
    True
    """

    name = "backgammon"
    title = "Backgammon"
    side_names = ("White", "Black")
    has_chance = True
    has_draws = False

    def __init__(self, options: CubeOptions | None = None) -> None:
        self.options = options or CubeOptions()

    def new_state(
        self, *, match_length: int = 0, score: tuple[int, int] = (0, 0), crawford: bool = False
    ) -> BackgammonState:
        """A new game at the opening throw (money play unless ``match_length``)."""
        return BackgammonState(self, match_length=match_length, score=score, crawford=crawford)

    def state_from_text(self, text: str) -> BackgammonState:
        """Read gnubg's ``PositionID:MatchID`` (optionally ``:roll`` after it: the
        dice are being thrown), or a bare Position ID: money play, the cube in the
        middle, the player on roll (taken as the first side) about to roll or double.
        """
        if not isinstance(text, str) or not text.strip():
            raise NotationError("empty position text: expected a gnubg Position ID")
        parts = text.strip().split(":")
        throwing = False
        if len(parts) == 3 and parts[2].lower() == "roll":
            throwing = True
            parts = parts[:2]
        if len(parts) > 2:
            raise NotationError(
                f"cannot read {text!r}: expected 'PositionID' or 'PositionID:MatchID'"
            )
        position = position_from_id(parts[0])
        position.validate()
        if len(parts) == 1:
            if position.win_kind() or position.swapped().win_kind():
                raise NotationError("the game is over in this position: a side has borne off all")
            return BackgammonState(self, _Node(position, Side.FIRST, Phase.CUBE))
        fields = match_id_from_text(_without_jacoby_bit(parts[1]))
        return _state_from_fields(self, position, fields, throwing)

    def list_moves(self, position: str, chance: str | None = None) -> list[tuple[str, str]]:
        """``parlour moves backgammon POSITION_ID DICE``: every distinct play with the
        Position ID it leads to, seen still from the mover (notation.list_plays). A
        Position ID with its Match ID (``ID:MATCHID``), as perft and play read it, is
        read whole and checked; the plays are the position's."""
        if chance is None:
            raise NotationError("give the dice as well, e.g. 31 or 66")
        if ":" in position:
            self.state_from_text(position)  # the pair must make sense together
            position = position.partition(":")[0]
        return list_plays(position, chance)


_BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"


def _without_jacoby_bit(text: str) -> str:
    """The Match ID without the 67th bit that GNU Backgammon 1.07 sets when its own
    Jacoby setting is on (as it is by default, even in match play). Here the Jacoby
    rule is an option of the game, so the bit is ignored; the position layer's
    reader would refuse it as a bit past the 66 it knows."""
    text = text.strip()
    if len(text) == 12 and text[-1] in _BASE64:
        last = _BASE64.index(text[-1])  # bits 66 to 71 of the ID; bit 66 is its value 4
        return text[:-1] + _BASE64[last & ~4]
    return text


def _impossible(why: str) -> NotationError:
    return NotationError(f"impossible Match ID: {why}")


def _state_from_fields(
    game: BackgammonGame, position: Position, fields: MatchId, throwing: bool
) -> BackgammonState:
    """Build the state a Match ID describes, refusing combinations no game reaches."""
    cube = Cube(fields.cube_value, fields.cube_owner)
    _check_match_fields(game, position, fields, cube, throwing)
    read_node = _NODE_READERS.get(fields.game_state)
    if read_node is None:
        raise _impossible(f"unknown game state {fields.game_state}")
    node = read_node(game, position, fields, cube, throwing)
    return BackgammonState(
        game, node, match_length=fields.match_length, score=fields.score, crawford=fields.crawford
    )


def _check_match_fields(
    game: BackgammonGame, position: Position, fields: MatchId, cube: Cube, throwing: bool
) -> None:
    """Refuse what no game state allows: a Crawford game nobody is near, a cube above
    the limit, a match already won, two offers at once, dice beside an offer."""
    length, score, state = fields.match_length, fields.score, fields.game_state
    if fields.crawford and (length == 0 or length - 1 not in score):
        raise _impossible("a Crawford game needs a player one point from winning the match")
    if cube.value > game.options.cube_limit:
        raise _impossible(
            f"the cube is at {cube.value}, above the limit of {game.options.cube_limit}"
        )
    going_on = state in (_GS_NONE, _GS_PLAYING)
    if length and going_on and max(score) >= length:
        raise _impossible(f"the score {score[0]}-{score[1]} has already won a {length}-point match")
    if fields.double_offered and fields.resignation:
        raise _impossible("a double and a resignation are both offered")
    if fields.dice is not None and (fields.double_offered or fields.resignation):
        raise _impossible("the dice are rolled while a double or a resignation waits")
    offers = fields.dice or fields.double_offered or fields.resignation
    if throwing and (state != _GS_PLAYING or offers or fields.turn != fields.dice_owner):
        raise _impossible("':roll' belongs only to a player about to throw the dice")
    if going_on and (position.win_kind() or position.swapped().win_kind()):
        raise _impossible("the game is over in this position, but the Match ID says it goes on")


def _node_before_opening(
    game: BackgammonGame, position: Position, fields: MatchId, cube: Cube, throwing: bool
) -> _Node:
    if fields.dice or fields.double_offered or fields.resignation or not cube.centred:
        raise _impossible("before the opening throw there are no dice, offers or owned cube")
    return _Node(position, fields.dice_owner, Phase.OPENING, cube)


def _node_in_play(
    game: BackgammonGame, position: Position, fields: MatchId, cube: Cube, throwing: bool
) -> _Node:
    mover, deciding = fields.dice_owner, fields.turn
    if fields.dice is not None:
        if deciding != mover:
            raise _impossible("the dice belong to the player whose turn it is")
        return _Node(position, mover, Phase.PLAY, cube, fields.dice)
    if fields.double_offered:
        return _node_with_double(game, position, fields, cube)
    if fields.resignation:
        if deciding == mover:
            raise _impossible("a resignation is answered by the opponent of the player resigning")
        return _Node(position, mover, Phase.RESIGNING, cube, resignation=fields.resignation)
    if deciding != mover:
        raise _impossible("the player to act is not the player on roll, with nothing offered")
    return _Node(position, mover, Phase.THROW if throwing else Phase.CUBE, cube)


def _node_with_double(
    game: BackgammonGame, position: Position, fields: MatchId, cube: Cube
) -> _Node:
    """A double waiting for its answer, or a beaver waiting for the doubler's."""
    mover, deciding = fields.dice_owner, fields.turn
    if deciding == mover:
        beavers_played = game.options.beavers and fields.match_length == 0
        if not beavers_played or cube.owner != mover.other:
            raise _impossible("a beaver waits, but beavers are not played here")
        return _Node(position, mover, Phase.BEAVERED, cube)
    if cube.owner == deciding:
        raise _impossible("a double is offered by the player who does not own the cube")
    return _Node(position, mover, Phase.DOUBLED, cube)


def _node_borne_off(
    game: BackgammonGame, position: Position, fields: MatchId, cube: Cube, throwing: bool
) -> _Node:
    if not position.win_kind():
        raise _impossible("the game is over but the player on roll has not borne off all")
    offers = fields.dice or fields.double_offered or fields.resignation
    if offers or fields.turn != fields.dice_owner:
        raise _impossible("a game won by bearing off has no dice or offers left")
    return _Node(position, fields.dice_owner, Phase.OVER, cube, ending=_BORNE_OFF)


def _node_resigned(
    game: BackgammonGame, position: Position, fields: MatchId, cube: Cube, throwing: bool
) -> _Node:
    if not fields.resignation or fields.turn == fields.dice_owner or fields.double_offered:
        raise _impossible("a resigned game names the resignation and the player who accepted")
    return _Node(
        position,
        fields.dice_owner,
        Phase.OVER,
        cube,
        resignation=fields.resignation,
        ending=_RESIGNED,
    )


def _node_dropped(
    game: BackgammonGame, position: Position, fields: MatchId, cube: Cube, throwing: bool
) -> _Node:
    mover = fields.dice_owner
    if not fields.double_offered or fields.resignation:
        raise _impossible("a dropped game records the double that was offered")
    beaver = fields.turn == mover
    if beaver and cube.owner != mover.other:
        raise _impossible("a dropped beaver leaves the cube with the beaverer")
    ending = _BEAVER_DROPPED if beaver else _DROPPED
    return _Node(position, mover, Phase.OVER, cube, ending=ending)


#: How each game state of a Match ID becomes a node of the game, with its checks.
_NODE_READERS = {
    _GS_NONE: _node_before_opening,
    _GS_PLAYING: _node_in_play,
    _GS_OVER: _node_borne_off,
    _GS_RESIGNED: _node_resigned,
    _GS_DROPPED: _node_dropped,
}


#: Backgammon with every optional rule off: the registered game.
BACKGAMMON = BackgammonGame()


class TurnBuilder:
    """A turn entered one checker at a time, as a player does on a board: each
    step can be undone until the play is confirmed into the protocol move.

    >>> state = BACKGAMMON.new_state()
    >>> _ = state.play("31")
    >>> turn = TurnBuilder(state)
    >>> turn.add(CheckerMove(8, 5)); turn.add(CheckerMove(6, 5))
    >>> turn.complete
    True
    >>> state.move_to_text(turn.confirm())
    '8/5 6/5'
    """

    def __init__(self, state: BackgammonState) -> None:
        if state.phase is not Phase.PLAY or state.dice is None:
            raise IllegalMoveError(state._not_now("moving checkers"), rule="roll-first")
        self.state = state
        self.dice: tuple[int, int] = state.dice
        self.start = state.position
        self.steps: list[CheckerMove] = []
        self._plays = legal_plays(self.start, self.dice)

    @property
    def position(self) -> Position:
        """The board with the steps made so far."""
        return self.start.apply(self.steps)

    def options(self) -> list[CheckerMove]:
        """The single checker moves that may come next and still lead to a legal play."""
        return next_steps(self.start, self.dice, self.steps)

    def add(self, step: CheckerMove) -> None:
        """Move one checker by one die; IllegalMoveError naming the rule if that step
        cannot be part of a legal play."""
        if step not in self.options():
            error = explain_illegal_play(self.start, self.dice, [*self.steps, step])
            if error.rule == "legal" or error.rule == "use-all-dice":
                error = IllegalMoveError(
                    f"{step} cannot be part of a legal play with {self.dice[0]}{self.dice[1]} "
                    "(the dice must be used as fully as the rules require)",
                    rule="no-legal-continuation",
                )
            raise error
        self.steps.append(step)

    def undo(self) -> CheckerMove:
        """Take back the last step; ParlourError when there is none."""
        if not self.steps:
            raise ParlourError("no checker has been moved yet this turn")
        return self.steps.pop()

    def reset(self) -> None:
        """Take back every step of this turn."""
        self.steps.clear()

    @property
    def complete(self) -> bool:
        """Whether the steps make a whole legal play (nothing more may be moved)."""
        if not self._plays:
            return not self.steps
        target = self.position
        return not self.options() and any(self.start.apply(play) == target for play in self._plays)

    def play(self) -> Play:
        """The protocol move the steps make (the legal play with the same result)."""
        if not self._plays and not self.steps:
            return ()
        target = self.position
        for play in self._plays:
            if self.start.apply(play) == target and not self.options():
                return play
        raise explain_illegal_play(self.start, self.dice, self.steps)

    def confirm(self) -> Play:
        """Play the turn on the state: it is final now. Returns the move pushed."""
        play = self.play()
        self.state.push(play)
        return play
