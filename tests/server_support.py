"""A real server in a subprocess (`authors serve --prod`: granian) and a small HTTP client that behaves
as a browser does: it keeps its cookies, sends the CSRF token, signs up as a teacher. Used by the fault
tests, the two-server test and bench/load.py. Loopback only."""
from __future__ import annotations

import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import time
import uuid
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parents[1]
AUTHORS = Path(sys.executable).with_name("authors")
SECRET = "a-test-secret-key-that-is-long-enough-" + "x" * 8


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Server:
    """`authors serve --prod` on a free loopback port, in its own process group (so SIGKILL takes the
    server's main process and its workers at once, as a crash of the machine's server would)."""

    def __init__(self, database_url: str, instance: Path, workers: int = 2, threads: int = 4,
                 env: dict | None = None, port: int | None = None, log: Path | None = None, root: Path = ROOT):
        """`root`: the checkout whose app is served (another revision's, for bench/compare.py)."""
        self.database_url, self.instance, self.root = database_url, instance, root
        self.workers, self.threads = workers, threads
        self.port = port or free_port()
        self.env = dict(env or {})
        self.log = log or instance / "server.log"
        self.process: subprocess.Popen | None = None

    def start(self, timeout: float = 30) -> "Server":
        self.instance.mkdir(parents=True, exist_ok=True)
        env = {**os.environ, "SECRET_KEY": SECRET, "DATABASE_URL": self.database_url,
               "AUTHORS_INSTANCE_PATH": str(self.instance), "AUTHORS_INSECURE_COOKIES": "1",
               "PYTHONPATH": str(self.root), **self.env}
        command = [str(AUTHORS), "serve", "--prod", "--host", "127.0.0.1", "--port", str(self.port),
                   "--workers", str(self.workers), "--threads", str(self.threads)]
        self._log_file = open(self.log, "ab")
        self.process = subprocess.Popen(command, env=env, cwd=self.root, stdout=self._log_file,
                                        stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.time() + timeout
        while time.time() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server exited: {self.log.read_text()[-2000:]}")
            try:
                status, _, _ = Browser(self.port).request("GET", "/api/catalog")
                if status == 200:
                    return self
            except OSError:
                pass
            time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"the server did not answer in {timeout} s: {self.log.read_text()[-2000:]}")

    def kill(self) -> None:
        """SIGKILL to the whole process group: no worker gets to finish anything."""
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(10)
        self._close_log()

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(10)
        self._close_log()

    def _close_log(self) -> None:
        log = getattr(self, "_log_file", None)
        if log is not None and not log.closed:
            log.close()


class Browser:
    """One browser: a keep-alive connection, its cookies and its CSRF token."""

    def __init__(self, port: int, host: str = "127.0.0.1", timeout: float = 30):
        self.host, self.port, self.timeout = host, port, timeout
        self.cookies: dict[str, str] = {}
        self.token: str | None = None
        self.connection: http.client.HTTPConnection | None = None

    def request(self, method: str, path: str, body=None, form: dict | None = None,
                headers: dict | None = None) -> tuple[int, dict, bytes]:
        sent = {"Accept": "application/json", **(headers or {})}
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            sent["Content-Type"] = "application/json"
        elif form is not None:
            data = urlencode(form).encode()
            sent["Content-Type"] = "application/x-www-form-urlencoded"
            sent["Accept"] = "text/html"
        if method not in ("GET", "HEAD") and self.token is None:
            self.token = self._csrf_token()
        if method not in ("GET", "HEAD") and self.token:
            sent["X-CSRFToken"] = self.token
        if self.cookies:
            sent["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        for attempt in (1, 2):
            if self.connection is None:
                self.connection = http.client.HTTPConnection(self.host, self.port, timeout=self.timeout)
            try:
                self.connection.request(method, path, body=data, headers=sent)
                response = self.connection.getresponse()
                payload = response.read()
                break
            except (http.client.RemoteDisconnected, BrokenPipeError, ConnectionResetError):
                self.close()
                if attempt == 2:
                    raise
        for name, value in response.getheaders():
            if name.lower() == "set-cookie":
                pair = value.split(";", 1)[0]
                key, _, val = pair.partition("=")
                self.cookies[key.strip()] = val.strip()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, payload

    def json(self, method: str, path: str, body=None, headers: dict | None = None) -> tuple[int, dict | None]:
        status, _, payload = self.request(method, path, body=body, headers=headers)
        try:
            return status, json.loads(payload) if payload else None
        except ValueError:
            return status, None

    def _csrf_token(self) -> str:
        self.token = ""
        status, _, payload = self.request("GET", "/api/csrf-token")
        return json.loads(payload)["csrf_token"] if status == 200 else ""

    def sign_up(self, name: str | None = None, password: str = "a long classroom password") -> "Browser":
        """A teacher's account, made through the sign-up form, and logged in."""
        name = name or f"Teacher {uuid.uuid4().hex[:8]}"
        status, _, _ = self.request("POST", "/signup", form={"name": name, "password": password, "repeat": password})
        if status not in (200, 302, 303, 404):
            raise AssertionError(f"sign-up refused: {status}")
        return self

    def open_table(self, spec: dict) -> str:
        status, data = self.json("POST", "/api/tables", spec)
        if status in (401, 403):
            self.sign_up()
            status, data = self.json("POST", "/api/tables", spec)
        assert status == 201, (status, data)
        return data["code"]

    def twin(self, port: int | None = None) -> "Browser":
        """The same browser in another window: this one's cookies and CSRF token (so the same session and
        seats), on a connection of its own, to `port` (another server on the same database, as a load
        balancer would send it there) or to this server."""
        other = Browser(port or self.port, self.host, self.timeout)
        other.cookies, other.token = dict(self.cookies), self.token
        return other

    def close(self) -> None:
        if self.connection is not None:
            self.connection.close()
            self.connection = None


# ----------------------------------------------------------------------------------------------------
# A PostgreSQL database of a test's own (bench/load.py does the same for authors_bench)
# ----------------------------------------------------------------------------------------------------
def fresh_postgres_database(url: str, name: str, timeout: float = 5) -> str:
    """An empty database `name` on the PostgreSQL server of `url` (dropped first if it is there, with any
    connection to it), and its URL. Raises sqlalchemy.exc.OperationalError when the server does not answer."""
    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url

    target = make_url(url).set(database=name)
    admin = create_engine(target.set(database="postgres"), isolation_level="AUTOCOMMIT",
                          connect_args={"connect_timeout": int(timeout)})
    try:
        with admin.connect() as connection:
            connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
            connection.execute(text(f'CREATE DATABASE "{name}"'))
    finally:
        admin.dispose()
    return target.render_as_string(hide_password=False)


def drop_postgres_database(url: str) -> None:
    """Drop the database of `url` (made by fresh_postgres_database), with any connection still open to it."""
    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url

    target = make_url(url)
    admin = create_engine(target.set(database="postgres"), isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as connection:
            connection.execute(text(f'DROP DATABASE IF EXISTS "{target.database}" WITH (FORCE)'))
    finally:
        admin.dispose()
