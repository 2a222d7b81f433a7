"""Teacher accounts in the browser: log in and out, sign up (open, or by invitation), change the
password, make invitation links. Flask-Login keeps the teacher's id and the secret token of this
browser's log-in in the session cookie; the log-in itself is a row in the database (TeacherLogin),
checked on every request, so logging out ends it wherever the cookie was saved."""
from __future__ import annotations

from typing import Any

from flask import (Blueprint, Flask, Response, current_app, g, jsonify, redirect, render_template, request, session,
                   url_for)
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _
from flask_login import current_user, login_user, logout_user
from itsdangerous import BadData, URLSafeTimedSerializer
from werkzeug.wrappers import Response as BaseResponse

from ..i18n import translated
from ..services import accounts, time_zones
from ..services.reading import new_token
from ..decks.errors import N_
from ..services.errors import BadRequest, ServiceError
from . import asking
from .asking import login_manager, teacher_required
from .links import public_url

bp = Blueprint("accounts", __name__)

# The device cookie (OWASP's defence against online guessing that does not lock the teacher out): set
# at a successful log-in, signed, naming the accounts logged in from this browser and a random nonce.
# Failed log-ins from browsers without it count against the account; a browser with it has its own count.
DEVICE_COOKIE = "authors_device"
DEVICE_DAYS = 365
DEVICE_ACCOUNTS = 10  # a staff-room computer remembers this many accounts, the latest ones


def register(app: Flask) -> None:
    login_manager.init_app(app)
    login_manager.session_protection = "basic"
    app.before_request(note_login_in_use)


def _max_idle() -> float:
    return current_app.permanent_session_lifetime.total_seconds()


@login_manager.user_loader  # type: ignore[untyped-decorator]  # flask_login is untyped; it keeps the function
def load_teacher(user_id: str) -> object | None:  # a Teacher row (app/web names no model), or None
    ident, _dot, token = str(user_id).partition(".")
    try:
        teacher_id = int(ident)
    except ValueError:
        return None
    # None when this log-in was ended (a log-out, a password change) or has not been used for too long
    return accounts.logged_in_teacher(teacher_id, token, _max_idle())


def note_login_in_use() -> None:
    """Before any view runs (note_seen ends the request's transaction), the log-in's last use is
    written down now and then. A browser logged in as nobody (a student's) is not touched."""
    teacher = asking.teacher() if asking.names_login(session) else None
    if teacher is not None:
        accounts.note_seen(teacher)
        g.time_zone = time_zones.zone_of(teacher)  # the times this teacher reads (app/i18n.py)


def safe_next(target: str | None) -> str | None:
    """Only a path on this site: never another host (//evil.example, /\\evil.example, https://...)."""
    if not target or not isinstance(target, str) or len(target) > 500:
        return None
    if not target.startswith("/") or target.startswith("//") or target.startswith("/\\") \
            or any(ch == "\\" or ord(ch) < 32 or ord(ch) == 127 for ch in target):
        return None
    return target


def _signup_open() -> bool:
    allowed = current_app.config["ALLOW_SIGNUP"]
    if allowed == "first":  # a laptop's default: the first teacher signs up, the others are invited
        return not accounts.any_teacher()
    return bool(allowed)


def _device_signer() -> URLSafeTimedSerializer:
    key = current_app.secret_key
    assert key is not None  # always set: app/config.py settings makes or demands one
    return URLSafeTimedSerializer(key, salt="authors-device")


def known_device() -> accounts.Device | None:
    """This browser's device cookie, if it is one the server signed (within DEVICE_DAYS)."""
    raw = request.cookies.get(DEVICE_COOKIE)
    if not raw or len(raw) > 1000:
        return None
    try:
        data = _device_signer().loads(raw, max_age=DEVICE_DAYS * 86400)
    except BadData:
        return None
    nonce, ids = (data.get("n"), data.get("a")) if isinstance(data, dict) else (None, None)
    if not isinstance(nonce, str) or not isinstance(ids, list) or not all(type(i) is int for i in ids):
        return None
    return accounts.Device(nonce=nonce, accounts=tuple(ids))


def remember_device(response: BaseResponse, teacher: Any) -> BaseResponse:
    """The device cookie, naming this account too (and kept another DEVICE_DAYS)."""
    device = known_device()
    nonce = device.nonce if device else new_token()
    ids = [i for i in (device.accounts if device else ()) if i != teacher.id][-(DEVICE_ACCOUNTS - 1):] + [teacher.id]
    response.set_cookie(DEVICE_COOKIE, _device_signer().dumps({"n": nonce, "a": ids}), max_age=DEVICE_DAYS * 86400,
                        path=url_for("accounts.login"), secure=bool(current_app.config.get("SESSION_COOKIE_SECURE")),
                        httponly=True, samesite="Lax")
    return response


def _sign_in(teacher: Any, response: BaseResponse) -> BaseResponse:
    """A log-in of its own for this browser (the one it had before, if any, ends), and the device cookie."""
    me = asking.teacher()
    before = me.login_token if me is not None else None
    accounts.start_login(teacher, replacing=before, max_idle=_max_idle())
    login_user(teacher)
    session.permanent = True
    return remember_device(response, teacher)


@bp.route("/login", methods=["GET", "POST"])
def login() -> ResponseReturnValue:
    next_url = safe_next(request.values.get("next"))
    if request.method == "GET":
        if asking.teacher() is not None:
            return redirect(next_url or url_for("tables.overview"))
        return render_template("accounts/login.html", name="", next=next_url, error=None,
                               signup_open=_signup_open())
    name = request.form.get("name", "")
    try:
        teacher = accounts.authenticate(name, request.form.get("password", ""), known_device())
    except ServiceError as exc:
        return render_template("accounts/login.html", name=name[:200], next=next_url, error=translated(exc),
                               signup_open=_signup_open()), exc.status
    return _sign_in(teacher, redirect(next_url or url_for("tables.overview"), 303))


@bp.post("/logout")
def logout() -> BaseResponse:
    me = asking.teacher()
    if me is not None:
        accounts.end_login(me.login_token)
    logout_user()
    return redirect(url_for("library.index"), 303)


@bp.route("/signup", methods=["GET", "POST"])
def signup() -> ResponseReturnValue:
    invite = request.values.get("invite") or None
    if request.method == "GET":
        error, status = None, 200
        try:
            if invite:
                accounts.find_invitation(invite)
            elif not _signup_open():
                error, status = _("Sign-up is closed on this server: ask a teacher who has an account for an "
                                  "invitation link."), 403
        except ServiceError as exc:
            error, status = translated(exc), exc.status
        return render_template("accounts/signup.html", name="", invite=invite, error=error,
                               closed=status != 200), status
    name = request.form.get("name", "")
    try:
        teacher = accounts.sign_up(name, request.form.get("password", ""), request.form.get("repeat", ""),
                                   invitation_token=invite, open_signup=_signup_open())
    except ServiceError as exc:
        return render_template("accounts/signup.html", name=name[:200], invite=invite, error=translated(exc),
                               closed=exc.code in ("signup-closed", "unknown-invitation", "invitation-used",
                                                   "invitation-expired")), exc.status
    return _sign_in(teacher, redirect(url_for("tables.overview"), 303))


def _account_page(status: int = 200, **extra: Any) -> tuple[str, int]:
    context = {"new_link": None, "error": None, "done": None, "invitation_days": accounts.INVITATION_DAYS, **extra}
    return render_template("accounts/account.html", invitations=accounts.invitations_of(current_user),
                           **context), status


@bp.get("/account")
@teacher_required
def account() -> tuple[str, int]:
    return _account_page()


@bp.post("/account/password")
@teacher_required
def change_password() -> tuple[str, int]:
    form = request.form
    try:
        accounts.change_password(current_user, form.get("current", ""), form.get("new", ""), form.get("repeat", ""),
                                 keep_login=current_user.login_token)  # this browser stays logged in
    except ServiceError as exc:
        return _account_page(exc.status, error=translated(exc))
    return _account_page(done=_("Your password is changed; any other browser logged in as you is logged out."))


@bp.post("/account/time-zone")
@teacher_required
def time_zone() -> Response:
    """The browser's time zone, sent once by js/time_zone.js: {"time_zone": "Europe/Paris"}. The teacher's
    pages then show times in it; a name zoneinfo does not know is a 400 with a sentence."""
    body = request.get_json(silent=True)
    if not isinstance(body, dict) or "time_zone" not in body:
        raise BadRequest(N_('send JSON such as {"time_zone": "Europe/Paris"}'), code="bad-time-zone")
    return jsonify(time_zone=time_zones.remember(current_user._get_current_object(), body["time_zone"]))


@bp.post("/account/invitations")
@teacher_required
def invite() -> tuple[str, int]:
    token = accounts.create_invitation(current_user)
    return _account_page(new_link=public_url("accounts.signup", invite=token))
