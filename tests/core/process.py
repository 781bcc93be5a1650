"""The ``parlour`` command run as a process, as a user runs it."""

from __future__ import annotations

import subprocess
import sys


def parlour(*arguments: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "parlour", *arguments],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
    )
