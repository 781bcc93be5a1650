"""The examples in the terminal app's docstrings hold."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["parlour.tui.session", "parlour.tui.chess_board", "parlour.tui.backgammon_board"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    failures, tried = doctest.testmod(importlib.import_module(name))
    assert tried > 0
    assert failures == 0
