"""A backgammon position as an SVG diagram, seen by the first player (White, moving
from the 24-point home to the 1-point at the bottom right): the 24 points numbered,
the bar, the checkers borne off, the dice and the cube. Points hold up to five
checkers drawn; a taller stack shows its count on its last checker.

>>> picture = draw(Position.start(), mover_is_first=True)
>>> picture.count("<circle")  # every checker of both sides
30
"""

from __future__ import annotations

from parlour.backgammon.board import Position
from parlour.core.drawing import Drawing

#: Sizes in SVG units: a point's width, the board's height, the bar's width.
POINT = 36
HEIGHT = 400
BAR = 40
SIDE = 50  # the tray on the right for checkers borne off, and the cube
CHECKER = POINT / 2 - 1
COLOURS = ("#f4eee0", "#222222")  # the first player's checkers, the second's
RIMS = ("#8a7f66", "#777777")


def draw(
    position: Position,
    *,
    mover_is_first: bool,
    dice: tuple[int, int] | None = None,
    cube: int = 1,
    cube_owner: int | None = None,
) -> str:
    """The position as SVG. ``position`` is a :class:`~parlour.backgammon.board.Position`
    (seen from the side on roll, ``mover_is_first`` saying which side that is); the
    ``dice`` thrown, the ``cube``'s value and its owner (0 first, 1 second, None
    centred) are shown if given."""
    mover, opponent = position.mover, position.opponent
    first, second = (mover, opponent) if mover_is_first else (opponent, mover)
    width = 12 * POINT + BAR + SIDE
    picture = Drawing(width, HEIGHT, margin=16)
    picture.rect(0, -16, width, HEIGHT + 32, fill="#3b2412")
    picture.rect(0, 0, width, HEIGHT, fill="#5b3a1e")
    picture.rect(0, 0, 12 * POINT + BAR, HEIGHT, fill="#2f6f4f")
    picture.rect(6 * POINT, 0, BAR, HEIGHT, fill="#5b3a1e")
    for point in range(1, 25):
        x, top = _point_x(point), point > 12
        tip = HEIGHT / 2 - 24 if top else HEIGHT / 2 + 24
        base = 0 if top else HEIGHT
        colour = "#c9a66b" if point % 2 else "#8b2e2e"
        picture.polygon([(x - POINT / 2, base), (x + POINT / 2, base), (x, tip)], fill=colour)
        picture.text(x, -8 if top else HEIGHT + 8, str(point), size=11, fill="#ffffff")
        count = first[point - 1] or second[24 - point]
        side = 0 if first[point - 1] else 1
        _stack(picture, x, top, count, side)
    bar_x = 6 * POINT + BAR / 2
    for side, count in ((0, first[24]), (1, second[24])):
        if count:
            # Checkers on the bar wait in the half of the board they re-enter from.
            _stack(picture, bar_x, side == 1, count, side, start=HEIGHT / 2 - 2.5 * POINT)
    tray = 12 * POINT + BAR + SIDE / 2
    for side, checkers in ((0, first), (1, second)):
        off = 15 - sum(checkers)
        if off:
            y = HEIGHT - 60 if side == 0 else 60
            picture.rect(tray - 18, y - 12, 36, 24, fill=COLOURS[side], stroke=RIMS[side])
            picture.text(tray, y, f"{off} off", size=10, fill=COLOURS[1 - side])
    cube_y = {None: HEIGHT / 2, 0: HEIGHT - 110, 1: 110}[cube_owner]
    picture.rect(tray - 15, cube_y - 15, 30, 30, fill="#ffffff", stroke="#000000", rx=4)
    picture.text(tray, cube_y, str(cube if cube > 1 else 64), size=14, fill="#000000")
    if dice is not None:
        mover_side = 0 if mover_is_first else 1
        centre = 9 * POINT + BAR if mover_side == 0 else 3 * POINT
        for offset, die in zip((-22, 22), dice, strict=True):
            x = centre + offset
            picture.rect(x - 14, HEIGHT / 2 - 14, 28, 28, fill=COLOURS[mover_side], rx=5)
            picture.text(x, HEIGHT / 2, str(die), size=16, fill=COLOURS[1 - mover_side])
    return picture.svg()


def _point_x(point: int) -> float:
    """The centre of a point: 1 to 6 bottom right, 7 to 12 bottom left, 13 to 18
    top left, 19 to 24 top right (the first player's view)."""
    column = 12 - point if point <= 12 else point - 13
    x = column * POINT + POINT / 2
    return x + BAR if column >= 6 else x


def _stack(
    picture: Drawing, x: float, top: bool, count: int, side: int, start: float | None = None
) -> None:
    """Up to five checkers from the edge of the board (or from ``start``), the
    count written on the last of a taller stack."""
    for index in range(min(count, 5)):
        offset = (start or 0) + CHECKER + index * 2 * CHECKER
        y = offset if top else HEIGHT - offset
        picture.circle(x, y, CHECKER, fill=COLOURS[side], stroke=RIMS[side], stroke_width=2)
        if index == 4 and count > 5:
            picture.text(x, y, str(count), size=14, fill=COLOURS[1 - side])
