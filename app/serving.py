"""What each worker of `authors serve` runs: the Flask app behind an ASGI front that reads every request's
body whole before the app is given a thread.

granian reads connections in Rust, but its WSGI interface hands a request to an app thread as soon as the
headers are in, and the app then waits in that thread for the body: four phones on failing Wi-Fi that
declared a body and sent one byte held every thread of a worker. Here the body is read on the worker's
event loop, where a waiting connection costs nothing, under a deadline (BODY_SECONDS for the whole body,
BODY_IDLE_SECONDS between two pieces). A body that does not arrive in time reaches the app as a marked
request with no body, which the app answers 408 in the reader's language at once (app/web/errors.py);
one over MAX_CONTENT_LENGTH is read no further and answered 413 by the app, which sees its size. Only a
whole body, with its length, reaches Flask, through a2wsgi (the app's threads: `threads`).

`/healthz` is answered here, without a thread and without the database: a load balancer asking whether
the process is up gets its answer however busy the threads or silent the database are.
"""
from __future__ import annotations

import asyncio
import os
from typing import Any, Awaitable, Callable

from a2wsgi import WSGIMiddleware

from .web.errors import BODY_TIMED_OUT

Scope = dict[str, Any]
Message = dict[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

BODY_SECONDS = 10.0       # the longest a whole body may take to arrive
BODY_IDLE_SECONDS = 2.0   # the longest wait between two pieces of a body
THREADS = "AUTHORS_SERVER_THREADS"          # the app's threads in each worker (set by `authors serve`)
HEALTH_BODY = b"ok\n"
HEALTH_HEADERS = [(b"content-type", b"text/plain; charset=utf-8"), (b"cache-control", b"no-store")]


class WholeBodies:
    """ASGI middleware: the inner app is called once the request's body has arrived whole (or has been
    given up on), with the body in one message and a Content-Length that says its size."""

    def __init__(self, app: ASGIApp, max_body: int | None, body_seconds: float = BODY_SECONDS,
                 idle_seconds: float = BODY_IDLE_SECONDS) -> None:
        self.app, self.max_body = app, max_body
        self.body_seconds, self.idle_seconds = body_seconds, idle_seconds

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if scope["path"] == "/healthz" and scope["method"] in ("GET", "HEAD"):
            await send({"type": "http.response.start", "status": 200, "headers": HEALTH_HEADERS})
            await send({"type": "http.response.body", "body": HEALTH_BODY if scope["method"] == "GET" else b""})
            return
        body, outcome = await self._read(scope, receive)
        if outcome == "disconnected":
            return  # nobody is left to answer
        headers = [(name, value) for name, value in scope["headers"]
                   if name not in (b"content-length", b"transfer-encoding")]
        size = len(body) if outcome != "too-large" else (self.max_body or 0) + 1
        headers.append((b"content-length", str(size).encode()))
        inner: Scope = {**scope, "headers": headers}
        if outcome == "timed-out":
            inner[BODY_TIMED_OUT] = True
        delivered = False

        async def replay() -> Message:
            nonlocal delivered
            if not delivered:
                delivered = True
                return {"type": "http.request", "body": body if outcome == "whole" else b"", "more_body": False}
            return await receive()

        await self.app(inner, replay, send)

    async def _read(self, scope: Scope, receive: Receive) -> tuple[bytes, str]:
        """The body and how reading it ended: whole, too-large, timed-out or disconnected."""
        declared = _content_length(scope)
        if self.max_body is not None and declared is not None and declared > self.max_body:
            return b"", "too-large"  # refused by its length, without reading a byte of it
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.body_seconds
        pieces: list[bytes] = []
        size = 0
        while True:
            wait = min(self.idle_seconds, deadline - loop.time())
            if wait <= 0:
                return b"", "timed-out"
            try:
                message = await asyncio.wait_for(receive(), wait)
            except asyncio.TimeoutError:
                return b"", "timed-out"
            if message["type"] == "http.disconnect":
                return b"", "disconnected"
            piece = message.get("body", b"")
            if piece:
                pieces.append(piece)
                size += len(piece)
                if self.max_body is not None and size > self.max_body:
                    return b"", "too-large"
            if not message.get("more_body", False):
                return b"".join(pieces), "whole"


def _content_length(scope: Scope) -> int | None:
    for name, value in scope["headers"]:
        if name == b"content-length":
            try:
                return int(value)
            except ValueError:
                return None
    return None


def create_served_asgi() -> ASGIApp:
    """The app of one worker of `authors serve` (granian's ASGI interface, as a factory)."""
    from . import create_served_app

    flask_app = create_served_app()
    threads = int(os.environ.get(THREADS) or 2)
    return WholeBodies(WSGIMiddleware(flask_app, workers=threads), flask_app.config.get("MAX_CONTENT_LENGTH"))
