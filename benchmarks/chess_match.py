"""Matches between Parlour's chess engine and a peer, both over UCI.

python-chess's engine module (test-only) drives both programs; the games are judged
by Parlour's own rules through the game protocol (checkmate, stalemate, insufficient
material, the 75-move and fivefold rules, and the threefold and fifty-move draws a
player could claim); a game still going after 200 moves is scored a draw. Each
opening below is played twice, the colours swapped.

    python benchmarks/chess_match.py sunfish --games 40 --movetime 0.5
    python benchmarks/chess_match.py stockfish --elo 1350 --games 20 --movetime 0.5
    python benchmarks/chess_match.py parlour --peer-root /tmp/chess-old --games 100 --movetime 0.1
    python benchmarks/chess_match.py parlour --peer-root /tmp/chess-old --games 200 --nodes 10000
    python benchmarks/chess_match.py parlour --level 2 --peer-level 1 --root /work/main
    python benchmarks/chess_match.py stockfish --elo 1350 --level 4 --root /work/main
    python benchmarks/chess_match.py stockfish --elo 2000 --games 100 --nodes 48000
    python benchmarks/chess_match.py stockfish --elo 2000 --level 8 --peer-movetime 0.5
    python benchmarks/chess_match.py parlour --book --from-book 4 --games 200 --nodes 50000
    python benchmarks/chess_match.py stockfish --elo 2200 --nodes 11600000 --adjudicate

The peers: Sunfish (PyPI ``sunfish``, in its own venv: ``python3 -m venv
/work/sunfish-venv && /work/sunfish-venv/bin/pip install sunfish``; its
``sunfish-uci`` script) and Debian's Stockfish (``apt-get install stockfish``), held
to ``UCI_Elo`` with ``UCI_LimitStrength``. The score is printed with its 95 %
interval and the Elo difference -400 log10(1/s - 1). The peer ``parlour`` is another
copy of Parlour (``--peer-root``, e.g. an older commit's ``git worktree``), to measure a
change to the engine against the engine before it.

``--book`` lets Parlour play its opening book's moves (UCI ``OwnBook``), and
``--from-book N`` starts each pair of games from a walk of N plies at random down the
book instead of the openings below: together, against a peer Parlour without its
book, they measure the book (from the starting position, a peer without the book
would play the same game every time it had White, its first move out of the book).

Levels: ``--level N`` sets Parlour's ``Level`` UCI option (``--peer-level M`` the
peer Parlour's). A side with a level and no ``--movetime`` is sent a bare ``go``, so
it plays as a game against the computer does: the level's own time from ``LEVELS``
(stopping early when the next iteration would not finish), and for levels 1-3 their
shallow search and deliberate mistakes. The peer Stockfish or Sunfish then gets
Parlour's level's time per move, or ``--peer-movetime``. ``--root`` picks the copy
of Parlour that plays (its working directory), e.g. a checkout with the compiled
build, to play at users' speed.

``--adjudicate`` ends games early where both engines agree, as cutechess-cli's
``-resign`` and ``-draw`` do, so that matches at the slow levels fit in hours: a game
is scored for a side once each engine's last four reported scores put that side at
least 8 pawns ahead (or see its mate), and drawn after move 40 once each engine's last
eight scores are within 0.10 pawn of level. Off by default: a played-out game is the
stricter measure. ``--pgn FILE`` keeps the games, each with how it ended and, on each
engine move, its score, depth and time (as cutechess-cli writes them).
"""

from __future__ import annotations

import argparse
import math
import os
import random
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

try:
    import chess
    import chess.engine
    import chess.pgn
except ImportError:  # pragma: no cover
    raise SystemExit("python-chess is needed: pip install chess (the test extra)") from None

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from parlour.chess.board import Move  # noqa: E402
from parlour.chess.engine import LEVELS  # noqa: E402
from parlour.chess.openings import shipped_book  # noqa: E402
from parlour.chess.rules import CHESS  # noqa: E402

SUNFISH = os.environ.get("SUNFISH_UCI", "/work/sunfish-venv/bin/sunfish-uci")
STOCKFISH = os.environ.get("STOCKFISH", "/usr/games/stockfish")
MAX_MOVES = 200
RESIGN_CP, RESIGN_MOVES = 800, 4  # --adjudicate: a win both engines see, each 4 moves
DRAW_CP, DRAW_MOVES, DRAW_AFTER = 10, 8, 40  # a level game both see, after move 40

#: Varied, sound opening lines (UCI moves), a few moves deep: 100, so that 200 games
#: play each once with each colour (the first 20 are those of the earlier matches).
OPENINGS = [
    "e2e4 e7e5 g1f3 b8c6 f1b5 a7a6",  # Ruy Lopez
    "e2e4 e7e5 g1f3 b8c6 f1c4 f8c5",  # Italian
    "e2e4 c7c5 g1f3 d7d6 d2d4 c5d4 f3d4 g8f6",  # Sicilian, open
    "e2e4 c7c5 b1c3 b8c6 g2g3",  # Sicilian, closed
    "e2e4 e7e6 d2d4 d7d5 b1c3 g8f6",  # French
    "e2e4 c7c6 d2d4 d7d5 e4e5 c8f5",  # Caro-Kann, advance
    "e2e4 d7d6 d2d4 g8f6 b1c3 g7g6",  # Pirc
    "e2e4 d7d5 e4d5 d8d5 b1c3 d5a5",  # Scandinavian
    "d2d4 d7d5 c2c4 e7e6 b1c3 g8f6",  # Queen's Gambit Declined
    "d2d4 d7d5 c2c4 c7c6 g1f3 g8f6",  # Slav
    "d2d4 d7d5 c2c4 d5c4 g1f3 g8f6",  # Queen's Gambit Accepted
    "d2d4 g8f6 c2c4 g7g6 b1c3 f8g7 e2e4 d7d6",  # King's Indian
    "d2d4 g8f6 c2c4 e7e6 b1c3 f8b4",  # Nimzo-Indian
    "d2d4 g8f6 c2c4 e7e6 g1f3 b7b6",  # Queen's Indian
    "d2d4 f7f5 g2g3 g8f6 f1g2",  # Dutch
    "c2c4 e7e5 b1c3 g8f6 g1f3 b8c6",  # English
    "g1f3 d7d5 g2g3 g8f6 f1g2 e7e6",  # Reti
    "e2e4 e7e5 f2f4 e5f4 g1f3",  # King's Gambit
    "e2e4 e7e5 g1f3 g8f6 f3e5 d7d6 e5f3 f6e4",  # Petroff
    "d2d4 g8f6 c2c4 c7c5 d4d5 e7e6",  # Benoni
    "e2e4 e7e5 g1f3 b8c6 d2d4 e5d4 f3d4 g8f6",  # Scotch
    "e2e4 e7e5 b1c3 g8f6 f2f4 d7d5",  # Vienna
    "e2e4 e7e5 g1f3 b8c6 f1b5 g8f6 e1g1 f6e4",  # Ruy Lopez, Berlin
    "e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 d2d3 f8e7",  # Two Knights, quiet
    "e2e4 c7c5 g1f3 b8c6 d2d4 c5d4 f3d4 g7g6",  # Sicilian, accelerated dragon
    "e2e4 c7c5 g1f3 e7e6 d2d4 c5d4 f3d4 a7a6",  # Sicilian, Kan
    "e2e4 c7c5 c2c3 g8f6 e4e5 f6d5 d2d4 c5d4",  # Sicilian, Alapin
    "e2e4 c7c5 g1f3 d7d6 f1b5 c8d7 b5d7 d8d7",  # Sicilian, Moscow
    "e2e4 e7e6 d2d4 d7d5 b1d2 c7c5 e4d5 e6d5",  # French, Tarrasch
    "e2e4 e7e6 d2d4 d7d5 e4e5 c7c5 c2c3 b8c6",  # French, advance
    "e2e4 c7c6 d2d4 d7d5 b1c3 d5e4 c3e4 c8f5",  # Caro-Kann, classical
    "e2e4 g7g6 d2d4 f8g7 b1c3 d7d6 f2f4 g8f6",  # Modern
    "e2e4 g8f6 e4e5 f6d5 d2d4 d7d6 g1f3 c8g4",  # Alekhine
    "d2d4 d7d5 g1f3 g8f6 c1f4 e7e6 e2e3 c7c5",  # London
    "d2d4 g8f6 g1f3 e7e6 c1g5 h7h6 g5f6 d8f6",  # Torre
    "d2d4 d7d5 c2c4 e7e6 g1f3 g8f6 g2g3 f8e7",  # Catalan
    "d2d4 g8f6 c2c4 g7g6 b1c3 d7d5 c4d5 f6d5",  # Grunfeld
    "d2d4 g8f6 c2c4 e7e6 g1f3 f8b4 c1d2 d8e7",  # Bogo-Indian
    "d2d4 g8f6 c2c4 c7c5 d4d5 b7b5 c4b5 a7a6",  # Benko
    "d2d4 d7d5 c2c4 c7c6 b1c3 g8f6 e2e3 e7e6",  # Semi-Slav
    "d2d4 d7d5 c2c4 b8c6 g1f3 c8g4",  # Chigorin
    "d2d4 e7e6 c2c4 b7b6 e2e4 c8b7",  # English Defence
    "c2c4 c7c5 b1c3 b8c6 g2g3 g7g6 f1g2 f8g7",  # English, symmetrical
    "c2c4 g8f6 b1c3 e7e6 e2e4 d7d5 e4e5 d5d4",  # English, Mikenas
    "c2c4 e7e5 g2g3 g8f6 f1g2 d7d5 c4d5 f6d5",  # English, reversed Dragon
    "g1f3 g8f6 g2g3 g7g6 f1g2 f8g7 e1g1 e8g8",  # King's Indian Attack set-up
    "g1f3 c7c5 c2c4 g8f6 b1c3 d7d5 c4d5 f6d5",  # Reti, symmetrical
    "b2b3 e7e5 c1b2 b8c6 e2e3 d7d5",  # Larsen
    "f2f4 d7d5 g1f3 g8f6 e2e3 g7g6",  # Bird
    "e2e4 e7e5 g1f3 d7d6 d2d4 g8f6 b1c3 b8d7",  # Philidor
    # The same fifty lines, each a move further: Stockfish 15.1's second choice (depth 14)
    # and its answer to it; each within 0.85 pawns of equal by Stockfish (in brackets).
    "e2e4 e7e5 g1f3 b8c6 f1b5 a7a6 b5c4 g8f6",  # (+0 cp)
    "e2e4 e7e5 g1f3 b8c6 f1c4 f8c5 c2c3 g8f6",  # (+4 cp)
    "e2e4 c7c5 g1f3 d7d6 d2d4 c5d4 f3d4 g8f6 f2f3 e7e5",  # (+0 cp)
    "e2e4 c7c5 b1c3 b8c6 g2g3 d7d6 g1f3",  # (+7 cp)
    "e2e4 e7e6 d2d4 d7d5 b1c3 g8f6 e4e5 f6d7",  # (+42 cp)
    "e2e4 c7c6 d2d4 d7d5 e4e5 c8f5 h2h4 h7h5",  # (+37 cp)
    "e2e4 d7d6 d2d4 g8f6 b1c3 g7g6 c1e3 a7a6",  # (+83 cp)
    "e2e4 d7d5 e4d5 d8d5 b1c3 d5a5 g1f3 c7c6",  # (+58 cp)
    "d2d4 d7d5 c2c4 e7e6 b1c3 g8f6 c4d5 e6d5",  # (+27 cp)
    "d2d4 d7d5 c2c4 c7c6 g1f3 g8f6 b1c3 d5c4",  # (+32 cp)
    "d2d4 d7d5 c2c4 d5c4 g1f3 g8f6 b1c3 a7a6",  # (+11 cp)
    "d2d4 g8f6 c2c4 g7g6 b1c3 f8g7 e2e4 d7d6 h2h3 e8g8",  # (+59 cp)
    "d2d4 g8f6 c2c4 e7e6 b1c3 f8b4 e2e3 e8g8",  # (+13 cp)
    "d2d4 g8f6 c2c4 e7e6 g1f3 b7b6 a2a3 c8b7",  # (+33 cp)
    "d2d4 f7f5 g2g3 g8f6 f1g2 d7d5 c2c4",  # (+50 cp)
    "c2c4 e7e5 b1c3 g8f6 g1f3 b8c6 d2d4 e5e4",  # (+5 cp)
    "g1f3 d7d5 g2g3 g8f6 f1g2 e7e6 e1g1 c7c5",  # (+8 cp)
    "e2e4 e7e5 f2f4 e5f4 g1f3 g8f6 e4e5",  # (-40 cp)
    "e2e4 e7e5 g1f3 g8f6 f3e5 d7d6 e5f3 f6e4 c2c4 f8e7",  # (+36 cp)
    "d2d4 g8f6 c2c4 c7c5 d4d5 e7e6 g1f3 b7b5",  # (+66 cp)
    "e2e4 e7e5 g1f3 b8c6 d2d4 e5d4 f3d4 g8f6 b1c3 f8b4",  # (-5 cp)
    "e2e4 e7e5 b1c3 g8f6 f2f4 d7d5 e4d5 f6d5",  # (-59 cp)
    "e2e4 e7e5 g1f3 b8c6 f1b5 g8f6 e1g1 f6e4 d2d4 e4d6",  # (+20 cp)
    "e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 d2d3 f8e7 b1c3 d7d6",  # (+30 cp)
    "e2e4 c7c5 g1f3 b8c6 d2d4 c5d4 f3d4 g7g6 b1c3 g8f6",  # (+56 cp)
    "e2e4 c7c5 g1f3 e7e6 d2d4 c5d4 f3d4 a7a6 f1d3 g8e7",  # (+52 cp)
    "e2e4 c7c5 c2c3 g8f6 e4e5 f6d5 d2d4 c5d4 g1f3 b8c6",  # (+14 cp)
    "e2e4 c7c5 g1f3 d7d6 f1b5 c8d7 b5d7 d8d7 h2h3 g8f6",  # (+3 cp)
    "e2e4 e7e6 d2d4 d7d5 b1d2 c7c5 e4d5 e6d5 g1f3 b8c6",  # (+40 cp)
    "e2e4 e7e6 d2d4 d7d5 e4e5 c7c5 c2c3 b8c6 h2h3 d8b6",  # (+26 cp)
    "e2e4 c7c6 d2d4 d7d5 b1c3 d5e4 c3e4 c8f5 d1f3 e7e6",  # (+12 cp)
    "e2e4 g7g6 d2d4 f8g7 b1c3 d7d6 f2f4 g8f6 f1d3 b8c6",  # (+40 cp)
    "e2e4 g8f6 e4e5 f6d5 d2d4 d7d6 g1f3 c8g4 c2c4 d5b6",  # (+72 cp)
    "d2d4 d7d5 g1f3 g8f6 c1f4 e7e6 e2e3 c7c5 f1e2 d8b6",  # (+12 cp)
    "d2d4 g8f6 g1f3 e7e6 c1g5 h7h6 g5f6 d8f6 e2e4 d7d6",  # (+23 cp)
    "d2d4 d7d5 c2c4 e7e6 g1f3 g8f6 g2g3 f8e7 d1c2 e8g8",  # (+8 cp)
    "d2d4 g8f6 c2c4 g7g6 b1c3 d7d5 c4d5 f6d5 g1f3 f8g7",  # (+28 cp)
    "d2d4 g8f6 c2c4 e7e6 g1f3 f8b4 c1d2 d8e7 e2e3 b4d2",  # (+20 cp)
    "d2d4 g8f6 c2c4 c7c5 d4d5 b7b5 c4b5 a7a6 b5a6 c8a6",  # (+65 cp)
    "d2d4 d7d5 c2c4 c7c6 b1c3 g8f6 e2e3 e7e6 d1c2 b8d7",  # (+29 cp)
    "d2d4 d7d5 c2c4 b8c6 g1f3 c8g4 c4d5 g4f3",  # (+56 cp)
    "d2d4 e7e6 c2c4 b7b6 e2e4 c8b7 f1d3 b8c6",  # (+77 cp)
    "c2c4 c7c5 b1c3 b8c6 g2g3 g7g6 f1g2 f8g7 g1f3 e7e6",  # (+13 cp)
    "c2c4 g8f6 b1c3 e7e6 e2e4 d7d5 e4e5 d5d4 g1f3 f6d7",  # (-34 cp)
    "c2c4 e7e5 g2g3 g8f6 f1g2 d7d5 c4d5 f6d5 b1c3 d5b6",  # (+17 cp)
    "g1f3 g8f6 g2g3 g7g6 f1g2 f8g7 e1g1 e8g8 d2d4 c7c6",  # (+20 cp)
    "g1f3 c7c5 c2c4 g8f6 b1c3 d7d5 c4d5 f6d5 d2d4 d5c3",  # (+37 cp)
    "b2b3 e7e5 c1b2 b8c6 e2e3 d7d5 g1f3 e5e4",  # (-33 cp)
    "f2f4 d7d5 g1f3 g8f6 e2e3 g7g6 b2b4 e7e6",  # (-35 cp)
    "e2e4 e7e5 g1f3 d7d6 d2d4 g8f6 b1c3 b8d7 a2a4 e5d4",  # (+62 cp)
]


def open_engine(
    kind: str,
    elo: int | None,
    root: Path = ROOT,
    level: int | None = None,
    hash_mb: int | None = None,
) -> chess.engine.SimpleEngine:
    if kind == "parlour":
        # python -m runs the copy in the working directory: ``root`` picks which.
        engine = chess.engine.SimpleEngine.popen_uci(
            [sys.executable, "-m", "parlour", "uci"], cwd=str(root)
        )
        if level is not None:
            engine.configure({"Level": level})
        if hash_mb is not None:
            engine.configure({"Hash": hash_mb})
        return engine
    if kind == "sunfish":
        if not (os.path.exists(SUNFISH) or shutil.which(SUNFISH)):
            raise SystemExit(
                f"Sunfish not found at {SUNFISH}: python3 -m venv /work/sunfish-venv && "
                "/work/sunfish-venv/bin/pip install sunfish (or set SUNFISH_UCI)"
            )
        return chess.engine.SimpleEngine.popen_uci([SUNFISH])
    if kind == "stockfish":
        if not (os.path.exists(STOCKFISH) or shutil.which(STOCKFISH)):
            raise SystemExit(
                f"Stockfish not found at {STOCKFISH}: apt-get install stockfish (or set STOCKFISH)"
            )
        engine = chess.engine.SimpleEngine.popen_uci([STOCKFISH])
        options: dict[str, str | int | bool] = {"Threads": 1, "Hash": 16}
        if elo is not None:
            options.update({"UCI_LimitStrength": True, "UCI_Elo": elo})
        engine.configure(options)
        return engine
    raise SystemExit(f"unknown peer {kind!r}")


def build_state(root: Path) -> str:
    """Whether the copy of Parlour at ``root`` runs its compiled build: ``compiled``,
    ``pure``, ``stale`` (pure, the build older than its sources) or ``pure by choice``."""
    check = "import parlour.compiled as c; print(c.state())"
    done = subprocess.run(
        [sys.executable, "-c", check], cwd=str(root), capture_output=True, text=True
    )
    return done.stdout.strip() or "unknown (no parlour.compiled)"


def book_walk(plies: int, rng: random.Random) -> str:
    """An opening of ``plies`` moves (UCI) down Parlour's opening book, each chosen
    at random among the book's moves, as the book itself chooses."""
    state = CHESS.new_state()
    moves = []
    for _ in range(plies):
        move = shipped_book().move(state, rng)
        if move is None:
            break
        moves.append(move.uci())
        state.push(move)
    return " ".join(moves)


def white_centipawns(info: chess.engine.InfoDict) -> int | None:
    """An engine's reported score as centipawns for White (a mate as +-100,000),
    or None when it reported none."""
    score = info.get("score")
    if score is None:
        return None
    return score.white().score(mate_score=100_000)


def move_comment(info: chess.engine.InfoDict, seconds: float) -> str:
    """A move's comment in the PGN, as cutechess-cli writes it: the mover's score in
    pawns (``+M5`` a mate), the depth and the time it took.

    >>> move_comment({"score": chess.engine.PovScore(chess.engine.Cp(35), chess.WHITE),
    ...               "depth": 12}, 0.51)
    '+0.35/12 0.51s'
    >>> move_comment({"score": chess.engine.PovScore(chess.engine.Mate(-3), chess.BLACK)}, 2)
    '-M3 2.00s'
    """
    parts = []
    score = info.get("score")
    if score is not None:
        relative = score.relative
        mate = relative.mate()
        if mate is not None:
            parts.append(f"{'+' if mate > 0 else '-'}M{abs(mate)}")
        else:
            parts.append(f"{relative.score(mate_score=0) / 100:+.2f}")  # (not a mate here)
        if "depth" in info:
            parts[-1] += f"/{info['depth']}"
    return " ".join([*parts, f"{seconds:.2f}s"])


def adjudication(scores: list[int | None], fullmove: int) -> tuple[float, str] | None:
    """``--adjudicate``'s verdict from the scores reported so far (one a ply, for
    White, both engines alternating): White's points and the reason, or None to play
    on."""
    resign = scores[-2 * RESIGN_MOVES :]  # a ply without a score breaks a run
    if len(resign) == 2 * RESIGN_MOVES:
        if all(s is not None and s >= RESIGN_CP for s in resign):
            return 1.0, "adjudicated: both engines see White win"
        if all(s is not None and s <= -RESIGN_CP for s in resign):
            return 0.0, "adjudicated: both engines see Black win"
    draw = scores[-2 * DRAW_MOVES :]
    level = [s is not None and abs(s) <= DRAW_CP for s in draw]
    if fullmove > DRAW_AFTER and len(level) == 2 * DRAW_MOVES and all(level):
        return 0.5, "adjudicated: both engines see a draw"
    return None


def play_game(
    white: chess.engine.SimpleEngine,
    black: chess.engine.SimpleEngine,
    opening: str,
    white_limit: chess.engine.Limit,
    black_limit: chess.engine.Limit,
    adjudicate: bool = False,
    comments: list[str] | None = None,
) -> tuple[float, str, chess.Board]:
    """One game, each side searching within its limit (an empty ``Limit()`` sends a
    bare ``go``); returns White's points (1, 0.5, 0), how it ended and the board with
    the game's moves. With ``adjudicate``, a game both engines agree on ends early
    (see ``adjudication``). ``comments``, when given, gets each engine move's
    ``move_comment``, to read where a game was lost."""
    board = chess.Board()  # only to hand positions to the engines
    state = CHESS.new_state()  # the referee
    for text in opening.split():
        board.push_uci(text)
        state.push(Move.from_uci(text))
    for engine in (white, black):
        engine.protocol.send_line("ucinewgame")
    scores: list[int | None] = []  # each ply's reported score, for White
    while True:
        outcome = state.outcome()
        if outcome is not None:
            if outcome.winner is None:
                return 0.5, outcome.reason, board
            return (1.0 if outcome.winner.value == 0 else 0.0), outcome.reason, board
        claim = state.claimable_draw()
        if claim is not None:
            return 0.5, claim, board
        if state.fullmove_number > MAX_MOVES:
            return 0.5, f"{MAX_MOVES}-move cap", board
        if adjudicate:
            verdict = adjudication(scores, state.fullmove_number)
            if verdict is not None:
                return (*verdict, board)
        white_moves = board.turn == chess.WHITE
        mover, limit = (white, white_limit) if white_moves else (black, black_limit)
        started = time.monotonic()
        result = mover.play(board, limit, info=chess.engine.INFO_BASIC | chess.engine.INFO_SCORE)
        scores.append(white_centipawns(result.info))
        if comments is not None:
            comments.append(move_comment(result.info, time.monotonic() - started))
        if result.move is None:
            return (0.0 if board.turn == chess.WHITE else 1.0), "no move given", board
        text = result.move.uci()
        try:
            state.push(Move.from_uci(text))
        except Exception as error:  # an illegal move loses
            name = "White" if board.turn == chess.WHITE else "Black"
            print(f"  {name} played an illegal move {text}: {error}", flush=True)
            return (0.0 if board.turn == chess.WHITE else 1.0), "illegal move", board
        board.push(result.move)


def peer_label(args: argparse.Namespace) -> str:
    """The peer as the summary and the PGN name it: ``stockfish (UCI_Elo 2200)``."""
    peer: str = args.peer
    return peer + (f" (UCI_Elo {args.elo})" if args.elo else "")


def append_pgn(
    args: argparse.Namespace,
    board: chess.Board,
    game: int,
    parlour_white: bool,
    white_points: float,
    reason: str,
    comments: list[str],
) -> None:
    """Add game ``game`` of the schedule, finished, to the file of ``--pgn``: its
    players, its result, how it ended (the Termination tag) and each engine move's
    comment (the opening's moves have none)."""
    label = peer_label(args)
    rival = label[0].upper() + label[1:]
    record = chess.pgn.Game.from_board(board)
    played = list(record.mainline())[len(board.move_stack) - len(comments) :]
    for node, comment in zip(played, comments, strict=True):
        node.comment = comment
    record.headers.update(
        Event="benchmarks/chess_match.py",
        Date=time.strftime("%Y.%m.%d"),
        Round=str(args.offset + game + 1),
        White="Parlour" if parlour_white else rival,
        Black=rival if parlour_white else "Parlour",
        Result={1.0: "1-0", 0.0: "0-1"}.get(white_points, "1/2-1/2"),
        Termination=reason,
    )
    with args.pgn.open("a", encoding="utf-8") as out:
        print(record, end="\n\n", file=out)


def summary(points: list[float]) -> str:
    n = len(points)
    s = sum(points) / n
    variance = sum((p - s) ** 2 for p in points) / max(1, n - 1)
    half = 1.96 * math.sqrt(variance / n)
    low, high = max(0.0, s - half), min(1.0, s + half)

    def elo(x: float) -> str:
        if x <= 0:
            return "-inf"
        if x >= 1:
            return "+inf"
        return f"{-400 * math.log10(1 / x - 1):+.0f}"

    return (
        f"score {sum(points):g}/{n} = {100 * s:.1f} % (95 % interval {100 * low:.1f}-"
        f"{100 * high:.1f} %), Elo difference {elo(s)} (interval {elo(low)} to {elo(high)}; "
        f"±{680 / math.sqrt(n):.0f} by the rule of thumb)"
    )


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("peer", choices=["sunfish", "stockfish", "parlour"])
    parser.add_argument("--elo", type=int, help="Stockfish's UCI_Elo (with UCI_LimitStrength)")
    parser.add_argument("--games", type=int, default=2 * len(OPENINGS))
    parser.add_argument(
        "--movetime",
        type=float,
        help="seconds per move, both sides (default: a level's own time, else 0.5); a "
        "Parlour level given it searches fully for that time, not its own node count "
        "(use --nodes for that)",
    )
    parser.add_argument(
        "--peer-movetime",
        type=float,
        help="seconds per move for the peer Stockfish or Sunfish alone (Parlour keeps its "
        "level's own time, --movetime or --nodes)",
    )
    parser.add_argument(
        "--level",
        type=int,
        choices=sorted(LEVELS),
        help="Parlour's level (UCI option Level), played with its own time per move",
    )
    parser.add_argument(
        "--peer-level",
        type=int,
        choices=sorted(LEVELS),
        help="for the peer parlour: its level, played with its own time per move",
    )
    parser.add_argument(
        "--root",
        type=Path,
        default=ROOT,
        help="the root of the copy of Parlour to play (default: this one)",
    )
    parser.add_argument(
        "--peer-root",
        type=Path,
        default=ROOT,
        help="for the peer parlour: the root of the copy to play (default: this one)",
    )
    parser.add_argument(
        "--nodes",
        type=int,
        help="Parlour searches this many nodes a move (go nodes), so that the "
        "machine's load does not decide; a peer Parlour too, another peer keeps --movetime",
    )
    parser.add_argument(
        "--peer-nodes",
        type=int,
        help="for the peer parlour with --nodes: its own node count instead (to give "
        "two copies of unequal speed the same time in nodes)",
    )
    parser.add_argument(
        "--hash",
        type=int,
        help="Parlour's UCI option Hash (MB; its default when not given)",
    )
    parser.add_argument(
        "--peer-hash",
        type=int,
        help="for the peer parlour: its UCI option Hash (MB)",
    )
    parser.add_argument(
        "--book",
        action="store_true",
        help="Parlour plays its opening book's moves (UCI option OwnBook; off otherwise)",
    )
    parser.add_argument(
        "--from-book",
        type=int,
        metavar="PLIES",
        help="openings of this many plies walked at random down Parlour's opening book "
        "(each pair of games its own walk), not the openings below",
    )
    parser.add_argument("--jobs", type=int, default=1, help="games played at once")
    parser.add_argument(
        "--pgn",
        type=Path,
        help="append each finished game to this PGN file (players, result, how it ended)",
    )
    parser.add_argument(
        "--adjudicate",
        action="store_true",
        help=f"end a game both engines agree on: won when both see a side {RESIGN_CP // 100} "
        f"pawns ahead for {RESIGN_MOVES} moves each, drawn after move {DRAW_AFTER} when both "
        f"see it level within {DRAW_CP} cp for {DRAW_MOVES} moves each",
    )
    parser.add_argument(
        "--offset",
        type=int,
        default=0,
        help="skip this many games of the schedule (to split a match)",
    )
    args = parser.parse_args()
    if args.peer_level is not None and args.peer != "parlour":
        parser.error("--peer-level is for the peer parlour")
    if args.peer_hash is not None and args.peer != "parlour":
        parser.error("--peer-hash is for the peer parlour")
    if args.peer_nodes is not None and not (args.nodes and args.peer == "parlour"):
        parser.error("--peer-nodes is for the peer parlour, with --nodes")
    return args


def limits(args: argparse.Namespace) -> tuple[chess.engine.Limit, chess.engine.Limit]:
    """Parlour's limit a move and the peer's."""

    def limit(level: int | None) -> chess.engine.Limit:
        """A side's limit: --movetime; or a bare go for a level (its own time)."""
        if args.movetime is not None:
            return chess.engine.Limit(time=args.movetime)
        if level is not None:
            return chess.engine.Limit()
        return chess.engine.Limit(time=LEVELS[args.level].seconds if args.level else 0.5)

    ours_limit = chess.engine.Limit(nodes=args.nodes) if args.nodes else limit(args.level)
    peer_limit = limit(args.peer_level if args.peer == "parlour" else None)
    if args.peer_movetime is not None:
        if args.peer == "parlour":
            raise SystemExit("--peer-movetime is for Stockfish or Sunfish")
        peer_limit = chess.engine.Limit(time=args.peer_movetime)
    if args.nodes and args.peer == "parlour":
        # Two copies of Parlour: the same nodes each, unless told otherwise.
        peer_limit = chess.engine.Limit(nodes=args.peer_nodes) if args.peer_nodes else ours_limit
    return ours_limit, peer_limit


def match_name(
    args: argparse.Namespace, ours_limit: chess.engine.Limit, peer_limit: chess.engine.Limit
) -> str:
    """The match as its last line names it: both engines, their limits, how run."""
    peer_name = peer_label(args)
    if args.peer == "parlour":
        peer_name += f" at {args.peer_root}"
        if args.peer_level is not None:
            peer_name += f", level {args.peer_level}"

    def timing(lim: chess.engine.Limit) -> str:
        if lim.nodes is not None:
            return f"{lim.nodes:,} nodes/move"
        return "its level's time" if lim.time is None else f"{lim.time:g} s/move"

    ours_name = f"Parlour at {args.root}" + (f", level {args.level}" if args.level else "")
    if args.hash is not None:
        ours_name += f", Hash {args.hash} MB"
    if args.peer_hash is not None:
        peer_name += f", Hash {args.peer_hash} MB"
    adjudicated = ", adjudicated" if args.adjudicate else ""
    return f"{ours_name} ({timing(ours_limit)}) vs {peer_name} ({timing(peer_limit)}{adjudicated})"


def main() -> int:
    args = parse_args()
    ours_limit, peer_limit = limits(args)
    print(f"Parlour at {args.root}: {build_state(args.root)}", flush=True)
    if args.peer == "parlour":
        print(f"the peer at {args.peer_root}: {build_state(args.peer_root)}", flush=True)

    # (opening, Parlour is White), each opening twice with colours swapped.
    games = [(i // 2, i % 2 == 0) for i in range(args.offset, args.offset + args.games)]
    points: list[float] = [0.0] * len(games)
    done = [False] * len(games)
    lock = threading.Lock()
    next_game = [0]
    start = time.time()

    def worker() -> None:
        ours = open_engine("parlour", None, args.root, args.level, args.hash)
        if args.book:
            ours.configure({"OwnBook": True})
        peer = open_engine(args.peer, args.elo, args.peer_root, args.peer_level, args.peer_hash)
        try:
            while True:
                with lock:
                    i = next_game[0]
                    if i >= len(games):
                        return
                    next_game[0] += 1
                opening_index, parlour_white = games[i]
                if args.from_book is not None:
                    opening = book_walk(args.from_book, random.Random(opening_index))
                else:
                    opening = OPENINGS[opening_index % len(OPENINGS)]
                white, black = (ours, peer) if parlour_white else (peer, ours)
                limits = (ours_limit, peer_limit) if parlour_white else (peer_limit, ours_limit)
                comments: list[str] = []
                white_points, reason, board = play_game(
                    white, black, opening, *limits, adjudicate=args.adjudicate, comments=comments
                )
                ours_points = white_points if parlour_white else 1 - white_points
                with lock:
                    points[i] = ours_points
                    done[i] = True
                    if args.pgn is not None:
                        append_pgn(args, board, i, parlour_white, white_points, reason, comments)
                    finished = [p for p, d in zip(points, done, strict=True) if d]
                    colour = "White" if parlour_white else "Black"
                    print(
                        f"game {args.offset + i + 1}: Parlour ({colour}) {ours_points:g} "
                        f"({reason}); "
                        f"running {summary(finished)}; {time.time() - start:.0f} s",
                        flush=True,
                    )
        finally:
            ours.quit()
            peer.quit()

    threads = [threading.Thread(target=worker) for _ in range(max(1, args.jobs))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    print(f"{match_name(args, ours_limit, peer_limit)}: {summary(points)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
