"""PGN read and written: round trips through our reader and writer and through
python-chess's (the oracle), a file with real-world quirks, and malformed input."""

from __future__ import annotations

import io
import random
from pathlib import Path

import chess
import chess.pgn
import pytest

from parlour.chess.board import Move
from parlour.chess.pgn import GameNode, PgnGame, read_pgn, write_pgn
from parlour.chess.rules import CHESS
from parlour.core.errors import NotationError
from parlour.core.protocol import Side

QUIRKS = Path(__file__).parent / "data" / "quirks.pgn"

Tree = tuple[str, str, tuple[int, ...], tuple["Tree", ...]]


def our_tree(node: GameNode) -> tuple[Tree, ...]:
    return tuple(
        (
            child.move.uci() if child.move else "",
            child.comment,
            tuple(child.nags),
            our_tree(child),
        )
        for child in node.variations
    )


def oracle_tree(node: chess.pgn.GameNode) -> tuple[Tree, ...]:
    return tuple(
        (
            child.move.uci(),
            " ".join(child.comment.split()),
            tuple(sorted(child.nags)),
            oracle_tree(child),
        )
        for child in node.variations
    )


def random_oracle_game(seed: int) -> chess.pgn.Game:
    """A game tree built with python-chess: a main line with side variations (some
    nested), comments and NAGs, from the start or from a FEN with Black to move."""
    rng = random.Random(seed)
    game = chess.pgn.Game()
    if seed % 3 == 0:
        game.setup(chess.Board("r3k2r/pp3ppp/8/3pP3/8/8/PP3PPP/R3K2R b KQkq - 0 12"))
    game.headers["White"] = f"Player {seed}"
    game.headers["Event"] = f"Random game {seed}"

    def grow(node: chess.pgn.GameNode, length: int, depth: int) -> None:
        for _ in range(length):
            board = node.board()
            moves = list(board.legal_moves)
            if not moves or board.is_game_over():
                return
            child = node.add_variation(rng.choice(moves))
            if rng.random() < 0.2:
                child.comment = rng.choice(["good move", "a (bracket) in it", "x"])
            if rng.random() < 0.15:
                child.nags.add(rng.choice([1, 2, 3, 4, 5, 6, 14, 18]))
            if depth < 2 and rng.random() < 0.15 and len(moves) > 1:
                others = [m for m in moves if m != child.move]
                side = node.add_variation(rng.choice(others))
                grow(side, rng.randint(0, 5), depth + 1)
            node = child

    grow(game, rng.randint(10, 60), 0)
    game.headers["Result"] = game.end().board().result()
    return game


@pytest.mark.parametrize("seed", range(30))
def test_pgn_round_trips_through_python_chess(seed: int) -> None:
    oracle = random_oracle_game(seed)
    exported = str(oracle)
    ours = read_pgn(exported)
    assert len(ours) == 1
    game = ours[0]
    assert our_tree(game.root) == oracle_tree(oracle)
    assert game.headers["Event"] == oracle.headers["Event"]
    assert game.result() == oracle.headers["Result"]
    # Our text, read by python-chess, is the same game tree again.
    written = write_pgn(game)
    again = chess.pgn.read_game(io.StringIO(written))
    assert again is not None and not again.errors
    assert oracle_tree(again) == oracle_tree(oracle)
    assert dict(again.headers) == dict(oracle.headers)
    # And by us: the same text once more.
    assert write_pgn(read_pgn(written)[0]) == written


def test_the_quirks_file_reads_as_python_chess_reads_it() -> None:
    text = QUIRKS.read_bytes().decode("utf-8")
    assert text.startswith("\ufeff") and "\r\n" in text, "the file must keep its quirks"
    games = read_pgn(text)
    oracle_games = []
    stream = io.StringIO(text.lstrip("\ufeff"))
    while (oracle := chess.pgn.read_game(stream)) is not None:
        assert not oracle.errors
        oracle_games.append(oracle)
    assert len(games) == len(oracle_games) == 4
    for game, oracle in zip(games, oracle_games, strict=True):
        assert game.mainline_moves() == [Move.from_uci(m.uci()) for m in oracle.mainline_moves()]
        assert [v[0] for v in our_tree(game.root)] == [v[0] for v in oracle_tree(oracle)]
        assert game.end().to_text() == oracle.end().board().fen()
    first = games[0]
    assert first.headers["Event"] == 'Club "Winter" Cup'
    assert first.headers["Black"] == "Brook, Ben \\ junior"
    assert first.comment == "Opening remark before any move."
    nodes = list(first.root.mainline())
    assert nodes[5].comment == "The Morphy defence"
    parent = nodes[6].parent
    assert parent is not None
    assert [v.move.uci() for v in parent.variations if v.move] == ["b5a4", "b5c6"]
    assert nodes[15].comment == "a line comment to the end"
    assert nodes[16].nags == [1] and nodes[17].nags == [6]
    assert first.result() == "1-0"
    # Result only in the tags, and a final position that is mate.
    last = games[3]
    assert last.result() == "1-0"
    outcome = last.end().outcome()
    assert outcome is not None
    assert outcome.winner is Side.FIRST
    assert last.start().turn is Side.SECOND
    # The en passant capture written "dxe3 e.p." and a promotion.
    assert games[2].mainline_moves()[1] == Move.from_uci("d4e3")
    assert games[2].mainline_moves()[2] == Move.from_uci("b7b8q")


def test_tag_values_are_escaped_and_unescaped() -> None:
    game = PgnGame()
    game.headers["Event"] = 'A "quoted" event \\ with a backslash'
    text = write_pgn(game)
    assert '[Event "A \\"quoted\\" event \\\\ with a backslash"]' in text
    assert read_pgn(text)[0].headers["Event"] == game.headers["Event"]
    # Some writers (python-chess among them) leave the quotes unescaped.
    loose = read_pgn('[Event "A "quoted" event"]\n\n1. e4 *')[0]
    assert loose.headers["Event"] == 'A "quoted" event'


def test_writing_follows_the_standard_layout() -> None:
    state = CHESS.new_state()
    for text in ["e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7#"]:
        state.play(text)
    game = PgnGame.from_state(state, White="Ada", Black="Ben", Date="2025.06.01")
    text = write_pgn(game)
    assert text.splitlines()[:8] == [
        '[Event "?"]',
        '[Site "?"]',
        '[Date "2025.06.01"]',
        '[Round "?"]',
        '[White "Ada"]',
        '[Black "Ben"]',
        '[Result "1-0"]',
        "",
    ]
    assert text.splitlines()[8] == "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0"


def test_a_game_from_a_position_records_its_fen() -> None:
    state = CHESS.state_from_text("4k3/8/8/8/8/8/4P3/4K3 b - - 0 30")
    state.play("Kd7")
    state.play("e4")
    text = write_pgn(PgnGame.from_state(state))
    assert '[SetUp "1"]' in text and '[FEN "4k3/8/8/8/8/8/4P3/4K3 b - - 0 30"]' in text
    assert "30... Kd7 31. e4 *" in text
    assert read_pgn(text)[0].end().to_text() == state.to_text()


def test_several_games_whitespace_and_no_tags() -> None:
    text = "\n\n  1. e4   e5\t2. Nf3 *\n\n\n1.d4 d5 1/2-1/2\n"
    games = read_pgn(text)
    assert [len(g.mainline_moves()) for g in games] == [3, 2]
    assert read_pgn("") == []


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("1. e4 e5 2. Ke3 *", "PGN game 1, move 2. Ke3: a king cannot move like that"),
        (
            '[Event "x"]\n\n1. e4 e5 2. Zz9 *',
            "move 2. Zz9: 'Zz9' is not a chess move",
        ),
        ("1. e4 {unclosed comment", "never closed"),
        ("1. e4 (1. d4 d5", "never closed"),
        ("1. e4 (1. d4 d5 *)", "result * comes inside a variation"),
        ("1. e4 ) *", "closes no variation"),
        ("( 1. e4 ) *", "before any move"),
        ('[Event "x]\n1. e4 *', "malformed tag"),
        ('[FEN "8/8/8/8/8/8/8/8 w - - 0 1"]\n1. e4 *', "bad FEN tag"),
        ("1. e4 @ e5 *", "unexpected '@'"),
        ("$1 1. e4 *", "annotation $1 before any move"),
        ("1. e4 (e5) *", "move 1. e5"),
    ],
)
def test_malformed_pgn_is_refused_precisely(text: str, message: str) -> None:
    with pytest.raises(NotationError) as raised:
        read_pgn(text)
    assert message in str(raised.value)


def test_comments_may_hold_brackets_semicolons_and_span_lines() -> None:
    text = (
        '[Event "One"]\n\n1. e4 {a; semicolon} e5 {a comment\n[Event "not a tag"]\n'
        "over lines} 2. Nf3 ; a { brace in a line comment\n2... Nc6 *\n"
        '[Event "Two"]\n\n1. d4 *\n'
    )
    games = read_pgn(text)
    assert [g.headers["Event"] for g in games] == ["One", "Two"]
    nodes = list(games[0].root.mainline())
    assert nodes[0].comment == "a; semicolon"
    assert nodes[1].comment == 'a comment [Event "not a tag"] over lines'
    assert nodes[2].comment == "a { brace in a line comment"
    assert len(nodes) == 4


def test_parlour_moves_chess_lists_san_and_fen() -> None:
    listing = CHESS.list_moves("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1")
    assert ("e4", "4k3/8/8/8/4P3/8/8/4K3 b - - 0 1") in listing
    assert len(listing) == 6
