"""JSON answers encoded by orjson: a screen's state is several kilobytes, sent to every seat after every
move, and the standard library's encoder was a tenth of that request's work (bench/load.py).

Same output as Flask's own provider in what matters: keys sorted, tuples as arrays, dates, UUIDs,
decimals and dataclasses through Flask's `default`; UTF-8 as it is rather than \\u escapes (both are
JSON). Anything orjson refuses (an integer beyond 64 bits, say) falls back to Flask's encoder.

A sentence (a Text, or an error that carries one: app/decks/errors.py) is said in the request's language,
here at the edge, like a refusal: a service may put one in what it answers.
"""
from __future__ import annotations

from typing import Any

import orjson
from flask import Flask
from flask.json.provider import DefaultJSONProvider
from werkzeug.sansio.response import Response

from ..decks.errors import Sentence, Text
from ..i18n import translated

OPTIONS = orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS | orjson.OPT_PASSTHROUGH_DATETIME \
    | orjson.OPT_PASSTHROUGH_DATACLASS


def _default(obj: Any) -> Any:
    """Flask's encoder for what JSON has no type for; a sentence said in the reader's language."""
    if isinstance(obj, (Text, Sentence)):
        return translated(obj)
    return DefaultJSONProvider.default(obj)


class OrjsonProvider(DefaultJSONProvider):
    _app: Flask  # typed by Flask as its sansio App; a Flask app here, whose response class takes a body
    default = staticmethod(_default)

    def _encode(self, obj: Any) -> bytes | None:
        try:
            return orjson.dumps(obj, default=self.default, option=OPTIONS)
        except (orjson.JSONEncodeError, TypeError):
            return None

    def dumps(self, obj: Any, **kwargs: Any) -> str:
        if not kwargs:
            encoded = self._encode(obj)
            if encoded is not None:
                return encoded.decode()
        return super().dumps(obj, **kwargs)

    def dumps_bytes(self, obj: Any) -> bytes:
        """`dumps` as the UTF-8 bytes sent (a stream's event), without a round trip through str."""
        encoded = self._encode(obj)
        return encoded if encoded is not None else super().dumps(obj).encode()

    def response(self, *args: Any, **kwargs: Any) -> Response:
        obj = self._prepare_response_obj(args, kwargs)
        pretty = (self.compact is None and self._app.debug) or self.compact is False
        encoded = None if pretty else self._encode(obj)
        if encoded is None:
            return super().response(obj)
        return self._app.response_class(encoded + b"\n", mimetype=self.mimetype)


def encoded(app: Flask, obj: Any) -> bytes:
    """`obj` as the app's JSON answers encode it, in UTF-8 bytes."""
    provider = app.json
    return provider.dumps_bytes(obj) if isinstance(provider, OrjsonProvider) else provider.dumps(obj).encode()
