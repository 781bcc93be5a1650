"""Can Parlour's chess engine mate a bare king, and win (or hold) king and pawn
against king? Won endings played out against Stockfish's defence.

Each ending (king and queen, king and rook, king, bishop and knight, king and two
bishops against a bare king) is set up at random squares (seeded; the bare king in
the centre), kept only where Stockfish, looking to a fixed depth, scores it won for
the side to move (so that no piece is hanging). Parlour (over UCI, at a fixed node
count, the copy at ``--root``) plays the stronger side; Stockfish at full strength
and a fixed depth defends. A game ends at mate, at stalemate, at a draw by
material, repetition or the fifty-move rule (the count starts at the set-up, so
there are 50 moves to mate in, and every pawn move starts them again). Printed:
for each ending the mates, the draws and the mean number of moves to mate.

King and pawn against king is played both ways: ``KPK`` as the others (Parlour
with the pawn, in positions Stockfish scores won), and ``KKP`` with Parlour the
bare king, to move, in positions Stockfish scores drawn, against Stockfish with the
pawn: held is any draw.

    python benchmarks/chess_endings.py --nodes 24000 --positions 20
    python benchmarks/chess_endings.py --nodes 24000 --positions 20 --root /work/wt-old

python-chess and Debian's Stockfish are needed (both test-only).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

try:
    import chess
    import chess.engine
except ImportError:  # pragma: no cover
    raise SystemExit("python-chess is needed: pip install chess (the test extra)") from None

sys.path.insert(0, str(Path(__file__).resolve().parent))

from chess_match import ROOT, build_state, open_engine

#: c3 to f6: where the bare king starts.
CENTRE = [chess.square(f, r) for f in range(2, 6) for r in range(2, 6)]
#: The stronger side's pieces beside its king, by the ending's name.
ENDINGS = {
    "KQK": "Q",
    "KRK": "R",
    "KBNK": "BN",
    "KBBK": "BB",
    "KPK": "P",
}
#: Parlour defends these (the bare king), in positions Stockfish scores drawn.
DEFENCES = {"KKP": "P"}


def random_ending(pieces: str, rng: random.Random) -> chess.Board:
    """A legal position, White (the stronger side) to move, the bare king on one of
    the sixteen central squares (so that it has to be driven all the way), the other
    pieces at random squares; two bishops stand on squares of both colours."""
    while True:
        bare_king = rng.choice(CENTRE)
        others = [s for s in chess.SQUARES if s != bare_king]
        squares = [others.pop(rng.randrange(len(others)))]
        squares[1:1] = [bare_king]
        squares += rng.sample(others, len(pieces))
        board = chess.Board(None)
        board.set_piece_at(squares[0], chess.Piece(chess.KING, chess.WHITE))
        board.set_piece_at(squares[1], chess.Piece(chess.KING, chess.BLACK))
        for square, symbol in zip(squares[2:], pieces, strict=True):
            board.set_piece_at(square, chess.Piece.from_symbol(symbol))
        if pieces == "BB":
            shades = {(chess.square_file(s) + chess.square_rank(s)) % 2 for s in squares[2:]}
            if len(shades) < 2:
                continue
        board.turn = chess.WHITE
        if board.is_valid() and not board.is_game_over():
            return board


def won(board: chess.Board, stockfish: chess.engine.SimpleEngine, depth: int) -> bool:
    """Whether Stockfish scores the position won for the side to move."""
    info = stockfish.analyse(board, chess.engine.Limit(depth=depth))
    score = info["score"].pov(board.turn)
    # Stockfish's static scales hold some won endings (bishop and knight) at about
    # two and a half pawns until it sees the mate; one piece lost leaves about 0.
    return (score.is_mate() and (score.mate() or 0) > 0) or (score.score() or 0) >= 200


def drawn(board: chess.Board, stockfish: chess.engine.SimpleEngine, depth: int) -> bool:
    """Whether Stockfish scores the position a draw (its endgame knowledge gives a
    drawn king and pawn against king exactly 0)."""
    score = stockfish.analyse(board, chess.engine.Limit(depth=depth))["score"].pov(board.turn)
    return not score.is_mate() and abs(score.score() or 0) <= 20


def play(
    board: chess.Board,
    parlour: chess.engine.SimpleEngine,
    stockfish: chess.engine.SimpleEngine,
    nodes: int,
    depth: int,
    parlour_side: chess.Color,
) -> chess.Board:
    """Plays the ending out, Parlour on ``parlour_side``, to its end (draws
    claimed) or the fifty-move rule; the board as it ends."""
    game = object()  # a new game to both engines: ucinewgame, the tables cleared
    while board.outcome(claim_draw=True) is None and board.halfmove_clock < 100:
        if board.turn == parlour_side:
            move = parlour.play(board, chess.engine.Limit(nodes=nodes), game=game).move
        else:
            move = stockfish.play(board, chess.engine.Limit(depth=depth), game=game).move
        assert move is not None
        board.push(move)
    return board


def play_out(
    board: chess.Board,
    parlour: chess.engine.SimpleEngine,
    stockfish: chess.engine.SimpleEngine,
    nodes: int,
    depth: int,
) -> int | None:
    """Plays the ending out: the moves Parlour took to mate, or None if it did not."""
    board = play(board, parlour, stockfish, nodes, depth, chess.WHITE)
    outcome = board.outcome(claim_draw=True)
    if outcome is not None and outcome.winner == chess.WHITE:
        return (board.ply() + 1) // 2
    return None


def hold(
    board: chess.Board,
    parlour: chess.engine.SimpleEngine,
    stockfish: chess.engine.SimpleEngine,
    nodes: int,
    depth: int,
) -> bool:
    """Plays a drawn ending out with Parlour as Black, the bare king: whether it
    held the draw."""
    board = play(board, parlour, stockfish, nodes, depth, chess.BLACK)
    outcome = board.outcome(claim_draw=True)
    return outcome is None or outcome.winner is None


def defend(
    name: str,
    args: argparse.Namespace,
    parlour: chess.engine.SimpleEngine,
    stockfish: chess.engine.SimpleEngine,
) -> None:
    """Parlour as the bare king in drawn positions: how many it held."""
    rng = random.Random(f"{args.seed}-{name}")
    held = 0
    for _ in range(args.positions):
        while True:
            board = random_ending(DEFENCES[name], rng)
            board.turn = chess.BLACK
            if (
                board.is_valid()
                and not board.is_game_over()
                and drawn(board, stockfish, args.depth)
            ):
                break
        start = board.fen()
        if hold(board, parlour, stockfish, args.nodes, args.depth):
            held += 1
        else:
            print(f"  {name}: lost from {start}", flush=True)
    print(
        f"{name}: held {held} of {args.positions} drawn positions, at {args.nodes:,} nodes a move",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nodes", type=int, default=24_000, help="Parlour's nodes a move")
    parser.add_argument("--positions", type=int, default=20, help="positions of each ending")
    parser.add_argument("--depth", type=int, default=10, help="Stockfish's depth")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--endings", default=",".join([*ENDINGS, *DEFENCES]), help="e.g. KQK,KBNK,KKP"
    )
    parser.add_argument("--root", type=Path, default=ROOT, help="the copy of Parlour to play")
    args = parser.parse_args()
    print(f"Parlour at {args.root}: {build_state(args.root)}", flush=True)
    parlour = open_engine("parlour", None, args.root)
    stockfish = open_engine("stockfish", None)
    started = time.monotonic()
    try:
        for name in args.endings.split(","):
            if name in DEFENCES:
                defend(name, args, parlour, stockfish)
                continue
            if name not in ENDINGS:
                known = ", ".join([*ENDINGS, *DEFENCES])
                raise SystemExit(f"no ending {name!r}: one of {known}")
            rng = random.Random(f"{args.seed}-{name}")
            mates: list[int] = []
            draws = 0
            for _ in range(args.positions):
                board = random_ending(ENDINGS[name], rng)
                while not won(board, stockfish, args.depth):
                    board = random_ending(ENDINGS[name], rng)
                start = board.fen()
                moves = play_out(board, parlour, stockfish, args.nodes, args.depth)
                if moves is None:
                    draws += 1
                    print(f"  {name}: not mated from {start}", flush=True)
                else:
                    mates.append(moves)
            mean = f"{statistics.mean(mates):.1f}" if mates else "-"
            print(
                f"{name}: mated {len(mates)} of {args.positions} ({draws} not), "
                f"{mean} moves to mate on average, at {args.nodes:,} nodes a move",
                flush=True,
            )
    finally:
        parlour.quit()
        stockfish.quit()
    print(f"{time.monotonic() - started:.0f} s")


if __name__ == "__main__":
    main()
