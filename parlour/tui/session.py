"""The game being played in the terminal app, apart from how it is drawn.

A :class:`Session` holds the position, the moves played as text in the game's own
notation, the players (a person, or the computer at a level), the dice, and the
earlier games of a backgammon match. It knows when the dice are due, when the
computer is to move, what undo may take back, and how to save itself as a small
JSON file and come back from one. It imports nothing from Textual, so all of this
is tested without a screen.

>>> from parlour.core.registry import get_game
>>> session = Session(get_game("checkers"), Options())
>>> session.play_text("11-15")
'11-15'
>>> session.undo(), session.texts
(1, [])
"""

from __future__ import annotations

import json
import random
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from parlour.core.dice import Dice
from parlour.core.engine import Engine, Hint
from parlour.core.errors import GameOverError, NotationError, ParlourError
from parlour.core.face import Export, Recorded, end_as_recorded
from parlour.core.protocol import CHANCE, Game, Outcome, Side, State
from parlour.core.registry import get_engine, get_face, get_game

HUMAN = "human"
COMPUTER = "computer"

#: What a save file says it is, so a stray JSON file is refused clearly.
SAVE_KIND = "parlour saved game"
SAVE_VERSION = 1
#: The version of a file that needs more than version 1 knew: a backgammon game by
#: optional cube rules. A Parlour that knows only version 1 refuses it rather than
#: resuming the game by other rules; files without cube rules stay version 1.
SAVE_VERSION_CUBE_RULES = 2
KNOWN_SAVE_VERSIONS = (SAVE_VERSION, SAVE_VERSION_CUBE_RULES)


@dataclass
class Options:
    """How a game is played: against whom, at what level, which side the person
    takes against the computer, the dice seed, and the game's optional rules."""

    opponent: str = HUMAN
    level: int | None = None
    side: Side = Side.FIRST
    seed: int | None = None
    #: The game's optional rules by name, as its face's series reads them (for
    #: backgammon: match_length, jacoby, beavers, automatic_doubles, max_cube); empty
    #: for the standard rules. The game's face checks them.
    rules: dict[str, Any] = field(default_factory=dict)

    def rules_in_force(self) -> dict[str, Any]:
        """The rules asked for other than the match length, leaving out those asked
        to be off (a rule's false, zero or null value is the standard rule)."""
        return {
            name: value
            for name, value in self.rules.items()
            if name != "match_length" and value not in (None, False, 0)
        }

    def to_json(self) -> dict[str, Any]:
        record: dict[str, Any] = {
            "opponent": self.opponent,
            "level": self.level,
            "side": "first" if self.side is Side.FIRST else "second",
            "seed": self.seed,
            "match_length": self.rules.get("match_length", 0),
        }
        # The file's name for the other optional rules since version 2, when the
        # backgammon cube's were the first; written only for a game played by them.
        if self.rules_in_force():
            record["cube_rules"] = self.rules_in_force()
        return record

    @classmethod
    def from_json(cls, record: object) -> Options:
        if not isinstance(record, dict):
            raise NotationError("the save file's options are not a JSON object")
        side = record.get("side", "first")
        if side not in ("first", "second"):
            raise NotationError(f"the save file's side is {side!r}, not 'first' or 'second'")
        opponent = record.get("opponent", HUMAN)
        if opponent not in (HUMAN, COMPUTER):
            raise NotationError(f"the save file's opponent is {opponent!r}")
        level, seed, length = record.get("level"), record.get("seed"), record.get("match_length", 0)
        for name, value in (("level", level), ("seed", seed), ("match_length", length)):
            if value is not None and (not isinstance(value, int) or isinstance(value, bool)):
                raise NotationError(f"the save file's {name} is {value!r}, not a whole number")
        others = record.get("cube_rules", {})
        if not isinstance(others, dict):
            raise NotationError("the save file's cube rules are not a JSON object")
        if "match_length" in others:
            raise NotationError("the save file names the match length among the cube rules")
        rules = {"match_length": length} if length else {}
        return cls(
            opponent=opponent,
            level=level,
            side=Side.FIRST if side == "first" else Side.SECOND,
            seed=seed,
            rules={**rules, **others},
        )


@dataclass
class GameRecord:
    """One game as text: its starting position and its moves (dice throws
    included) in the game's notation."""

    start: str
    moves: list[str] = field(default_factory=list)


class Session:
    """One game (or one backgammon match) in progress, with its players."""

    def __init__(self, game: Game[Any], options: Options, start: str | None = None) -> None:
        #: The game (a match, say) under the options' rules; ValueError naming what is
        #: wrong with rules the game does not play.
        self.series = get_face(game).series(options.rules)
        self.game = self.series.game
        self.options = options
        self.dice = Dice(options.seed)
        self.rng = random.Random(options.seed)
        #: Games of the match already finished (backgammon match play).
        self.earlier: list[GameRecord] = []
        #: The finished states of those games, for exporting the match.
        self.earlier_states: list[State[Any]] = []
        self.state: State[Any] = (
            self.game.state_from_text(start) if start is not None else self.series.first()
        )
        self.start_text = self.state.to_text()
        #: Every move pushed on :attr:`state`, in notation, as read before it.
        self.texts: list[str] = []
        #: The players' names from a game file the session was read from (first
        #: side, second side); None: named by their sides (see :meth:`record_name`).
        self.names: tuple[str, str] | None = None
        self.engine: Engine[Any] | None = None
        #: Why there is no computer opponent, when one was asked for and is missing.
        self.no_engine: str | None = None
        if options.opponent == COMPUTER:
            try:
                self.engine = get_engine(self.game)
            except ParlourError as error:
                self.no_engine = str(error)
        if self.engine is not None and options.level is not None:
            self.engine.check_level(options.level)

    # -- who plays ----------------------------------------------------------------

    @property
    def computer_side(self) -> Side | None:
        return self.options.side.other if self.engine is not None else None

    def player_name(self, side: Side) -> str:
        name = self.game.side_name(side)
        if self.engine is None:
            known = self.names[side] if self.names is not None else name
            return name if known == name else f"{name} ({known})"
        if side == self.computer_side:
            level = self.options.level or self.engine.default_level
            return f"{name} (computer, level {level})"
        return f"{name} (you)"

    def record_name(self, side: Side) -> str:
        """The name a game record gives a player, as the web app's downloads do:
        the side's name for a person, ``Parlour-N`` for the computer at level N;
        or the name a game file read into the session gave."""
        if self.names is not None:
            return self.names[side]
        if self.engine is not None and side == self.computer_side:
            return f"Parlour-{self.options.level or self.engine.default_level}"
        return self.game.side_name(side)

    def computer_to_move(self) -> bool:
        """Whether the computer acts next."""
        return (
            self.engine is not None
            and not self.state.is_over()
            and self.state.turn == self.computer_side
        )

    # -- moves ----------------------------------------------------------------------

    def push(self, move: Any) -> str:
        """Play a legal move (IllegalMoveError naming the rule otherwise) and
        record its text; return the text."""
        text = self.state.move_to_text(move)
        self.state.push(move)
        self.texts.append(text)
        return text

    def play_text(self, text: str) -> str:
        """Read a move as typed and play it; return it in canonical notation. In a
        game that is over, GameOverError, whatever the text (a move cannot be judged
        against a position nobody moves in)."""
        if self.state.is_over():
            raise GameOverError()
        return self.push(self.state.parse_move(text))

    def throw_dice(self) -> list[str]:
        """Throw the dice while they are due (a tied opening throw is thrown
        again); return the throws as text."""
        throws = []
        while not self.state.is_over() and self.state.turn is CHANCE:
            throw = self.dice.choose(self.state.chance_outcomes())
            throws.append(self.push(throw))
        return throws

    def last_move_text(self) -> str | None:
        return self.texts[-1] if self.texts else None

    # -- undo -------------------------------------------------------------------------

    def undo(self) -> int:
        """Take back the last move: against the computer, the person's last move and
        the computer's reply. A dice throw is never taken back. Returns how many
        moves were taken back; ParlourError saying why when none may be."""
        if self.state._declared is not None:
            raise ParlourError("the game was ended by a resignation or a draw: it stays ended")
        probe = self.state.copy()
        count = 0
        while count < len(self.texts):
            if _last_was_chance(probe):
                break
            probe.pop()
            count += 1
            if self.engine is None or probe.turn == self.options.side:
                break
        if count == 0:
            if self.texts:
                raise ParlourError("the dice have been thrown: a throw is never taken back")
            raise ParlourError("there is no move to take back")
        if self.engine is not None and probe.turn != self.options.side:
            raise ParlourError(
                "the dice have been thrown since your last move: a throw is never taken back"
            )
        for _ in range(count):
            self.state.pop()
            self.texts.pop()
        return count

    # -- the computer -------------------------------------------------------------------

    def level(self) -> int:
        assert self.engine is not None
        return self.options.level or self.engine.default_level

    def choose_move(self, state: State[Any]) -> Any:
        """The computer's move in ``state`` (a copy: this runs in a worker thread)."""
        assert self.engine is not None
        return self.engine.choose_move(state, self.level(), self.rng)

    def hint_engine(self) -> Engine[Any]:
        """The engine that gives hints (it exists even in a game between two people,
        when the game has one); ParlourError naming why not."""
        if self.engine is not None:
            return self.engine
        return get_engine(self.game)

    def hint(self, state: State[Any]) -> Hint[Any]:
        return self.hint_engine().hint(state)

    # -- the outcome ------------------------------------------------------------------

    def announce(self, outcome: Outcome) -> str:
        """The end of the game in words: winner, reason and points."""
        return describe_outcome(self.game, outcome)

    # -- save and resume --------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """The save file's contents."""
        current = GameRecord(self.start_text, list(self.texts))
        plain = not self.options.rules_in_force()
        record = {
            "kind": SAVE_KIND,
            "version": SAVE_VERSION if plain else SAVE_VERSION_CUBE_RULES,
            "game": self.game.name,
            "options": self.options.to_json(),
            "start": current.start,
            "moves": current.moves,
            "earlier_games": [asdict(record) for record in self.earlier],
            "position": self.state.to_text(),
        }
        if self.names is not None:
            record["names"] = list(self.names)
        declared = self.state._declared
        if declared is not None:  # an ending no move shows: a resignation, a draw
            winner = None if declared.winner is None else declared.winner.name.lower()
            record["ended"] = {"winner": winner, "reason": declared.reason}
        return record

    @classmethod
    def from_recorded(cls, game: Game[Any], recorded: Recorded) -> Session:
        """A session of games read from a game file (:meth:`GameFace.read_games`),
        between two people, to resume or to save."""
        session = cls(game, Options(rules=dict(recorded.rules)))
        *earlier, last = recorded.games
        for state in earlier:
            session.earlier.append(_history(state))
            session.earlier_states.append(state)
        current = _history(last)
        session.state, session.start_text, session.texts = last, current.start, current.moves
        session.names = recorded.names
        return session

    def export(self, names: tuple[str, str] | None = None) -> Export:
        """Every game of the session in the game's file format, with the players'
        ``names`` (by default as :meth:`record_name` gives them); ParlourError for a
        game without a file format."""
        if names is None:
            names = (self.record_name(Side.FIRST), self.record_name(Side.SECOND))
        written = get_face(self.game).export([*self.earlier_states, self.state], names)
        if written is None:
            raise ParlourError(f"{self.game.title} has no file format to export to")
        return written

    def save(self, path: Path) -> None:
        path.write_text(json.dumps(self.to_json(), indent=2) + "\n", encoding="utf-8")

    @classmethod
    def from_json(cls, record: object) -> Session:
        """Rebuild a saved session, replaying every move; NotationError naming what
        is wrong with a bad file."""
        if not isinstance(record, dict) or record.get("kind") != SAVE_KIND:
            raise NotationError("this is not a Parlour saved game")
        if record.get("version") not in KNOWN_SAVE_VERSIONS:
            raise NotationError(f"saved game version {record.get('version')!r} is not known")
        game = get_game(str(record.get("game")))
        options = Options.from_json(record.get("options", {}))
        start = record.get("start")
        if not isinstance(start, str):
            raise NotationError("the save file has no starting position")
        try:
            session = cls(game, options, start=start)
        except ValueError as error:  # a level out of range, rules the game does not play
            raise NotationError(f"the save file's options: {error}") from None
        earlier = record.get("earlier_games", [])
        if not isinstance(earlier, list):
            raise NotationError("the save file's earlier games are not a list")
        for number, entry in enumerate(earlier, start=1):
            if not isinstance(entry, dict):
                raise NotationError(f"earlier game {number} in the save file is not an object")
            begin = entry.get("start")
            if not isinstance(begin, str):
                raise NotationError(f"earlier game {number} in the save file has no start")
            state = session.game.state_from_text(begin)
            texts = _replay(state, entry.get("moves", []), f"earlier game {number}")
            session.earlier.append(GameRecord(begin, texts))
            session.earlier_states.append(state)
        session.texts = _replay(session.state, record.get("moves", []), "the game")
        if "ended" in record:
            _end(session.state, record["ended"])
        names = record.get("names")
        if names is not None:
            if not (
                isinstance(names, list)
                and len(names) == 2
                and all(isinstance(n, str) for n in names)
            ):
                raise NotationError("the save file's names are not a list of two names")
            session.names = (names[0], names[1])
        return session

    @classmethod
    def load(cls, path: Path) -> Session:
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            raise NotationError(f"{path} is not a saved game: it is not text (UTF-8)") from None
        return cls.from_text(text, str(path))

    @classmethod
    def from_text(cls, text: str, source: str) -> Session:
        """A save file's ``text`` read back (``source`` names it in errors)."""
        try:
            record = json.loads(text)
        except json.JSONDecodeError as error:
            raise NotationError(f"{source} is not a saved game: {error}") from None
        return cls.from_json(record)

    # -- a match: the next game -------------------------------------------------------

    def next_game(self) -> State[Any] | None:
        """The game that follows this one in the series (the next game of a
        backgammon match) once this one is over; None while it goes on, or when the
        series is over."""
        if not self.state.is_over():
            return None
        return self.series.next([*self.earlier_states, self.state])

    def start_next_game(self, state: State[Any]) -> None:
        """Put the finished game among the earlier ones and play ``state`` next."""
        self.earlier.append(GameRecord(self.start_text, list(self.texts)))
        self.earlier_states.append(self.state)
        self.state = state
        self.start_text = state.to_text()
        self.texts = []


def _replay(state: State[Any], moves: object, where: str) -> list[str]:
    if not isinstance(moves, list):
        raise NotationError(f"the moves of {where} in the save file are not a list")
    texts = []
    for number, text in enumerate(moves, start=1):
        if not isinstance(text, str):
            raise NotationError(f"move {number} of {where} is not text: {text!r}")
        try:
            move = state.parse_move(text)
            texts.append(state.move_to_text(move))
            state.push(move)
        except ParlourError as error:
            raise NotationError(f"move {number} of {where}, {text!r}: {error}") from None
    return texts


def _history(state: State[Any]) -> GameRecord:
    """The game that led to ``state``: its first position and its moves as text."""
    start = state.copy()
    moves = []
    while True:
        try:
            moves.append(start.pop())
        except IndexError:
            break
    record = GameRecord(start.to_text())
    for move in reversed(moves):
        record.moves.append(start.move_to_text(move))
        start.push_unchecked(move)
    return record


def _end(state: State[Any], ended: object) -> None:
    """End the resumed game as the save file says it ended off the board."""
    if not isinstance(ended, dict) or not isinstance(ended.get("reason"), str):
        raise NotationError("the save file's ending is not an object with a reason")
    winner = ended.get("winner")
    if winner not in (None, "first", "second"):
        raise NotationError(f"the save file's winner is {winner!r}, not 'first' or 'second'")
    if state.is_over():
        raise NotationError("the save file ends a game that its moves have already ended")
    side = None if winner is None else (Side.FIRST if winner == "first" else Side.SECOND)
    try:
        end_as_recorded(state, side, ended["reason"])
    except ParlourError as error:
        raise NotationError(f"the save file's ending: {error}") from None


def _last_was_chance(state: State[Any]) -> bool:
    """Whether the last move pushed on ``state`` was a throw of the dice."""
    probe = state.copy()
    probe.pop()
    return probe.turn is CHANCE


def describe_outcome(game: Game[Any], outcome: Outcome) -> str:
    """``White wins: checkmate (1 point)`` / ``Draw: stalemate``."""
    if outcome.winner is None:
        return f"Draw: {outcome.reason}."
    points = "1 point" if outcome.points == 1 else f"{outcome.points} points"
    return f"{game.side_name(outcome.winner)} wins: {outcome.reason} ({points})."
