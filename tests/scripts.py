"""The repository's scripts (benchmarks/, training/) loaded as modules, so that a
test can call their functions: they are files to run, not a package to import."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]


def load_script(relative: str) -> ModuleType:
    """The script at ``relative`` (from the repository's root) as a module; the
    benchmarks' folder is on the path, as it is when a script there runs."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    path = ROOT / relative
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
