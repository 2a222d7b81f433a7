"""The teacher's network check: which devices reached this server lately, and how fast.

A student's page (joining, waiting, playing) measures its own round trip to the server once it has
loaded (three small requests, the median) and reports it; the page of the check lists the addresses
heard from in the last half hour. A school's guest Wi-Fi that keeps devices from reaching each other
shows here as "no device but this computer": the phones never arrive.

One row per address, kept a day (the check asks about the last half hour): an address and a device's
kind ("iPhone · Safari") are what a classroom network shows anyway, and nothing ties them to a name.
"""
from __future__ import annotations

import ipaddress
import time
from dataclasses import dataclass
from typing import Iterable

from sqlalchemy import delete, select
from sqlalchemy.exc import IntegrityError

from ..db import begin_write, db
from ..models import NetworkSighting

RECENT_SECONDS = 30 * 60        # what the check lists
KEPT_SECONDS = 24 * 60 * 60     # how long a row is kept
QUIET_SECONDS = 30.0            # an address already written this recently is not written again (no round trip)
MAX_ROUND_TRIP_MS = 60_000.0
_written: dict[str, float] = {}  # this process's last write per address (a bound on writes, not a record)


@dataclass(frozen=True)
class Device:
    address: str
    device: str
    last_seen: float
    round_trip_ms: float | None
    this_computer: bool


def heard(address: str | None, device: str, round_trip_ms: float | None = None, now: float | None = None) -> bool:
    """Note that a page at `address` reached the server (with its measured round trip, when it sent one).
    Whether a row was written: an address heard again within QUIET_SECONDS with no new round trip is not."""
    if not address:
        return False
    now = time.time() if now is None else now
    if round_trip_ms is None and now - _written.get(address, float("-inf")) < QUIET_SECONDS:
        return False
    for _attempt in range(2):  # two processes may add the same new address at once: the second updates
        begin_write()
        row = db.session.get(NetworkSighting, address)
        if row is None:
            row = NetworkSighting(address=address, first_seen=now)
            db.session.add(row)
        row.last_seen, row.device = now, device[:40]
        if round_trip_ms is not None:
            row.round_trip_ms = round(min(round_trip_ms, MAX_ROUND_TRIP_MS), 1)
        db.session.execute(delete(NetworkSighting).where(NetworkSighting.last_seen < now - KEPT_SECONDS))
        try:
            db.session.commit()
        except IntegrityError:
            db.session.rollback()
            continue
        _written[address] = now
        if len(_written) > 4096:
            _written.clear()
        return True
    return False


def is_this_computer(address: str, this_computer: Iterable[str]) -> bool:
    """Whether an address is the server's own (loopback) or one of `this_computer`'s (its network
    addresses, the teacher's browser)."""
    try:
        if ipaddress.ip_address(address).is_loopback:
            return True
    except ValueError:
        pass
    return address in set(this_computer)


def recent(this_computer: Iterable[str], now: float | None = None) -> list[Device]:
    """The addresses heard from in the last RECENT_SECONDS, the latest first; each says whether it is
    this computer (the server's own addresses, and the teacher's browser: given by the caller)."""
    now = time.time() if now is None else now
    mine = set(this_computer)
    rows = db.session.scalars(select(NetworkSighting).where(NetworkSighting.last_seen >= now - RECENT_SECONDS)
                              .order_by(NetworkSighting.last_seen.desc())).all()
    return [Device(address=row.address, device=row.device, last_seen=row.last_seen,
                   round_trip_ms=row.round_trip_ms, this_computer=is_this_computer(row.address, mine))
            for row in rows]
