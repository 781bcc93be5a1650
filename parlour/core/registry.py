"""The games Parlour knows, by name: for each, where its rules, its face (how the apps
show it, :mod:`parlour.core.face`) and its computer opponent live. A new game is a
package and one entry here.

Each part is imported on first use, so ``parlour --help`` stays fast, the rules load
without the engine, and a game's import cost is paid only by those who play it.

>>> get_game("chess").title, type(get_face("chess")).__name__
('Chess', 'ChessFace')
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, overload

from parlour.core.engine import Engine
from parlour.core.errors import ParlourError, UnknownGameError
from parlour.core.face import BasicFace, GameFace
from parlour.core.protocol import Game

if TYPE_CHECKING:
    # For the type checker only (nothing is imported at run time): get_game("chess")
    # is a ChessGame, so its states' moves are chess moves.
    from parlour.backgammon.rules import BackgammonGame
    from parlour.checkers.rules import CheckersGame
    from parlour.chess.rules import ChessGame


@dataclass(frozen=True, slots=True)
class Option:
    """An option of a program's command, ``--name VALUE``: its main takes the value
    as the keyword argument ``name`` (dashes as underscores)."""

    #: The option as typed, ``--pieces``.
    flag: str
    #: One line for the command's ``--help``.
    help: str
    #: What the text typed is turned into (``int``).
    type: Callable[[str], Any] = str
    #: The value when the option is not given.
    default: Any = None
    #: The only values allowed (None: any).
    choices: tuple[Any, ...] | None = None

    @property
    def keyword(self) -> str:
        return self.flag.lstrip("-").replace("-", "_")


@dataclass(frozen=True, slots=True)
class Program:
    """A program a game brings to the command line (``parlour uci``)."""

    #: The command's name.
    command: str
    #: Its ``main(**options) -> int``, as ``"module:function"``; it takes its
    #: :attr:`options` as keywords and nothing else (it may read standard input).
    main: str
    #: One line for ``parlour --help``.
    help: str
    #: The command's options.
    options: tuple[Option, ...] = ()


@dataclass(frozen=True, slots=True)
class GameEntry:
    """Where a game's parts live, each as ``"module:attribute"``."""

    #: The :class:`~parlour.core.protocol.Game` instance.
    rules: str
    #: The :class:`~parlour.core.face.GameFace` instance; None: a :class:`BasicFace`.
    face: str | None = None
    #: The :class:`~parlour.core.engine.Engine` class; None: no computer opponent.
    engine: str | None = None
    #: Programs of the game's own for the command line.
    programs: tuple[Program, ...] = ()


#: Game name -> where its parts live.
GAMES: dict[str, GameEntry] = {
    "backgammon": GameEntry(
        rules="parlour.backgammon.rules:BACKGAMMON",
        face="parlour.backgammon.face:BACKGAMMON_FACE",
        engine="parlour.backgammon.engine:BackgammonEngine",
        programs=(
            Program(
                "bearoff",
                "parlour.backgammon.bearoff:main",
                "build the backgammon bear-off database into the cache (once, about a minute)",
            ),
        ),
    ),
    "checkers": GameEntry(
        rules="parlour.checkers.rules:CHECKERS",
        face="parlour.checkers.face:CHECKERS_FACE",
        engine="parlour.checkers.engine:CheckersEngine",
        programs=(
            Program(
                "checkers-endgames",
                "parlour.checkers.endgame:main",
                "describe the checkers endgame database (building it if it is missing)",
                options=(
                    Option(
                        "--pieces",
                        "the table of up to 4 pieces (shipped) or 5 (built into the cache, "
                        "about 10 minutes)",
                        type=int,
                        default=4,
                        choices=(4, 5),
                    ),
                ),
            ),
        ),
    ),
    "chess": GameEntry(
        rules="parlour.chess.rules:CHESS",
        face="parlour.chess.face:CHESS_FACE",
        engine="parlour.chess.engine:ChessEngine",
        programs=(
            Program(
                "uci",
                "parlour.chess.uci:main",
                "run the chess engine over UCI on stdin/stdout (for chess GUIs)",
            ),
        ),
    ),
}

_games: dict[str, Game[Any]] = {}
_faces: dict[str, GameFace] = {}


def _load(target: str) -> Any:
    module_name, _, attribute = target.partition(":")
    return getattr(importlib.import_module(module_name), attribute)


def game_names() -> list[str]:
    """The names of the games that can be played."""
    return sorted(GAMES)


def _entry(name: str) -> GameEntry:
    if name not in GAMES:
        known = ", ".join(game_names()) or "none yet"
        raise UnknownGameError(f"no game called {name!r} (games available: {known})")
    return GAMES[name]


@overload
def get_game(name: Literal["chess"]) -> ChessGame: ...
@overload
def get_game(name: Literal["checkers"]) -> CheckersGame: ...
@overload
def get_game(name: Literal["backgammon"]) -> BackgammonGame: ...
@overload
def get_game(name: str) -> Game[Any]: ...


def get_game(name: str) -> Game[Any]:
    """The game called ``name``, under its standard rules. For the three games of
    the box a type checker knows the game's own class (``get_game("chess")`` is a
    :class:`~parlour.chess.rules.ChessGame`, whose states' moves are chess moves).

    >>> get_game("tic-tac-toe")
    Traceback (most recent call last):
    ...
    parlour.core.errors.UnknownGameError: no game called 'tic-tac-toe' ...
    """
    if name not in _games:
        game: Game[Any] = _load(_entry(name).rules)
        _games[name] = game
    return _games[name]


def get_face(game: Game[Any] | str) -> GameFace:
    """How the apps show ``game`` (a game or its name)."""
    name = game if isinstance(game, str) else game.name
    if name not in _faces:
        target = _entry(name).face
        face: GameFace = BasicFace(get_game(name)) if target is None else _load(target)
        _faces[name] = face
    return _faces[name]


def has_engine(game: Game[Any] | str) -> bool:
    """Whether ``game`` has a computer opponent."""
    return _entry(game if isinstance(game, str) else game.name).engine is not None


def engine_levels(game: Game[Any] | str) -> tuple[int, int] | None:
    """The computer opponent's strongest level and its default level (levels run
    from 1), or None for a game without one.

    >>> engine_levels("chess")
    (10, 5)
    """
    engine = _engine_type(game)
    return None if engine is None else (engine.strongest, engine.default_level)


def level_strengths(game: Game[Any] | str) -> Mapping[int, str]:
    """How strong each level of the computer opponent was measured to be, in a
    player's words (empty for a game without one, or not measured yet)."""
    engine = _engine_type(game)
    return {} if engine is None else engine.level_strengths


def _engine_type(game: Game[Any] | str) -> type[Engine[Any]] | None:
    target = _entry(game if isinstance(game, str) else game.name).engine
    return None if target is None else _load(target)


def get_engine(game: Game[Any] | str) -> Engine[Any]:
    """A new computer opponent for ``game`` (a game or its name)."""
    name = game if isinstance(game, str) else game.name
    target = _entry(name).engine
    if target is None:
        raise ParlourError(f"{get_game(name).title} has no computer opponent yet")
    engine: Engine[Any] = _load(target)()
    return engine


def programs() -> list[Program]:
    """Every game's programs for the command line."""
    return [program for name in game_names() for program in GAMES[name].programs]


def run_program(program: Program, options: Mapping[str, Any] | None = None) -> int:
    """Run ``program`` (its module is imported only now) with ``options`` (keyword
    -> value) and return its exit status."""
    main: Any = _load(program.main)
    status: int = main(**(options or {}))
    return status


def register(name: str, entry: GameEntry) -> None:
    """Add a game, or replace one (tests add their own small games this way)."""
    GAMES[name] = entry
    _games.pop(name, None)
    _faces.pop(name, None)


def unregister(name: str) -> None:
    """Take away a game that :func:`register` added."""
    GAMES.pop(name, None)
    _games.pop(name, None)
    _faces.pop(name, None)
