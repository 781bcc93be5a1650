"""The engines' hot modules compiled to C by mypyc, and the checkers and chess
searches written in C: an optional build, with the pure-Python modules as the
fallback.

Parlour is pure Python and plays without any of this. Where a C compiler and
Python's headers are at hand, ``parlour compile`` (run by the README's set-up
commands) compiles the modules in :data:`MODULES` in place, beside their sources:
the same code, type-checked, turned into C by mypyc. Measured in
docs/benchmarks.md: backgammon's legal plays about three times as fast, the
chess search about 1.5 times. The same build compiles the extensions of
:data:`NATIVE`, written in C by hand: the checkers search
(:mod:`parlour.checkers.native`), which visits the same nodes as the Python one
and returns the same moves and scores, about thirty times as many nodes a second
as the compiled Python search (29.5 to 40 times at depths 12 and 14); and the
chess search (:mod:`parlour.chess.native`), node for node the Python one too; and
the backgammon network's inputs (:mod:`parlour.backgammon.native`), bit for bit
the numpy ones, with the positions each throw's plays reach, exactly the rules'
own.

A compiled module must never run code older than its source. The build records a
digest of the sources it compiled (the C ones too); when the package is imported
and any source has changed since (or ``PARLOUR_PURE=1`` is set), every compiled
module is set aside and the pure-Python ones are imported instead -- all of them,
since compiled modules call each other directly -- and the C extensions cannot be
imported at all (their users fall back to Python). A changed source says so once
on standard error.

>>> "parlour.backgammon.board" in MODULES, "parlour.chess.native" in NATIVE
(True, True)
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import os
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

#: The modules compiled, each a hot path measured to gain: move generation and
#: search (the generic search of ``parlour.ai.search``, which the checkers engine
#: walks, 15 % more nodes a second).
MODULES: tuple[str, ...] = (
    "parlour.ai.search",
    "parlour.backgammon.board",
    "parlour.checkers.board",
    "parlour.checkers.engine",
    "parlour.chess.board",
    "parlour.chess.engine",
    "parlour.chess.rules",
)

#: The extensions written in C (each ``<name>.c`` beside where the module goes),
#: built with the modules above: the backgammon network's inputs and the plays of
#: every throw in its look ahead, and the checkers and the chess searches, the
#: engines' hot paths.
NATIVE: tuple[str, ...] = (
    "parlour.backgammon.native",
    "parlour.checkers.native",
    "parlour.chess.native",
)

#: Set to 1 to run the pure-Python modules even where compiled ones are built.
PURE_VARIABLE = "PARLOUR_PURE"

_PACKAGE = Path(__file__).resolve().parent
#: The digest of the sources the built modules were compiled from.
STAMP = _PACKAGE / "compiled.stamp"


def source_path(module: str) -> Path:
    """The source file of one of :data:`MODULES`."""
    return _PACKAGE.parent.joinpath(*module.split(".")).with_suffix(".py")


def c_source_path(module: str) -> Path:
    """The C source of one of :data:`NATIVE`."""
    return _PACKAGE.parent.joinpath(*module.split(".")).with_suffix(".c")


def built_files(module: str) -> list[Path]:
    """The compiled files of ``module`` present (mypyc writes two: the module and
    the C library it calls, ``<name>__mypyc``; an extension of :data:`NATIVE`
    one)."""
    source = source_path(module)
    found = []
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        for stem in (source.stem, f"{source.stem}__mypyc"):
            path = source.with_name(stem + suffix)
            if path.exists():
                found.append(path)
    return found


def source_digest() -> str:
    """A digest of the sources of :data:`MODULES` and :data:`NATIVE`, as the build
    records it."""
    digest = hashlib.sha256()
    for module in MODULES:
        digest.update(module.encode())
        digest.update(source_path(module).read_bytes())
    for module in NATIVE:
        digest.update(module.encode())
        digest.update(c_source_path(module).read_bytes())
    return digest.hexdigest()


def state() -> str:
    """What the package runs: ``"compiled"`` (every module and extension built,
    from the present sources), ``"pure"`` (nothing built), ``"stale"`` (built from
    older sources, or only some built), or ``"pure by choice"`` (``PARLOUR_PURE=1``)."""
    built = [bool(built_files(module)) for module in (*MODULES, *NATIVE)]
    if not any(built):
        return "pure"
    if os.environ.get(PURE_VARIABLE, "") not in ("", "0"):
        return "pure by choice"
    recorded = STAMP.read_text().strip() if STAMP.exists() else ""
    if all(built) and recorded == source_digest():
        return "compiled"
    return "stale"


def is_compiled(module: ModuleType) -> bool:
    """Whether ``module`` was loaded from a compiled file."""
    return isinstance(getattr(module, "__loader__", None), importlib.machinery.ExtensionFileLoader)


class _SourceFirst:
    """A finder, first on ``sys.meta_path``, that loads :data:`MODULES` from their
    sources, so that compiled files beside them are passed over, and refuses the
    extensions of :data:`NATIVE` (ImportError: their users run Python instead);
    when they are stale, it says so as the first of them is imported."""

    def __init__(self, stale: bool) -> None:
        self.unsaid = stale

    def find_spec(
        self, name: str, path: Sequence[str] | None = None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if name not in MODULES and name not in NATIVE:
            return None
        if self.unsaid:
            self.unsaid = False
            print(
                "parlour: the compiled engine modules are older than their sources; "
                "running the pure-Python ones (`parlour compile` builds them again)",
                file=sys.stderr,
            )
        if name in NATIVE:
            raise ModuleNotFoundError(f"{name} is set aside: the package runs pure", name=name)
        return importlib.util.spec_from_file_location(name, source_path(name))


def guard() -> None:
    """Called as the package is imported: unless the compiled modules are built
    from the present sources, import the pure-Python ones (saying why, once, when
    a source has changed since the build)."""
    current = state()
    if current in ("compiled", "pure"):
        return
    if not any(isinstance(finder, _SourceFirst) for finder in sys.meta_path):
        sys.meta_path.insert(0, _SourceFirst(stale=current == "stale"))


def hush() -> None:
    """Say nothing of stale compiled modules in this process (``parlour compile``
    is about to build them again)."""
    for finder in sys.meta_path:
        if isinstance(finder, _SourceFirst):
            finder.unsaid = False


#: The build, run in a child process from the directory that holds the package
#: (mypyc names the modules by their paths from there); its C files and objects go
#: to a temporary directory (the first argument), the built modules beside their
#: sources. The arguments after it: the mypyc sources, "--", then the extensions
#: as name=path.c.
_BUILD = """
import sys
from mypyc.build import mypycify
from setuptools import Extension, setup
work, rest = sys.argv[1], sys.argv[2:]
split = rest.index("--")
sources, native = rest[:split], [item.split("=") for item in rest[split + 1 :]]
extensions = [Extension(name, [path], extra_compile_args=["-O3"]) for name, path in native]
setup(
    name="parlour-compiled",
    ext_modules=mypycify(sources, separate=True, opt_level="3", target_dir=work + "/c")
    + extensions,
    script_args=["build_ext", "--inplace", "--build-temp", work + "/o", "--build-lib", work + "/l"],
)
"""


def build() -> str:
    """Compile :data:`MODULES` and :data:`NATIVE` in place (about a minute).
    Returns a line saying what was built; raises :class:`RuntimeError` with the
    compiler's last words if the build fails (the pure-Python modules stay in use)."""
    try:
        import mypyc  # noqa: F401
    except ImportError as error:
        raise RuntimeError(
            "compiling needs mypy and setuptools: pip install mypy 'setuptools>=77'"
        ) from error
    remove()
    root = _PACKAGE.parent
    sources = [str(source_path(module).relative_to(root)) for module in MODULES]
    native = [f"{module}={c_source_path(module).relative_to(root)}" for module in NATIVE]
    digest = source_digest()
    everything = (*MODULES, *NATIVE)
    with tempfile.TemporaryDirectory(prefix="parlour-compile-") as work:
        done = subprocess.run(
            [sys.executable, "-c", _BUILD, work, *sources, "--", *native],
            cwd=root,
            capture_output=True,
            text=True,
            check=False,
        )
    if done.returncode != 0 or not all(built_files(module) for module in everything):
        remove()
        words = (done.stderr or done.stdout).strip().splitlines()[-15:]
        raise RuntimeError("the build failed:\n" + "\n".join(words))
    STAMP.write_text(digest + "\n")
    size = sum(path.stat().st_size for module in everything for path in built_files(module))
    return (
        f"compiled {len(MODULES)} modules and {len(NATIVE)} in C ({size / 1e6:.1f} MB): "
        f"{', '.join(everything)}"
    )


def remove() -> None:
    """Delete the compiled files and the build's record: pure Python again."""
    for module in (*MODULES, *NATIVE):
        for path in built_files(module):
            path.unlink()
    STAMP.unlink(missing_ok=True)
