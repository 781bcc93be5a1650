"""The engines' compiled build (parlour.compiled): in use where the set-up made it,
set aside when its sources change or on request, and doing exactly what the
pure-Python modules do (each side run in a process of its own)."""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
from pathlib import Path

from parlour import compiled

ROOT = Path(__file__).resolve().parents[2]
PURE = {**os.environ, "PARLOUR_PURE": "1"}


def run(arguments: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """Python run with ``arguments`` in a process of its own, which must succeed."""
    done = subprocess.run(
        [sys.executable, *arguments],
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        cwd=ROOT,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr
    return done


def run_python(code: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return run(["-c", code], env)


def test_the_set_up_compiled_every_module() -> None:
    # scripts/setup.sh runs `parlour compile`; a machine that cannot compile fails here
    assert compiled.state() == "compiled"
    for name in (*compiled.MODULES, *compiled.NATIVE):
        assert compiled.is_compiled(importlib.import_module(name)), name
    from parlour.checkers.engine import NATIVE, CheckersEngine, NativeSearch
    from parlour.chess import engine as chess_engine

    assert NATIVE and isinstance(CheckersEngine().searcher, NativeSearch)
    assert chess_engine.NATIVE
    assert isinstance(chess_engine.ChessEngine().searcher, chess_engine.NativeSearcher)
    from parlour.backgammon import network

    assert network.NATIVE


WHICH = """
import importlib
from parlour import compiled
from parlour.checkers.engine import NATIVE
loaded = [importlib.import_module(name) for name in compiled.MODULES]
for name in compiled.NATIVE:
    try:
        importlib.import_module(name)
        print(name, "imported")
    except ImportError as error:
        print(name, "refused:", error)
print("engine in C:", NATIVE)
print(compiled.state(), [compiled.is_compiled(module) for module in loaded])
"""


def test_pure_python_on_request() -> None:
    done = run_python(WHICH, PURE)
    *natives, engine, last = done.stdout.strip().splitlines()
    assert last.split(" ", 3)[:3] == ["pure", "by", "choice"]
    assert last.endswith(str([False] * len(compiled.MODULES)))
    # the C extensions cannot even be imported: their users run Python
    assert natives == [
        f"{name} refused: {name} is set aside: the package runs pure" for name in compiled.NATIVE
    ]
    assert engine == "engine in C: False"
    assert done.stderr == ""


def test_a_changed_source_sets_the_build_aside() -> None:
    # the guard of a second copy of the module, given a record of other sources,
    # acts as the package's own does when a source has been edited since the build
    code = f"""
import importlib.util, sys
spec = importlib.util.spec_from_file_location("guard_copy", {str(ROOT / "parlour/compiled.py")!r})
copy = importlib.util.module_from_spec(spec)
spec.loader.exec_module(copy)
copy.STAMP = copy.Path({str(ROOT / "tests")!r}) / "no-such-stamp"
assert copy.state() == "stale", copy.state()
copy.guard()
import parlour.checkers.board as board
print(copy.is_compiled(board))
from parlour.checkers.engine import NATIVE
print(NATIVE)
"""
    done = run_python(code, dict(os.environ))
    assert done.stdout.split() == ["False", "False"]
    assert "older than their sources" in done.stderr
    assert done.stderr.count("parlour:") == 1


SEARCHES = """
import json, random
from parlour import compiled
from parlour.backgammon.board import Position, legal_plays
from parlour.checkers.engine import CheckersEngine
from parlour.checkers.rules import CHECKERS
from parlour.chess.engine import Searcher
from parlour.chess.rules import CHESS

found = {"state": compiled.state()}
chess = []
for fen in (
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2k5/8/3K4/8/8/2P5/8 w - - 0 1",
):
    searcher = Searcher()
    result = searcher.search(CHESS.state_from_text(fen), depth=4)
    chess.append([searcher.nodes, result.score, str(result.move), [str(m) for m in result.pv]])
found["chess"] = chess
checkers = []
for text in (
    "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12",
    "W:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29",
):
    engine = CheckersEngine()
    result = engine.search(CHECKERS.state_from_text(text), depth=7)
    line = [str(step) for step in result.principal_variation]
    checkers.append([result.nodes, result.score, str(result.best_move), line])
found["checkers"] = checkers
found["checkers in C"] = engine.native
plays = []
rng = random.Random(7)
position = Position.start()
for _ in range(400):
    dice = (rng.randint(1, 6), rng.randint(1, 6))
    listed = sorted(" ".join(map(str, play)) for play in legal_plays(position, dice))
    plays.append(listed)
    chosen = rng.choice(sorted(legal_plays(position, dice))) if listed else ()
    position = position.apply(chosen)
    position = Position.start() if position.win_kind() else position.swapped()
found["backgammon"] = plays
print(json.dumps(found))
"""


def test_the_compiled_modules_do_what_the_pure_ones_do() -> None:
    built = json.loads(run_python(SEARCHES, dict(os.environ)).stdout)
    pure = json.loads(run_python(SEARCHES, PURE).stdout)
    assert (built.pop("state"), pure.pop("state")) == ("compiled", "pure by choice")
    # the checkers search in C against the Python one
    assert (built.pop("checkers in C"), pure.pop("checkers in C")) == (True, False)
    # the same node counts, scores and moves: the same searches
    assert built == pure
    assert sum(len(listed) for listed in pure["backgammon"]) > 2000


def test_the_compiled_modules_doctests_run_on_their_sources() -> None:
    # pytest cannot collect a built module's doctests from its source (conftest.py):
    # they run here, in pure Python
    paths = [str(compiled.source_path(module)) for module in compiled.MODULES]
    done = run(["-m", "pytest", "-q", "-p", "no:cacheprovider", *paths], PURE)
    assert " passed" in done.stdout
