"""The coach in the terminal: a finished game's analysis on a screen of its own (each
move with its judgement and the better move, a text graph of the first side's
chances, each side's summary), and the tutor's words before a move.
"""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from parlour.analysis.coach import GameReview, MoveReview
from parlour.core.protocol import Side

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


def report_lines(review: GameReview, side_names: tuple[str, str]) -> list[str]:
    """The whole analysis as lines of text."""
    scale = "winning chances" if review.judged_by == "chances" else "equity"
    lines = [f"{side_names[0]}'s {scale} after each move:", text_graph(review), ""]
    lines += [move_line(move, side_names[move.side]) for move in review.moves]
    lines.append("")
    for side in Side:
        summary = review.summary[side]
        counts = ", ".join(f"{n} {word}" for word, n in summary.counts.items())
        if summary.accuracy is not None:
            score = f"accuracy {summary.accuracy:.0f} %"
        else:
            score = f"error rate {summary.error_rate or 0:.1f} ({summary.rating})"
        lines.append(f"{side_names[side]} ({summary.name}): {score}; {counts}")
    return lines


class AnalysisScreen(ModalScreen[None]):
    """The analysis of the finished game; Escape (or q) closes it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "Close"),
        Binding("q", "close", "Close"),
    ]
    DEFAULT_CSS = """
    AnalysisScreen { align: center middle; }
    AnalysisScreen > Vertical {
        width: 90%; height: 90%; border: round #c9a227; background: #1d2330; padding: 0 1;
    }
    AnalysisScreen #analysis-title { color: #f0e6d2; text-style: bold; }
    AnalysisScreen #analysis { color: #e2e8f0; }
    """

    def __init__(self, review: GameReview, side_names: tuple[str, str]) -> None:
        super().__init__()
        self.review = review
        self.side_names = side_names

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static("The coach's analysis  [dim](Escape: close)[/dim]", id="analysis-title")
            with VerticalScroll():
                yield Static("\n".join(report_lines(self.review, self.side_names)), id="analysis")

    def action_close(self) -> None:
        self.dismiss(None)


def tutor_question(judged: MoveReview) -> str:
    """What the tutor says of a move at or past the threshold."""
    judgement = judged.judgement.value if judged.judgement is not None else "weak move"
    return f"The tutor: {judged.move} looks like a {judgement}."
