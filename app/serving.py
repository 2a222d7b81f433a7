"""What each worker of `authors serve` runs: the Flask app on a pool of threads, behind an ASGI front that
reads every request's body whole before a thread is given the request.

granian reads connections in Rust, but its WSGI interface hands a request to an app thread as soon as the
headers are in, and the app then waits in that thread for the body: four phones on failing Wi-Fi that
declared a body and sent one byte held every thread of a worker. Here the body is read on the worker's
event loop, where a waiting connection costs nothing, under a deadline (BODY_SECONDS for the whole body,
BODY_IDLE_SECONDS between two pieces). A body that does not arrive in time reaches the app marked and
empty, and the app answers 408 in the reader's language at once (app/web/errors.py); one over
MAX_CONTENT_LENGTH is read no further and the app, which sees its size, answers 413. Only a whole body,
with its length, reaches Flask.

A request is then one hand-over to a thread and one back: the thread runs the app and collects its
whole answer (the app's answers are small: JSON, pages, a deck's images), which the loop sends. (a2wsgi,
whose environ this uses, streams an answer instead, waiting on the loop for every piece from the thread:
1.42x the server CPU a move, bench/compare.py.)

`/healthz` is answered here, without a thread and without the database: a load balancer asking whether
the process is up gets its answer however busy the threads or silent the database are.

In front of it all, the state streams of app/streaming.py (GET /api/tables/<code>/events), which ask the
app through `respond` and wait on the event loop: everything else reaches the ServedApp as it was sent.
"""
from __future__ import annotations

import asyncio
import io
import logging
import os
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Awaitable, Callable

from a2wsgi.wsgi import build_environ

from .web.errors import BODY_TIMED_OUT, SERVER_FAILED

Scope = dict[str, Any]
Message = dict[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
WSGIApp = Callable[[dict[str, Any], Callable[..., Any]], Any]

BODY_SECONDS = 10.0       # the longest a whole body may take to arrive
BODY_IDLE_SECONDS = 2.0   # the longest wait between two pieces of a body
THREADS = "AUTHORS_SERVER_THREADS"  # the app's threads in each worker (set by `authors serve`)
HEALTH = (b"ok\n", [(b"content-type", b"text/plain; charset=utf-8"), (b"cache-control", b"no-store")])
WHOLE, TOO_LARGE, TIMED_OUT, DISCONNECTED = "whole", "too-large", "timed-out", "disconnected"

log = logging.getLogger("authors.serving")


class ServedApp:
    """ASGI: a WSGI app run on `threads` threads, each request's body read whole first."""

    def __init__(self, wsgi_app: WSGIApp, threads: int, max_body: int | None,
                 body_seconds: float = BODY_SECONDS, idle_seconds: float = BODY_IDLE_SECONDS) -> None:
        self.wsgi_app, self.max_body = wsgi_app, max_body
        self.body_seconds, self.idle_seconds = body_seconds, idle_seconds
        self.threads = ThreadPoolExecutor(threads, thread_name_prefix="app")

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await _lifespan(receive, send)
            return
        if scope["type"] != "http":
            return
        if scope["path"] == "/healthz" and scope["method"] in ("GET", "HEAD"):
            await _answer(send, 200, *HEALTH, head=scope["method"] == "HEAD")
            return
        body, outcome = await self._read(scope, receive)
        if outcome == DISCONNECTED:
            return  # nobody is left to answer
        status, response_headers, content = await self.respond(scope, body, outcome)
        await _answer(send, status, content, response_headers, head=scope["method"] == "HEAD")

    async def respond(self, scope: Scope, body: bytes = b"", outcome: str = WHOLE,
                      environ_extra: dict[str, Any] | None = None) -> tuple[int, list[tuple[bytes, bytes]], bytes]:
        """The app's whole answer to the request of `scope` with this body, run on one of the threads (the
        state streams of app/streaming.py ask the app through here too; `environ_extra` is what they tell
        it beside the request)."""
        headers = [(name, value) for name, value in scope["headers"]
                   if name not in (b"content-length", b"transfer-encoding")]
        size = (self.max_body or 0) + 1 if outcome == TOO_LARGE else len(body)
        if size or outcome != WHOLE or scope["method"] not in ("GET", "HEAD"):
            headers.append((b"content-length", str(size).encode()))
        environ = build_environ({**scope, "headers": headers}, io.BytesIO(body))  # type: ignore[arg-type]
        environ["wsgi.errors"] = _ERRORS
        if outcome == TIMED_OUT:
            environ[BODY_TIMED_OUT] = True
        if environ_extra:
            environ.update(environ_extra)
        try:
            return await asyncio.get_running_loop().run_in_executor(self.threads, self._run, environ)
        except Exception:  # noqa: BLE001 - what Flask itself let through: the server's plain 500
            log.exception("%s %s failed outside the app's own error handling", scope["method"], scope["path"])
            content, headers = SERVER_FAILED
            return 500, headers, content

    def _run(self, environ: dict[str, Any]) -> tuple[int, list[tuple[bytes, bytes]], bytes]:
        """In an app thread: the app's whole answer."""
        started: list[Any] = []
        pieces: list[bytes] = []

        def start_response(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Callable:
            if exc_info is not None and started:
                raise exc_info[1].with_traceback(exc_info[2])
            started[:] = [status, headers]
            return pieces.append

        answer = self.wsgi_app(environ, start_response)
        try:
            for piece in answer:
                pieces.append(piece)
        finally:
            close = getattr(answer, "close", None)
            if close is not None:
                close()
        status, headers = started
        return (int(status.split(" ", 1)[0]),
                [(name.lower().encode("latin-1"), value.encode("latin-1")) for name, value in headers],
                b"".join(pieces))

    async def _read(self, scope: Scope, receive: Receive) -> tuple[bytes, str]:
        """The body and how reading it ended: whole, too-large, timed-out or disconnected."""
        declared: int | None = None
        chunked = False
        for name, value in scope["headers"]:
            if name == b"content-length":
                declared = int(value) if value.isdigit() else None
            elif name == b"transfer-encoding":
                chunked = True
        if declared in (None, 0) and not chunked:
            return b"", WHOLE  # no body: nothing to wait for
        if self.max_body is not None and declared is not None and declared > self.max_body:
            return b"", TOO_LARGE  # refused by its length, without reading a byte of it
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.body_seconds
        pieces: list[bytes] = []
        size = 0
        while True:
            wait = min(self.idle_seconds, deadline - loop.time())
            if wait <= 0:
                return b"", TIMED_OUT
            try:  # (a deadline on this task: asyncio.wait_for would run the receive in a task of its own)
                async with asyncio.timeout(wait):
                    message = await receive()
            except TimeoutError:
                return b"", TIMED_OUT
            if message["type"] == "http.disconnect":
                return b"", DISCONNECTED
            piece = message.get("body", b"")
            if piece:
                pieces.append(piece)
                size += len(piece)
                if self.max_body is not None and size > self.max_body:
                    return b"", TOO_LARGE
            if not message.get("more_body", False):
                return b"".join(pieces), WHOLE


class _Errors(io.TextIOBase):
    """wsgi.errors: what the app writes there goes to the log."""

    def write(self, text: str) -> int:
        if text.strip():
            log.error("%s", text.rstrip())
        return len(text)


_ERRORS = _Errors()


async def _answer(send: Send, status: int, content: bytes, headers: list[tuple[bytes, bytes]],
                  head: bool = False) -> None:
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": b"" if head else content})


async def _lifespan(receive: Receive, send: Send) -> None:
    while True:
        message = await receive()
        if message["type"] == "lifespan.startup":
            await send({"type": "lifespan.startup.complete"})
        elif message["type"] == "lifespan.shutdown":
            await send({"type": "lifespan.shutdown.complete"})
            return


def create_served_asgi() -> Any:
    """The app of one worker of `authors serve` (granian's ASGI interface, as a factory): the state streams
    (app/streaming.py) in front of the ServedApp."""
    from . import create_served_app
    from .streaming import front

    flask_app = create_served_app()
    served = ServedApp(flask_app, int(os.environ.get(THREADS) or 2), flask_app.config.get("MAX_CONTENT_LENGTH"))
    return front(served, flask_app)
