"""The app against the real checkers engine: a reply at a fixed level and seed, and
a hint with the engine's assessment."""

from __future__ import annotations

from textual.pilot import Pilot

from tests.tui.drive import drive, make_app, settle, status, type_line


def test_computer_reply_and_hint_from_the_checkers_engine() -> None:
    app = make_app("checkers", opponent="computer", level=1, seed=1)

    async def script(pilot: Pilot[None]) -> None:
        assert app.session.engine is not None
        await type_line(pilot, "11-15")
        await settle(pilot)
        assert len(app.session.texts) == 2
        reply = app.session.texts[1]
        assert status(app) == f"Played 11-15.  The computer played {reply}."
        await pilot.press("f2")
        await settle(pilot)
        legal = {app.session.state.move_to_text(m) for m in app.session.state.legal_moves()}
        text = status(app)
        assert text.startswith("Hint: ")
        assert text.split()[1] in legal
        assert text.endswith(")")  # the assessment, in words, in brackets

    drive(app, script)
