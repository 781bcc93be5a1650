"""The backgammon board: points 1-24 numbered from the side of the player at the
keyboard (the player to act, between two people), the bar, the two off trays, the
dice, the cube and the pip counts.

The viewer's home board is at the bottom right (flip puts it at the bottom left).
A turn is made a checker at a time with :class:`TurnBuilder`: a click on a point
(or the bar) moves one of its checkers by the higher die that can be played from
there, a right-click by the lower one; F3 takes the last checker back; Enter (or
the Confirm button) plays the turn. A whole play may also be typed: ``8/5 6/5``.
Cube decisions are buttons: roll or double; take, drop or beaver. F7 offers to
resign a single game, a gammon or a backgammon (see the app for when it is made).

"""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.widgets import Static

from parlour.backgammon.board import CheckerMove
from parlour.backgammon.cube import CubeOptions
from parlour.backgammon.match import BackgammonMatch
from parlour.backgammon.rules import (
    BackgammonState,
    Phase,
    TurnBuilder,
)
from parlour.core.errors import ParlourError
from parlour.core.protocol import CHANCE, Side, State
from parlour.tui.board import Board, Cell
from parlour.tui.choice import Choice
from parlour.tui.parts import GameUI
from parlour.tui.session import Session

CHECKER = "▐█▌"
COLOURS = {Side.FIRST: "#f5f1e6", Side.SECOND: "#141414"}
#: Checkers drawn on a point before the rest are written as a number.
SHOWN = 6


def game_state(session: Session) -> BackgammonState:
    """The session's state, a backgammon one."""
    state = session.state
    assert isinstance(state, BackgammonState)
    return state


def dice_left(dice: tuple[int, int], steps: list[CheckerMove]) -> list[int]:
    """The dice not yet used by ``steps`` (a checker borne off with a higher die
    than its distance uses the smallest die that does it).

    >>> dice_left((6, 4), [CheckerMove(13, 7)])
    [4]
    >>> dice_left((3, 3), [CheckerMove(8, 5)])
    [3, 3, 3]
    """
    left = [dice[0]] * 4 if dice[0] == dice[1] else sorted(dice, reverse=True)
    for step in steps:
        distance = step.start - step.end
        if distance in left:
            left.remove(distance)
        else:
            bigger = [die for die in left if die > distance]
            if bigger:
                left.remove(min(bigger))
    return left


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
    BackgammonBoard #middle {
        column-span: 14; height: 3; content-align: center middle; color: #f0e6d2;
        background: #1e3a2b;
    }
    """

    def __init__(self, session: Session, **kwargs: Any) -> None:
        super().__init__(session, **kwargs)
        #: The turn being entered, with the position of the game it belongs to.
        self.builder: TurnBuilder | None = None
        self._built_for: tuple[int, int] | None = None

    # -- whose view -------------------------------------------------------------------

    def viewer(self) -> Side:
        """The side whose numbering the board shows: the person against the computer,
        else the side to act."""
        state = game_state(self.session)
        if self.session.engine is not None:
            return self.session.options.side
        turn = state.turn
        if state.is_over() or turn is CHANCE:
            return state.mover
        return Side(turn)

    def turn_builder(self) -> TurnBuilder | None:
        """The turn being entered, when the player at the keyboard is to play."""
        state = game_state(self.session)
        if state.is_over() or state.phase is not Phase.PLAY or self.session.computer_to_move():
            self.builder = None
            return None
        key = (id(state), len(self.session.texts))
        if self.builder is None or self._built_for != key:
            self.builder = TurnBuilder(state)
            self._built_for = key
        return self.builder

    def counts(self) -> tuple[list[int], list[int]]:
        """The viewer's checkers and the other side's, each in its own numbering
        (index 24 the bar), with the checkers moved so far this turn."""
        state = game_state(self.session)
        builder = self.turn_builder()
        position = builder.position if builder is not None else state.position
        if state.mover == self.viewer():
            return list(position.mover), list(position.opponent)
        return list(position.opponent), list(position.mover)

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
        state = game_state(self.session)
        viewer = self.viewer()
        mine, theirs = self.counts()
        builder = self.turn_builder()
        movable: set[int | str] = set()
        landed: set[int | str] = set()
        if builder is not None and state.mover == viewer:
            for step in builder.options():
                movable.add("bar-me" if step.start == 25 else step.start)
            for step in builder.steps:
                landed.add("off-me" if step.end == 0 else step.end)
        me, them = COLOURS[viewer], COLOURS[viewer.other]
        last_play = self.last_play_points(viewer)
        for cell in self.query(Cell):
            key = cell.key
            top = cell.has_class("top")
            width, shown = (3, SHOWN - 1) if self.compact else (5, SHOWN)
            if isinstance(key, int):
                count, colour = (mine[key - 1], me) if mine[key - 1] else (theirs[24 - key], them)
                label = f"{key:^{width}}"
                marked = key in last_play
                cell.update(_stack(label, count, colour, top, width, shown, marked))
            elif key.startswith("bar"):
                count, colour = (mine[24], me) if key == "bar-me" else (theirs[24], them)
                label = "bar" if self.compact else " bar "
                cell.update(_stack(label, count, colour, top, width, shown))
            else:
                off = 15 - sum(mine if key == "off-me" else theirs)
                colour = me if key == "off-me" else them
                text = Text(" off\n", style="#cbd5e0")
                if off:
                    text.append(f" {off:>2}\n", style="bold #f0e6d2")
                    bars = min(off, 3 if self.compact else 5)
                    text.append("\n".join(" ▬▬▬" for _ in range(bars)), style=colour)
                cell.update(text)
            cell.set_class(key in movable, "movable")
            cell.set_class(key in landed and key not in movable, "landed")
        self.query_one("#middle", Static).update(self.middle_text())

    def last_play_points(self, viewer: Side) -> set[int]:
        """The points, in the viewer's numbering, where the last play put checkers."""
        probe = game_state(self.session).copy()
        while probe.moves:
            move = probe.pop()
            if isinstance(move, tuple) and move:
                flip = probe.mover != viewer
                return {25 - step.end if flip else step.end for step in move if step.end}
        return set()

    def middle_text(self) -> Text:
        state = game_state(self.session)
        names = self.session.game.side_names
        text = Text()
        dice = state.dice
        if dice is not None:
            builder = self.turn_builder()
            left = dice_left(dice, builder.steps) if builder is not None else []
            mover = state.mover
            text.append(f"{names[mover]} rolled ", style="#f0e6d2")
            for die in (dice[0], dice[1]) if dice[0] != dice[1] else (dice[0],) * 4:
                used = builder is not None and die not in left
                if not used and die in left:
                    left.remove(die)
                style = "#6b6b6b on #2d2d2d" if used else "bold #141414 on #f5f1e6"
                text.append(f" {die} ", style=style)
                text.append(" ")
        else:
            text.append(_phase_words(self.session), style="#f0e6d2")
        cube = state.cube
        owner = "in the middle" if cube.owner is None else f"owned by {names[cube.owner]}"
        text.append(f"   cube {cube.value} {owner}", style="#f0e6d2")
        return text

    # -- clicks and the turn ------------------------------------------------------------

    def clicked(self, key: Any, button: int) -> None:
        builder = self.turn_builder()
        if builder is None:
            self.say(_phase_words(self.session), error=True)
            return
        if key in ("bar-them", "off-them") or (isinstance(key, str) and key == "off-me"):
            self.say("click a point (or your bar) holding one of your checkers", error=True)
            return
        start = 25 if key == "bar-me" else int(key)
        steps = [step for step in builder.options() if step.start == start]
        if not steps:
            mine, _ = self.counts()
            if mine[start - 1] == 0:
                self.say(f"you have no checker on {_point(start)}", error=True)
            else:
                why = _why_not(builder, start)
                self.say(why, error=True)
            return
        steps.sort(key=lambda step: step.start - step.end)
        step = steps[0] if button == 3 else steps[-1]
        try:
            builder.add(step)
        except ParlourError as error:
            self.say(f"Not allowed: {error}", error=True)
            return
        if builder.complete:
            self.say(f"{_steps_text(builder)}: press Enter (or Confirm) to play it, F3 to undo")
        else:
            self.say(f"{_steps_text(builder)}: go on")
        self.redraw()
        self.post_message(self.Changed())

    def undo_step(self) -> bool:
        builder = self.turn_builder()
        if builder is None or not builder.steps:
            return False
        builder.undo()
        self.redraw()
        self.post_message(self.Changed())
        return True

    def buttons(self) -> list[tuple[str, str]]:
        builder = self.turn_builder()
        if builder is None:
            return []
        shown = []
        if builder.complete:
            shown.append(("Confirm", "confirm"))
        if builder.steps:
            shown.append(("Take back", "undo"))
        return shown

    def confirm(self) -> str | None:
        builder = self.turn_builder()
        if builder is None or not builder.complete:
            return None
        text: str = self.session.state.move_to_text(builder.play())
        return text

    def clear_selection(self) -> None:
        if self.builder is not None and self._built_for == (
            id(self.session.state),
            len(self.session.texts),
        ):
            self.builder.reset()
        if self.is_mounted:
            self.redraw()


def _point(number: int) -> str:
    return "the bar" if number == 25 else f"point {number}"


def _steps_text(builder: TurnBuilder) -> str:
    return " ".join(str(step) for step in builder.steps)


def _why_not(builder: TurnBuilder, start: int) -> str:
    """Why the checkers on ``start`` cannot move now, in the rules' words."""
    left = dice_left(builder.dice, builder.steps)
    for die in sorted(set(left), reverse=True):
        try:
            builder.add(CheckerMove(start, max(start - die, 0)))
        except ParlourError as error:
            return f"Not allowed: {error}"
        builder.undo()
    if not builder.options():
        return "the turn is complete: press Enter to play it"
    return f"no checker on {_point(start)} can move with these dice"


def _stack(
    label: str,
    count: int,
    colour: str,
    top: bool,
    width: int = 5,
    room: int = SHOWN,
    marked: bool = False,
) -> Text:
    """A point's label (``marked``: a checker landed there in the last play) and its
    checkers (up to ``room``, the last one then written as the number on the
    point), hanging from the top edge or standing on the bottom one."""
    rows = [Text(label, style="bold #ffd54a underline" if marked else "#f0e6d2")]
    pad = " " * ((width - len(CHECKER)) // 2)
    for index in range(min(count, room)):
        if index == room - 1 and count > room:
            rows.append(Text(f"{count:^{width}}", style=f"bold #000000 on {colour}"))
        else:
            rows.append(Text(pad + CHECKER, style=colour))
    rows.extend(Text("") for _ in range(room + 1 - len(rows)))
    if not top:
        rows.reverse()
    return Text("\n").join(rows)


def _phase_words(session: Session) -> str:
    """What is to be done now, in words."""
    state = game_state(session)
    names = session.game.side_names
    if state.is_over():
        return "the game is over"
    phase = state.phase.value
    turn = state.turn
    who = names[Side(turn)] if turn is not CHANCE else "the dice"
    return {
        "opening": "the opening throw decides who starts",
        "cube": f"{who}: roll, or double",
        "throw": "the dice are thrown",
        "play": f"{who} to play",
        "doubled": f"{who}: take, drop (or beaver)",
        "beavered": f"{who}: take or drop the beaver",
        "resigning": f"{who}: accept or decline the resignation",
    }.get(phase, phase)


# -- the game's parts for the app ------------------------------------------------------


def actions(session: Session) -> list[tuple[str, str]]:
    """The choices that are words, as buttons: roll, double, take, drop..."""
    state = game_state(session)
    if state.is_over() or state.turn is CHANCE:
        return []
    legal = {str(move) for move in state.legal_moves() if not isinstance(move, tuple)}
    phase = state.phase
    if phase is Phase.PLAY:
        return []  # the board's own buttons: confirm, take back
    buttons = [
        (label, word)
        for label, word in (
            ("Roll", "roll"),
            ("Double", "double"),
            ("Take", "take"),
            ("Drop", "drop"),
            ("Beaver", "beaver"),
            ("Accept", "accept"),
            ("Decline", "decline"),
        )
        if word in legal
    ]
    if phase is Phase.CUBE:
        buttons.append(("Resign…", "resign"))  # asks how much: a single game, a gammon...
    return buttons


def automatic(session: Session) -> str | None:
    """Roll for a player who may not double; pass for one with no legal play."""
    state = game_state(session)
    if state.is_over() or state.turn is CHANCE:
        return None
    phase = state.phase
    legal = state.legal_moves()
    if phase is Phase.CUBE and "double" not in {str(move) for move in legal}:
        return "roll"
    if phase is Phase.PLAY and legal == [()]:
        return "no move"
    return None


def _score_after(state: BackgammonState) -> tuple[int, int]:
    outcome = state.outcome()
    score = list(state.score)
    if outcome is not None and outcome.winner is not None:
        score[outcome.winner] += outcome.points
    return score[0], score[1]


def next_game(session: Session) -> State[Any] | None:
    """The next game of the match (or of money play) once this one is over."""
    return _match_so_far(session).next_game()


def _match_so_far(session: Session) -> BackgammonMatch:
    games = [*session.earlier_states, game_state(session)]
    return BackgammonMatch.of_games([game for game in games if isinstance(game, BackgammonState)])


def details(session: Session) -> list[str]:
    """The pip counts, the cube and the match score, for the side panel."""
    state = game_state(session)
    names = session.game.side_names
    position = state.position
    mover = state.mover
    pips = position.pips()
    by_side = {mover: pips[0], mover.other: pips[1]}
    lines = [f"Pips: {names[0]} {by_side[Side.FIRST]}, {names[1]} {by_side[Side.SECOND]}"]
    cube = state.cube
    owner = "in the middle" if cube.owner is None else f"owned by {names[cube.owner]}"
    lines.append(f"Cube: {cube.value}, {owner}")
    rules = cube_rules_in_words(state.options, money=state.money)
    if rules is not None:
        lines.append(rules)
    length = state.match_length
    if length:
        score = _score_after(state) if state.is_over() else state.score
        line = f"Match to {length}: {names[0]} {score[0]}, {names[1]} {score[1]}"
        if state.crawford:
            line += " (Crawford game)"
        lines.append(line)
        if max(score) >= length:
            winner = names[0] if score[0] >= length else names[1]
            lines.append(f"[b]{winner} wins the match {max(score)}-{min(score)}[/b]")
    else:
        won = [0, 0]
        for earlier in session.earlier_states:
            outcome = earlier.outcome()
            if outcome is not None and outcome.winner is not None:
                won[outcome.winner] += outcome.points
        if session.earlier_states:
            lines.append(f"Money play: {names[0]} {won[0]}, {names[1]} {won[1]} points")
    lines.append(_phase_words(session))
    return lines


def cube_rules_in_words(rules: CubeOptions, *, money: bool) -> str | None:
    """The optional cube rules in play, for the side panel (None when none is);
    those of money play are left out of a match, where they do not apply.

    >>> cube_rules_in_words(CubeOptions(jacoby=True, automatic_doubles=2), money=True)
    'Rules: Jacoby, automatic doubles (up to 2)'
    >>> cube_rules_in_words(CubeOptions(beavers=True, max_cube=64), money=False)
    'Rules: cube up to 64'
    """
    named = []
    if money and rules.jacoby:
        named.append("Jacoby")
    if money and rules.beavers:
        named.append("beavers")
    if money and rules.automatic_doubles:
        named.append(f"automatic doubles (up to {rules.automatic_doubles})")
    if rules.max_cube is not None:
        named.append(f"cube up to {rules.max_cube}")
    return f"Rules: {', '.join(named)}" if named else None


def move_list(session: Session) -> list[str]:
    """Each turn on a line: the throw and the play, or a cube action."""
    names = session.game.side_names
    probe = session.game.state_from_text(session.start_text)
    assert isinstance(probe, BackgammonState)
    lines: list[str] = []
    pending = ""
    for text in session.texts:
        phase = probe.phase
        if phase is Phase.OPENING:
            dice = text
            lines.append(f"Opening throw: {names[0]} {dice[0]}, {names[1]} {dice[1]}")
        elif phase is Phase.THROW:
            pending = f"{names[probe.mover]} {text}:"
        elif phase is Phase.PLAY:
            prefix = pending or f"{names[probe.mover]}:"
            lines.append(f"{prefix} {text}")
            pending = ""
        elif text != "roll":
            actor = probe.turn
            assert isinstance(actor, Side)
            lines.append(f"{names[actor]}: {text}")
        probe.push(probe.parse_move(text))
    if pending:
        lines.append(pending)
    return lines


def last_move(session: Session) -> str | None:
    """The last turn played or cube action, with the player's name."""
    lines = [line for line in move_list(session) if not line.endswith(":")]
    return lines[-1] if lines else None


def game_ui() -> GameUI:
    return GameUI(
        board=BackgammonBoard,
        move_list=move_list,
        last_move=last_move,
        actions=actions,
        automatic=automatic,
        next_game=next_game,
        details=details,
        resign_is_move=True,
        resign_choices=[
            Choice("s", "Single game", "resign single"),
            Choice("g", "Gammon", "resign gammon"),
            Choice("b", "Backgammon", "resign backgammon"),
        ],
        bottom_side=None,
    )
