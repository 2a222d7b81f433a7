"""What `authors serve` gives gunicorn beyond its command line: an access log that costs less.

gunicorn's own access log builds, for every request, a dictionary of every request header, response
header and WSGI environ entry and escapes each, to fill a format that names nine of them (about a tenth
of the CPU of a poll that changed, bench/load.py). This logger writes the same line, in the same
default format, from those nine alone; a configured --access-logformat gets gunicorn's own treatment.
"""
from __future__ import annotations

from gunicorn.config import AccessLogFormat
from gunicorn.glogging import Logger

DEFAULT_FORMAT = AccessLogFormat.default


def _quoted(value) -> str:
    return value.replace('"', '\\"') if isinstance(value, str) else "-" if value is None else str(value)


class AccessLogger(Logger):
    def access(self, resp, req, environ, request_time):
        if not self.access_log_enabled:
            return
        if self.cfg.access_log_format != DEFAULT_FORMAT:
            return super().access(resp, req, environ, request_time)
        status = resp.status
        if isinstance(status, str):
            status = status.split(None, 1)[0]
        sent = getattr(resp, "sent", None)
        atoms = {
            "h": _quoted(environ.get("REMOTE_ADDR", "-")), "l": "-",
            "u": _quoted(self._get_user(environ) or "-"), "t": self.now(),
            "r": _quoted(f"{environ['REQUEST_METHOD']} {environ['RAW_URI']} {environ['SERVER_PROTOCOL']}"),
            "s": status, "b": str(sent) if sent is not None else "-",
            "f": _quoted(environ.get("HTTP_REFERER", "-")), "a": _quoted(environ.get("HTTP_USER_AGENT", "-")),
        }
        try:
            self.access_log.info(DEFAULT_FORMAT, atoms)
        except Exception:  # noqa: BLE001 - as gunicorn's own: a log line never fails a request
            self.error("the access log line could not be written", exc_info=True)
