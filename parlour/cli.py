"""The ``parlour`` command.

Every command talks to the games through the core protocol, so each works for any
registered game; a game that needs its own wording overrides the protocol's
defaults (``Game.perft``, ``Game.list_moves``), never a special case here.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import TextIO

from parlour import __version__
from parlour.backgammon.cube import CUBE_CEILING, CubeOptions, is_cube_value
from parlour.core.errors import ParlourError
from parlour.core.registry import game_names, get_game

EXIT_OK = 0
EXIT_ERROR = 1
EXIT_USAGE = 2


class CommandError(Exception):
    """An error to report on stderr as ``parlour: message`` and exit non-zero."""


class UsageError(CommandError):
    """Options that do not go together: reported as argparse reports its own
    mistakes, under the command's usage line, with exit status 2."""


def _perft(args: argparse.Namespace) -> int:
    game = get_game(args.game)
    if args.depth < 0:
        raise CommandError("DEPTH must be 0 or more")
    state = game.state_from_text(args.position)
    print(game.perft(state, args.depth))
    return EXIT_OK


def _moves(args: argparse.Namespace) -> int:
    game = get_game(args.game)
    if args.batch:
        if args.position is not None:
            raise CommandError("--batch reads positions from standard input; give none here")
        return _moves_batch(game.name, sys.stdin, sys.stdout)
    if args.position is None:
        raise CommandError("give a POSITION (and DICE for a game with dice), or --batch")
    for move_text, result in game.list_moves(args.position, args.dice):
        print(f"{move_text}\t{result}")
    return EXIT_OK


def _moves_batch(game_name: str, lines: TextIO, out: TextIO) -> int:
    """One JSON line out for each ``POSITION [DICE]`` line in; a bad line gets an
    ``error`` entry and the batch goes on."""
    game = get_game(game_name)
    for raw in lines:
        fields = raw.split()
        if not fields:
            continue
        position = fields[0]
        dice = fields[1] if len(fields) > 1 else None
        record: dict[str, object] = {"position": position}
        if dice is not None:
            record["dice"] = dice
        try:
            if len(fields) > 2:
                raise CommandError(f"expected 'POSITION DICE', got {len(fields)} fields")
            plays = game.list_moves(position, dice)
            record["plays"] = [{"move": move, "position": result} for move, result in plays]
        except (ParlourError, CommandError) as error:
            record["error"] = str(error)
        out.write(json.dumps(record) + "\n")
        out.flush()
    return EXIT_OK


def _count(text: str) -> int:
    """An argparse type: a whole number, 0 or more."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"{value} is not a count: give 0 or more")
    return value


def _cube_value(text: str) -> int:
    """An argparse type: a value the doubling cube can show."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if not is_cube_value(value):
        raise argparse.ArgumentTypeError(
            f"{value} is not a cube value: give a power of two from 1 to {CUBE_CEILING}"
        )
    return value


def _cube_rules(args: argparse.Namespace, game_name: str) -> CubeOptions:
    """The optional backgammon cube rules asked for, checked against the game and
    the other options (UsageError naming the options that do not go together)."""
    given = [
        flag
        for flag, on in (
            ("--jacoby", args.jacoby),
            ("--beavers", args.beavers),
            ("--automatic-doubles", args.automatic_doubles is not None),
            ("--max-cube", args.max_cube is not None),
        )
        if on
    ]
    if not given:
        return CubeOptions()
    if game_name != "backgammon":
        raise UsageError(f"{_named(given)} {_is(given)} for backgammon, not {game_name}")
    if args.resume is not None:
        raise UsageError(
            f"a resumed game keeps the rules it was started with: leave out {_named(given)}"
        )
    rules = CubeOptions(
        jacoby=args.jacoby,
        beavers=args.beavers,
        automatic_doubles=args.automatic_doubles or 0,
        max_cube=args.max_cube,
    )
    money_only = [
        flag
        for flag, on in (
            ("--jacoby", rules.jacoby),
            ("--beavers", rules.beavers),
            ("--automatic-doubles", rules.automatic_doubles > 0),
        )
        if on
    ]
    if args.match and money_only:
        raise UsageError(
            f"{_named(money_only)} {_is(money_only)} for money play, not a match: "
            "leave out --match or the money-play rules"
        )
    return rules


def _named(flags: list[str]) -> str:
    """``--jacoby``, ``--jacoby and --beavers``, ``--a, --b and --c``."""
    return flags[0] if len(flags) == 1 else f"{', '.join(flags[:-1])} and {flags[-1]}"


def _is(flags: list[str]) -> str:
    return "is" if len(flags) == 1 else "are"


def _play(args: argparse.Namespace) -> int:
    game = get_game(args.game)
    cube_rules = _cube_rules(args, game.name)
    if args.match < 0:
        raise UsageError("--match is a number of points, 1 or more (0: money play)")
    if args.match and not game.has_chance:
        raise UsageError(f"--match is for backgammon, not {game.title.lower()}")
    if args.plain:
        # Line-by-line play is one game between two people at one keyboard.
        unplain = [
            flag
            for flag, given in (
                ("--resume", args.resume is not None),
                ("--opponent computer", args.opponent == "computer"),
                ("--level", args.level is not None),
                ("--match", args.match > 0),
            )
            if given
        ]
        if unplain:
            raise UsageError(
                "--plain is one game between two people at one keyboard: "
                f"leave out {_named(unplain)}, or --plain for the full-screen app"
            )
        from parlour.lineplay import play_in_terminal

        if cube_rules != CubeOptions():  # backgammon, by the cube rules asked for
            from parlour.backgammon.rules import BackgammonGame

            game = BackgammonGame(cube_rules)
        return play_in_terminal(game, position=args.position, seed=args.seed)
    from pathlib import Path

    from parlour.core.protocol import Side
    from parlour.tui import Options, Session, run

    if args.resume is not None:
        path = Path(args.resume)
        if not path.is_file():
            raise CommandError(f"no saved game at {path}")
        saved = Session.load(path)
        if saved.game.name != game.name:
            raise CommandError(f"{path} is a saved game of {saved.game.name}, not {game.name}")
        return run(saved, save_path=path)
    if args.level is not None and args.opponent == "human":
        raise UsageError("--level is the computer's level: leave it out against a person")
    options = Options(
        opponent=args.opponent or "computer",
        level=args.level,
        side=Side.FIRST if args.side == "first" else Side.SECOND,
        seed=args.seed,
        match_length=args.match,
        cube_rules=cube_rules,
    )
    try:
        session = Session(game, options, start=args.position)
    except ValueError as error:  # a level out of range
        raise CommandError(str(error)) from None
    return run(session)


def _serve(args: argparse.Namespace) -> int:
    # Imported here: the web stack is loaded only by those who serve.
    from parlour.server.app import serve

    return serve(args.host, args.port, args.db, allowed_origins=args.allow_origin)


def _uci(args: argparse.Namespace) -> int:
    from parlour.chess.uci import main as uci_main

    return uci_main()


def build_parser() -> argparse.ArgumentParser:
    known = ", ".join(game_names())
    parser = argparse.ArgumentParser(
        prog="parlour",
        description="Chess, checkers and backgammon: play them, or use their rules engines.",
    )
    parser.add_argument("--version", action="version", version=f"parlour {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    perft = commands.add_parser(
        "perft",
        help="count the leaf nodes of the legal-move tree",
        description="Count the leaf nodes of the legal-move tree DEPTH plies deep and print "
        "the number on the last line.",
    )
    perft.add_argument("game", metavar="GAME", help=f"one of: {known}")
    perft.add_argument("position", metavar="POSITION", help="FEN (chess) or PDN FEN (checkers)")
    perft.add_argument("depth", metavar="DEPTH", type=int)
    perft.set_defaults(run=_perft)

    moves = commands.add_parser(
        "moves",
        help="list the legal moves of a position",
        description="List every distinct legal move or play from a position, each with the "
        "position it leads to, separated by a tab. With --batch, read 'POSITION DICE' lines "
        "on standard input and answer each with one JSON line.",
    )
    moves.add_argument("game", metavar="GAME", help=f"one of: {known}")
    moves.add_argument("position", metavar="POSITION", nargs="?", help="e.g. a gnubg Position ID")
    moves.add_argument("dice", metavar="DICE", nargs="?", help="the dice thrown, e.g. 31 or 66")
    moves.add_argument("--batch", action="store_true", help="read positions from standard input")
    moves.set_defaults(run=_moves)

    play = commands.add_parser(
        "play",
        help="play a game in the terminal",
        description="Play a game in the terminal, against the computer or a second person "
        "at the same keyboard: the board in colour, moves typed or made with the mouse, "
        "hints, undo, save and resume. --plain plays line by line instead.",
    )
    play.add_argument("game", metavar="GAME", help=f"one of: {known}")
    play.add_argument(
        "--opponent",
        choices=("computer", "human"),
        help="play the computer (the default) or a second person at this keyboard "
        "(--plain: always a second person)",
    )
    play.add_argument("--level", type=int, help="the computer's level, 1 (beginner) and up")
    play.add_argument(
        "--side",
        choices=("first", "second"),
        default="first",
        help="the side you play against the computer: first (White in chess, Black in "
        "checkers) or second",
    )
    play.add_argument("--resume", metavar="FILE", help="resume a game saved from the app")
    play.add_argument("--plain", action="store_true", help="line-by-line play, no full screen")
    play.add_argument(
        "--match", type=int, default=0, metavar="N", help="backgammon: a match to N points"
    )
    play.add_argument(
        "--jacoby",
        action="store_true",
        help="backgammon, money play: a gammon or backgammon counts single while nobody "
        "has doubled (the Jacoby rule)",
    )
    play.add_argument(
        "--beavers",
        action="store_true",
        help="backgammon, money play: a doubled player may beaver, redoubling at once "
        "and keeping the cube",
    )
    play.add_argument(
        "--automatic-doubles",
        type=_count,
        metavar="N",
        help="backgammon, money play: each tied opening throw doubles the stake, up to "
        "N times a game",
    )
    play.add_argument(
        "--max-cube",
        type=_cube_value,
        metavar="N",
        help=f"backgammon: the cube goes no higher than N, a power of two up to "
        f"{CUBE_CEILING} (a standard cube stops at 64)",
    )
    play.add_argument("--position", help="start from this position instead of the usual start")
    play.add_argument("--seed", type=int, help="seed the dice, to replay the same throws")
    play.set_defaults(run=_play, command_parser=play)

    serve = commands.add_parser(
        "serve",
        help="run the web app",
        description="Run the web app (by default on http://127.0.0.1:8000 with an embedded "
        "SQLite store: parlour.db in $XDG_DATA_HOME/parlour, by default "
        "~/.local/share/parlour).",
    )
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument("--db", help="an SQLAlchemy URL: sqlite:///path or postgresql://...")
    serve.add_argument(
        "--allow-origin",
        action="append",
        default=[],
        metavar="ORIGIN",
        help="a page origin besides the server's own allowed to open WebSockets "
        "(e.g. https://example.org); repeat for more",
    )
    serve.set_defaults(run=_serve)

    uci = commands.add_parser(
        "uci",
        help="run the chess engine over UCI on stdin/stdout",
        description="Speak the Universal Chess Interface on standard input and output.",
    )
    uci.set_defaults(run=_uci)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        code: int = args.run(args)
    except UsageError as error:
        command_parser: argparse.ArgumentParser = getattr(args, "command_parser", parser)
        command_parser.error(str(error))  # prints the usage line; exits with status 2
    except (ParlourError, CommandError) as error:
        print(f"parlour: {error}", file=sys.stderr)
        return EXIT_ERROR
    except KeyboardInterrupt:
        return EXIT_ERROR
    return code


if __name__ == "__main__":
    raise SystemExit(main())
