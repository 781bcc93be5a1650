"""A checkers position as an SVG diagram: the dark squares numbered 1 to 32 as in
PDN (Black's side at the top), men as discs and kings as discs with a crown.

>>> from parlour.checkers.rules import CHECKERS
>>> picture = draw(CHECKERS.new_state().piece_at)
>>> picture.count("<circle")  # two circles a man: the disc and its rim
48
"""

from __future__ import annotations

from collections.abc import Callable

from parlour.core.drawing import Drawing, square_board

COLOURS = {"b": ("#222222", "#555555"), "w": ("#f4eee0", "#b8ad94")}


def square_at(row: int, column: int) -> int | None:
    """The number of the square at ``row`` (0 at the top) and ``column`` (0 on the
    left), or None for a light square."""
    if (row + column) % 2 == 0:
        return None
    return 4 * row + column // 2 + 1


def draw(piece_at: Callable[[int], str | None], *, flipped: bool = False) -> str:
    """The position as SVG, from ``piece_at(square)`` ('b'/'B' a Black man/king,
    'w'/'W' White's, None empty); White's side at the top when ``flipped``."""

    def where(row: int, column: int) -> int | None:
        return square_at(7 - row, 7 - column) if flipped else square_at(row, column)

    def label(row: int, column: int) -> str | None:
        square = where(row, column)
        return None if square is None else str(square)

    def piece(picture: Drawing, row: int, column: int, x: float, y: float) -> None:
        square = where(row, column)
        found = None if square is None else piece_at(square)
        if found is None:
            return
        fill, rim = COLOURS[found.lower()]
        picture.circle(x + 1, y + 2, 15, fill=rim)
        picture.circle(x + 1, y + 1, 15, fill=fill, stroke=rim, stroke_width=2)
        if found.isupper():
            picture.text(x + 1, y + 2, "♛", size=18, fill="#d4a017")

    return square_board(label, piece).svg()
