"""The backgammon board: points 1-24 numbered from the side of the player at the
keyboard (the player to act, between two people), the bar, the two off trays, the
dice, the cube and the pip counts.

The board is drawn from the backgammon face's description of the position, and a
turn is entered as the web app enters it: a checker at a time, each step checked by
the face (:meth:`~parlour.core.face.StepwiseFace.steps`), which answers with the
board as it would stand and the steps that may come next. The viewer's home board is
at the bottom right (flip puts it at the bottom left). A click on a point (or the
bar) moves one of its checkers by the higher die that can be played from there, a
right-click by the lower one; F3 takes the last checker back; Enter (or the Confirm
button) plays the turn. A whole play may also be typed: ``8/5 6/5``. Cube decisions
are buttons: roll or double; take, drop or beaver. F7 offers to resign a single
game, a gammon or a backgammon (see the app for when it is made).
"""

from __future__ import annotations

import re
from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.widgets import Static

from parlour.core.errors import ParlourError
from parlour.core.face import BoardData, StepwiseFace
from parlour.core.protocol import CHANCE, Side
from parlour.core.registry import get_face
from parlour.tui.board import Board, Cell
from parlour.tui.choice import Choice
from parlour.tui.parts import GameUI, face_move_list, series_lines
from parlour.tui.session import Session

COLOURS = {Side.FIRST: "#f5f1e6", Side.SECOND: "#141414"}
#: A checker: a block of its side's colour with its side's letter, O for White and
#: X for Black as GNU Backgammon's text board writes them, so that the sides differ
#: by more than colour.
CHECKER = {Side.FIRST: " O ", Side.SECOND: " X "}
LETTER_COLOURS = {Side.FIRST: "#141414", Side.SECOND: "#f5f1e6"}
#: Checkers drawn on a point before the rest are written as a number.
SHOWN = 6
#: The ends of a checker's move in numbers: the bar is 25, off the board 0.
ENDS = {"bar": 25, "off": 0}


def _number(end: str) -> int:
    """A point of a step's text as a number (``bar`` 25, ``off`` 0)."""
    return ENDS[end] if end in ENDS else int(end)


def _distance(step: str) -> int:
    """How far a checker move as text (``13/7``, ``bar/22``, ``3/off``) goes."""
    start, _, end = step.partition("/")
    return _number(start) - _number(end)


def _face(session: Session) -> StepwiseFace:
    face = get_face(session.game)
    assert isinstance(face, StepwiseFace)
    return face


class BackgammonBoard(Board):
    """A backgammon board that builds a turn from clicks."""

    DEFAULT_CSS = """
    BackgammonBoard {
        layout: grid;
        grid-size: 14 3;
        grid-columns: 5 5 5 5 5 5 5 5 5 5 5 5 5 7;
        grid-rows: 8 3 8;
        width: 72;
        height: 19;
        background: #1e3a2b;
    }
    BackgammonBoard Cell { width: 5; height: 8; text-wrap: nowrap; }
    BackgammonBoard.compact {
        grid-columns: 3 3 3 3 3 3 3 3 3 3 3 3 3 5; grid-rows: 6 1 6; width: 44; height: 13;
    }
    BackgammonBoard.compact Cell { width: 3; height: 6; }
    BackgammonBoard.compact #middle { height: 1; }
    BackgammonBoard.compact .tray { width: 5; }
    BackgammonBoard .point-a { background: #9c6b43; }
    BackgammonBoard .point-b { background: #587d5e; }
    BackgammonBoard .bar { background: #4a3322; }
    BackgammonBoard .tray { background: #2b2118; width: 7; }
    BackgammonBoard .movable { background: #c9a227; }
    BackgammonBoard .landed { background: #4a7fb0; }
    BackgammonBoard .played { background: #b05a3c; }
    BackgammonBoard .better { background: #2e9e8f; }
    BackgammonBoard #middle {
        column-span: 14; height: 3; content-align: center middle; color: #f0e6d2;
        background: #1e3a2b;
    }
    """

    def __init__(self, session: Session, **kwargs: Any) -> None:
        super().__init__(session, **kwargs)
        #: The checker moves of the turn being entered, as text (the mover's numbering).
        self.steps: list[str] = []
        #: The position those steps belong to: the game object and its move count.
        self._steps_for: tuple[int, int] | None = None

    # -- what the face says -------------------------------------------------------------

    def data(self) -> BoardData:
        """The face's description of the position."""
        return _face(self.session).board(self.session.state)

    def turn(self) -> dict[str, Any] | None:
        """The turn being entered, when the player at the keyboard is to play: the
        board as it would stand, the steps that may come next, and whether the play is
        complete (see the face's ``steps``)."""
        session = self.session
        state = session.state
        if state.is_over() or session.computer_to_move() or self.data()["phase"] != "play":
            self.steps = []
            return None
        key = (id(state), len(session.texts))
        if self._steps_for != key:
            self.steps, self._steps_for = [], key
        return _face(session).steps(state, self.steps)

    def sources(self) -> list[int | str]:
        """The cells a checker may move from now (``bar-me`` for the bar), in the
        viewer's numbering, in the order the face offers the steps."""
        turn = self.turn()
        if turn is None:
            return []
        found: list[int | str] = []
        for option in turn["options"]:
            cell = self._cell_of(option["from"])
            if cell not in found:
                found.append(cell)
        return found

    # -- whose view -------------------------------------------------------------------

    def viewer(self) -> Side:
        """The side whose numbering the board shows: the person against the computer,
        else the side to act."""
        if self.session.engine is not None:
            return self.session.options.side
        state = self.session.state
        turn = state.turn
        if state.is_over() or turn is CHANCE:
            return Side(self.data()["mover"])
        return Side(turn)

    def _cell_of(self, point: int | str) -> int | str:
        """The cell of a point in the first side's numbering (``bar`` and ``off``:
        the mover's, who is the viewer while a turn is entered)."""
        if point == "bar":
            return "bar-me"
        if point == "off":
            return "off-me"
        return int(point) if self.viewer() is Side.FIRST else 25 - int(point)

    def _first_point(self, cell: int) -> int:
        """A point of the viewer's numbering in the first side's numbering."""
        return cell if self.viewer() is Side.FIRST else 25 - cell

    # -- layout -------------------------------------------------------------------------

    def columns(self) -> tuple[list[int | str], list[int | str]]:
        """The keys of the top and bottom rows, left to right."""
        top: list[int | str] = [*range(13, 19), "bar-them", *range(19, 25), "off-them"]
        bottom: list[int | str] = [*range(12, 6, -1), "bar-me", *range(6, 0, -1), "off-me"]
        if self.flipped:
            top = [*top[12::-1], top[13]]
            bottom = [*bottom[12::-1], bottom[13]]
        return top, bottom

    def compose(self) -> ComposeResult:
        top, bottom = self.columns()
        for row, keys in (("top", top), ("bottom", bottom)):
            for key in keys:
                if isinstance(key, int):
                    shade = "point-a" if key % 2 else "point-b"
                    yield Cell(key, id=f"pt-{key}", classes=f"{shade} {row}")
                else:
                    kind = "bar" if key.startswith("bar") else "tray"
                    yield Cell(key, id=key, classes=f"{kind} {row}")
            if row == "top":
                yield Static("", id="middle")

    def on_mount(self) -> None:
        self.redraw()

    # -- drawing --------------------------------------------------------------------------

    def redraw(self) -> None:
        data = self.data()
        turn = self.turn()
        layout = turn or data
        viewer = self.viewer()
        movable = set(self.sources()) if self.interactive else set()
        landed: set[int | str] = set()
        for step in self.steps:
            end = step.partition("/")[2]
            landed.add("off-me" if end == "off" else int(end))
        last_play = {self._cell_of(point) for point in data["last_play"]}
        for cell in self.query(Cell):
            cell.update(self._drawing(cell.key, cell.has_class("top"), layout, viewer, last_play))
            cell.set_class(cell.key in movable, "movable")
            cell.set_class(cell.key in landed and cell.key not in movable, "landed")
            cell.set_class(cell.key in self.played, "played")
            cell.set_class(cell.key in self.better, "better")
        self.query_one("#middle", Static).update(self.middle_text(data, turn))

    def _drawing(
        self, key: Any, top: bool, layout: BoardData, viewer: Side, last_play: set[Any]
    ) -> Text:
        """What the cell ``key`` shows: its checkers, or the tray's borne-off ones."""
        width, shown = (3, SHOWN - 1) if self.compact else (5, SHOWN)
        if isinstance(key, int):
            count = layout["points"][self._first_point(key) - 1]
            owner = Side.FIRST if count > 0 else Side.SECOND  # the first side's count
            return _stack(f"{key:^{width}}", abs(count), owner, top, width, shown, key in last_play)
        side = viewer if key.endswith("-me") else viewer.other
        colour = COLOURS[side]
        if key.startswith("bar"):
            label = "bar" if self.compact else " bar "
            return _stack(label, layout["bar"][side], side, top, width, shown)
        off = layout["off"][side]
        text = Text(" off\n", style="#cbd5e0")
        if off:
            text.append(f" {off:>2}\n", style="bold #f0e6d2")
            bars = min(off, 3 if self.compact else 5)
            text.append("\n".join(" ▬▬▬" for _ in range(bars)), style=colour)
        return text

    def middle_text(self, data: BoardData, turn: dict[str, Any] | None) -> Text:
        """The dice (those used this turn greyed), or what is to be done; the cube."""
        names = self.session.game.side_names
        text = Text()
        dice = data["dice"]
        if dice is not None:
            # The face reckons which dice the steps so far (``turn``'s) have used.
            whole = [dice[0]] * 4 if dice[0] == dice[1] else list(dice)
            left = list(turn["dice_left"]) if turn is not None else list(whole)
            text.append(f"{names[data['mover']]} rolled ", style="#f0e6d2")
            for die in whole:
                used = die not in left
                if not used:
                    left.remove(die)
                style = "#6b6b6b on #2d2d2d" if used else "bold #141414 on #f5f1e6"
                text.append(f" {die} ", style=style)
                text.append(" ")
        else:
            text.append(_phase_words(self.session, data), style="#f0e6d2")
        cube = data["cube"]
        owner = "in the middle" if cube["owner"] is None else f"owned by {names[cube['owner']]}"
        text.append(f"   cube {cube['value']} {owner}", style="#f0e6d2")
        return text

    # -- clicks and the turn ------------------------------------------------------------

    def clicked(self, key: Any, button: int) -> None:
        turn = self.turn()
        if turn is None:
            self.say(_phase_words(self.session, self.data()), error=True)
            return
        if key in ("bar-them", "off-them", "off-me"):
            self.say("click a point (or your bar) holding one of your checkers", error=True)
            return
        options = [option for option in turn["options"] if self._cell_of(option["from"]) == key]
        if not options:
            self.say(self._why_not(turn, key), error=True)
            return
        options.sort(key=lambda option: _distance(option["text"]))
        chosen = options[0] if button == 3 else options[-1]
        try:
            turn = _face(self.session).steps(self.session.state, [*self.steps, chosen["text"]])
        except ParlourError as error:
            self.say(f"Not allowed: {error}", error=True)
            return
        self.steps.append(chosen["text"])
        steps = " ".join(self.steps)
        if turn["complete"]:
            self.say(f"{steps}: press Enter (or Confirm) to play it, F3 to undo")
        else:
            self.say(f"{steps}: go on")
        self.redraw()
        self.post_message(self.Changed())

    def _why_not(self, turn: dict[str, Any], key: Any) -> str:
        """Why no checker moves from the cell ``key``, in the face's words."""
        if not turn["options"]:
            return "the turn is complete: press Enter to play it"
        if key == "bar-me":
            return "you have no checker on the bar"
        note = turn["notes"].get(str(self._first_point(int(key))))
        if note in ("There is no checker there.", "Those checkers are your opponent's."):
            return f"you have no checker on point {key}"
        return f"Not allowed: {note}" if note else f"no checker on point {key} can move now"

    def undo_step(self) -> bool:
        if self.turn() is None or not self.steps:
            return False
        self.steps.pop()
        self.redraw()
        self.post_message(self.Changed())
        return True

    def buttons(self) -> list[tuple[str, str]]:
        turn = self.turn()
        if turn is None:
            return []
        shown = []
        if turn["complete"]:
            shown.append(("Confirm", "confirm"))
        if self.steps:
            shown.append(("Take back", "undo"))
        return shown

    def confirm(self) -> str | None:
        turn = self.turn()
        if turn is None or not turn["complete"]:
            return None
        play: str = turn["play"]
        return play

    def cells_of(self, text: str) -> set[Any]:
        """The points of a play (``24/18 13/11*``, ``8/5(2)``, ``bar/22/16``), in the
        mover's numbering, which the board shows while the mover is to play."""
        cells: set[Any] = set()
        for point in re.findall(r"bar|off|\d+", re.sub(r"\(\d\)", "", text)):
            cells.add(f"{point}-me" if point in ("bar", "off") else int(point))
        return cells

    def clear_selection(self) -> None:
        self.steps = []
        if self.is_mounted:
            self.redraw()


def _stack(
    label: str,
    count: int,
    side: Side,
    top: bool,
    width: int = 5,
    room: int = SHOWN,
    marked: bool = False,
) -> Text:
    """A point's label (``marked``: a checker landed there in the last play) and
    ``side``'s checkers on it (up to ``room``, the last one then written as the
    number on the point), hanging from the top edge or standing on the bottom one."""
    rows = [Text(label, style="bold #ffd54a underline" if marked else "#f0e6d2")]
    pad = " " * ((width - len(CHECKER[side])) // 2)
    face = f"bold {LETTER_COLOURS[side]} on {COLOURS[side]}"
    for index in range(min(count, room)):
        if index == room - 1 and count > room:
            rows.append(Text(pad) + Text(f"{count:^3}", style=face))
        else:
            rows.append(Text(pad) + Text(CHECKER[side], style=face))
    rows.extend(Text("") for _ in range(room + 1 - len(rows)))
    if not top:
        rows.reverse()
    return Text("\n").join(rows)


def _phase_words(session: Session, data: BoardData) -> str:
    """What is to be done now, in words."""
    state = session.state
    if state.is_over():
        return "the game is over"
    turn = state.turn
    who = session.game.side_names[Side(turn)] if turn is not CHANCE else "the dice"
    phase = str(data["phase"])
    words = {
        "opening": "the opening throw decides who starts",
        "cube": f"{who}: roll, or double",
        "throw": "the dice are thrown",
        "play": f"{who} to play",
        "doubled": f"{who}: take, drop (or beaver)",
        "beavered": f"{who}: take or drop the beaver",
        "resigning": f"{who}: accept or decline the resignation",
    }
    return words.get(phase, phase)


# -- the game's parts for the app ------------------------------------------------------


def actions(session: Session) -> list[tuple[str, str]]:
    """The choices that are words, as buttons: roll, double, take, drop... and the
    offer to resign, which asks how much."""
    state = session.state
    if state.is_over() or state.turn is CHANCE:
        return []
    page = _face(session).page(state)
    buttons = [(action["move"].capitalize(), action["move"]) for action in page["actions"]]
    if page["offers"]:
        buttons.append(("Resign…", "resign"))  # asks how much: a single game, a gammon...
    return buttons


def automatic(session: Session) -> str | None:
    """Roll for a player who may not double; pass for one with no legal play."""
    state = session.state
    if state.is_over() or state.turn is CHANCE:
        return None
    legal = [state.move_to_text(move) for move in state.legal_moves()]
    if "roll" in legal and "double" not in legal:
        return "roll"
    if legal == ["no move"]:
        return "no move"
    return None


def details(session: Session) -> list[str]:
    """The pip counts, the cube and the dice, the series so far, and what is to be
    done now."""
    face = _face(session)
    lines = [line["text"] for line in face.page(session.state)["info"]]
    lines.extend(series_lines(session))
    lines.append(_phase_words(session, face.board(session.state)))
    return lines


def last_move(session: Session) -> str | None:
    """The last turn played or cube action, with the player's name."""
    lines = [line for line in face_move_list(session) if not line.endswith("rolls")]
    return lines[-1] if lines else None


def game_ui() -> GameUI:
    return GameUI(
        board=BackgammonBoard,
        move_list=face_move_list,
        last_move=last_move,
        actions=actions,
        automatic=automatic,
        details=details,
        resign_is_move=True,
        resign_choices=[
            Choice("s", "Single game", "resign single"),
            Choice("g", "Gammon", "resign gammon"),
            Choice("b", "Backgammon", "resign backgammon"),
        ],
        bottom_side=None,
    )
