"""The examples in the chess modules' docstrings run and give what they show."""

from __future__ import annotations

import doctest

import pytest

import parlour.chess
import parlour.chess.notation
import parlour.chess.rules


@pytest.mark.parametrize(
    "module", [parlour.chess, parlour.chess.rules, parlour.chess.notation], ids=lambda m: m.__name__
)
def test_docstring_examples(module: object) -> None:
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)  # type: ignore[arg-type]
    assert result.attempted > 0
    assert result.failed == 0
