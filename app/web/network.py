"""The teacher's network check (/classroom/check): can the phones in the room reach this server?

Students' pages report that they arrived, with their measured round trip (POST /classroom/reach, sent
by app/static/js/reach.js); the check lists who arrived in the last half hour, tells the teacher's own
computer apart, and says what to try when nothing else arrived (app/services/network.py).
"""
from __future__ import annotations

import time
from typing import Any
from urllib.parse import urlsplit

from flask import Blueprint, Response, jsonify, render_template, request

from ..lan import lan_addresses, only_this_computer
from ..services import network, schemas
from .asking import teacher_required
from .links import public_url
from .seating import device_description

bp = Blueprint("network", __name__, url_prefix="/classroom")


def _this_computer() -> set[str]:
    """The addresses that are this computer or the teacher's own browser (the one asking)."""
    return set(lan_addresses()) | ({request.remote_addr} if request.remote_addr else set())


def _devices() -> dict[str, Any]:
    now = time.time()
    devices = network.recent(_this_computer(), now=now)
    return {"others": sum(1 for d in devices if not d.this_computer),
            "devices": [{"address": d.address, "device": d.device, "this_computer": d.this_computer,
                         "seconds_ago": max(0, round(now - d.last_seen)),
                         "round_trip_ms": None if d.round_trip_ms is None else round(d.round_trip_ms)}
                        for d in devices]}


@bp.get("/check")
@teacher_required
def check() -> str:
    """The page: the address phones open, who reached the server lately and how fast, what to try."""
    join_page = public_url("tables.join")
    port = urlsplit(join_page).port
    addresses = [f"http://{address}{f':{port}' if port else ''}" for address in lan_addresses()]
    return render_template("classroom_check.html", join_page=join_page, this_computer_only=only_this_computer(join_page),
                           addresses=addresses, port=port, table=request.args.get("table", ""), **_devices())


@bp.get("/check/devices")
@teacher_required
def devices() -> Response:
    """What the page lists, for its own refresh every few seconds (JSON)."""
    response = jsonify(_devices())
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.post("/reach")
def reach() -> tuple[str, int]:
    """A student's page arrived: {"round_trip_ms": its median request time} (or no body). 204."""
    body = schemas.parse(schemas.RoundTrip, request.get_json(silent=True) or {})
    network.heard(request.remote_addr, device_description(request.headers.get("User-Agent")), body.round_trip_ms)
    return "", 204
