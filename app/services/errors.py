"""Refusals of the services: an HTTP status, a stable code and a sentence a person can act on.

The sentence is a `Text` (app/decks/errors.py): a marked English template and its fields, such as
`BadRequest(say(N_("a password has at least %(num)d characters"), num=8))`. A field may be a phrase or
another error's sentence (an engine refusal, an options error: `reason=refusal.text`), said in the same
language. `message` and str() are the English sentence (logs, the command line); the web app says it in
the reader's language at its edge (app.i18n.translated), once. The services call no gettext."""
from __future__ import annotations

from ..decks.errors import ENGLISH, Sentence, Template, Text, Translations


class ServiceError(Sentence):
    """A refusal: its status, its code and its sentence (a Sentence like the engine's errors: `message`,
    str(), `render(translations)`). Made from a marked template (`BadRequest(N_("..."))`), a Text with
    fields (`say(...)`), or another Sentence, whose sentence it takes (`Refused(refusal)`)."""
    status = 400
    code = "bad-request"

    def __init__(self, sentence: Template | Text | Sentence, code: str | None = None, status: int | None = None):
        super().__init__(sentence.text if isinstance(sentence, Sentence) else sentence)
        if code is not None:
            self.code = code
        if status is not None:
            self.status = status

    def to_dict(self, translations: Translations = ENGLISH) -> dict[str, str]:
        return {"code": self.code, "message": self.render(translations)}


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
