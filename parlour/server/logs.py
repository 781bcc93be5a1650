"""The server's log, for people or for machines: ``parlour serve --log-format json``
writes one JSON object a line (as log collectors read them), with the time, level,
logger and message, a request's client, method, path and status, and an error's
traceback; ``text`` (the default) writes lines for people, as uvicorn does.

>>> record = logging.LogRecord(
...     "uvicorn.access", logging.INFO, __file__, 1, '%s - "%s %s HTTP/%s" %d',
...     ("10.0.0.7:5050", "GET", "/api/catalogue", "1.1", 200), None,
... )
>>> line = json.loads(JsonFormatter().format(record))
>>> line["client"], line["method"], line["path"], line["status"], line["level"]
('10.0.0.7:5050', 'GET', '/api/catalogue', 200, 'info')
"""

from __future__ import annotations

import datetime
import json
import logging
from typing import Any

#: The formats ``--log-format`` offers.
LOG_FORMATS = ("text", "json")


class JsonFormatter(logging.Formatter):
    """A log record as one line of JSON."""

    def format(self, record: logging.LogRecord) -> str:
        moment = datetime.datetime.fromtimestamp(record.created, datetime.UTC)
        line: dict[str, Any] = {
            "time": moment.isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
        }
        args = record.args
        if record.name == "uvicorn.access" and isinstance(args, tuple) and len(args) == 5:
            client, method, path, version, status = args
            line.update(
                client=client, method=method, path=path, http=version, status=int(str(status))
            )
            line["message"] = f"{method} {path} {status}"
        else:
            line["message"] = record.getMessage()
        if record.exc_info:
            line["error"] = self.formatException(record.exc_info)
        return json.dumps(line, ensure_ascii=False, default=str)


def log_config(log_format: str) -> dict[str, Any]:
    """uvicorn's ``log_config`` for ``log_format``: every logger, uvicorn's and
    Parlour's, through one handler on standard error."""
    if log_format not in LOG_FORMATS:
        raise ValueError(f"the log format is one of {', '.join(LOG_FORMATS)}, not {log_format!r}")
    if log_format == "json":
        formatter: dict[str, Any] = {"()": JsonFormatter}
    else:
        formatter = {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}
    handler = {
        "class": "logging.StreamHandler",
        "formatter": "parlour",
        "stream": "ext://sys.stderr",
    }
    loggers = {
        name: {"handlers": ["default"], "level": "INFO", "propagate": False}
        for name in ("uvicorn", "uvicorn.error", "uvicorn.access", "parlour")
    }
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"parlour": formatter},
        "handlers": {"default": handler},
        "loggers": loggers,
    }
