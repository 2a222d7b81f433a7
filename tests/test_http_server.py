"""The HTTP server of `authors serve` (granian) holds the limits a class needs: headers and addresses past
its limits (about 400 KB of headers, 100 fields, an address of 64 KB) are refused with 4xx, a body over
MAX_CONTENT_LENGTH is a 413 while it is still being sent (chunked, with no length), a body that arrives
in pieces is read whole, phones that send slowly hold no thread of the app, and a busy port is a
sentence. A real server on a free loopback port."""
from __future__ import annotations

import json
import os
import socket
import subprocess
import time

import pytest

from app.cli import server_environment

from .server_support import AUTHORS, ROOT, SECRET, Browser, Server


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    work = tmp_path_factory.mktemp("http-server")
    running = Server(f"sqlite:///{work / 'db.sqlite3'}", work / "instance", workers=1, threads=2).start()
    yield running
    running.stop()


def raw(port: int, request: bytes, timeout: float = 10) -> bytes:
    """The status line of the answer to a request sent as these bytes (b"" when the server hung up on it)."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
        try:
            sock.sendall(request)
            return sock.recv(4096).split(b"\r\n", 1)[0]
        except (BrokenPipeError, ConnectionResetError):
            return b""


def test_headers_and_addresses_past_the_limits_are_refused(server):
    assert raw(server.port, b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n") == b"HTTP/1.1 200 OK"
    # (granian's buffer holds about 400 KB of headers; between that and twice it, some pass: not a limit)
    huge = b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 1_000_000 + b"\r\n\r\n"
    assert raw(server.port, huge) in (b"HTTP/1.1 431 Request Header Fields Too Large", b"")
    many = b"GET /healthz HTTP/1.1\r\nHost: x\r\n" + b"".join(b"X-H%d: 1\r\n" % i for i in range(200)) + b"\r\n"
    assert raw(server.port, many).startswith(b"HTTP/1.1 431")
    assert raw(server.port, b"GET /healthz?" + b"a" * 300_000 + b" HTTP/1.1\r\nHost: x\r\n\r\n").startswith(
        b"HTTP/1.1 414")


def test_a_chunked_body_over_the_limit_is_refused_while_it_is_sent(server):
    browser = Browser(server.port)
    browser.sign_up()
    with socket.create_connection(("127.0.0.1", server.port), timeout=20) as sock:
        cookies = "; ".join(f"{k}={v}" for k, v in browser.cookies.items())
        sock.sendall(b"POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                     b"Transfer-Encoding: chunked\r\nX-CSRFToken: %s\r\nCookie: %s\r\n\r\n"
                     % (browser.token.encode(), cookies.encode()))
        chunk = b"a" * 1_048_576
        sent = 0
        try:
            while sent < 100:  # 100 MB offered; the limit is 2 MB
                sock.sendall(b"%x\r\n%s\r\n" % (len(chunk), chunk))
                sent += 1
        except OSError:
            pass  # the server stopped reading and closed: what is asked
        try:
            answer = sock.recv(4096)
        except ConnectionResetError:
            answer = b""  # (the reset of a socket closed with unread data can overtake the answer)
    assert answer.startswith(b"HTTP/1.1 413") or answer == b"", answer[:200]
    assert sent < 100
    time.sleep(0.5)  # the access log line is written after the answer
    assert '"POST /api/tables HTTP/1.1" 413' in server.log.read_text(errors="replace")


def test_a_body_that_arrives_in_pieces_is_read_whole(server):
    browser = Browser(server.port)
    browser.sign_up()
    body = json.dumps({"seats": [{"kind": "human"}, {"kind": "computer", "bot": "random"},
                                 {"kind": "computer", "bot": "random"}], "name": "A table from a slow phone"}).encode()
    with socket.create_connection(("127.0.0.1", server.port), timeout=20) as sock:
        cookies = "; ".join(f"{k}={v}" for k, v in browser.cookies.items())
        sock.sendall(b"POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nAccept: "
                     b"application/json\r\nX-CSRFToken: %s\r\nCookie: %s\r\nContent-Length: %d\r\n\r\n%s"
                     % (browser.token.encode(), cookies.encode(), len(body), body[:20]))
        time.sleep(1)  # a phone on a slow network
        sock.sendall(body[20:])
        answer = sock.recv(4096)
    assert answer.startswith(b"HTTP/1.1 201"), answer[:300]


def test_phones_that_send_slowly_hold_no_thread_of_the_app(server):
    slow = []
    try:
        for _ in range(40):  # far more than the server's 2 threads: each sends half a request and waits
            sock = socket.create_connection(("127.0.0.1", server.port), timeout=10)
            sock.sendall(b"POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n{")
            slow.append(sock)
        for sock in slow[:20]:
            sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")  # (a request line, no end of headers)
        started = time.perf_counter()
        assert raw(server.port, b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n", timeout=5) == b"HTTP/1.1 200 OK"
        assert time.perf_counter() - started < 2
    finally:
        for sock in slow:
            sock.close()


def test_a_busy_port_is_a_sentence(tmp_path, server):
    env = {**os.environ, "SECRET_KEY": SECRET, "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
           "AUTHORS_INSTANCE_PATH": str(tmp_path / "instance"), "PYTHONPATH": str(ROOT)}
    done = subprocess.run([str(AUTHORS), "serve", "--prod", "--port", str(server.port), "--workers", "1"], env=env,
                          cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 1
    assert f"cannot listen on 127.0.0.1:{server.port}" in done.stderr and "--port" in done.stderr
    assert "panicked" not in done.stderr + done.stdout and "Traceback" not in done.stderr + done.stdout


def test_variables_named_like_request_headers_stay_out_of_the_servers_environment():
    kept = server_environment({"HTTP_PROXY": "http://proxy:3128", "HTTP_X_FORWARDED_FOR": "6.6.6.6",
                               "http_proxy": "http://proxy:3128", "SECRET_KEY": "k", "PATH": "/usr/bin"})
    assert kept == {"http_proxy": "http://proxy:3128", "SECRET_KEY": "k", "PATH": "/usr/bin"}


def test_fifty_unfinished_bodies_leave_a_seated_students_polls_answered(tmp_path):
    """50 connections that declare a body and send one byte of it (to /login, a move, the join form) hold
    no thread of the app: a seated student's polls (a worker of 2 threads) are each answered in under
    200 ms while they wait, and each unfinished body is answered 408 once its pieces stop coming."""
    server = Server(f"sqlite:///{tmp_path / 'db.sqlite3'}", tmp_path / "instance", workers=1, threads=2).start()
    slow: list[socket.socket] = []
    try:
        teacher = Browser(server.port)
        code = teacher.open_table({"rules": "standard", "seats": [{"kind": "human"}] + [{"kind": "computer"}] * 2})
        student = Browser(server.port)
        status, joined = student.json("POST", f"/api/tables/{code}/join", {"name": "Ada"})
        assert status in (200, 201), joined
        for number in range(50):
            path = (b"/login", b"/api/tables/%s/moves" % code.encode(), b"/join")[number % 3]
            sock = socket.create_connection(("127.0.0.1", server.port), timeout=20)
            sock.sendall(b"POST %s HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\n"
                         b"Content-Length: 1000\r\n\r\nc" % path)
            slow.append(sock)
        waits = []
        for _ in range(10):
            started = time.perf_counter()
            status, state = student.json("GET", f"/api/tables/{code}")
            waits.append(time.perf_counter() - started)
            assert status == 200 and state["status"] == "lobby", state
            time.sleep(0.05)
        assert max(waits) < 0.2, waits
        answers = [sock.recv(4096).split(b"\r\n", 1)[0] for sock in slow]
        assert set(answers) == {b"HTTP/1.1 408 Request Timeout"}, set(answers)
    finally:
        for sock in slow:
            sock.close()
        server.stop()


def test_a_body_that_stops_coming_is_answered_408_in_the_readers_language(server):
    with socket.create_connection(("127.0.0.1", server.port), timeout=20) as sock:
        sock.sendall(b"POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nAccept-Language: fr"
                     b"\r\nContent-Length: 100\r\n\r\n{\"seats\"")
        started = time.perf_counter()
        answer = sock.recv(65536)
        waited = time.perf_counter() - started
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 408"), head
    assert 1.5 < waited < 5, waited  # 2 s without a piece of it
    error = json.loads(body)["error"]
    assert error["code"] == "request-timeout" and "rien n'a été changé" in error["message"], error


def test_a_body_sent_slowly_past_the_whole_deadline_is_refused(server):
    """A piece every second (never 2 s apart) but the whole body still not there after 10 s: 408."""
    with socket.create_connection(("127.0.0.1", server.port), timeout=30) as sock:
        sock.sendall(b"POST /login HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n")
        started = time.perf_counter()
        sock.settimeout(1)
        answer = b""
        while not answer and time.perf_counter() - started < 20:
            try:
                sock.sendall(b"a")
                answer = sock.recv(4096)
            except socket.timeout:
                continue
            except (BrokenPipeError, ConnectionResetError):
                break
    assert answer.startswith(b"HTTP/1.1 408"), answer[:200]
    assert 9 < time.perf_counter() - started < 13


def test_the_app_answers_its_own_health_through_its_hooks(server):
    # /healthz is the front's (no thread, no app: a load balancer's question); /healthz/app goes through a
    # thread and every hook of the app (its security headers say so): bench/load.py's bare request.
    status, headers, body = Browser(server.port).request("GET", "/healthz/app")
    assert status == 200 and body.strip() == b"ok" and headers.get("x-content-type-options") == "nosniff"
    status, headers, _ = Browser(server.port).request("GET", "/healthz")
    assert status == 200 and "x-content-type-options" not in headers
