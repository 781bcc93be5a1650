"""A small question over the board with a few answers, each a button and a key:
the piece a pawn becomes, how much to resign. Escape answers nothing, and the
question leaves the game as it was.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Static


@dataclass(frozen=True, slots=True)
class Choice:
    """One answer: the key that picks it, its words on the button, and what the
    question returns for it (a move's text, a piece letter)."""

    key: str
    label: str
    value: str


class ChoiceScreen(ModalScreen[str | None]):
    """Ask ``question``; dismissed with the chosen value, or None on Escape."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]
    DEFAULT_CSS = """
    ChoiceScreen { align: center middle; }
    ChoiceScreen > Vertical {
        width: auto; height: auto; border: round #c9a227; background: #1d2330; padding: 1 2;
    }
    ChoiceScreen #question { color: #f0e6d2; margin-bottom: 1; }
    ChoiceScreen Horizontal { width: auto; height: auto; }
    ChoiceScreen Button { margin: 0 1 0 0; }
    """

    def __init__(self, question: str, choices: list[Choice]) -> None:
        super().__init__()
        self.question = question
        self.choices = choices

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(f"{self.question}  [dim](Escape: cancel)[/dim]", id="question")
            with Horizontal():
                for choice in self.choices:
                    yield Button(
                        f"{choice.label} ({choice.key})",
                        name=choice.value,
                        id=f"choice-{choice.key}",
                    )

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(event.button.name)

    def on_key(self, event: events.Key) -> None:
        for choice in self.choices:
            if event.key == choice.key:
                event.stop()
                self.dismiss(choice.value)
                return

    def action_cancel(self) -> None:
        self.dismiss(None)
