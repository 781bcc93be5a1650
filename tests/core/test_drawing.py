"""Positions drawn as SVG: well-formed XML with one mark for each piece the oracle
(python-chess) or the position's own text says is there, shown by notebooks through
``_repr_svg_`` and printed by ``parlour draw``."""

from __future__ import annotations

import random
import subprocess
import sys
import xml.etree.ElementTree as ElementTree

import chess

from parlour.core.registry import get_game
from tests.conformance.toygame import RACE

SVG = "{http://www.w3.org/2000/svg}"


def parse(svg: str) -> ElementTree.Element:
    root = ElementTree.fromstring(svg)
    assert root.tag == f"{SVG}svg"
    return root


def test_chess_diagrams_show_every_piece_on_its_square() -> None:
    rng = random.Random(3)
    board = chess.Board()
    for _ in range(40):
        if board.is_game_over():
            break
        board.push(rng.choice(list(board.legal_moves)))
        state = get_game("chess").state_from_text(board.fen())
        root = parse(state._repr_svg_() or "")
        glyphs = [t.text for t in root.iter(f"{SVG}text") if t.text and t.text in "♚♛♜♝♞♟"]
        assert len(glyphs) == len(board.piece_map())
        kinds = sorted(
            "♚♛♜♝♞♟"["kqrbnp".index(p.symbol().lower())] for p in board.piece_map().values()
        )
        assert sorted(glyphs) == kinds


def test_checkers_diagrams_number_every_dark_square_and_crown_kings() -> None:
    state = get_game("checkers").state_from_text("W:W18,K30,22:B14,K5,1")
    root = parse(state.to_svg())
    texts = [t.text for t in root.iter(f"{SVG}text")]
    assert [n for n in texts if n and n.isdigit()] == [str(n) for n in range(1, 33)]
    assert texts.count("♛") == 2
    assert len(list(root.iter(f"{SVG}circle"))) == 2 * 6


def test_backgammon_diagrams_show_checkers_dice_and_cube() -> None:
    state = get_game("backgammon").state_from_text("4HPwATDgc/ABMA:MIEFAAAAAAAA")
    root = parse(state.to_svg())
    texts = [t.text for t in root.iter(f"{SVG}text")]
    assert len(list(root.iter(f"{SVG}circle"))) == 30
    assert [str(n) for n in range(1, 25)] == [t for t in texts if t and t.isdigit()][:24]
    assert "3" in texts[24:] and "1" in texts[24:] and "64" in texts


def test_a_game_without_a_drawing_falls_back_to_text_in_notebooks() -> None:
    assert RACE.new_state()._repr_svg_() is None


def test_parlour_draw_prints_svg_and_refuses_a_bad_position() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "parlour", "draw", "checkers", "startpos"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert len(list(parse(done.stdout).iter(f"{SVG}circle"))) == 48
    bad = subprocess.run(
        [sys.executable, "-m", "parlour", "draw", "chess", "8/8 w"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert (
        bad.returncode == 1 and bad.stderr.startswith("parlour: ") and "Traceback" not in bad.stderr
    )
