"""The ``parlour`` command.

Every command talks to the games through the core protocol, so each works for any
registered game; a game that needs its own wording overrides the protocol's
defaults (``Game.perft``, ``Game.list_moves``), never a special case here.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import textwrap
import urllib.parse
import urllib.request
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

from parlour import __version__, compiled
from parlour.core.errors import ParlourError
from parlour.core.protocol import Game
from parlour.core.registry import (
    engine_levels,
    game_names,
    get_face,
    get_game,
    level_strengths,
    programs,
    run_program,
)

EXIT_OK = 0
EXIT_ERROR = 1
EXIT_USAGE = 2


class CommandError(Exception):
    """An error to report on stderr as ``parlour: message`` and exit non-zero."""


class UsageError(CommandError):
    """Options that do not go together: reported as argparse reports its own
    mistakes, under the command's usage line, with exit status 2."""


#: The deepest perft asked for: each ply multiplies the count (and the time) by the
#: number of moves, so that chess at depth 9 already takes days in Python.
MAX_PERFT_DEPTH = 20


def _perft(args: argparse.Namespace) -> int:
    game = get_game(args.game)
    if not 0 <= args.depth <= MAX_PERFT_DEPTH:
        raise CommandError(
            f"DEPTH must be from 0 to {MAX_PERFT_DEPTH} (each ply multiplies the count and "
            "the time by the number of moves)"
        )
    state = game.state_from_text(_position(game, args.position))
    if not args.divide:
        nodes = game.perft(state, args.depth)
        print(json.dumps({"nodes": nodes}) if args.json else nodes)
        return EXIT_OK
    if args.depth == 0:
        raise CommandError("--divide needs a DEPTH of 1 or more (it splits the first ply)")
    divide = {}
    for move in state.legal_moves():
        text = state.move_to_text(move)
        state.push_unchecked(move)
        divide[text] = game.perft(state, args.depth - 1)
        state.pop()
    nodes = sum(divide.values())
    if args.json:
        print(json.dumps({"nodes": nodes, "divide": divide}))
    else:
        for text, count in divide.items():
            print(f"{text}\t{count}")
        print(nodes)
    return EXIT_OK


def _draw(args: argparse.Namespace) -> int:
    game = get_game(args.game)
    print(game.state_from_text(_position(game, args.position)).to_svg(), end="")
    return EXIT_OK


def _moves(args: argparse.Namespace) -> int:
    game = get_game(args.game)
    if args.batch:
        if args.position is not None:
            raise CommandError("--batch reads positions from standard input; give none here")
        return _moves_batch(game.name, sys.stdin, sys.stdout)
    if args.position is None:
        raise CommandError("give a POSITION (and DICE for a game with dice), or --batch")
    position = _position(game, args.position)
    listing = game.list_moves(position, args.dice)
    if args.json:
        print(json.dumps(_moves_record(position, args.dice, listing)))
        return EXIT_OK
    for move_text, result in listing:
        print(f"{move_text}\t{result}")
    return EXIT_OK


def _moves_record(
    position: str, dice: str | None, listing: list[tuple[str, str]] | None
) -> dict[str, object]:
    """What ``moves --json`` and ``--batch`` print for one position (without
    ``plays`` when there is no ``listing``: the position could not be read)."""
    record: dict[str, object] = {"position": position}
    if dice is not None:
        record["dice"] = dice
    if listing is not None:
        record["plays"] = [{"move": move, "position": result} for move, result in listing]
    return record


def _moves_batch(game_name: str, lines: TextIO, out: TextIO) -> int:
    """One JSON line out for each ``POSITION [DICE]`` line in; a bad line gets an
    ``error`` entry and the batch goes on."""
    game = get_game(game_name)
    for raw in lines:
        line = raw.strip()
        if not line:
            continue
        # A position may hold spaces (a FEN); a game with dice ends the line with them.
        position, dice = line, None
        if game.has_chance and " " in line:
            position, dice = line.rsplit(maxsplit=1)
        position = _position(game, position)
        try:
            record = _moves_record(position, dice, game.list_moves(position, dice))
        except (ParlourError, CommandError) as error:
            record = _moves_record(position, dice, None)
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


#: The command line's flag for each optional rule a game's face reads (only backgammon
#: has any yet): the options turn into the rules, and the game's face checks them.
RULE_FLAGS = {
    "match_length": "--match",
    "jacoby": "--jacoby",
    "beavers": "--beavers",
    "automatic_doubles": "--automatic-doubles",
    "max_cube": "--max-cube",
}


def _rules(args: argparse.Namespace, game: Game[Any]) -> dict[str, Any]:
    """The optional rules asked for, checked by the game's face (UsageError naming
    what does not fit)."""
    rules = {
        name: getattr(args, name)
        for name in RULE_FLAGS
        if getattr(args, name) is not None and getattr(args, name) is not False
    }
    flags = [RULE_FLAGS[name] for name in rules]
    if rules and args.resume is not None:
        raise UsageError(
            f"a resumed game keeps the rules it was started with: leave out {_named(flags)}"
        )
    try:
        get_face(game).series(rules)
    except ValueError as error:
        raise UsageError(f"{_named(flags)}: {error}") from None
    return rules


def _named(flags: list[str]) -> str:
    """``--jacoby``, ``--jacoby and --beavers``, ``--a, --b and --c``."""
    return flags[0] if len(flags) == 1 else f"{', '.join(flags[:-1])} and {flags[-1]}"


def _is(flags: list[str]) -> str:
    return "is" if len(flags) == 1 else "are"


def _dice_record_url(address: str) -> str:
    """The dice record's address for a game's page or API address."""
    parts = urllib.parse.urlsplit(address)
    game_id = urllib.parse.parse_qs(parts.fragment).get("game", [None])[0]
    if game_id is None:
        match = re.search(r"/api/games/([^/]+)", parts.path)
        if match is None:
            raise ValueError(f"{address} is not a game's address (http://HOST/#game=ID)")
        game_id = match.group(1)
    return urllib.parse.urlunsplit(
        (parts.scheme, parts.netloc, f"/api/games/{game_id}/dice", "", "")
    )


def _verify(args: argparse.Namespace) -> int:
    from parlour.server.fairness import check_record

    source: str = args.source
    try:
        if source.startswith(("http://", "https://")):
            url = _dice_record_url(source)
            with urllib.request.urlopen(url, timeout=30) as response:
                text = response.read().decode("utf-8")
        else:
            text = Path(source).read_text(encoding="utf-8")
        record = json.loads(text)
    except (OSError, ValueError) as error:
        print(f"parlour verify: cannot read {source}: {error}", file=sys.stderr)
        return 1
    if not isinstance(record, dict):
        print(f"parlour verify: {source} is not a dice record", file=sys.stderr)
        return 1
    found = check_record(record)
    for line in found.wrong:
        print(f"  {line}")
    print(("dice verified: " if found.ok else "dice NOT verified: ") + found.summary)
    return 0 if found.ok else 1


def _compile(args: argparse.Namespace) -> int:
    if args.status:
        modules = (*compiled.MODULES, *compiled.NATIVE)
        print(f"the engine modules are {compiled.state()}: {', '.join(modules)}")
        return 0
    if args.remove:
        compiled.remove()
        print("removed the compiled modules: pure Python from the next start")
        return 0
    try:
        print(compiled.build())
    except RuntimeError as error:
        print(f"parlour compile: {error}", file=sys.stderr)
        return 1
    return 0


def _play(args: argparse.Namespace) -> int:
    game = get_game(args.game)
    rules = _rules(args, game)
    # startpos is the usual start under the rules asked for (a match's first game),
    # as when no position is given.
    start = None if args.position == STARTPOS else args.position
    if args.plain:
        # Line-by-line play is one game between two people at one keyboard.
        unplain = [
            flag
            for flag, given in (
                ("--resume", args.resume is not None),
                ("--opponent computer", args.opponent == "computer"),
                ("--level", args.level is not None),
                ("--match", bool(args.match_length)),
            )
            if given
        ]
        if unplain:
            raise UsageError(
                "--plain is one game between two people at one keyboard: "
                f"leave out {_named(unplain)}, or --plain for the full-screen app"
            )
        from parlour.lineplay import play_in_terminal

        game = get_face(game).series(rules).game  # the game by the rules asked for
        return play_in_terminal(game, position=start, seed=args.seed)
    from pathlib import Path

    from parlour.core.protocol import Side
    from parlour.tui import Options, Session, run

    if args.resume is not None:
        kept = [
            flag
            for flag, given in (
                ("--level", args.level is not None),
                ("--opponent", args.opponent is not None),
                ("--side", args.side != "first"),
                ("--seed", args.seed is not None),
                ("--position", args.position is not None),
            )
            if given
        ]
        if kept:
            raise UsageError(
                "a resumed game keeps its players, dice and position: leave out " + _named(kept)
            )
        path = Path(args.resume)
        if not path.is_file():
            raise CommandError(f"no saved game at {path}")
        saved = Session.load(path)
        if saved.game.name != game.name:
            raise CommandError(f"{path} is a saved game of {saved.game.name}, not {game.name}")
        return run(saved, save_path=path, tutor=args.tutor or "")
    if args.level is not None and args.opponent == "human":
        raise UsageError("--level is the computer's level: leave it out against a person")
    options = Options(
        opponent=args.opponent or "computer",
        level=args.level,
        side=Side.FIRST if args.side == "first" else Side.SECOND,
        seed=args.seed,
        rules=rules,
    )
    try:
        session = Session(game, options, start=start)
    except ValueError as error:  # a level out of range
        raise CommandError(str(error)) from None
    return run(session, tutor=args.tutor or "")


#: The format name of the terminal app's save files (``--to save``).
SAVE = "save"


def _formats() -> dict[str, str]:
    """Each game file format by its name (the file name's extension), to the game
    that writes it: ``{"pgn": "chess", ...}``."""
    formats = {}
    for name in game_names():
        suffix = get_face(name).export_suffix
        if suffix is not None:
            formats[suffix] = name
    return formats


def _format_of(path: str, text: str, option: str) -> str:
    """The format of the file at ``path``, by its extension, else by its text;
    CommandError asking for ``option`` (--from or --to) to name it."""
    suffix = path.rsplit(".", 1)[-1].lower() if "." in os.path.basename(path) else ""
    if suffix == "json":
        return SAVE
    if suffix in _formats():
        return suffix
    if text.lstrip().startswith("{"):
        return SAVE
    known = ", ".join([SAVE, *_formats()])
    raise CommandError(f"cannot tell what kind of file {path} is: name it with {option} ({known})")


def _read_text(path: str) -> str:
    """The text of the file at ``path`` (``-``: standard input)."""
    try:
        if path == "-":
            return sys.stdin.buffer.read().decode("utf-8")
        with open(path, "rb") as file:
            return file.read().decode("utf-8")
    except UnicodeDecodeError:
        raise CommandError(f"{path} is not a game file: it is not text (UTF-8)") from None
    except OSError as error:
        raise CommandError(f"cannot read {path}: {error.strerror}") from None


def _convert(args: argparse.Namespace) -> int:
    from parlour.tui.session import Session

    text = _read_text(args.source)
    source = args.source_format or _format_of(args.source, text, "--from")
    target = args.to
    if target is None and args.target not in (None, "-"):
        target = _format_of(args.target, "", "--to")
    if source == SAVE:
        session = Session.from_text(text, args.source)
        suffix = get_face(session.game).export_suffix
        if suffix is None:
            raise CommandError(f"{session.game.title} has no file format to convert to")
        if target not in (None, suffix):
            raise CommandError(
                f"a saved game of {session.game.name} converts to {suffix}, not {target}"
            )
        if args.number is not None:
            raise UsageError("--number picks a game of a game file: a save file holds one")
        written = session.export().text
    else:
        game = get_game(_formats()[source])
        if target not in (None, SAVE):
            raise CommandError(
                f"a {source} file converts to a save file (--to {SAVE}), not to {target}"
            )
        found = get_face(game).read_games(text)
        if not found:
            raise CommandError(f"{args.source} holds no game")
        if args.number is None and len(found) > 1:
            raise CommandError(
                f"{args.source} holds {len(found)} games: choose one with --number N"
            )
        number = args.number or 1
        if not 1 <= number <= len(found):
            raise CommandError(f"{args.source} holds {len(found)} games, not {number}")
        session = Session.from_recorded(game, found[number - 1])
        written = json.dumps(session.to_json(), indent=2) + "\n"
    if args.target in (None, "-"):
        sys.stdout.write(written)
    else:
        try:
            with open(args.target, "w", encoding="utf-8") as file:
                file.write(written)
        except OSError as error:
            raise CommandError(f"cannot write {args.target}: {error.strerror}") from None
    return EXIT_OK


def _analysis_game(args: argparse.Namespace) -> Game[Any]:
    """The game of the file to analyse: --game, else the file's extension."""
    if args.game is not None:
        chosen: Game[Any] = get_game(args.game)
        return chosen
    path = args.file
    suffix = path.rsplit(".", 1)[-1].lower() if "." in os.path.basename(path) else ""
    formats = _formats()
    if suffix in formats:
        return get_game(formats[suffix])
    known = ", ".join(f".{suffix} ({name})" for suffix, name in formats.items())
    raise CommandError(f"cannot tell which game {path} holds: name it with --game ({known})")


class _ProgressBar:
    """A progress bar on standard error: the game and how many of its positions
    have been analysed."""

    WIDTH = 30

    def __init__(self, out: TextIO) -> None:
        self.out = out
        self.label = ""

    def __call__(self, done: int, total: int) -> None:
        filled = self.WIDTH * done // max(total, 1)
        bar = "#" * filled + "." * (self.WIDTH - filled)
        self.out.write(f"\r{self.label} [{bar}] {done}/{total}")
        if done == total:
            self.out.write("\n")
        self.out.flush()


def _analyse(args: argparse.Namespace) -> int:
    from parlour.analysis.annotate import annotated_file, decision_report
    from parlour.analysis.coach import analyse_game
    from parlour.core.registry import get_engine

    if args.budget is not None and not 0 < args.budget <= 600:
        raise UsageError(
            f"--budget is seconds a position, above 0 and at most 600, not {args.budget}"
        )
    if args.nodes is not None and not 0 < args.nodes <= 100_000_000:
        raise UsageError(f"--nodes is a count above 0 and at most 100000000, not {args.nodes}")
    text = _read_text(args.file)
    game = _analysis_game(args)
    engine = get_engine(game)
    face = get_face(game)
    bar = _ProgressBar(sys.stderr)
    analysed = 0
    try:
        for number, recorded in enumerate(face.read_each(text), start=1):
            names = recorded.names
            for index, state in enumerate(recorded.games, start=1):
                part = f" game {index}" if len(recorded.games) > 1 else ""
                bar.label = f"{args.file}: {number}{part}"
                review = analyse_game(
                    state,
                    seconds=args.budget,
                    nodes=args.nodes,
                    names=names,
                    on_progress=bar,
                    engine=engine,
                )
                if args.json:
                    found = review.to_json()
                    found.update({"number": number, "names": list(names)})
                    if len(recorded.games) > 1:
                        found["match_game"] = index
                    sys.stdout.write(json.dumps(found) + "\n")
                elif engine.judged_by == "equity":
                    title = f"{names[0]} against {names[1]}{',' + part if part else ''}"
                    sys.stdout.write(decision_report(state, review, names, title) + "\n")
                else:
                    written = face.export([state], names)
                    tags = recorded.tags
                    sys.stdout.write(
                        annotated_file(state, review, tags, written.text if written else "") + "\n"
                    )
                sys.stdout.flush()
            analysed = number
    except ParlourError as error:  # it names the game and the move; those before it stand
        raise CommandError(f"{args.file}: {error}") from None
    if analysed == 0:
        raise CommandError(f"{args.file} holds no game")
    return EXIT_OK


#: The per-client limits ``parlour serve`` takes: (kind, default, what is counted). The
#: defaults are those of :class:`parlour.server.limits.Limits`, checked by a test.
_LIMITS = [
    ("requests", 1200, "any request"),
    ("games", 30, "new games"),
    ("hints", 60, "hints"),
    ("lookbacks", 300, "looks back at an earlier position"),
    ("exports", 60, "downloads of a game"),
    ("analyses", 6, "analyses of a finished game asked for"),
]


def _serve(args: argparse.Namespace) -> int:
    # Imported here: the web stack is loaded only by those who serve.
    from parlour.server.app import serve
    from parlour.server.limits import Limits

    limits = Limits(
        **{f"{kind}_per_minute": getattr(args, f"{kind}_per_minute") for kind, _, _ in _LIMITS}
    )
    return serve(
        args.host,
        args.port,
        args.db,
        allowed_origins=args.allow_origin,
        limits=limits,
        max_header_bytes=args.max_header_bytes,
        idle_seconds=args.idle_timeout,
        allowed_hosts=args.allowed_host or ("*",),
        behind_proxy=args.behind_proxy,
        trusted_proxies=args.trusted_proxies,
        redis_url=args.redis,
        log_format=args.log_format,
        forget_after=args.forget_idle,
        engine_jobs=args.engine_jobs,
        abandon_after=args.abandon_after,
        most_events=args.most_moves,
    )


#: The value of POSITION that names a game's usual starting position.
STARTPOS = "startpos"


def _position(game: Game[Any], text: str) -> str:
    """The position text given on the command line, ``startpos`` read as the start."""
    return game.new_state().to_text() if text == STARTPOS else text


#: Where ``parlour play --help`` lists each level's measured strength (an epilog
#: written out by :class:`_PlayHelp` when the help is shown).
_LEVEL_STRENGTHS = "(the levels' strengths)"


class _PlayHelp(argparse.HelpFormatter):
    """Help for ``parlour play``: each game's levels are looked up only when the help
    is shown, so that the engines are not imported for every command."""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        if action.dest != "level":
            return action.help
        ranges = []
        for name in game_names():
            levels = engine_levels(name)
            if levels is not None:
                ranges.append(f"{name} 1-{levels[0]} (default {levels[1]})")
        return "the computer's level, 1 a beginner: " + ", ".join(ranges)

    def _format_text(self, text: str) -> str:
        if text != _LEVEL_STRENGTHS:
            return super()._format_text(text)
        width = max(self._width - self._current_indent, 40)
        lines = ["the levels, as measured (docs/benchmarks.md says how):"]
        unmeasured = []
        for name in game_names():
            strengths = level_strengths(name)
            levels = engine_levels(name)
            every = set(range(1, levels[0] + 1)) if levels is not None else set()
            missing = _ranges(every - set(strengths))  # the levels not measured
            if missing and not strengths:
                unmeasured.append(name)
            elif missing:
                unmeasured.append(f"{name} {missing}")
            for level, words in sorted(strengths.items()):
                lines += textwrap.wrap(
                    f"{name} {level}: {words}",
                    width,
                    initial_indent="  ",
                    subsequent_indent="      ",
                )
        if unmeasured:
            lines.append(f"  {', '.join(unmeasured)}: not measured yet")
        return "\n".join(lines) + "\n\n"


def _ranges(levels: set[int]) -> str:
    """Levels as runs: ``5-8, 10``.

    >>> _ranges({5, 6, 7, 8, 10}), _ranges(set())
    ('5-8, 10', '')
    """
    runs: list[list[int]] = []
    for level in sorted(levels):
        if runs and level == runs[-1][-1] + 1:
            runs[-1].append(level)
        else:
            runs.append([level])
    return ", ".join(str(r[0]) if len(r) == 1 else f"{r[0]}-{r[-1]}" for r in runs)


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
        "the number on the last line. A ply is one move of a player: in backgammon the "
        "whole play of a roll, a cube action or an offer to resign each count as one, "
        "and the count stops at a throw of the dice, which is no player's move: "
        "4HPwATDgc/ABMA, the starting set-up with White to act before the roll, has 5 "
        "at depth 1 (roll, double, and three offers to resign) and no depth 2; "
        "backgammon's startpos, before the opening throw, has none. Give a position "
        "with its dice thrown (its Match ID) to count the plays of a roll.",
    )
    perft.add_argument("game", metavar="GAME", help=f"one of: {known}")
    perft.add_argument(
        "position",
        metavar="POSITION",
        help="FEN (chess), PDN FEN (checkers), or a Position ID with an optional :Match ID "
        f"(backgammon); {STARTPOS} for the usual start",
    )
    perft.add_argument("depth", metavar="DEPTH", type=int)
    perft.add_argument(
        "--divide", action="store_true", help="also count below each move of the first ply"
    )
    perft.add_argument("--json", action="store_true", help="print one JSON object")
    perft.set_defaults(run=_perft)

    moves = commands.add_parser(
        "moves",
        help="list the legal moves of a position",
        description="List every distinct legal move or play from a position, each with the "
        "position it leads to, separated by a tab. With --batch, read 'POSITION DICE' lines "
        "on standard input and answer each with one JSON line.",
    )
    moves.add_argument("game", metavar="GAME", help=f"one of: {known}")
    moves.add_argument(
        "position",
        metavar="POSITION",
        nargs="?",
        help=f"as for perft (a FEN, a PDN FEN, a gnubg ID); {STARTPOS} for the usual start",
    )
    moves.add_argument("dice", metavar="DICE", nargs="?", help="the dice thrown, e.g. 31 or 66")
    moves.add_argument("--batch", action="store_true", help="read positions from standard input")
    moves.add_argument(
        "--json", action="store_true", help="print one JSON object (as --batch prints a line)"
    )
    moves.set_defaults(run=_moves)

    draw = commands.add_parser(
        "draw",
        help="draw a position as an SVG picture",
        description="Print an SVG diagram of a position (redirect it to a .svg file).",
    )
    draw.add_argument("game", metavar="GAME", help=f"one of: {known}")
    draw.add_argument(
        "position", metavar="POSITION", help=f"as for perft; {STARTPOS} for the usual start"
    )
    draw.set_defaults(run=_draw)

    verify = commands.add_parser(
        "verify",
        help="check that a game's dice are the ones its server committed to",
        description="Check a backgammon game's dice: the server published the SHA-256 "
        "hash of a secret when the game began and reveals the secret when it is over; "
        "every throw follows from the secret. Give the game's address (its page, "
        "http://HOST/#game=ID) or its dice record saved from "
        "http://HOST/api/games/ID/dice. Exit status 0 when every throw is the "
        "secret's, 1 when not (or when it cannot be checked).",
    )
    verify.add_argument(
        "source", metavar="FILE_OR_URL", help="a dice record file, or the game's address"
    )
    verify.set_defaults(run=_verify)

    formats = ", ".join(_formats())
    convert = commands.add_parser(
        "convert",
        help="convert a saved game to a game file (PGN, PDN, .mat) and back",
        description="Convert a game saved by the terminal app (F5) to its game's file "
        f"format ({formats}), or a game of such a file to a save file that "
        "'parlour play GAME --resume FILE' resumes. The kind of each file is told "
        "by its extension (.json for a save file) or named with --from and --to.",
    )
    convert.add_argument("source", metavar="SOURCE", help="the file to read (- for stdin)")
    convert.add_argument(
        "target", metavar="TARGET", nargs="?", help="the file to write (default: stdout)"
    )
    convert.add_argument(
        "--from", dest="source_format", choices=[SAVE, *_formats()], help="SOURCE's kind"
    )
    convert.add_argument("--to", choices=[SAVE, *_formats()], help="TARGET's kind")
    convert.add_argument(
        "--number",
        type=int,
        metavar="N",
        help="which game of a file of several to convert (1 for the first)",
    )
    convert.set_defaults(run=_convert, command_parser=convert)

    analyse = commands.add_parser(
        "analyse",
        help="analyse the games of a file: each move judged, the better move shown",
        description="Analyse every game of a game file (PGN for chess, PDN for checkers, "
        ".mat for backgammon) with the game's engine, each position within --budget "
        "seconds, and write the games back annotated: chess and checkers in their own "
        "format, each move's score as [%%eval] and its judgement as ?! ? ?? with the "
        "better line as a variation; backgammon as a report of each decision with the "
        "better play, the equity lost and the luck of the throws. --json writes one "
        "JSON object a game instead. A progress bar runs on standard error.",
    )
    analyse.add_argument("file", metavar="FILE", help="the game file (- for stdin, with --game)")
    analyse.add_argument(
        "--game", choices=game_names(), help="the game, if not told by FILE's name"
    )
    analyse.add_argument(
        "--budget",
        type=float,
        metavar="SECONDS",
        help="seconds of analysis a position (default: the engine's, about a second)",
    )
    analyse.add_argument(
        "--nodes",
        type=int,
        metavar="N",
        help="search N positions a position instead of timing it: the same analysis "
        "on any machine, however busy (chess and checkers)",
    )
    analyse.add_argument(
        "--json", action="store_true", help="one JSON object a game: moves, judgements, summary"
    )
    analyse.set_defaults(run=_analyse, command_parser=analyse)

    play = commands.add_parser(
        "play",
        formatter_class=_PlayHelp,
        epilog=_LEVEL_STRENGTHS,
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
    play.add_argument("--level", type=int, help="the computer's level (ranges are per game)")
    play.add_argument(
        "--side",
        choices=("first", "second"),
        default="first",
        help="the side you play against the computer: first (White in chess, Black in "
        "checkers) or second",
    )
    play.add_argument(
        "--tutor",
        choices=("blunder", "mistake", "inaccuracy"),
        help="before a move that gives this much away or more (in backgammon: very bad, "
        "bad, doubtful), the tutor says so and asks: play anyway, think again, or hint",
    )
    play.add_argument("--resume", metavar="FILE", help="resume a game saved from the app")
    play.add_argument("--plain", action="store_true", help="line-by-line play, no full screen")
    play.add_argument(
        "--match",
        type=_count,
        dest="match_length",
        metavar="N",
        help="backgammon: a match to N points (0: money play)",
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
        type=_count,
        metavar="N",
        help="backgammon: the cube goes no higher than N, a power of two (a standard "
        "cube stops at 64)",
    )
    play.add_argument("--position", help="start from this position instead of the usual start")
    play.add_argument("--seed", type=int, help="seed the dice, to replay the same throws")
    play.set_defaults(run=_play, command_parser=play)

    _add_compile(commands)
    _add_serve(commands)

    _add_programs(commands)
    return parser


def _add_programs(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """A command for each game's own program (``uci``, ``checkers-endgames``), with
    its options; the program's module is imported only when it runs."""
    for program in programs():
        command = commands.add_parser(program.command, help=program.help, description=program.help)
        for option in program.options:
            command.add_argument(
                option.flag,
                type=option.type,
                default=option.default,
                choices=option.choices,
                help=option.help,
            )
        command.set_defaults(
            run=lambda args, program=program: run_program(
                program,
                {option.keyword: getattr(args, option.keyword) for option in program.options},
            )
        )


def _add_compile(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """The ``compile`` command (a sub-parser of ``commands``)."""
    compile_ = commands.add_parser(
        "compile",
        help="compile the engines' hot modules with mypyc, and the checkers and chess "
        "searches in C (optional; faster play)",
        description="Compile the engines' move generation and search to C with mypyc, and "
        "the checkers and chess searches written in C, in place beside their sources (needs a C "
        "compiler, Python's headers, mypy and setuptools; a minute or two). Parlour runs "
        "the pure-Python modules wherever they are not built, or are older than their "
        "sources, or PARLOUR_PURE=1 is set.",
    )
    compile_.add_argument("--remove", action="store_true", help="delete the compiled modules")
    compile_.add_argument(
        "--status", action="store_true", help="say whether the compiled modules are in use"
    )
    compile_.set_defaults(run=_compile)


def _add_serve(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """The ``serve`` command and its options (a sub-parser of ``commands``)."""
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
    serve.add_argument(
        "--allowed-host",
        action="append",
        default=[],
        metavar="HOST",
        help="a host name the server answers to (e.g. parlour.example.org, or "
        "*.example.org); repeat for more; by default any",
    )
    serve.add_argument(
        "--redis",
        metavar="URL",
        help="join a fleet of servers on one --db (PostgreSQL): Redis at URL "
        "(redis://host:6379/0) carries the news of each game's moves between them",
    )
    serve.add_argument(
        "--behind-proxy",
        action="store_true",
        help="take the client's address and scheme from a reverse proxy's forwarded "
        "headers (only from the addresses of --trusted-proxies)",
    )
    serve.add_argument(
        "--trusted-proxies",
        default="127.0.0.1",
        metavar="ADDRESSES",
        help="with --behind-proxy: the proxies' addresses, comma-separated (default 127.0.0.1)",
    )
    serve.add_argument(
        "--log-format",
        choices=("text", "json"),
        default="text",
        help="the log on standard error: lines for people (text, the default) or one "
        "JSON object a line for log collectors (json)",
    )
    serve.add_argument(
        "--max-header-bytes",
        type=_count,
        default=64 * 1024,
        metavar="N",
        help="the most a request's headers may take (default 65536)",
    )
    serve.add_argument(
        "--idle-timeout",
        type=_count,
        default=5,
        metavar="SECONDS",
        help="close a connection idle this long between requests (default 5)",
    )
    serve.add_argument(
        "--forget-idle",
        type=_count,
        default=600,
        metavar="SECONDS",
        help="a game nobody has asked for this long leaves the server's memory, to be "
        "read from the store when asked for again (default 600; 0: never)",
    )
    serve.add_argument(
        "--abandon-after",
        type=_count,
        default=30,
        metavar="DAYS",
        help="an unfinished game nobody has moved in for this long is marked abandoned: "
        "no longer resumed when the server starts (it stays stored, and a move "
        "brings it back; default 30; 0: never)",
    )
    serve.add_argument(
        "--most-moves",
        type=_count,
        default=20_000,
        metavar="N",
        help="the most moves (throws of the dice and offers included) one game may "
        "have; past them it can only be resigned or drawn (default 20000: more than "
        "any game played to its end needs)",
    )
    serve.add_argument(
        "--engine-jobs",
        type=_count,
        default=4,
        metavar="N",
        help="hints and tutor's judgements one client may have waiting for the engine "
        "at once (default 4); computer moves are never refused, only taken in turn "
        "with other clients'",
    )
    limits = serve.add_argument_group(
        "limits per client", "requests per minute from one client address (0: no limit)"
    )
    for kind, default, what in _LIMITS:
        limits.add_argument(
            f"--{kind}-per-minute",
            type=_count,
            default=default,
            metavar="N",
            help=f"{what} (default {default})",
        )
    serve.set_defaults(run=_serve)


def main(argv: Sequence[str] | None = None) -> int:
    given = sys.argv[1:] if argv is None else list(argv)
    if given[:1] == ["compile"]:
        compiled.hush()  # the help's level words load the engines: no word of stale ones
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
    except BrokenPipeError:
        # The reader went away (``| head``): stop quietly, as command-line tools do.
        # Python would report the pipe again when it flushes stdout at exit.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return EXIT_ERROR
    return code


if __name__ == "__main__":
    raise SystemExit(main())
