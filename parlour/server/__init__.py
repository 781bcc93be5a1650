"""The web server: games over HTTP and WebSocket, stored as event logs.

``parlour serve`` runs :func:`parlour.server.app.serve`; :func:`create_app` builds the
ASGI app for tests and for other servers. The package is imported only by that
command, so the rest of Parlour never pays for the web stack.
"""

from __future__ import annotations

from parlour.server.app import create_app, serve

__all__ = ["create_app", "serve"]
