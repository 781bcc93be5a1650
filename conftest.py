"""pytest's set-up for the whole tree."""

from __future__ import annotations

from pathlib import Path

from parlour import compiled


def pytest_ignore_collect(collection_path: Path) -> bool | None:
    """A module built by ``parlour compile`` cannot be collected for its doctests
    from its source (the import gives the compiled file): tests/core/test_compiled.py
    runs those doctests on the pure-Python modules instead."""
    if compiled.state() != "compiled" or collection_path.suffix != ".py":
        return None
    built = {compiled.source_path(module) for module in compiled.MODULES}
    return True if collection_path.resolve() in built else None
