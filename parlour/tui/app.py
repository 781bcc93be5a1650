"""The terminal app: one game at a time, against the computer or a second person at
the same keyboard, with the board drawn in colour and moves typed or clicked.

The app is the same for every game; what differs is the board widget and a few
parts collected in :mod:`parlour.tui.games`. It talks to the game only through the
core protocol (via :class:`~parlour.tui.session.Session`): moves typed or clicked
are played with ``parse_move``, so an illegal one is refused with the rules' own
explanation, shown in the status line, and the game is unchanged.

The computer thinks in a worker thread, so the screen stays live; its answer is
dropped if the game changed meanwhile (an undo, a new game).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any, ClassVar

from textual import events, on
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.screen import ModalScreen
from textual.widgets import Button, Footer, Input, Static

from parlour.analysis.coach import GameReview, MoveReview, analyse_game, judge_move
from parlour.core.errors import ParlourError
from parlour.core.judgement import Judgement
from parlour.core.protocol import Side
from parlour.core.registry import get_face
from parlour.tui.analysis import AnalysisScreen, tutor_question
from parlour.tui.board import Board
from parlour.tui.choice import Choice, ChoiceScreen
from parlour.tui.games import game_ui
from parlour.tui.parts import GameUI, side_to_act
from parlour.tui.session import Session

HELP_TEXT = """\
[b]Parlour: keys and commands[/b]

[b]Making moves[/b]
  Type a move in the game's notation and press Enter:
    chess       e4, Nf3, O-O, exd5, e8=Q (or e2e4)
    checkers    11-15, 22x15, 15x24x31
    backgammon  8/5 6/5, bar/22, 6/off; roll, double, take, drop, beaver
  Or click a piece, then one of the marked squares it may go to.
  Chess: a pawn clicked onto the last rank asks which piece it
  becomes (q, r, b or n; Escape puts it back).
  Checkers: a multi-jump is made by clicking its landing squares in
  turn (or just the last one when only one jump ends there).
  Backgammon: click a checker to move it by the higher die (right-
  click: the lower one); F3 takes a checker back; Enter confirms.
  Backgammon points are numbered for the player to move (the player
  at the keyboard against the computer); White is O, Black is X.

[b]Keys[/b]
  F1      this help             F2   a hint from the computer
  F3      undo                  F4   flip the board
  F5      save the game         F6   export (PGN, PDN or .mat)
  F7      resign (backgammon: a single game, gammon or backgammon)
  Ctrl+Q  quit

[b]Commands typed in the move line[/b]
  hint, undo, flip, help, quit
  moves          list the legal moves (what a click would mark)
  save \\[FILE]    save to FILE (a small JSON file; resume it with
                 parlour play GAME --resume FILE)
  export \\[FILE]  write the game in its notation file format
  resign         resign the game, once you say yes. Backgammon: an
                 offer ("resign single", "resign gammon" or "resign
                 backgammon") to accept or decline; asked for once
                 the dice are thrown for you, it is made at the
                 start of your next turn, in place of the roll
  draw           agree a draw, once both say yes (two at a keyboard)
  claim          claim a draw the rules allow (repetition, 40 or
                 50 moves without progress)
  next           start the next game of a backgammon match
  analyse        the coach's analysis of the finished game: each
                 move judged, the better move, a graph, a summary

Press Escape to close this help.
"""


#: Terminal width and height under which the boards are drawn small.
COMPACT_BELOW = (100, 36)

#: The answer to F7 that takes back a resignation held for the next turn.
WITHDRAW = "withdraw"


class HelpScreen(ModalScreen[None]):
    """The keys and commands."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,f1,q", "close", "Close"),
    ]
    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    HelpScreen > VerticalScroll {
        width: 80; max-width: 100%; height: auto; max-height: 100%;
        border: round #c9a227; background: #1d2330; padding: 0 1;
        scrollbar-size-vertical: 1;
    }
    """

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield Static(HELP_TEXT, id="help-text")

    def action_close(self) -> None:
        self.dismiss(None)


class ComputerMoved(Message):
    """The computer's move, from its worker thread (or why it failed)."""

    def __init__(self, move: Any, generation: int, *, failure: str | None = None) -> None:
        super().__init__()
        self.move = move
        self.generation = generation
        self.failure = failure


class ParlourApp(App[None]):
    """Play one game of chess, checkers or backgammon in the terminal."""

    TITLE = "Parlour"
    CSS = """
    Screen { background: #1d2330; }
    #title { height: 1; background: #2c3e50; color: #f0e6d2; text-style: bold; padding: 0 1; }
    #main { height: 1fr; }
    #board-area { width: auto; padding: 1 1 0 2; }
    #caption { height: 1; margin-top: 1; color: #f0e6d2; }
    #side { width: 1fr; min-width: 30; padding: 1 1 0 1; }
    #info { height: auto; color: #f0e6d2; }
    #moves-box { height: 1fr; border: round #4a5568; margin-top: 1; }
    #moves { color: #cbd5e0; }
    #actions { height: auto; }
    #actions Button { margin: 0 1 0 0; min-width: 8; }
    #status { height: 2; padding: 0 1; color: #e2e8f0; background: #2d3748; }
    #status.error { color: #ffb4a8; text-style: bold; }
    #status.over { color: #9ae6b4; text-style: bold; }
    #entry { margin: 0 0; }
    .compact #board-area { padding: 0 1 0 1; }
    .compact #caption { margin-top: 0; }
    .compact #status { height: 1; }
    .compact #moves-box { margin-top: 0; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("f1", "help", "Help", priority=True),
        Binding("f2", "hint", "Hint", priority=True),
        Binding("f3", "undo", "Undo", priority=True),
        Binding("f4", "flip", "Flip", priority=True),
        Binding("f5", "save", "Save", priority=True),
        Binding("f6", "export", "Export", priority=True),
        Binding("f7", "resign", "Resign", priority=True),
        Binding("ctrl+q", "quit", "Quit", priority=True),
    ]

    def __init__(
        self,
        session: Session,
        *,
        save_path: Path | None = None,
        directory: Path | None = None,
        tutor: str = "",
    ) -> None:
        super().__init__()
        self.session = session
        #: The judgement from which the tutor warns before a move ("" for none).
        self.tutor = tutor
        self.ui: GameUI = game_ui(session.game.name)
        #: Where F5 saves (the file resumed from, or a name in ``directory``).
        self.save_path = save_path
        self.directory = directory or Path.cwd()
        #: Bumped whenever the game changes under a thinking computer, so its
        #: late answer is dropped.
        self.generation = 0
        self.thinking = False
        #: A resignation asked for when the rules did not allow it yet: (the side
        #: resigning, the move's text), made at the start of that side's next turn.
        self.held_resignation: tuple[Side, str] | None = None
        self.status_text = ""
        self.status_error = False
        # The person playing the computer sits at the bottom of the board.
        bottom = self.ui.bottom_side
        flipped = bottom is not None and session.engine is not None
        flipped = flipped and session.options.side != bottom
        self.board: Board = self.ui.board(session, flipped=flipped, id="board")

    # -- layout -----------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Static(self._title(), id="title")
        with Horizontal(id="main"):
            with Vertical(id="board-area"):
                yield self.board
                yield Static("", id="caption")
            with Vertical(id="side"):
                yield Static("", id="info")
                yield Horizontal(id="actions")
                with VerticalScroll(id="moves-box"):
                    yield Static("", id="moves")
        yield Static("", id="status")
        yield Input(
            placeholder="type a move (e4, 11-15, 8/5 6/5) or a command; F1 for help",
            id="entry",
        )
        # Compact, without the command palette's key: every F-key fits in 80 columns.
        yield Footer(compact=True, show_command_palette=False)

    def _title(self) -> str:
        session = self.session
        first = session.player_name(Side.FIRST)
        second = session.player_name(Side.SECOND)
        return f"Parlour · {session.game.title} · {first} against {second}"

    def on_resize(self, event: events.Resize) -> None:
        self.fit(event.size.width, event.size.height)

    def fit(self, width: int, height: int) -> None:
        """Draw the board small in a small terminal (80 by 24 still shows it all)."""
        compact = height < COMPACT_BELOW[1] or width < COMPACT_BELOW[0]
        self.board.set_compact(compact)
        self.set_class(compact, "compact")

    async def on_mount(self) -> None:
        self.fit(self.size.width, self.size.height)
        self.query_one("#entry", Input).focus()
        if self.session.no_engine is not None:
            self.say(f"{self.session.no_engine}: you play both sides, two players at one keyboard.")
        else:
            self.say(
                "Your move. F1 shows the keys." if self.session.texts else "F1 shows the keys."
            )
        await self.after_change()

    # -- the game moving on -----------------------------------------------------------

    async def after_change(self) -> None:
        """Throw the dice when due, make forced moves, announce the end, start the
        computer, and redraw."""
        session = self.session
        for _ in range(64):  # a bound: each pass makes a move or stops
            throws = session.throw_dice()
            if throws:
                self.say(self._dice_words(throws[-1]), keep=True)
            if session.state.is_over() or session.computer_to_move():
                break
            if self.offer_held_resignation():
                continue
            forced = self.ui.automatic(session)
            if forced is None:
                break
            session.play_text(forced)
        outcome = session.state.outcome()
        if outcome is not None:
            self.held_resignation = None
            message = session.announce(outcome)
            if session.next_game() is not None:
                message += " Type 'next' (or press the Next game button) for the next game."
            self.say(message, over=True)
        elif session.computer_to_move() and not self.thinking:
            self.start_computer()
        await self.refresh_view()

    async def refresh_view(self) -> None:
        session = self.session
        self.board.interactive = not session.computer_to_move() and not session.state.is_over()
        self.board.redraw()
        self.query_one("#caption", Static).update(self._caption())
        self.query_one("#info", Static).update(self._info())
        moves = self.ui.move_list(session)
        self.query_one("#moves", Static).update("\n".join(moves) if moves else "no moves yet")
        self.query_one("#moves-box", VerticalScroll).scroll_end(animate=False)
        await self._update_actions()

    def _caption(self) -> str:
        state = self.session.state
        side = side_to_act(state)
        if state.is_over():
            return "Game over"
        if self.thinking:
            return "The computer is thinking…"
        if side is None:
            return "The dice are thrown"
        return f"{self.session.game.side_name(side)} to play"

    def _info(self) -> str:
        session = self.session
        lines = [
            f"[b]{session.game.title}[/b]",
            f"{session.player_name(Side.FIRST)}",
            f"  against {session.player_name(Side.SECOND)}",
        ]
        lines.extend(self.ui.details(session))
        last = self.ui.last_move(session)
        if last is not None:
            lines.append(f"Last move: [b]{last}[/b]")
        if self.held_resignation is not None:
            side, text = self.held_resignation
            lines.append(f"Held: {session.game.side_name(side)} will offer '{text}'")
        outcome = session.state.outcome()
        if outcome is not None:
            lines.append(f"[b]{session.announce(outcome)}[/b]")
        return "\n".join(lines)

    async def _update_actions(self) -> None:
        box = self.query_one("#actions", Horizontal)
        choices = [] if self.session.computer_to_move() else self.ui.actions(self.session)
        choices += self.board.buttons()
        if self.session.state.is_over() and self.session.next_game() is not None:
            choices = [("Next game", "next")]
        wanted = [(label, text) for label, text in choices]
        current = [(str(button.label), button.name) for button in box.query(Button)]
        if wanted == current:
            return
        await box.remove_children()
        for label, text in wanted:
            await box.mount(
                Button(label, name=text, id="act-" + text.replace(" ", "-"), compact=True)
            )

    # -- the status line --------------------------------------------------------------

    def say(
        self, text: str, *, error: bool = False, over: bool = False, keep: bool = False
    ) -> None:
        """Show ``text`` in the status line (``keep`` adds it to what is shown)."""
        if keep and self.status_text and not error and not self.status_error:
            text = f"{self.status_text}  {text}"
        self.status_text = text
        self.status_error = error
        status = self.query_one("#status", Static)
        status.update(text)
        status.set_class(error, "error")
        status.set_class(over, "over")

    # -- moves --------------------------------------------------------------------------

    async def play(self, text: str) -> bool:
        """Play a move typed or clicked; an illegal one is explained and changes
        nothing. With the tutor on, a move at or past its threshold is first put to
        the player. True when it was played."""
        session = self.session
        if session.computer_to_move() or self.thinking:
            self.say("wait: the computer is to move", error=True)
            return False
        if self.tutor and side_to_act(session.state) is not None:
            judged = await self._tutor_judges(text)
            threshold = Judgement(self.tutor).severity
            if judged is not None and judged.judgement and judged.judgement.severity >= threshold:
                self._ask_tutor(text, judged)
                return False
        return await self.play_now(text)

    async def _tutor_judges(self, text: str) -> MoveReview | None:
        """The coach's judgement of ``text`` here (None when it cannot judge: an
        illegal move is then explained by the rules as it is played)."""
        state = self.session.state
        try:
            move = state.parse_move(text)
            if move not in state.legal_moves():
                return None
            engine = self.session.hint_engine()
        except ParlourError:
            return None
        self.say("The tutor is looking…")
        return await asyncio.to_thread(judge_move, state.copy(), move, engine=engine)

    def _ask_tutor(self, text: str, judged: MoveReview) -> None:
        async def answered(answer: str | None) -> None:
            if answer == "play":
                await self.play_now(text)
            elif answer == "hint":
                better = " ".join(judged.best_line[:6]) or judged.best
                self.say(f"The tutor suggests {judged.best} ({better}).")
                self._ask_tutor(text, judged)
            else:
                self.say("Think again.")
                self.board.clear_selection()

        self.push_screen(ChoiceScreen(tutor_question(judged), _TUTOR), answered)

    async def play_now(self, text: str) -> bool:
        """Play a move at once (the tutor passed it, or there is none)."""
        session = self.session
        mover = side_to_act(session.state)
        try:
            played = session.play_text(text)
        except ParlourError as error:
            self.say(f"Not allowed: {error}", error=True)
            self.board.clear_selection()
            return False
        self.board.clear_selection()
        name = session.game.side_name(mover) if mover is not None else "The dice"
        self.say(_player_says(name, played))
        await self.after_change()
        return True

    @on(Board.MoveText)
    async def _board_move(self, message: Board.MoveText) -> None:
        await self.play(message.text)

    @on(Board.Notice)
    def _board_notice(self, message: Board.Notice) -> None:
        self.say(message.text, error=message.error)

    @on(Board.Changed)
    async def _board_changed(self, message: Board.Changed) -> None:
        await self.refresh_view()

    @on(Button.Pressed)
    async def _button(self, event: Button.Pressed) -> None:
        event.stop()
        await self.command(event.button.name or "")

    @on(Input.Submitted, "#entry")
    async def _typed(self, event: Input.Submitted) -> None:
        entry = self.query_one("#entry", Input)
        entry.value = ""
        text = event.value.strip()
        if not text:
            confirmed = self.board.confirm()
            if confirmed is not None:
                await self.play(confirmed)
            return
        await self.command(text)

    async def command(self, text: str) -> None:
        """A line typed (or a button pressed): a command word, or else a move."""
        word, _, rest = text.strip().partition(" ")
        word = word.lower()
        rest = rest.strip()
        if word in ("help", "?"):
            self.action_help()
        elif word == "hint":
            self.action_hint()
        elif word == "undo":
            await self.action_undo()
        elif word == "flip":
            await self.action_flip()
        elif word in ("quit", "exit"):
            self.exit()
        elif word == "save":
            self.save(Path(rest) if rest else None)
        elif word == "export":
            self.export(Path(rest) if rest else None)
        elif word == "next":
            await self.next_game()
        elif word == "confirm":
            confirmed = self.board.confirm()
            if confirmed is None:
                self.say("there is no finished turn to confirm", error=True)
            else:
                await self.play(confirmed)
        elif word == "resign" and not self.ui.resign_is_move:
            self.action_resign()  # the question F7 asks: a game is not lost by a typo
        elif word == "resign" and f"resign {rest.lower()}" in self.resign_offers():
            await self.offer_resignation(f"resign {rest.lower()}")
        elif word == "resign" and not rest:
            self.action_resign()  # how much? the choice F7 gives
        elif word == "draw":
            self.push_screen(
                ChoiceScreen("Agree a draw? Both players at this keyboard agree.", _YES_NO),
                self._draw_chosen,
            )
        elif word == "claim":
            await self.declare(word)
        elif word == "moves":
            self.show_moves()
        elif word in ("analyse", "analyze"):
            self.action_analyse()
        else:
            await self.play(text)

    async def _draw_chosen(self, answer: str | None) -> None:
        if answer == "yes":
            await self.declare("draw")
        else:
            self.say("No draw: play on.")

    def show_moves(self) -> None:
        """The legal moves now, in the game's notation (for a player without a mouse,
        who cannot see the marks a click shows)."""
        state = self.session.state
        if state.is_over():
            self.say("the game is over: there are no moves", error=True)
            return
        texts = [state.move_to_text(move) for move in state.legal_moves()]
        shown = ", ".join(texts[:30]) + (f" … ({len(texts)} in all)" if len(texts) > 30 else "")
        self.say(f"Legal moves: {shown}")

    async def declare(self, what: str) -> None:
        """A resignation, a draw by agreement or a claimed draw."""
        session = self.session
        state = session.state
        try:
            if what == "resign":
                side = side_to_act(state)
                if session.engine is not None:
                    side = session.options.side
                if side is None:
                    raise ParlourError("the game is over")
                state.resign(side)
            elif what == "draw":
                if session.engine is not None:
                    raise ParlourError("the computer plays on: draws by agreement are between two")
                state.agree_draw()
            else:
                state.claim_draw()
        except ParlourError as error:
            self.say(f"Not allowed: {error}", error=True)
            return
        self.forget_computer()
        await self.after_change()

    # -- resigning, when it is an offer (backgammon) -------------------------------------
    #
    # The app rolls for a player who may not double (GameUI.automatic), so that a
    # turn with nothing to decide goes by without a keystroke. That roll takes away
    # the one moment the rules allow a resignation: the start of one's own turn,
    # before the dice. Rather than stop every such turn for an offer seldom made,
    # a player asks to resign at any time (F7, or typed), and when the rules do not
    # allow it yet the offer is held and made at the start of their next turn, in
    # place of the automatic roll -- as a player at a table says "I resign" while
    # the opponent finishes a move.

    def resign_offers(self) -> set[str]:
        """The texts of the resignations F7 offers."""
        return {choice.value for choice in self.ui.resign_choices}

    def player_at_keyboard(self) -> Side | None:
        """The person against the computer; between two people, the side to act."""
        if self.session.engine is not None:
            return self.session.options.side
        return side_to_act(self.session.state)

    def may_offer_now(self, side: Side, text: str) -> bool:
        """Whether ``side`` may make the move ``text`` at this moment."""
        session = self.session
        if session.computer_to_move() or side_to_act(session.state) != side:
            return False
        try:
            session.state.parse_move(text)
        except ParlourError:
            return False
        return True

    async def offer_resignation(self, text: str) -> None:
        """Offer the resignation ``text`` ("resign gammon") now, or hold it for the
        start of the player's next turn when the rules do not allow it yet."""
        side = self.player_at_keyboard()
        if side is None:
            self.say("Not allowed: the game is over", error=True)
            return
        if self.may_offer_now(side, text):
            await self.play(text)
            return
        self.held_resignation = (side, text)
        who = "You" if self.session.engine is not None else self.session.game.side_name(side)
        their = "your" if who == "You" else "their"
        self.say(
            f"{who} will offer '{text}' at the start of {their} next turn, before the "
            "dice are thrown (F7 to withdraw)."
        )
        await self.refresh_view()

    def offer_held_resignation(self) -> bool:
        """Make the held resignation if its moment has come; True when it was made."""
        if self.held_resignation is None or not self.may_offer_now(*self.held_resignation):
            return False
        side, text = self.held_resignation
        self.held_resignation = None
        played = self.session.play_text(text)
        self.say(f"{self.session.game.side_name(side)} offers: {played}.", keep=True)
        return True

    def action_resign(self) -> None:
        """F7: choose how much to resign (or, in a game with one way to lose, say
        yes), or withdraw an offer held."""
        if self.session.state.is_over():
            self.say("Not allowed: the game is over", error=True)
            return
        choices = list(self.ui.resign_choices)
        if self.held_resignation is not None:
            choices.append(Choice("w", "Withdraw the offer", WITHDRAW))
        self.push_screen(ChoiceScreen("Resign:", choices), self._resign_chosen)

    async def _resign_chosen(self, text: str | None) -> None:
        if text is None:
            self.say("Not resigning: play on.")
        elif text == WITHDRAW:
            self.held_resignation = None
            self.say("The offer to resign is withdrawn.")
            await self.refresh_view()
        elif self.ui.resign_is_move:
            await self.offer_resignation(text)
        else:
            await self.declare("resign")

    # -- the computer -----------------------------------------------------------------

    def start_computer(self) -> None:
        session = self.session
        self.thinking = True
        generation = self.generation
        state = session.state.copy()
        self.in_background(
            lambda: self._think(state, generation), group="computer", name="computer move"
        )

    def forget_computer(self) -> None:
        """The game changed under the computer: its answer, when it comes, is
        dropped."""
        self.generation += 1
        self.thinking = False

    def _think(self, state: Any, generation: int) -> None:
        """In a worker thread: choose the computer's move and hand it back."""
        try:
            move = self.session.choose_move(state)
        except Exception as error:
            self.post_message(ComputerMoved(None, generation, failure=str(error)))
            return
        self.post_message(ComputerMoved(move, generation))

    @on(ComputerMoved)
    async def _computer_moved(self, message: ComputerMoved) -> None:
        if message.generation != self.generation:
            return  # an answer to a position taken back meanwhile
        self.thinking = False
        if message.failure is not None:
            self.say(f"The computer could not move: {message.failure}", error=True)
            await self.refresh_view()
            return
        move = message.move
        if not self.session.computer_to_move():
            await self.after_change()
            return
        try:
            text = self.session.push(move)
        except ParlourError as error:
            self.say(f"The computer's move was refused: {error}", error=True)
            return
        if text != "roll":  # the dice that follow say it
            self.say(_computer_says(text), keep=True)
        await self.after_change()

    def _dice_words(self, throw: str) -> str:
        """The dice just thrown, as the game's face says them ("White rolled 6-4"),
        or as the throw is written."""
        for line in get_face(self.session.game).page(self.session.state)["info"]:
            if line.get("id") == "dice":
                return f"{line['text']}."
        return f"The dice show {throw}."

    # -- actions (keys) ---------------------------------------------------------------

    def action_help(self) -> None:
        self.push_screen(HelpScreen())

    def in_background(self, work: Callable[[], None], *, group: str, name: str) -> None:
        """Run ``work`` in a thread: the engine thinks there while the screen stays
        live (an error is reported by ``work`` itself, never ends the app)."""
        self.run_worker(work, thread=True, exit_on_error=False, group=group, name=name)

    def action_analyse(self) -> None:
        """The coach's analysis of the finished game, on a screen of its own."""
        session = self.session
        if not session.state.is_over():
            self.say("the coach analyses a game once it is over", error=True)
            return
        try:
            engine = session.hint_engine()
        except ParlourError as error:
            self.say(f"No analysis: {error}", error=True)
            return
        self.say("The coach is analysing the game…")
        state = session.state.copy()
        self.in_background(lambda: self._analyse(state, engine), group="analysis", name="analysis")

    def _analyse(self, state: Any, engine: Any) -> None:
        def progress(done: int, total: int) -> None:
            self.call_from_thread(self.say, f"The coach is analysing: {done} of {total} moves")

        try:
            review = analyse_game(state, engine=engine, on_progress=progress)
        except Exception as error:
            self.call_from_thread(self.say, f"No analysis: {error}", error=True)
            return
        names = (self.session.game.side_name(Side.FIRST), self.session.game.side_name(Side.SECOND))
        self.call_from_thread(self.say, "The coach's analysis: Escape to close it.")
        self.call_from_thread(self._show_analysis, review, names, state)

    def _show_analysis(self, review: GameReview, names: tuple[str, str], state: Any) -> None:
        flipped, compact = self.board.flipped, self.board.compact
        self.push_screen(AnalysisScreen(review, names, state, flipped=flipped, compact=compact))

    def action_hint(self) -> None:
        session = self.session
        if session.state.is_over():
            self.say("the game is over: there is no move to hint at", error=True)
            return
        if side_to_act(session.state) is None or session.computer_to_move():
            self.say("a hint is for your own move", error=True)
            return
        try:
            session.hint_engine()
        except ParlourError as error:
            self.say(f"No hint: {error}", error=True)
            return
        self.say("Thinking about a hint…")
        state = session.state.copy()
        generation = self.generation
        self.in_background(lambda: self._hint(state, generation), group="hint", name="hint")

    def _hint(self, state: Any, generation: int) -> None:
        try:
            hint = self.session.hint(state)
        except Exception as error:
            self.call_from_thread(self.say, f"No hint: {error}", error=True)
            return
        if generation == self.generation:
            self.call_from_thread(self.say, f"Hint: {hint.move_text} ({hint.assessment})")

    async def action_undo(self) -> None:
        if self.board.undo_step():
            self.say("Checker taken back.")
            await self.refresh_view()
            return
        try:
            count = self.session.undo()
        except ParlourError as error:
            self.say(f"Cannot undo: {error}", error=True)
            return
        self.forget_computer()
        self.board.clear_selection()
        self.say("Took back your move and the computer's reply." if count == 2 else "Took back.")
        await self.after_change()

    async def action_flip(self) -> None:
        await self.board.flip()
        await self.refresh_view()

    def action_save(self) -> None:
        self.save(None)

    def action_export(self) -> None:
        self.export(None)

    def save(self, path: Path | None) -> None:
        if path is None:
            path = self.save_path or self.directory / f"parlour-{self.session.game.name}.json"
        try:
            self.session.save(path)
        except OSError as error:
            self.say(f"Could not save: {error}", error=True)
            return
        self.save_path = path
        self.say(f"Saved to {path}. Resume with: parlour play {self.session.game.name} --resume …")

    def export(self, path: Path | None) -> None:
        session = self.session
        face = get_face(session.game)
        if face.export_suffix is None:
            self.say(f"{session.game.title} has no file format to export to", error=True)
            return
        if path is None:
            path = self.directory / f"parlour-{session.game.name}.{face.export_suffix}"
        try:
            path.write_text(session.export().text, encoding="utf-8")
        except (OSError, ParlourError, ValueError) as error:
            self.say(f"Could not export: {error}", error=True)
            return
        self.say(f"Exported the game to {path}.")

    async def next_game(self) -> None:
        following = self.session.next_game()
        if following is None:
            self.say("there is no next game: the game goes on, or the match is over", error=True)
            return
        self.session.start_next_game(following)
        self.forget_computer()
        self.held_resignation = None
        self.board.clear_selection()
        self.say("A new game: the opening throw decides who starts.")
        await self.after_change()


_YES_NO = [Choice("y", "Yes", "yes"), Choice("n", "No", "no")]
_TUTOR = [
    Choice("p", "Play anyway", "play"),
    Choice("t", "Think again", "think"),
    Choice("h", "Show the hint", "hint"),
]

#: How the computer's answers that are words read in a sentence.
_COMPUTER_WORDS = {
    "double": "The computer doubles.",
    "take": "The computer takes.",
    "drop": "The computer drops.",
    "beaver": "The computer beavers.",
    "accept": "The computer accepts the resignation.",
    "decline": "The computer declines the resignation: play on.",
}


#: How a player's moves that are words read in a sentence, after the player's name.
_PLAYER_WORDS = {
    "roll": "rolls",
    "double": "doubles",
    "take": "takes",
    "drop": "drops",
    "beaver": "beavers",
    "accept": "accepts the resignation",
    "decline": "declines the resignation: play on",
    "no move": "has no move: the turn passes",
}


def _player_says(name: str, played: str) -> str:
    """A move just made, as a sentence: "Played e4.", "White rolls.", "Black offers to
    resign a gammon."."""
    if played in _PLAYER_WORDS:
        return f"{name} {_PLAYER_WORDS[played]}."
    if played.startswith("resign "):
        return f"{name} offers to resign a {played.removeprefix('resign ')}."
    return f"Played {played}."


def _computer_says(text: str) -> str:
    """The computer's move as a sentence: "The computer played 13/9 6/5.", "The
    computer takes.", "The computer offers to resign a gammon."."""
    if text in _COMPUTER_WORDS:
        return _COMPUTER_WORDS[text]
    if text.startswith("resign "):
        return f"The computer offers to resign a {text.removeprefix('resign ')}."
    return f"The computer played {text}."
