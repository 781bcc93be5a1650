"""The coach in the terminal: a finished game's analysis on a screen of its own (each
move with its judgement and the better move, shown on the game's own board, a text
graph of the first side's chances, each side's summary), and the tutor's words
before a move.
"""

from __future__ import annotations

from typing import Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static

from parlour.analysis.coach import GameReview, MoveReview, opening_of
from parlour.core.protocol import Side, State
from parlour.tui.games import game_ui
from parlour.tui.session import Options, Session

#: Eight heights of a text graph, lowest first.
BARS = "▁▂▃▄▅▆▇█"


def text_graph(review: GameReview, width: int = 60) -> str:
    """The first side's winning chances (or equity, within three points) after each
    move as one line of bars, squeezed to ``width`` columns.

    >>> from parlour.analysis.coach import GameReview
    >>> text_graph(GameReview("chess", "chances", [], [0.0, 1.0, -1.0], {}))
    '▅█▁'
    """
    top = 1.0 if review.judged_by == "chances" else 3.0
    values = review.curve
    if len(values) > width:
        step = len(values) / width
        values = [values[int(i * step)] for i in range(width)]
    bars = []
    for value in values:
        share = (max(-top, min(top, value)) + top) / (2 * top)
        bars.append(BARS[min(len(BARS) - 1, int(share * len(BARS)))])
    return "".join(bars)


def move_line(move: MoveReview, side_name: str) -> str:
    """One judged decision: its ply, who, the move with its glyph, and what was better."""
    glyph = move.judgement.symbol if move.judgement is not None else ""
    what = move.move if move.kind == "move" else f"{move.kind}: {move.move}"
    line = f"{move.ply:>4}. {side_name:<6} {what}{glyph}"
    if move.judgement is not None:
        better = " ".join(move.best_line[:6]) if move.best_line else move.best
        line += f"  — {move.judgement.value}, {move.loss:.2f} lost; better: {better}"
    if move.luck is not None and abs(move.luck) >= 0.3:
        line += f"  (throw {'lucky' if move.luck > 0 else 'unlucky'} {move.luck:+.2f})"
    return line


def graph_lines(review: GameReview, side_names: tuple[str, str]) -> str:
    """The graph of the game with what it shows."""
    scale = "winning chances" if review.judged_by == "chances" else "equity"
    return f"{side_names[0]}'s {scale} after each move:\n{text_graph(review)}"


def summary_lines(review: GameReview, side_names: tuple[str, str]) -> list[str]:
    """Each side's accuracy (or error rate and rating) and its count of each judgement."""
    lines = []
    for side in Side:
        summary = review.summary[side]
        counts = ", ".join(f"{n} {word}" for word, n in summary.counts.items())
        if summary.accuracy is not None:
            score = f"accuracy {summary.accuracy:.0f} %"
        else:
            score = f"error rate {summary.error_rate or 0:.1f} ({summary.rating})"
        lines.append(f"{side_names[side]} ({summary.name}): {score}; {counts}")
    return lines


def report_lines(review: GameReview, side_names: tuple[str, str]) -> list[str]:
    """The whole analysis as lines of text."""
    lines = [graph_lines(review, side_names), ""]
    lines += [move_line(move, side_names[move.side]) for move in review.moves]
    return [*lines, "", *summary_lines(review, side_names)]


class AnalysisScreen(ModalScreen[None]):
    """The analysis of a finished game: its board, and beside it the graph, each
    decision judged (Up and Down step through them, the board showing the position
    before each, the move played there and the better one) and each side's summary.
    Escape (or q) closes it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "Close"),
        Binding("q", "close", "Close"),
    ]
    DEFAULT_CSS = """
    AnalysisScreen { align: center middle; }
    AnalysisScreen > Vertical {
        width: 100%; height: 100%; border: round #c9a227; background: #1d2330; padding: 0 1;
    }
    AnalysisScreen #analysis-title { color: #f0e6d2; text-style: bold; height: 1; }
    AnalysisScreen #analysis-main { height: 1fr; }
    AnalysisScreen #analysis-board-area { width: auto; height: auto; }
    AnalysisScreen #analysis-move { color: #f0e6d2; width: 100%; height: auto; max-width: 72; }
    AnalysisScreen #analysis-side { width: 1fr; padding-left: 1; }
    AnalysisScreen #analysis-graph, AnalysisScreen #analysis-summary {
        color: #e2e8f0; height: auto;
    }
    AnalysisScreen #analysis-moves { height: 1fr; background: #1d2330; color: #e2e8f0; }
    """

    def __init__(
        self,
        review: GameReview,
        side_names: tuple[str, str],
        state: State[Any],
        *,
        flipped: bool = False,
        compact: bool = False,
    ) -> None:
        super().__init__()
        self.review = review
        self.side_names = side_names
        #: The position before each judged decision, by its ply.
        self.before: dict[int, State[Any]] = positions_before(state, review)
        #: A game of its own for the board: the position under the cursor, no one to move it.
        self.view = Session(state.game, Options())
        self.view.state = state.copy()
        self.board = game_ui(state.game.name).board(self.view, flipped=flipped, id="analysis-board")
        self.board.interactive = False
        self.compact = compact

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(
                "The coach's analysis  [dim](Up, Down: the decisions; on the board the move "
                "played in [#f0b090]rust[/], the better one in [#7fe0d0]teal[/]; "
                "Escape: close)[/dim]",
                id="analysis-title",
            )
            with Horizontal(id="analysis-main"):
                with Vertical(id="analysis-board-area"):
                    yield self.board
                    yield Static("", id="analysis-move")
                with Vertical(id="analysis-side"):
                    yield Static(graph_lines(self.review, self.side_names), id="analysis-graph")
                    yield OptionList(
                        *(
                            move_line(move, self.side_names[move.side])
                            for move in self.review.moves
                        ),
                        id="analysis-moves",
                    )
                    yield Static(
                        "\n".join(summary_lines(self.review, self.side_names)),
                        id="analysis-summary",
                    )

    def on_mount(self) -> None:
        self.board.set_compact(self.compact)
        moves = self.query_one("#analysis-moves", OptionList)
        if self.review.moves:
            first_mistake = next(
                (n for n, move in enumerate(self.review.moves) if move.judgement is not None), 0
            )
            moves.highlighted = first_mistake
        moves.focus()

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        self.show(self.review.moves[event.option_index])

    def show(self, move: MoveReview) -> None:
        """The position before ``move`` on the board, with the move played and the better one."""
        self.view.state = self.before[move.ply].copy()
        better = move.best if move.judgement is not None and move.best != move.move else None
        self.board.show_moves(
            move.move if move.kind == "move" else None, better if move.kind == "move" else None
        )
        self.query_one("#analysis-move", Static).update(
            move_caption(move, self.side_names[move.side])
        )

    def action_close(self) -> None:
        self.dismiss(None)


def positions_before(state: State[Any], review: GameReview) -> dict[int, State[Any]]:
    """The position before each decision of ``review``, replayed from the opening of
    the game that led to ``state``."""
    wanted = {move.ply for move in review.moves}
    probe, moves = opening_of(state)
    found: dict[int, State[Any]] = {}
    for ply, move in enumerate(moves, start=1):
        if ply in wanted:
            found[ply] = probe.copy()
        probe.push_unchecked(move)
    return found


def move_caption(move: MoveReview, side_name: str) -> Text:
    """What the board shows, in words: the move played (marked in rust) and the
    better one (in teal)."""
    what = move.move if move.kind == "move" else f"{move.kind}: {move.move}"
    caption = Text(f"{move.ply}. {side_name}: ")
    caption.append(what, style="bold #f0b090" if move.kind == "move" else "bold")
    if move.judgement is None:
        caption.append(f"  ({move.score_text})" if move.score_text else "")
        return caption
    caption.append(f" — {move.judgement.value}, {move.loss:.2f} lost. Better: ")
    caption.append(move.best, style="bold #7fe0d0")
    if len(move.best_line) > 1:
        caption.append(" then " + " ".join(move.best_line[1:6]))
    return caption


def tutor_question(judged: MoveReview) -> str:
    """What the tutor says of a move at or past the threshold."""
    judgement = judged.judgement.value if judged.judgement is not None else "weak move"
    return f"The tutor: {judged.move} looks like a {judgement}."
