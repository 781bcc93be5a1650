"""Tune the chess evaluation's numbers on positions of the engine's own games.

The evaluation (:mod:`parlour.chess.engine`) is linear in its numbers: the
piece-square tables of the middlegame and the endgame (material included), the
passed, doubled and isolated pawns, the bishop pair and the tempo, the middlegame
and endgame sums blended by the phase. So the score from White's side is a dot
product ``numbers . features(position)``, and the numbers can be fitted by
regression: the "Texel" method of chess programmers. The target of each position
here is not only the game's result (too noisy for 800 numbers from the games this
machine can play in an hour) but a stronger judge's: Stockfish's score after a
short search (Debian's ``stockfish``, used for training only, as for the tests;
its scores are facts about positions, not code of its own), both turned into an
expected result by the same logistic curve, and the fit minimises the squared
difference of the two expected results (so a won position scored +900 or +2000
costs little either way, and the quiet middle is fitted closely).

Four steps, run from the repository root (as measured in docs/benchmarks.md, "The
evaluation fitted to Stockfish's scores")::

    .venv/bin/python training/chess_tune.py games --games 3000 --nodes 1500 \\
        --jobs 2 --seed 1 --out /tmp/chess-positions.jsonl
    .venv/bin/python training/chess_tune.py label /tmp/chess-positions.jsonl \\
        --depth 8 --jobs 2 --out /tmp/chess-labelled.jsonl
    .venv/bin/python training/chess_tune.py fit /tmp/chess-labelled.jsonl \\
        --keep-scale --out /tmp/chess-tuned.txt
    .venv/bin/python training/chess_tune.py apply /tmp/chess-tuned.txt \\
        /work/wt-tune/parlour/chess/engine.py

``games``: the engine plays itself, a few random moves first (two to six plies)
so that the games differ, then each move searched to ``--nodes`` nodes, with a
random move now and then (``--loose``) so that the positions include the lopsided
ones a search meets. Every position from ply 8 on whose side to move is not in
check is kept, with the game's result.

``label``: Stockfish's score of each position at ``--depth`` plies, from White's
side; a position whose best move (by Stockfish) is a capture or a promotion is
marked unquiet and left out of the fit, since the evaluation is only asked of quiet
positions (the quiescence search settles the rest).

``fit``: the features of each position (checked against
:func:`parlour.chess.engine.evaluate` on the first thousand: the dot product with
the engine's own numbers must give its score, to rounding), then the fit by Adam
with a ridge penalty (``--ridge``) holding each number towards the engine's own, so
that squares seldom seen keep sensible values, and each knight, bishop, rook and
queen square tied to its mirror across the middle file (``--symmetric``). It prints
the loss before and after on the positions and on the file's last tenth (whole
games it has not seen), and writes the tables drawn as in engine.py; with
``--keep-scale`` rescaled to the engine's total material, so that the search's
margins in centipawns keep their meaning. ``--result-weight`` mixes the game's
result into the target; ``--activity`` fits the terms of the activity trial
(benchmarks/trials/chess-activity.patch) too.

``apply``: the drawn tables and numbers written into an engine.py in place of its
own (a worktree's, to be matched against main). The numbers go into the engine
only if a match at fixed nodes says so (benchmarks/chess_match.py).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import re
import sys
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from parlour.chess import engine
from parlour.chess.board import (
    BISHOP,
    BLACK,
    CELL,
    KING,
    KNIGHT,
    KNIGHT_DIRS,
    OFF,
    PAWN,
    QUEEN,
    ROOK,
    SLIDER_DIRS,
    WHITE,
)
from parlour.chess.rules import CHESS, ChessState
from parlour.core.protocol import Side

KINDS = (PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING)
KIND_NAMES = {
    PAWN: "PAWN",
    KNIGHT: "KNIGHT",
    BISHOP: "BISHOP",
    ROOK: "ROOK",
    QUEEN: "QUEEN",
    KING: "KING",
}
#: Centipawns per unit of the logistic curve: a score s is an expected result of
#: 1 / (1 + 10 ** (-s / 400)), as Elo has it.
SCALE = 400 / math.log(10)
FIRST_KEPT_PLY = 8
MAX_PLIES = 300

# -- games ----------------------------------------------------------------------------


def _result(state: ChessState) -> float | None:
    """White's result if the game is over (or a draw could be claimed), else None."""
    outcome = state.outcome()
    if outcome is None:
        return 0.5 if state.claimable_draw() else None
    if outcome.winner is None:
        return 0.5
    return 1.0 if outcome.winner == Side.FIRST else 0.0


def play_game(args: tuple[int, int, float]) -> list[tuple[str, float]]:
    """One self-play game: (FEN, White's result) of each kept position."""
    seed, nodes, loose = args
    rng = random.Random(seed)
    searcher = engine.new_searcher(hash_entries=100_000)
    state = CHESS.new_state()
    assert isinstance(state, ChessState)
    kept: list[str] = []
    opening = rng.randint(2, 6)
    result: float | None = None
    for ply in range(MAX_PLIES):
        result = _result(state)
        if result is not None:
            break
        if ply >= FIRST_KEPT_PLY and not state.is_check():
            kept.append(state.to_text())
        if ply < opening or rng.random() < loose:
            move = rng.choice(state.legal_moves())
        else:
            move = searcher.search(state, nodes=nodes).move
        state.push(move)
    if result is None:
        result = 0.5
    return [(fen, result) for fen in kept]


def command_games(options: argparse.Namespace) -> None:
    started = time.monotonic()
    jobs = [
        (options.seed * 1_000_003 + i, options.nodes, options.loose) for i in range(options.games)
    ]
    count = 0
    results = {0.0: 0, 0.5: 0, 1.0: 0}
    with open(options.out, "w") as out, ProcessPoolExecutor(options.jobs) as pool:
        for i, positions in enumerate(pool.map(play_game, jobs, chunksize=4)):
            for fen, result in positions:
                out.write(json.dumps({"fen": fen, "result": result}) + "\n")
            count += len(positions)
            if positions:
                results[positions[0][1]] += 1
            if (i + 1) % 100 == 0:
                print(
                    f"{i + 1} games, {count} positions, {time.monotonic() - started:.0f} s",
                    flush=True,
                )
    print(
        f"{options.games} games (White +{results[1.0]} ={results[0.5]} -{results[0.0]}),"
        f" {count} positions"
    )


# -- labels ---------------------------------------------------------------------------


def label_chunk(args: tuple[list[dict[str, object]], int, str]) -> list[dict[str, object]]:
    import chess
    import chess.engine

    rows, depth, program = args
    labelled = []
    with chess.engine.SimpleEngine.popen_uci(program) as stockfish:
        stockfish.configure({"Threads": 1, "Hash": 16})
        for row in rows:
            board = chess.Board(str(row["fen"]))
            info = stockfish.analyse(board, chess.engine.Limit(depth=depth))
            score = info["score"].white().score(mate_score=3000)
            best = info.get("pv", [None])[0]
            quiet = best is not None and not board.is_capture(best) and best.promotion is None
            labelled.append({**row, "stockfish": score, "quiet": quiet})
    return labelled


def command_label(options: argparse.Namespace) -> None:
    rows = [json.loads(line) for line in Path(options.positions).read_text().splitlines()]
    chunks = [rows[i : i + 2000] for i in range(0, len(rows), 2000)]
    started = time.monotonic()
    done = quiet = 0
    with open(options.out, "w") as out, ProcessPoolExecutor(options.jobs) as pool:
        for labelled in pool.map(
            label_chunk, [(c, options.depth, options.stockfish) for c in chunks]
        ):
            for row in labelled:
                out.write(json.dumps(row) + "\n")
                quiet += bool(row["quiet"])
            done += len(labelled)
            print(
                f"{done}/{len(rows)} labelled ({quiet} quiet), {time.monotonic() - started:.0f} s",
                flush=True,
            )


# -- features -------------------------------------------------------------------------
# The numbers, in order: the middlegame table of each kind (64 squares, material
# included, from White's side), then the endgame's; passed pawns by rank (mg, eg);
# doubled and isolated (mg, eg); the bishop pair; the tempo.

MG_BASE = 0
EG_BASE = 6 * 64
PASSED_MG_BASE = 12 * 64
PASSED_EG_BASE = PASSED_MG_BASE + 8
DOUBLED_MG, DOUBLED_EG, ISOLATED_MG, ISOLATED_EG = range(PASSED_EG_BASE + 8, PASSED_EG_BASE + 12)
BISHOP_PAIR = PASSED_EG_BASE + 12
TEMPO = BISHOP_PAIR + 1
# Piece activity (benchmarks/trials/chess-activity.patch, not in the engine): the
# squares each knight, bishop, rook and queen reaches (mg, eg by kind), rooks on
# open and half-open files (mg, eg). Fitted only with --activity.
MOBILITY_MG_BASE = TEMPO + 1
MOBILITY_EG_BASE = MOBILITY_MG_BASE + 4
ROOK_OPEN_MG, ROOK_OPEN_EG, ROOK_HALF_MG, ROOK_HALF_EG = range(
    MOBILITY_EG_BASE + 4, MOBILITY_EG_BASE + 8
)
SIZE = ROOK_HALF_EG + 1
ACTIVITY = range(MOBILITY_MG_BASE, SIZE)
MOBILE_KINDS = (KNIGHT, BISHOP, ROOK, QUEEN)


def table(base: int, kind: int) -> slice:
    """Where a kind's 64 squares lie among the numbers (``base`` MG_BASE or EG_BASE)."""
    start = base + KINDS.index(kind) * 64
    return slice(start, start + 64)


def standing(kind: int) -> range:
    """The squares a piece of the kind can stand on (a pawn not on the end ranks)."""
    return range(8, 56) if kind == PAWN else range(64)


def material(w: np.ndarray, base: int, kind: int) -> float:
    """A kind's material in the numbers: its table's mean over where it can stand."""
    return float(np.mean(w[table(base, kind)][standing(kind)]))


def engine_numbers() -> np.ndarray:
    """The engine's own numbers in the order of the features."""
    w = np.zeros(SIZE)
    for kind in KINDS:
        w[table(MG_BASE, kind)] = [engine.PST_MG[WHITE | kind][CELL[sq]] for sq in range(64)]
        w[table(EG_BASE, kind)] = [engine.PST_EG[WHITE | kind][CELL[sq]] for sq in range(64)]
    w[PASSED_MG_BASE : PASSED_MG_BASE + 8] = engine.PASSED_MG
    w[PASSED_EG_BASE : PASSED_EG_BASE + 8] = engine.PASSED_EG
    w[DOUBLED_MG], w[DOUBLED_EG] = engine.DOUBLED_MG, engine.DOUBLED_EG
    w[ISOLATED_MG], w[ISOLATED_EG] = engine.ISOLATED_MG, engine.ISOLATED_EG
    w[BISHOP_PAIR] = engine.BISHOP_PAIR
    w[TEMPO] = engine.TEMPO
    trial = vars(engine)  # the activity trial's numbers, where it is applied
    if "MOBILITY_MG" in trial:
        # The engine counts squares beyond a base; the features count them all, the
        # base going with the material.
        mob_mg, mob_eg, base = trial["MOBILITY_MG"], trial["MOBILITY_EG"], trial["MOBILITY_BASE"]
        for i, kind in enumerate(MOBILE_KINDS):
            w[MOBILITY_MG_BASE + i], w[MOBILITY_EG_BASE + i] = mob_mg[kind], mob_eg[kind]
            w[table(MG_BASE, kind)] -= base[kind] * mob_mg[kind]
            w[table(EG_BASE, kind)] -= base[kind] * mob_eg[kind]
        w[ROOK_OPEN_MG], w[ROOK_OPEN_EG] = trial["ROOK_OPEN_FILE"]
        w[ROOK_HALF_MG], w[ROOK_HALF_EG] = trial["ROOK_HALF_OPEN_FILE"]
    return w


def activity_features(board: list[int], mg: np.ndarray, eg: np.ndarray) -> None:
    """Add the activity counts to ``mg`` and ``eg``, as the trial patch's
    ``activity`` finds them: squares not held by the piece's own side nor guarded
    by an enemy pawn; a rook's file without its own pawns, open or half-open."""
    pawn_files = {WHITE: [0] * 8, BLACK: [0] * 8}
    for sq in range(64):
        p = board[CELL[sq]]
        if p & 7 == PAWN:
            pawn_files[p & (WHITE | BLACK)][sq & 7] += 1
    for sq in range(64):
        cell = CELL[sq]
        p = board[cell]
        kind = p & 7
        if kind not in MOBILE_KINDS:
            continue
        color = p & (WHITE | BLACK)
        sign = 1 if color == WHITE else -1
        enemy_pawn = (color ^ (WHITE | BLACK)) | PAWN
        left, right = (9, 11) if color == WHITE else (-9, -11)
        reached = 0
        if kind == KNIGHT:
            for d in KNIGHT_DIRS:
                t = cell + d
                q = board[t]
                if q == OFF or q & color:
                    continue
                if board[t + left] != enemy_pawn and board[t + right] != enemy_pawn:
                    reached += 1
        else:
            for d in SLIDER_DIRS[kind]:
                t = cell + d
                q = board[t]
                while q != OFF and not q & color:
                    if board[t + left] != enemy_pawn and board[t + right] != enemy_pawn:
                        reached += 1
                    if q:
                        break
                    t += d
                    q = board[t]
        i = MOBILE_KINDS.index(kind)
        mg[MOBILITY_MG_BASE + i] += sign * reached
        eg[MOBILITY_EG_BASE + i] += sign * reached
        if kind == ROOK and not pawn_files[color][sq & 7]:
            if pawn_files[color ^ (WHITE | BLACK)][sq & 7]:
                mg[ROOK_HALF_MG] += sign
                eg[ROOK_HALF_EG] += sign
            else:
                mg[ROOK_OPEN_MG] += sign
                eg[ROOK_OPEN_EG] += sign


def features(state: ChessState) -> np.ndarray:
    """The position's features: the evaluation from White's side is their dot
    product with the numbers (bishop pair included, which the search adds at the
    root)."""
    mg = np.zeros(SIZE)
    eg = np.zeros(SIZE)
    board = state.board
    phase = 0
    bishops = {WHITE: 0, BLACK: 0}
    pawns: dict[int, list[tuple[int, int]]] = {WHITE: [], BLACK: []}
    for sq in range(64):
        p = board[CELL[sq]]
        if not p:
            continue
        kind, colour = p & 7, p & (WHITE | BLACK)
        sign, seen = (1, sq) if colour == WHITE else (-1, sq ^ 56)
        mg[table(MG_BASE, kind).start + seen] += sign
        eg[table(EG_BASE, kind).start + seen] += sign
        phase += engine.PHASE[kind]
        if kind == BISHOP:
            bishops[colour] += 1
        if kind == PAWN:
            pawns[colour].append(((sq & 7) + 1, sq >> 3))
    # Pawn structure as engine.pawn_structure counts it.
    count = {c: [0] * 10 for c in (WHITE, BLACK)}
    for c in (WHITE, BLACK):
        for f, _ in pawns[c]:
            count[c][f] += 1
    white_rear = [8] * 10
    black_rear = [-1] * 10
    for f, r in pawns[WHITE]:
        white_rear[f] = min(white_rear[f], r)
    for f, r in pawns[BLACK]:
        black_rear[f] = max(black_rear[f], r)
    for f, r in pawns[WHITE]:
        if max(black_rear[f - 1], black_rear[f], black_rear[f + 1]) <= r:
            mg[PASSED_MG_BASE + r] += 1
            eg[PASSED_EG_BASE + r] += 1
        if not count[WHITE][f - 1] and not count[WHITE][f + 1]:
            mg[ISOLATED_MG] += 1
            eg[ISOLATED_EG] += 1
    for f, r in pawns[BLACK]:
        if min(white_rear[f - 1], white_rear[f], white_rear[f + 1]) >= r:
            mg[PASSED_MG_BASE + 7 - r] -= 1
            eg[PASSED_EG_BASE + 7 - r] -= 1
        if not count[BLACK][f - 1] and not count[BLACK][f + 1]:
            mg[ISOLATED_MG] -= 1
            eg[ISOLATED_EG] -= 1
    for f in range(1, 9):
        mg[DOUBLED_MG] += max(0, count[WHITE][f] - 1) - max(0, count[BLACK][f] - 1)
        eg[DOUBLED_EG] += max(0, count[WHITE][f] - 1) - max(0, count[BLACK][f] - 1)
    activity_features(board, mg, eg)
    phase = min(phase, 24)
    x = mg * (phase / 24) + eg * ((24 - phase) / 24)
    x[BISHOP_PAIR] = (bishops[WHITE] >= 2) - (bishops[BLACK] >= 2)
    x[TEMPO] = 1 if state.color == WHITE else -1
    return x


def expected(score: np.ndarray) -> np.ndarray:
    return 1 / (1 + np.exp(-score / SCALE))


def _features_of(fens: list[str]) -> np.ndarray:
    rows = []
    for fen in fens:
        state = CHESS.state_from_text(fen)
        assert isinstance(state, ChessState)
        rows.append(features(state))
    return np.array(rows, dtype=np.float32)


def command_fit(options: argparse.Namespace) -> None:
    rows = [json.loads(line) for line in Path(options.labelled).read_text().splitlines()]
    rows = [r for r in rows if r["quiet"]]
    print(f"{len(rows)} quiet positions")
    w0 = engine_numbers()

    # The features must give the engine's own score (to its rounding, and with the
    # bishop pair, which evaluate() leaves to the root).
    for row in rows[:1000]:
        state = CHESS.state_from_text(str(row["fen"]))
        assert isinstance(state, ChessState)
        x = features(state)
        ours = engine.evaluate(state) * (1 if state.color == WHITE else -1)
        pair = x[BISHOP_PAIR] * w0[BISHOP_PAIR]
        assert abs(float(x @ w0) - pair - ours) <= 1.01, (row["fen"], float(x @ w0), ours)
    print("features agree with engine.evaluate on 1000 positions")

    # The features of every position, kept beside the file; made again when they
    # are not those of these rows and numbers (another file, or features added).
    cache = Path(str(options.labelled) + ".features.npz")
    x_all = np.load(cache)["x"] if cache.exists() else np.zeros((0, 0))
    if x_all.shape != (len(rows), SIZE):
        started = time.monotonic()
        with ProcessPoolExecutor(options.jobs) as pool:
            fens = [str(r["fen"]) for r in rows]
            parts = list(
                pool.map(_features_of, [fens[i : i + 5000] for i in range(0, len(fens), 5000)])
            )
        x_all = np.concatenate(parts)
        np.savez(cache, x=x_all)
        print(f"features of {len(rows)} positions in {time.monotonic() - started:.0f} s")
    stockfish = np.array([float(r["stockfish"]) for r in rows])
    result = np.array([float(r["result"]) for r in rows])
    target = (1 - options.result_weight) * expected(stockfish) + options.result_weight * result
    # The last tenth of the file is held out: whole games the fit has not seen (a
    # game's positions are alike, so a random tenth would flatter the fit).
    held = len(rows) - len(rows) // 10
    x_test, y_test = x_all[held:], target[held:]
    x_fit, y_fit = x_all[:held], target[:held]
    tie = ties(options.symmetric)
    x_fit_tied = x_fit @ tie
    x_test_tied = x_test @ tie

    def loss(x: np.ndarray, y: np.ndarray, w: np.ndarray) -> float:
        return float(np.mean((expected(x @ w) - y) ** 2))

    free0 = np.linalg.lstsq(tie, w0, rcond=None)[0]
    fixed = np.abs(x_fit_tied).sum(axis=0) == 0  # e.g. pawns on the first rank
    if not options.activity:
        fixed |= tie[list(ACTIVITY)].sum(axis=0) > 0
    print(f"loss before: fit {loss(x_fit, y_fit, w0):.6f}, held out {loss(x_test, y_test, w0):.6f}")

    def report(step: int, u: np.ndarray) -> None:
        fitted, held_out = loss(x_fit_tied, y_fit, u), loss(x_test_tied, y_test, u)
        print(f"step {step}: fit {fitted:.6f}, held out {held_out:.6f}", flush=True)

    u = adam(x_fit_tied, y_fit, free0, fixed, options, report)
    w = tie @ u
    if options.keep_scale:
        # The search's margins (futility, aspiration, the levels' and the coach's
        # thresholds) are in the engine's centipawns: keep its scale (the summed
        # material of the pieces, by the tables' means, as it was), and take only
        # the shape from the fit.
        def total(numbers: np.ndarray) -> float:
            return sum(
                material(numbers, base, kind) for base in (MG_BASE, EG_BASE) for kind in KINDS[:5]
            )

        scale = total(with_bases(w0)) / total(with_bases(w))
        w = w * scale
        print(f"scaled by {scale:.3f} to the engine's material")
    w = np.round(w)
    print(
        f"loss after (rounded): fit {loss(x_fit, y_fit, w):.6f},"
        f" held out {loss(x_test, y_test, w):.6f}"
    )
    Path(options.out).write_text(draw(w))
    np.save(str(options.out) + ".npy", w)
    print(f"tables written to {options.out}")


def adam(
    x: np.ndarray,
    y: np.ndarray,
    start: np.ndarray,
    fixed: np.ndarray,
    options: argparse.Namespace,
    report: Callable[[int, np.ndarray], None],
) -> np.ndarray:
    """The numbers minimising the squared error of the expected results plus the
    ridge (towards ``start``), by Adam; the ``fixed`` ones stay where they are."""
    u = start.copy()
    m = np.zeros_like(u)
    v = np.zeros_like(u)
    x32 = x.astype(np.float32)
    for step in range(1, options.steps + 1):
        p = expected(x32 @ u.astype(np.float32)).astype(np.float64)
        g_out = 2 * (p - y) * p * (1 - p) / SCALE / len(y)
        grad = (x32.T @ g_out.astype(np.float32)).astype(np.float64)
        grad += 2 * options.ridge * (u - start)
        grad[fixed] = 0
        m = 0.9 * m + 0.1 * grad
        v = 0.999 * v + 0.001 * grad * grad
        u -= options.rate * (m / (1 - 0.9**step)) / (np.sqrt(v / (1 - 0.999**step)) + 1e-12)
        if step % 500 == 0:
            report(step, u)
    return u


def ties(kinds: str) -> np.ndarray:
    """The matrix from the free numbers to all of them: a square and its mirror in
    the board's middle file share one number in the tables of the ``kinds`` named
    (letters of PNBRQK), so that the fit has half as many numbers to find there."""
    columns: list[list[int]] = []
    for i in range(SIZE):
        sq = i % 64
        if i < PASSED_MG_BASE and "PNBRQK"[(i % EG_BASE) // 64] in kinds.upper():
            if sq & 7 < 4:  # a square on the queen's side, with its mirror
                columns.append([i, i - sq + (sq ^ 7)])
            continue
        columns.append([i])
    tie = np.zeros((SIZE, len(columns)))
    for j, members in enumerate(columns):
        for i in members:
            tie[i, j] = 1
    return tie


#: The trial patch's base of each kind's count (chess-activity.patch).
MOBILITY_BASE = (0, 0, 4, 6, 7, 13, 0, 0)


def with_bases(w: np.ndarray) -> np.ndarray:
    """The numbers with each kind's base count of squares priced into its tables:
    the engine counts the squares beyond a base, the features count them all."""
    w = w.copy()
    for i, kind in enumerate(MOBILE_KINDS):
        w[table(MG_BASE, kind)] += MOBILITY_BASE[kind] * w[MOBILITY_MG_BASE + i]
        w[table(EG_BASE, kind)] += MOBILITY_BASE[kind] * w[MOBILITY_EG_BASE + i]
    return w


def draw(w: np.ndarray) -> str:
    """The numbers as engine.py writes them: material, then each kind's tables drawn
    rank 8 first, the material taken out (the mean over the squares a piece of the
    kind can stand on)."""
    lines = []
    active = bool(np.any(w[list(ACTIVITY)]))
    w = with_bases(w)
    material_mg = [0] * 7
    material_eg = [0] * 7
    tables = []
    for kind in KINDS:
        squares = standing(kind)
        if kind == KING:
            base_mg = base_eg = 0
        else:
            base_mg = int(round(material(w, MG_BASE, kind) / 5) * 5)
            base_eg = int(round(material(w, EG_BASE, kind) / 5) * 5)
        material_mg[kind] = base_mg
        material_eg[kind] = base_eg
        mg, eg = w[table(MG_BASE, kind)], w[table(EG_BASE, kind)]
        for phase, values, base in (("MG", mg, base_mg), ("EG", eg, base_eg)):
            rows = []
            for rank in range(7, -1, -1):
                cells = []
                for f in range(8):
                    sq = rank * 8 + f
                    value = 0 if kind == PAWN and sq not in squares else int(values[sq]) - base
                    cells.append(f"{value:3d}")
                rows.append(" ".join(cells))
            tables.append(f'_{KIND_NAMES[kind]}_{phase} = """\n' + "\n".join(rows) + '\n"""')
    lines.append(f"MATERIAL_MG = {tuple(material_mg)}")
    lines.append(f"MATERIAL_EG = {tuple(material_eg)}")
    lines.extend(tables)
    passed_mg = [int(v) for v in w[PASSED_MG_BASE : PASSED_MG_BASE + 8]]
    passed_eg = [int(v) for v in w[PASSED_EG_BASE : PASSED_EG_BASE + 8]]
    passed_mg[0] = passed_mg[7] = passed_eg[0] = passed_eg[7] = 0
    lines.append(f"PASSED_MG = {tuple(passed_mg)}")
    lines.append(f"PASSED_EG = {tuple(passed_eg)}")
    lines.append(f"DOUBLED_MG, DOUBLED_EG = {int(w[DOUBLED_MG])}, {int(w[DOUBLED_EG])}")
    lines.append(f"ISOLATED_MG, ISOLATED_EG = {int(w[ISOLATED_MG])}, {int(w[ISOLATED_EG])}")
    lines.append(f"BISHOP_PAIR = {int(w[BISHOP_PAIR])}")
    lines.append(f"TEMPO = {int(w[TEMPO])}")
    if active:
        mobility = {}
        for name, base in (("MG", MOBILITY_MG_BASE), ("EG", MOBILITY_EG_BASE)):
            by_kind = [0] * 8
            for i, kind in enumerate(MOBILE_KINDS):
                by_kind[kind] = int(w[base + i])
            mobility[name] = tuple(by_kind)
        lines.append(f"MOBILITY_MG = {mobility['MG']}")
        lines.append(f"MOBILITY_EG = {mobility['EG']}")
        lines.append(f"ROOK_OPEN_FILE = ({int(w[ROOK_OPEN_MG])}, {int(w[ROOK_OPEN_EG])})")
        lines.append(f"ROOK_HALF_OPEN_FILE = ({int(w[ROOK_HALF_MG])}, {int(w[ROOK_HALF_EG])})")
    return "\n".join(lines) + "\n"


def command_apply(options: argparse.Namespace) -> None:
    """Put the drawn tables and the numbers (as ``fit`` wrote them) in place of the
    engine's own in an engine.py (a worktree's, to be matched against main)."""
    text = Path(options.engine_py).read_text()
    tuned = Path(options.tables).read_text()
    # (pattern, flags): the drawn tables span lines, the other numbers one line each.
    tables = re.findall(r'^(_[A-Z]+_[ME]G) = """', tuned, re.M)
    patterns = [(rf'^{name} = """\n.*?"""', re.S | re.M) for name in tables]
    patterns += [
        (rf"^{re.escape(line.split(' = ')[0])} = .*$", re.M)
        for line in tuned.splitlines()
        if line[:1].isupper() and " = " in line
    ]
    for pattern, flags in patterns:
        new = re.search(pattern, tuned, flags)
        old = list(re.finditer(pattern, text, flags))
        assert new is not None and len(old) == 1, pattern
        text = text[: old[0].start()] + new.group(0) + text[old[0].end() :]
    Path(options.engine_py).write_text(text)
    print(f"{options.engine_py}: tables replaced")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    commands = parser.add_subparsers(dest="command", required=True)
    games = commands.add_parser("games", help="self-play games: positions with results")
    games.add_argument("--games", type=int, default=2400)
    games.add_argument("--nodes", type=int, default=1500)
    games.add_argument(
        "--loose", type=float, default=0.03, help="chance of a random move at each ply"
    )
    games.add_argument("--jobs", type=int, default=2)
    games.add_argument("--seed", type=int, default=1)
    games.add_argument("--out", default="/tmp/chess-positions.jsonl")
    label = commands.add_parser("label", help="Stockfish's score of each position")
    label.add_argument("positions")
    label.add_argument("--depth", type=int, default=8)
    label.add_argument("--jobs", type=int, default=2)
    label.add_argument("--stockfish", default="/usr/games/stockfish")
    label.add_argument("--out", default="/tmp/chess-labelled.jsonl")
    fit = commands.add_parser("fit", help="fit the numbers")
    fit.add_argument("labelled")
    fit.add_argument("--steps", type=int, default=1000)
    fit.add_argument("--rate", type=float, default=1.0, help="Adam's step, in centipawns")
    fit.add_argument("--ridge", type=float, default=2e-9)
    fit.add_argument(
        "--result-weight", type=float, default=0.0, help="share of the game's result in the target"
    )
    fit.add_argument(
        "--symmetric",
        default="NBRQ",
        help="tie each square to its mirror for these kinds ('': none)",
    )
    fit.add_argument("--activity", action="store_true", help="fit the trial's activity terms too")
    fit.add_argument("--keep-scale", action="store_true", help="scale to the engine's material")
    fit.add_argument("--jobs", type=int, default=2)
    fit.add_argument("--out", default="/tmp/chess-tuned.txt")
    apply = commands.add_parser("apply", help="write fitted tables into an engine.py")
    apply.add_argument("tables")
    apply.add_argument("engine_py")
    options = parser.parse_args()
    {"games": command_games, "label": command_label, "fit": command_fit, "apply": command_apply}[
        options.command
    ](options)


if __name__ == "__main__":
    main()
