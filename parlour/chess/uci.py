"""The Universal Chess Interface: Parlour's chess engine for any chess GUI.

`parlour uci` reads commands on standard input and answers on standard output. The
search runs in a thread of its own, so ``isready`` and ``stop`` are answered while it
thinks. A command that cannot be understood is answered with an ``info string``
saying why, and the engine carries on.

>>> import io
>>> out = io.StringIO()
>>> UciEngine(out).run(["uci", "quit"])
>>> out.getvalue().splitlines()[-1]
'uciok'
"""

from __future__ import annotations

import random
import sys
import threading
from collections.abc import Iterable
from typing import TextIO

from parlour.chess.board import Move
from parlour.chess.engine import LEVELS, SearchInfo, deliberate_choice, new_searcher
from parlour.chess.openings import shipped_book
from parlour.chess.rules import CHESS, ChessState
from parlour.core.errors import ParlourError

NAME = "Parlour"
AUTHOR = "the Parlour authors"

#: ``go`` parameters that take a number, and those that stand alone.
_GO_NUMBERS = {"wtime", "btime", "winc", "binc", "movestogo", "depth", "nodes", "movetime", "mate"}
_GO_FLAGS = {"infinite", "ponder"}
#: The most lines ``MultiPV`` may ask for (a position has at most 218 legal moves).
MAX_MULTIPV = 256
#: The most ``Hash`` may be, in MB: the table is kept from one search to the next
#: while it holds at most 5,000 positions a MB (within one search it grows up to
#: ``engine.TABLE_CEILING`` positions, whatever the Hash).
MAX_HASH_MB = 1024


class UciEngine:
    """One UCI session: a position, options, and at most one search thread."""

    def __init__(self, out: TextIO | None = None) -> None:
        self.out = out if out is not None else sys.stdout
        self.print_lock = threading.Lock()
        self.state: ChessState = CHESS.new_state()
        #: Why the last ``position`` was refused, until a good one comes.
        self.refused: str | None = None
        self.searcher = new_searcher()
        self.level = 10
        self.move_overhead_ms = 50
        #: How many best lines a search reports (UCI's MultiPV).
        self.multipv = 1
        #: The first moves the next search is restricted to (``go searchmoves``).
        self.searchmoves: list[Move] | None = None
        self.thread: threading.Thread | None = None
        self.stop_event = threading.Event()
        self.infinite = False
        #: The time a search started by ``go ponder`` may take once ``ponderhit``
        #: says the predicted move was played (None: as long as the level's time).
        self.ponder_seconds: float | None = None
        self.rng = random.Random()
        #: Whether a ``go`` in a position of the opening book answers with one of
        #: its moves at once (UCI's OwnBook; off unless the GUI turns it on, so
        #: that searches and analyses are the engine's own).
        self.own_book = False

    # -- output ----------------------------------------------------------------------

    def send(self, line: str) -> None:
        with self.print_lock:
            self.out.write(line + "\n")
            self.out.flush()

    def explain(self, message: str) -> None:
        self.send(f"info string {message}")

    # -- the loop --------------------------------------------------------------------

    def run(self, lines: Iterable[str]) -> None:
        """Answer commands until ``quit`` or the end of input."""
        for line in lines:
            words = line.split()
            if not words:
                continue
            if words[0] == "quit":
                self.stop_search()
                return
            try:
                self.handle(words)
            except Exception as error:
                self.explain(f"could not handle {line.strip()!r}: {error}")
        # The input ended without "quit": let a timed search finish and answer.
        if self.thread is not None and not self.infinite:
            self.thread.join()
        self.stop_search()

    def handle(self, words: list[str]) -> None:
        command, args = words[0], words[1:]
        if command == "uci":
            self.send(f"id name {NAME}")
            self.send(f"id author {AUTHOR}")
            self.send("option name Level type spin default 10 min 1 max 10")
            self.send(f"option name Hash type spin default 64 min 1 max {MAX_HASH_MB}")
            self.send("option name Move Overhead type spin default 50 min 0 max 5000")
            self.send(f"option name MultiPV type spin default 1 min 1 max {MAX_MULTIPV}")
            self.send("option name Ponder type check default false")
            self.send("option name OwnBook type check default false")
            self.send("uciok")
        elif command == "isready":
            self.send("readyok")
        elif command == "ucinewgame":
            self.stop_search()
            self.searcher.clear()
            self.state = CHESS.new_state()
        elif command == "position":
            self.stop_search()
            self.position(args)
        elif command == "go":
            self.stop_search()
            self.go(args)
        elif command == "stop":
            self.stop_search()
        elif command == "setoption":
            self.setoption(args)
        elif command == "ponderhit":
            self.ponderhit()
        elif command in ("debug", "register"):
            pass  # nothing to do
        else:
            self.explain(f"unknown command {command!r}")

    # -- commands ------------------------------------------------------------------

    def position(self, args: list[str]) -> None:
        if not args or args[0] not in ("startpos", "fen"):
            self.explain("position needs 'startpos' or 'fen <FEN>', then optionally 'moves ...'")
            return
        moves_at = args.index("moves") if "moves" in args else len(args)
        try:
            if args[0] == "startpos":
                state = CHESS.new_state()
            else:
                state = CHESS.state_from_text(" ".join(args[1:moves_at]))
        except ParlourError as error:
            self.refuse_position(f"position refused: {error}")
            return
        for number, text in enumerate(args[moves_at + 1 :], start=1):
            try:
                state.push(Move.from_uci(text))
            except ParlourError as error:
                self.refuse_position(f"position refused: move {number}, {text}, {error}")
                return
        self.state = state
        self.refused = None

    def refuse_position(self, why: str) -> None:
        """Say why a position cannot be set up; until the next good one, ``go``
        searches nothing rather than a position the GUI did not mean."""
        self.explain(why)
        self.refused = why

    def setoption(self, args: list[str]) -> None:
        if not args or args[0] != "name":
            self.explain("setoption needs 'name <option> value <value>'")
            return
        value_at = args.index("value") if "value" in args else len(args)
        name = " ".join(args[1:value_at]).lower()
        value = " ".join(args[value_at + 1 :])
        # The two check options: Ponder (the GUI says whether it will ask us to
        # ponder; nothing to set) and OwnBook.
        if name in ("ponder", "ownbook"):
            if value.lower() not in ("true", "false"):
                self.explain(f"option {name!r} is true or false, not {value!r}")
            elif name == "ownbook":
                self.own_book = value.lower() == "true"
            return
        try:
            number = int(value)
        except ValueError:
            self.explain(f"option {name!r} needs a whole number, not {value!r}")
            return
        if name in ("level", "skill level"):
            if not 1 <= number <= 10:
                self.explain("Level runs from 1 to 10")
                return
            self.level = number
        elif name == "hash":
            if not 1 <= number <= MAX_HASH_MB:
                self.explain(f"Hash runs from 1 to {MAX_HASH_MB} (MB)")
                return
            self.searcher.hash_entries = number * 5000
        elif name == "move overhead":
            self.move_overhead_ms = max(0, number)
        elif name == "multipv":
            if not 1 <= number <= MAX_MULTIPV:
                self.explain(f"MultiPV runs from 1 to {MAX_MULTIPV}")
                return
            self.multipv = number
        else:
            self.explain(f"no option called {name!r}")

    def go(self, args: list[str]) -> None:
        numbers: dict[str, int] = {}
        flags: set[str] = set()
        searchmoves: list[Move] | None = None
        i = 0
        while i < len(args):
            word = args[i]
            if word in _GO_FLAGS:
                flags.add(word)
                i += 1
            elif word in _GO_NUMBERS:
                try:
                    numbers[word] = int(args[i + 1])
                except (IndexError, ValueError):
                    self.explain(f"go: {word} needs a whole number; command ignored")
                    return
                i += 2
            elif word == "searchmoves":
                i += 1
                texts = []
                while i < len(args) and args[i] not in _GO_NUMBERS | _GO_FLAGS:
                    texts.append(args[i])
                    i += 1
                searchmoves = self._searchmoves(texts)
                if searchmoves is None:
                    return
            else:
                self.explain(f"go: unknown parameter {word!r} ignored")
                i += 1
        bad = self._bad_go_numbers(numbers)
        if bad is not None:
            self.explain(f"go: {bad}; command ignored")
            return
        if self.refused is not None:
            self.explain(f"go: no position to search ({self.refused})")
            self.send("bestmove 0000")
            return
        state = self.state.copy()
        if state.is_over() or not state.legal():
            self.explain("the game is over: no move to search")
            self.send("bestmove 0000")
            return
        infinite = "infinite" in flags or "ponder" in flags
        if self.own_book and not infinite and searchmoves is None and self.multipv == 1:
            known = shipped_book().move(state, self.rng) if LEVELS[self.level].book else None
            if known is not None:
                self.explain("a move of the opening book")
                self.send(f"bestmove {known.uci()}")
                return
        self.infinite = infinite
        seconds = None if infinite else self._seconds(numbers, state)
        if "ponder" in flags:  # the clock starts at ponderhit: keep its share of time
            self.ponder_seconds = self._seconds(numbers, state)
        # A fixed time per move is spent whether or not the search stops early.
        use_all_time = "movetime" in numbers
        depth = numbers.get("depth") or (2 * numbers["mate"] if "mate" in numbers else None)
        nodes = numbers.get("nodes")
        if not infinite and depth is None and nodes is None and seconds is None:
            # A bare go: the level's own limits, as in a game against the computer.
            seconds = LEVELS[self.level].seconds
            nodes = LEVELS[self.level].nodes
        self.searchmoves = searchmoves
        self.stop_event = threading.Event()
        self.thread = threading.Thread(
            target=self._think,
            args=(state, seconds, depth, nodes, infinite, self.stop_event, use_all_time),
            daemon=True,
        )
        self.thread.start()

    def _searchmoves(self, texts: list[str]) -> list[Move] | None:
        """The moves of ``go searchmoves``, each legal in the position; None (after
        saying why, with the search not started) for a move that is not."""
        if not texts:
            self.explain("go: searchmoves needs at least one move; command ignored")
            return None
        legal = set(self.state.legal_moves())
        moves = []
        for text in texts:
            try:
                move = Move.from_uci(text)
            except ParlourError as error:
                self.explain(f"go: searchmoves {text}: {error}; command ignored")
                return None
            if move not in legal:
                self.explain(f"go: searchmoves {text} is not a legal move here; command ignored")
                return None
            moves.append(move)
        return moves

    @staticmethod
    def _bad_go_numbers(numbers: dict[str, int]) -> str | None:
        """What is wrong with the numbers of a ``go``, or None. The clocks may have
        run below zero (a GUI reports an overstepped clock), nothing else may."""
        for word in ("depth", "nodes", "movetime", "movestogo", "mate"):
            if word in numbers and numbers[word] < 1:
                return f"{word} must be 1 or more, not {numbers[word]}"
        for word in ("winc", "binc"):
            if word in numbers and numbers[word] < 0:
                return f"{word} must be 0 or more, not {numbers[word]}"
        return None

    def _seconds(self, numbers: dict[str, int], state: ChessState) -> float | None:
        overhead = self.move_overhead_ms
        if "movetime" in numbers:
            return max(10, numbers["movetime"] - overhead) / 1000
        white = state.color == 8
        left = numbers.get("wtime" if white else "btime")
        if left is None:
            return None
        increment = numbers.get("winc" if white else "binc", 0)
        to_go = numbers.get("movestogo", 30)
        share = left / max(1, min(to_go, 30)) + 0.75 * increment
        ms = min(1.6 * share, 0.3 * left) - overhead
        return max(10, ms) / 1000

    def _think(
        self,
        state: ChessState,
        seconds: float | None,
        depth: int | None,
        nodes: int | None,
        infinite: bool,
        stop: threading.Event,
        use_all_time: bool = False,
    ) -> None:
        try:
            level = LEVELS[self.level]
            margin = level.margin
            if margin:
                # The weak levels play their deliberate mistakes here too.
                result = self.searcher.search(
                    state,
                    seconds=min(seconds or level.seconds, level.seconds),
                    depth=level.depth,
                    stop=stop,
                    exact_root=True,
                    margin=margin,
                    on_iteration=self._info,
                    searchmoves=self.searchmoves,
                )
                move = deliberate_choice(result, margin, self.rng)
                ponder = None
            else:
                result = self.searcher.search(
                    state,
                    seconds=seconds,
                    depth=depth,
                    nodes=nodes,
                    stop=stop,
                    on_iteration=self._info,
                    use_all_time=use_all_time,
                    multipv=self.multipv,
                    searchmoves=self.searchmoves,
                )
                move = result.move
                ponder = result.pv[1] if len(result.pv) > 1 else None
            if infinite:
                stop.wait()  # UCI: after "go infinite" the move waits for "stop"
            line = f"bestmove {move.uci()}"
            if ponder is not None:
                line += f" ponder {ponder.uci()}"
            self.send(line)
        except Exception as error:
            self.explain(f"search failed: {error}")
            moves = state.legal_moves()
            self.send(f"bestmove {moves[0].uci() if moves else '0000'}")

    def _info(self, info: SearchInfo) -> None:
        mate = info.mate_in
        score = f"mate {mate}" if mate is not None else f"cp {info.score}"
        ms = max(1, int(info.seconds * 1000))
        nps = info.nodes * 1000 // ms
        pv = " ".join(m.uci() for m in info.pv)
        self.send(
            f"info depth {info.depth} seldepth {info.seldepth} multipv {info.multipv} "
            f"score {score} nodes {info.nodes} nps {nps} time {ms} pv {pv}"
        )

    def ponderhit(self) -> None:
        """The move pondered on was played: the search goes on as an ordinary one,
        stopping after the time the ``go ponder`` command's clock allowed (the
        level's time without a clock) and answering without waiting for ``stop``."""
        if self.thread is None or not self.infinite:
            self.explain("ponderhit: no search is pondering")
            return
        self.infinite = False
        seconds = self.ponder_seconds or LEVELS[self.level].seconds
        timer = threading.Timer(seconds, self.stop_event.set)
        timer.daemon = True
        timer.start()

    def stop_search(self) -> None:
        """Stop a running search and wait for its ``bestmove``."""
        if self.thread is not None:
            self.stop_event.set()
            self.thread.join()
            self.thread = None


def main() -> int:
    """``parlour uci``: the UCI loop on standard input and output."""
    UciEngine().run(sys.stdin)
    return 0
