"""A teacher's time zone: the IANA name the browser reports (Intl.DateTimeFormat().resolvedOptions().timeZone),
checked against the zones zoneinfo knows and kept in the teacher's account. Without one, times are UTC."""
from __future__ import annotations

import re
import zoneinfo
from functools import lru_cache
from typing import Any

from ..db import begin_write, db
from ..decks.errors import N_, say
from ..models import Teacher
from .errors import BadRequest

UTC = "UTC"
NAME = re.compile(r"[A-Za-z0-9_+\-]+(/[A-Za-z0-9_+\-]+){0,2}")


@lru_cache(maxsize=1)
def known_zones() -> frozenset[str]:
    return frozenset(zoneinfo.available_timezones()) | {UTC}


def check(name: Any) -> str:
    """The zone's name if zoneinfo knows it ("Europe/Paris", "UTC"); BadRequest with a sentence otherwise."""
    text = name if isinstance(name, str) else ""
    if not (0 < len(text) <= 64 and NAME.fullmatch(text) and text in known_zones()):
        shown = name if isinstance(name, str) else type(name).__name__
        raise BadRequest(say(N_('"%(zone)s" is not a time zone this server knows; send a name such as '
                                '"Europe/Paris" or "America/New_York"'), zone=str(shown)[:40]), code="bad-time-zone")
    return text


def remember(teacher: Teacher, name: Any) -> str:
    """Keep the (checked) zone in the teacher's account; returns it."""
    zone = check(name)
    if teacher.time_zone != zone:
        begin_write()  # (SQLite: a read turned into a write fails at once when another wrote in between)
        teacher.time_zone = zone
        db.session.commit()
    return zone


def zone_of(teacher: object) -> str | None:
    """The teacher's zone if it is still one zoneinfo knows (the server's tzdata may change), else None."""
    name = getattr(teacher, "time_zone", None)
    return name if name and name in known_zones() else None
