"""Chess: where Parlour's games of a match were lost, judged by Stockfish at full
strength.

Run from the repository root on the PGN that ``chess_match.py --pgn`` wrote::

    python benchmarks/chess_match.py stockfish --elo 2200 --level 10 --pgn games.pgn
    python benchmarks/chess_losses.py games.pgn --depth 16 --jobs 2

Stockfish (no limit on its strength, one thread, a fixed depth so that the load does
not decide) scores every position of every game. Each move is then judged as the
coach judges a player's: by the winning chances it gave away (lichess's curve, from
``parlour.core.judgement``; 0.1 an inaccuracy, 0.2 a mistake, 0.3 a blunder). For
each game: its result for Parlour, each side's mistakes and blunders and its
accuracy (its moves' combined as the coach and lichess combine them), and the move
that gave away the most (the one a lost game turned on), with the phase it came in
and the move Stockfish preferred. Then the whole: how often each side blundered, in
which phase Parlour's worst moves came, and in how many of its lost games Parlour
had stood better.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import threading
from dataclasses import dataclass
from pathlib import Path

try:
    import chess
    import chess.engine
    import chess.pgn
except ImportError:  # pragma: no cover
    raise SystemExit("python-chess is needed: pip install chess (the test extra)") from None

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from chess_match import OPENINGS, STOCKFISH

from parlour.core.judgement import (
    Judgement,
    game_accuracy,
    judge_win_drop,
    mate_as_centipawns,
    winning_chances,
)

#: Winning chances at which a side stands clearly better (a pawn and a half or so).
BETTER = 0.5
#: The opening is over after this many moves; the endgame begins when neither side
#: has more than this many points of pieces (pawns aside; a queen 9, a rook 5).
OPENING_MOVES = 15
ENDGAME_POINTS = 13
POINTS = {chess.KNIGHT: 3, chess.BISHOP: 3, chess.ROOK: 5, chess.QUEEN: 9}


def phase(board: chess.Board) -> str:
    """The phase of the game a position is in: opening, middlegame or endgame.

    >>> phase(chess.Board()), phase(chess.Board("4k3/8/8/8/8/8/4P3/R3K3 w - - 0 40"))
    ('opening', 'endgame')
    """
    pieces = [
        sum(
            POINTS.get(piece.piece_type, 0)
            for piece in board.piece_map().values()
            if piece.color == side
        )
        for side in (chess.WHITE, chess.BLACK)
    ]
    if max(pieces) <= ENDGAME_POINTS:
        return "endgame"
    return "opening" if board.fullmove_number <= OPENING_MOVES else "middlegame"


def mover_centipawns(score: chess.engine.PovScore) -> int:
    """A score for the side to move, a mate weighed as lichess weighs it."""
    mate = score.relative.mate()
    if mate is not None:
        return mate_as_centipawns(mate)
    return score.relative.score(mate_score=0)  # (not a mate here)


def opening_plies(game: chess.pgn.Game) -> int:
    """How many of the game's first moves are the benchmark's opening (the longest
    of ``chess_match.OPENINGS`` it begins with), which neither engine chose."""
    played = [move.uci() for move in game.mainline_moves()]
    return max(
        (len(o.split()) for o in OPENINGS if played[: len(o.split())] == o.split()), default=0
    )


def win_percent_of(chances: float) -> float:
    """Winning chances (-1 to +1) as a win percent (0 to 100)."""
    return 50 + 50 * chances


@dataclass(frozen=True)
class JudgedMove:
    """One move of a game and what it gave away."""

    ply: int  # 0 the first move after the start
    san: str
    best_san: str  # Stockfish's choice in the position before
    parlour: bool
    phase: str
    before: float  # the mover's winning chances before the move (-1 to +1)
    after: float  # and after it

    @property
    def drop(self) -> float:
        return max(0.0, self.before - self.after)

    @property
    def judgement(self) -> Judgement | None:
        return judge_win_drop(self.drop)

    @property
    def name(self) -> str:
        number = self.ply // 2 + 1
        return f"{number}{'.' if self.ply % 2 == 0 else '...'} {self.san}"


@dataclass(frozen=True)
class JudgedGame:
    round: str
    parlour_points: float
    moves: list[JudgedMove]

    def of(self, parlour: bool) -> list[JudgedMove]:
        return [m for m in self.moves if m.parlour == parlour]

    def counted(self, parlour: bool, judgement: Judgement) -> int:
        return sum(m.judgement is judgement for m in self.of(parlour))

    def accuracy(self, parlour: bool) -> float:
        """A side's accuracy over the judged moves, as the coach gives a player's."""
        if not self.moves:
            return 100.0
        # The judged moves follow one another, so the first mover's win percent
        # before the first and after each is the line game_accuracy reads.
        percents = [win_percent_of(self.moves[0].before)]
        for j, move in enumerate(self.moves):
            after = win_percent_of(move.after)
            percents.append(after if j % 2 == 0 else 100 - after)
        first, second = game_accuracy(percents)
        return first if self.moves[0].parlour == parlour else second

    def worst(self) -> JudgedMove | None:
        """Parlour's move that gave away the most."""
        return max(self.of(True), key=lambda m: m.drop, default=None)

    def stood_better(self) -> bool:
        """Whether Parlour was clearly better at some point of the game."""
        return any(m.before >= BETTER for m in self.of(True))


def judge_game(game: chess.pgn.Game, engine: chess.engine.SimpleEngine, depth: int) -> JudgedGame:
    """Score each position of ``game`` at ``depth`` and judge each move the engines
    chose (the opening's are not judged)."""
    parlour_white = game.headers.get("White") == "Parlour"
    board = game.board()
    engine.configure({"Clear Hash": None})
    first = opening_plies(game)

    def look(position: chess.Board) -> tuple[float, str]:
        if position.is_game_over():
            outcome = position.outcome()
            mated = outcome is not None and outcome.winner is not None
            return (-1.0 if mated else 0.0), ""
        info = engine.analyse(position, chess.engine.Limit(depth=depth))
        pv = info.get("pv") or []
        best = position.san(pv[0]) if pv else ""
        return winning_chances(mover_centipawns(info["score"])), best

    chances, best = look(board)
    judged = []
    for ply, node in enumerate(game.mainline()):
        san = board.san(node.move)
        white = board.turn == chess.WHITE
        stage = phase(board)
        board.push(node.move)
        after, next_best = look(board)
        if ply >= first:
            judged.append(
                JudgedMove(
                    ply=ply,
                    san=san,
                    best_san=best,
                    parlour=white == parlour_white,
                    phase=stage,
                    before=chances,
                    after=-after,
                )
            )
        chances, best = after, next_best
    result = game.headers.get("Result", "*")
    white_points = {"1-0": 1.0, "0-1": 0.0}.get(result, 0.5)
    return JudgedGame(
        round=game.headers.get("Round", "?"),
        parlour_points=white_points if parlour_white else 1 - white_points,
        moves=judged,
    )


def read_games(path: Path) -> list[chess.pgn.Game]:
    games = []
    with path.open(encoding="utf-8") as handle:
        while (game := chess.pgn.read_game(handle)) is not None:
            if game.errors:
                raise SystemExit(f"{path}: round {game.headers.get('Round')}: {game.errors[0]}")
            if "Parlour" not in (game.headers.get("White"), game.headers.get("Black")):
                raise SystemExit(
                    f"{path}: round {game.headers.get('Round')}: Parlour is not a player"
                )
            games.append(game)
    if not games:
        raise SystemExit(f"{path}: no games")
    return games


def line(game: JudgedGame) -> str:
    """One game's verdict: its result, each side's mistakes (?) and blunders (??)
    with its accuracy, and Parlour's worst move."""

    def errors(parlour: bool) -> str:
        mistakes = game.counted(parlour, Judgement.MISTAKE)
        blunders = game.counted(parlour, Judgement.BLUNDER)
        return f"{mistakes}? {blunders}?? ({game.accuracy(parlour):.0f} %)"

    said = {1.0: "won", 0.5: "drew", 0.0: "lost"}[game.parlour_points]
    text = f"round {game.round}: Parlour {said}; Parlour {errors(True)}, the peer {errors(False)}"
    worst = game.worst()
    if worst is not None and worst.drop > 0:
        text += (
            f"; worst {worst.name} ({worst.phase}, {win_percent_of(worst.before):.0f} % to "
            f"{win_percent_of(worst.after):.0f} %; Stockfish {worst.best_san})"
        )
    return text


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pgn", type=Path)
    parser.add_argument("--depth", type=int, default=16, help="Stockfish's depth a position")
    parser.add_argument("--jobs", type=int, default=1, help="games judged at once")
    parser.add_argument("--stockfish", default=STOCKFISH)
    args = parser.parse_args(argv)
    if args.depth < 1 or args.jobs < 1:
        parser.error("--depth and --jobs are 1 or more")
    games = read_games(args.pgn)
    judged: list[JudgedGame | None] = [None] * len(games)
    queue = list(range(len(games)))
    lock = threading.Lock()

    def worker() -> None:
        # A Stockfish that fails says so in one line, not a thread's traceback; the
        # other workers judge on, and the run ends saying how many games are missing.
        try:
            engine = chess.engine.SimpleEngine.popen_uci(args.stockfish)
        except (OSError, chess.engine.EngineError) as error:
            print(f"{args.stockfish}: {error}", flush=True)
            return
        try:
            engine.configure({"Threads": 1, "Hash": 64})
            while True:
                with lock:
                    if not queue:
                        return
                    i = queue.pop(0)
                verdict = judge_game(games[i], engine, args.depth)
                with lock:
                    judged[i] = verdict
                    print(line(verdict), flush=True)
        except chess.engine.EngineError as error:
            print(f"{args.stockfish}: {error}", flush=True)
        finally:
            engine.close()

    threads = [threading.Thread(target=worker) for _ in range(min(args.jobs, len(games)))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    done = [g for g in judged if g is not None]
    if len(done) != len(games):
        raise SystemExit(f"{len(games) - len(done)} of {len(games)} games could not be judged")
    summarise(done, args.depth)
    return 0


def summarise(games: list[JudgedGame], depth: int) -> None:
    n = len(games)
    print(f"\n{n} games, Stockfish at depth {depth}:")
    for parlour, who in ((True, "Parlour"), (False, "the peer")):
        moves = sum(len(g.of(parlour)) for g in games)
        counts = {j: sum(g.counted(parlour, j) for g in games) for j in Judgement}
        accuracy = statistics.fmean(g.accuracy(parlour) for g in games)
        print(
            f"  {who}: {moves} moves, {counts[Judgement.INACCURACY]} inaccuracies, "
            f"{counts[Judgement.MISTAKE]} mistakes, {counts[Judgement.BLUNDER]} blunders "
            f"({counts[Judgement.BLUNDER] / n:.2f} a game); "
            f"accuracy {accuracy:.1f} % (a game's, on average)"
        )
    lost = [g for g in games if g.parlour_points == 0.0]
    if lost:
        phases = [w.phase for g in lost if (w := g.worst()) is not None]
        by_phase = ", ".join(f"{p} {phases.count(p)}" for p in ("opening", "middlegame", "endgame"))
        print(f"  Parlour's {len(lost)} losses: the worst move in the {by_phase}")
        better = sum(g.stood_better() for g in lost)
        print(f"    had stood clearly better (at least {win_percent_of(BETTER):.0f} %) in {better}")
        drops = sorted(w.drop for g in lost if (w := g.worst()) is not None)
        median = statistics.median(drops) * 50
        print(f"    the worst move gave away a median {median:.0f} points of win percent")


if __name__ == "__main__":
    raise SystemExit(main())
