"""Refusals of the services: an HTTP status, a stable code and a sentence a person can act on."""
from __future__ import annotations


class ServiceError(Exception):
    status = 400
    code = "bad-request"

    def __init__(self, message: str, code: str | None = None, status: int | None = None,
                 refusal=None, wrap: str | None = None):
        super().__init__(message)
        self.message = message
        self.refusal = refusal  # the engine's IllegalMove behind it, if any: its sentence can be translated
        self.wrap = wrap        # the message around the refusal's sentence, with "{reason}" where it goes
        if code is not None:
            self.code = code
        if status is not None:
            self.status = status

    def text(self, translate=None) -> str:
        """The message, with the rule's reason put into the reader's language by `translate(refusal)`."""
        if self.refusal is None or translate is None:
            return str(self.message)
        reason = translate(self.refusal)
        return str(self.wrap).format(reason=reason) if self.wrap else reason

    def to_dict(self, translate=None) -> dict:
        return {"code": self.code, "message": self.text(translate)}


class BadRequest(ServiceError):
    status, code = 400, "bad-request"


class Forbidden(ServiceError):
    status, code = 403, "forbidden"


class NotFound(ServiceError):
    status, code = 404, "not-found"


class Conflict(ServiceError):
    status, code = 409, "conflict"


class TooManyAttempts(ServiceError):
    """A limit held in the database (app/services/ratelimit.py): join-code guesses, failed log-ins."""
    status, code = 429, "too-many-attempts"


class Refused(ServiceError):
    """A move the rules refuse: the engine's code (not-your-turn, set-not-held ...) and its reason."""
    status, code = 409, "refused"
