"""Pictures of positions as SVG, for notebooks (a state's ``_repr_svg_``), the command
line (``parlour draw``) and anyone who wants a diagram. This module holds what the
games' drawings share: an SVG document built element by element, and the square
board that chess and checkers are both played on. Each game draws its own pieces.

>>> picture = Drawing(100, 50)
>>> picture.rect(0, 0, 100, 50, fill="#eee")
>>> picture.text(50, 25, "<a & b>", size=10)
>>> print(picture.svg())  # doctest: +NORMALIZE_WHITESPACE
<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 50" width="100" height="50">
<rect x="0" y="0" width="100" height="50" fill="#eee"/>
<text x="50" y="25" font-size="10" text-anchor="middle"
 dominant-baseline="central">&lt;a &amp; b&gt;</text>
</svg>
"""

from __future__ import annotations

from collections.abc import Callable
from xml.sax.saxutils import escape, quoteattr

#: Colours of the square board, light then dark (the browser board's).
LIGHT_SQUARE = "#f0d9b5"
DARK_SQUARE = "#b58863"


def _number(value: float) -> str:
    return f"{value:g}"


def _value(value: object) -> str:
    """An attribute's value as written: numbers without needless decimals."""
    return _number(value) if isinstance(value, float | int) else str(value)


class Drawing:
    """An SVG picture ``width`` by ``height`` units, drawn in order."""

    def __init__(self, width: float, height: float, *, margin: float = 0) -> None:
        self.width = width
        self.height = height
        #: Room above and below, drawn at negative y and below ``height`` (labels).
        self.margin = margin
        self._elements: list[str] = []

    def _add(self, tag: str, attributes: dict[str, object], body: str | None = None) -> None:
        text = " ".join(
            f"{name.rstrip('_').replace('_', '-')}={quoteattr(_value(value))}"
            for name, value in attributes.items()
            if value is not None
        )
        if body is None:
            self._elements.append(f"<{tag} {text}/>")
        else:
            self._elements.append(f"<{tag} {text}>{escape(body)}</{tag}>")

    def rect(self, x: float, y: float, width: float, height: float, **style: object) -> None:
        self._add("rect", {"x": x, "y": y, "width": width, "height": height, **style})

    def circle(self, x: float, y: float, radius: float, **style: object) -> None:
        self._add("circle", {"cx": x, "cy": y, "r": radius, **style})

    def polygon(self, points: list[tuple[float, float]], **style: object) -> None:
        corners = " ".join(f"{_number(x)},{_number(y)}" for x, y in points)
        self._add("polygon", {"points": corners, **style})

    def text(self, x: float, y: float, words: str, *, size: float, **style: object) -> None:
        attributes = {"x": x, "y": y, "font_size": size, "text_anchor": "middle"}
        attributes["dominant_baseline"] = "central"
        self._add("text", {**attributes, **style}, words)

    def svg(self) -> str:
        """The picture as an SVG document."""
        width, height = _number(self.width), _number(self.height + 2 * self.margin)
        head = (
            f'<svg xmlns="http://www.w3.org/2000/svg" '
            f'viewBox="0 {_number(-self.margin)} {width} {height}" '
            f'width="{width}" height="{height}">'
        )
        return "\n".join([head, *self._elements, "</svg>"]) + "\n"


#: Side of one square of a square board, in SVG units.
SQUARE = 45
#: Margin round a square board, for its coordinates.
MARGIN = 18


def square_board(
    label: Callable[[int, int], str | None],
    draw_piece: Callable[[Drawing, int, int, float, float], None],
    *,
    files: str = "",
    ranks: str = "",
) -> Drawing:
    """An 8x8 board, light square at the top left: ``label(row, column)`` writes
    in a square's corner (a checkers number), ``draw_piece(picture, row, column, x,
    y)`` draws what stands there (x, y its centre); row 0 is the top row. ``files``
    and ``ranks`` label the columns left to right and the rows top to bottom."""
    size = 8 * SQUARE + 2 * MARGIN
    picture = Drawing(size, size)
    picture.rect(0, 0, size, size, fill="#312e2b")
    for row in range(8):
        for column in range(8):
            x, y = MARGIN + column * SQUARE, MARGIN + row * SQUARE
            dark = (row + column) % 2 == 1
            picture.rect(x, y, SQUARE, SQUARE, fill=DARK_SQUARE if dark else LIGHT_SQUARE)
            draw_piece(picture, row, column, x + SQUARE / 2, y + SQUARE / 2)
            words = label(row, column)
            if words:  # over the piece, in its corner, so that it is never hidden
                picture.text(x + 7, y + 7, words, size=9, fill="#ffffff", font_weight="bold")
    for index, name in enumerate(files):
        picture.text(MARGIN + (index + 0.5) * SQUARE, size - MARGIN / 2, name, size=11, fill="#ccc")
    for index, name in enumerate(ranks):
        picture.text(MARGIN / 2, MARGIN + (index + 0.5) * SQUARE, name, size=11, fill="#ccc")
    return picture
