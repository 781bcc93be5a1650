"""One interface over every game: :class:`Game` describes a game, :class:`State` is a
position in it with everything the rules need (history for repetition, dice, cube).

The model follows multi-game frameworks such as OpenSpiel: every node of the game
tree belongs either to a player (a :class:`Side`) or to chance (the dice), and chance
outcomes are moves too, so a dice throw is pushed and popped like any other move.
Unlike OpenSpiel, a state is mutable with ``push``/``pop`` (as python-chess's Board),
because engines search by making and unmaking moves.

A small example with the tiny game the conformance suite uses::

    state = game.new_state()
    while not state.is_over():
        if state.turn is CHANCE:
            state.push(dice.choose(state.chance_outcomes()))
        else:
            state.push(state.legal_moves()[0])
    print(state.outcome())

What each game must provide is marked abstract below; everything else has a sound
default that a game may override for speed or better wording.
"""

from __future__ import annotations

import enum
import re
from abc import ABC, abstractmethod
from collections.abc import Hashable, Iterable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Generic, Self, TypeVar

from parlour.core.errors import GameOverError, IllegalMoveError, ParlourError

#: A move number in a line of moves: ``12.`` or ``12...``, alone or before the move.
_MOVE_NUMBER = re.compile(r"^\d+\.+")


class Side(enum.IntEnum):
    """One of the two players. FIRST is the side that starts the game by the rules:
    White in chess, Black in checkers; in backgammon, where the opening throw decides
    who starts, FIRST is simply the player listed first. Each game names its sides
    (:attr:`Game.side_names`)."""

    FIRST = 0
    SECOND = 1

    @property
    def other(self) -> Side:
        return Side.SECOND if self is Side.FIRST else Side.FIRST


class Chance(enum.Enum):
    """The actor at a chance node: the dice."""

    DICE = "dice"


#: The value of :attr:`State.turn` when the dice act next.
CHANCE = Chance.DICE


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a game ended.

    ``winner`` is None for a draw. ``reason`` says why in a player's words
    ("checkmate", "threefold repetition", "gammon"). ``points`` is what the winner
    scores: 1 in chess and checkers, 1/2/3 times the cube in backgammon, 0 for a draw.

    >>> Outcome(Side.FIRST, "checkmate")
    Outcome(winner=<Side.FIRST: 0>, reason='checkmate', points=1)
    """

    winner: Side | None
    reason: str
    points: int = 1

    @property
    def is_draw(self) -> bool:
        return self.winner is None


Move = TypeVar("Move", bound=Hashable)


class State(ABC, Generic[Move]):
    """A position in a game, with the history its rules depend on.

    Moves are small immutable values (hashable, comparable). ``push`` checks that a
    move is legal and raises :class:`IllegalMoveError` naming the broken rule if it
    is not; ``pop`` takes back the last move pushed. Endings that are not moves
    (a resignation, a draw by agreement or by claim) are declared with
    :meth:`resign`, :meth:`agree_draw` and :meth:`claim_draw`; they are final.
    """

    #: The game this state belongs to (set by each game's State class).
    game: Game[Any]

    _declared: Outcome | None = None

    # -- what each game provides ------------------------------------------------

    @property
    @abstractmethod
    def turn(self) -> Side | Chance:
        """Who acts next: a side, or :data:`CHANCE` when the dice are to be thrown.
        Only meaningful while the game is not over."""

    @abstractmethod
    def legal_moves(self) -> list[Move]:
        """The legal moves of the side to act (or the chance outcomes' moves at a
        chance node); empty when the game is over."""

    @abstractmethod
    def push_unchecked(self, move: Move) -> None:
        """Play a move known to be legal. Engines call this; everyone else calls
        :meth:`push`."""

    @abstractmethod
    def pop(self) -> Move:
        """Take back the last move pushed and return it; IndexError when no move
        has been pushed."""

    @abstractmethod
    def rules_outcome(self) -> Outcome | None:
        """The outcome that the position itself decides (checkmate, no move left,
        the last checker borne off, a rule draw), or None while play goes on."""

    @abstractmethod
    def to_text(self) -> str:
        """The position in the game's text encoding (FEN, PDN FEN, gnubg IDs);
        :meth:`Game.state_from_text` reads it back."""

    @abstractmethod
    def move_to_text(self, move: Move) -> str:
        """The move in the notation players read (SAN, PDN, gnubg move text)."""

    @abstractmethod
    def parse_move(self, text: str) -> Move:
        """Read a move as a player may type it, in this position.

        Raises :class:`NotationError` for text that is not a move at all and
        :class:`IllegalMoveError` for a move the rules forbid here."""

    @abstractmethod
    def copy(self) -> Self:
        """An independent copy, history included."""

    # -- chance -----------------------------------------------------------------

    def chance_outcomes(self) -> list[tuple[Move, Fraction]]:
        """At a chance node, every outcome with its probability (they sum to 1)."""
        raise ParlourError("the dice are not to be thrown now")

    # -- defaults built on the above --------------------------------------------

    def push(self, move: Move) -> None:
        """Play a move after checking that it is legal here."""
        if self.is_over():
            raise GameOverError()
        if move not in self.legal_moves():
            raise self.explain_illegal(move)
        self.push_unchecked(move)

    def play(self, text: str) -> Move:
        """Read a move as a player typed it and play it; return the move."""
        if self.is_over():
            raise GameOverError()
        move = self.parse_move(text)
        self.push(move)
        return move

    # -- a line of moves -------------------------------------------------------

    def split_line(self, text: str) -> list[str]:
        """The moves of a line as written (see :meth:`play_line`), each as a player
        types one. By default moves are separated by spaces and move numbers
        (``12.``, ``12...``, also stuck to the move as in ``1.e4``) are dropped; a
        line of moves whose text holds spaces is written with commas between them
        (as :meth:`join_line` writes it)."""
        if "," in text:
            return [" ".join(part.split()) for part in text.split(",") if part.strip()]
        words = []
        for word in text.split():
            bare = _MOVE_NUMBER.sub("", word)
            if bare:
                words.append(bare)
        return words

    def play_line(self, text: str) -> list[Move]:
        """Play a whole line of moves written as text -- ``"1. e4 e5 2. Nf3"`` in
        chess, ``"11-15 23-19"`` in checkers, ``"31, 8/5 6/5, roll, 64"`` in
        backgammon, throws of the dice included -- and return the moves. All or
        nothing: when a move cannot be read or is illegal, the moves before it are
        taken back and the error says which move it was.

        >>> from parlour.core.registry import get_game
        >>> state = get_game("chess").new_state()
        >>> [str(move) for move in state.play_line("1. e4 e5 2. Nf3")]
        ['e2e4', 'e7e5', 'g1f3']
        >>> state.play_line("Nc6 Ke3")
        Traceback (most recent call last):
        ...
        parlour.core.errors.IllegalMoveError: move 2 of the line, 'Ke3': ...
        """
        moves: list[Move] = []
        try:
            for number, word in enumerate(self.split_line(text), start=1):
                try:
                    moves.append(self.play(word))
                except ParlourError as error:
                    # The same error (its class and rule kept), saying where it is.
                    error.args = (f"move {number} of the line, {word!r}: {error}",)
                    raise
        except BaseException:
            for _ in moves:
                self.pop()
            raise
        return moves

    def line_to_text(self, moves: Iterable[Move]) -> str:
        """The ``moves``, played one after another from this position, written as a
        line that :meth:`play_line` reads back; this state is left as it was.
        IllegalMoveError names the first move that is not legal in its turn.

        >>> from parlour.core.registry import get_game
        >>> state = get_game("checkers").new_state()
        >>> line = state.line_to_text(state.copy().play_line("11-15 23-19 8-11"))
        >>> line
        '1. 11-15 23-19 2. 8-11'
        """
        probe = self.copy()
        texts: list[str] = []
        sides: list[Side | None] = []
        for move in moves:
            sides.append(probe.turn if isinstance(probe.turn, Side) else None)
            texts.append(probe.move_to_text(move))
            probe.push(move)
        return self.join_line(texts, sides)

    def join_line(
        self, texts: list[str], sides: list[Side | None], first_number: int | None = None
    ) -> str:
        """Moves as text (``sides``: who made each, None for a throw) written as a
        line: numbered by pairs of moves, as a score sheet, starting from
        ``first_number`` (by default :meth:`first_move_number`: where a game's
        record knows better, as an annotated game does, it says); or, when a move's
        text holds a space, unnumbered with commas between the moves."""
        if any(" " in text for text in texts):
            return ", ".join(texts)
        words: list[str] = []
        number = self.first_move_number() if first_number is None else first_number
        for index, (text, side) in enumerate(zip(texts, sides, strict=True)):
            if side is Side.FIRST:
                words.append(f"{number}. {text}")
            elif index == 0:  # as python-chess writes it
                words.append(f"{number}...{text}")
            else:
                words.append(text)
            if side is Side.SECOND:
                number += 1
        return " ".join(words)

    def first_move_number(self) -> int:
        """The number a line of moves from this position starts at (chess reads it
        from the FEN; other games start at 1)."""
        return 1

    def explain_illegal(self, move: Move) -> IllegalMoveError:
        """Why ``move`` is not legal here, as an error to raise. Games override
        this to name the rule ("a capture is available: 22x15 must be played")."""
        return IllegalMoveError(f"{move} is not a legal move here", rule="illegal")

    def outcome(self) -> Outcome | None:
        """How the game ended, or None while it goes on."""
        if self._declared is not None:
            return self._declared
        return self.rules_outcome()

    def is_over(self) -> bool:
        return self.outcome() is not None

    def board_text(self) -> str:
        """A plain-text picture of the position for line-mode play."""
        return self.to_text()

    def __repr__(self) -> str:
        """The state's class and position text, as a reader can paste it back:
        ``<ChessState 'rnbqkbnr/... w KQkq - 0 1'>``."""
        return f"<{type(self).__name__} {self.to_text()!r}>"

    def to_svg(self) -> str:
        """A diagram of the position as SVG (what notebooks show for a state).
        Games without one raise ParlourError."""
        raise ParlourError(f"{self.game.title} has no drawing yet")

    def _repr_svg_(self) -> str | None:
        """Jupyter's hook: the diagram, or None (plain text) for a game without one."""
        try:
            return self.to_svg()
        except ParlourError:
            return None

    # -- equality ---------------------------------------------------------------

    def key(self) -> Hashable:
        """Everything the rules see in this state, as an immutable value: the
        position text and any ending declared. Games whose rules count earlier
        positions (repetition draws) add those, as a multiset, so that two move
        orders reaching the same position with the same past are the same state.

        Two states are equal, and hash alike, exactly when their keys are equal.
        A state is mutable: to keep one in a set or as a dict key, keep its key
        (or a copy of it) and push no more moves to it.

        >>> from parlour.core.registry import get_game
        >>> chess = get_game("chess")
        >>> one, two = chess.new_state(), chess.new_state()
        >>> for move in ("e4", "e5", "d4"):
        ...     _ = one.play(move)
        >>> for move in ("d4", "e5", "e4"):
        ...     _ = two.play(move)
        >>> one == two, one == chess.new_state()
        (True, False)
        """
        return (self.game.name, self.to_text(), self._declared)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, State):
            return NotImplemented
        return self is other or self.key() == other.key()

    def __hash__(self) -> int:
        return hash(self.key())

    # -- endings that are not moves ---------------------------------------------

    def resign(self, side: Side) -> Outcome:
        """``side`` resigns; the other side wins. Returns the outcome."""
        if self.is_over():
            raise GameOverError()
        self._declared = Outcome(side.other, "resignation", self.resignation_points(side))
        return self._declared

    def flag(self, side: Side) -> Outcome:
        """``side``'s clock has run out: it loses on time, conceding what a
        resignation would (games with a rule of their own, such as chess's draw
        against a side that cannot mate, say so)."""
        if self.is_over():
            raise GameOverError()
        self._declared = Outcome(side.other, "loss on time", self.resignation_points(side))
        return self._declared

    def resignation_points(self, side: Side) -> int:
        """What a resignation by ``side`` concedes (1 unless the game says more)."""
        return 1

    def agree_draw(self) -> Outcome:
        """Both players agree to a draw."""
        if self.is_over():
            raise GameOverError()
        if not self.game.has_draws:
            raise IllegalMoveError(f"{self.game.title} has no draws", rule="no-draws")
        self._declared = Outcome(None, "agreement", 0)
        return self._declared

    def claimable_draw(self) -> str | None:
        """The reason a draw may be claimed now (chess's threefold repetition or
        fifty-move rule), or None. Games without claims keep the default."""
        return None

    def claim_draw(self) -> Outcome:
        """Claim the draw that :meth:`claimable_draw` names."""
        if self.is_over():
            raise GameOverError()
        reason = self.claimable_draw()
        if reason is None:
            raise IllegalMoveError("there is no draw to claim", rule="no-draw-claim")
        self._declared = Outcome(None, reason, 0)
        return self._declared


class Game(ABC, Generic[Move]):
    """A game: its names, its starting position and its text encodings."""

    #: Short name used on the command line and in URLs: "chess".
    name: str
    #: Name shown to players: "Chess".
    title: str
    #: What the two sides are called, FIRST then SECOND: ("White", "Black").
    side_names: tuple[str, str]
    #: Whether dice (chance nodes) are part of the game.
    has_chance: bool = False
    #: Whether a game can end in a draw.
    has_draws: bool = True

    @abstractmethod
    def new_state(self) -> State[Move]:
        """The starting position."""

    @abstractmethod
    def state_from_text(self, text: str) -> State[Move]:
        """Read a position in the game's text encoding; raises NotationError."""

    def side_name(self, side: Side) -> str:
        return self.side_names[side]

    def perft(self, state: State[Move], depth: int) -> int:
        """Count the leaf nodes of the legal-move tree ``depth`` plies deep.

        The generic count makes and unmakes every move; games override it with a
        faster one where they have it."""
        if depth < 0:
            raise ValueError("perft depth must be 0 or more")
        return _perft(state, depth)

    def list_moves(self, position: str, chance: str | None = None) -> list[tuple[str, str]]:
        """Every legal move from ``position`` (after the chance outcome ``chance``,
        e.g. dice ``31``, if given): pairs of move text and resulting position text.

        Backs ``parlour moves``; games override it where their contract differs."""
        state = self.state_from_text(position)
        if chance is not None:
            state.push(state.parse_move(chance))
        listing = []
        for move in state.legal_moves():
            text = state.move_to_text(move)
            state.push_unchecked(move)
            listing.append((text, state.to_text()))
            state.pop()
        return listing

    def __repr__(self) -> str:
        return f"<Game {self.name}>"


def _perft(state: State[Any], depth: int) -> int:
    if depth == 0:
        return 1
    if state.turn is CHANCE:
        raise ParlourError(
            "perft counts the players' moves and stops at a throw of the dice: the dice "
            "are to be thrown within the depth asked for (count from a position with "
            "its dice thrown, to a depth that ends before the next throw)"
        )
    moves = state.legal_moves()
    if depth == 1:
        return len(moves)
    total = 0
    for move in moves:
        state.push_unchecked(move)
        total += _perft(state, depth - 1)
        state.pop()
    return total
