"""A griffe extension for the API reference: our docstrings are written for Python's
``help()`` and doctest (reST-flavoured plain text), so before mkdocstrings renders
them as Markdown, doctest examples and ``::`` literal blocks become code blocks, and
reST roles (:class:`Game`) and double-backquoted literals become Markdown code."""

from __future__ import annotations

import re
from typing import Any

import griffe

_ROLE = re.compile(r":(?:class|func|meth|attr|mod|data|exc|obj):`~?([^`]+)`")


def markdown(text: str) -> str:
    """``text`` with its examples and literal blocks fenced and its roles as code."""
    out: list[str] = []
    lines = text.splitlines()
    at = 0
    while at < len(lines):
        line = lines[at]
        if line.lstrip().startswith(">>>"):
            block = []
            while at < len(lines) and lines[at].strip():
                block.append(lines[at])
                at += 1
            indent = min(len(b) - len(b.lstrip()) for b in block)
            out += ["```pycon", *(b[indent:] for b in block), "```"]
            continue
        if line.rstrip().endswith("::") and not line.strip().startswith(".."):
            out.append(line.rstrip()[:-1])  # "like this::" reads "like this:"
            at += 1
            while at < len(lines) and not lines[at].strip():
                at += 1
            block = []
            while at < len(lines) and (not lines[at].strip() or lines[at].startswith(" ")):
                block.append(lines[at])
                at += 1
            while block and not block[-1].strip():
                block.pop()
            indent = min((len(b) - len(b.lstrip()) for b in block if b.strip()), default=0)
            out += ["", "```text", *(b[indent:] for b in block), "```", ""]
            continue
        out.append(_ROLE.sub(r"`\1`", line.replace("``", "`")))
        at += 1
    return "\n".join(out)


class RestDocstrings(griffe.Extension):
    def on_object(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        if obj.docstring is not None:
            obj.docstring.value = markdown(obj.docstring.value)
