"""Teacher accounts: sign-up (open, or by a one-use invitation), log-in with a rate limit that holds
across processes, each browser's log-in kept in the database (so a log-out ends it), password changes.
Passwords are hashed with werkzeug.security (scrypt)."""
from __future__ import annotations

import time
import unicodedata
from dataclasses import dataclass
from typing import Any

from sqlalchemy import delete, select, update
from sqlalchemy.exc import IntegrityError
from werkzeug.security import check_password_hash, generate_password_hash

from ..decks.errors import N_, N_plural, say
from ..db import begin_write, db
from ..models import Invitation, Teacher, TeacherLogin
from . import ratelimit
from ..store.codes import account_key, new_token, token_hash, token_matches
from .errors import BadRequest, Conflict, NotFound, ServiceError, TooManyAttempts

NAME_MIN, NAME_MAX = 2, 60
PASSWORD_MIN, PASSWORD_MAX = 8, 256
HASH_METHOD = "scrypt"
INVITATION_DAYS = 14
LOGIN_FAILURES = 10            # failed log-ins per account from unknown browsers, and per known browser ...
LOGIN_WINDOW = 15 * 60         # ... within this many seconds, then 429 until the window ends

SEEN_EVERY = 3600             # a log-in's seen_at is written at most this often (not on every poll)

_dummy_hash: str | None = None  # checked against when the account does not exist: the same time either way


class LoginFailed(ServiceError):
    status, code = 401, "login-failed"


def clean_teacher_name(text: Any) -> str:
    if not isinstance(text, str):
        raise BadRequest(N_("a name is a piece of text"))
    name = " ".join(unicodedata.normalize("NFC", text).split())
    if not NAME_MIN <= len(name) <= NAME_MAX:
        raise BadRequest(say(N_("a teacher's name has %(least)d to %(most)d characters"),
                             least=NAME_MIN, most=NAME_MAX))
    if any(unicodedata.category(ch).startswith("C") for ch in name):
        raise BadRequest(N_("a name cannot hold control characters"))
    return name


def check_password_rules(password: Any) -> str:
    if not isinstance(password, str) or len(password) < PASSWORD_MIN:
        raise BadRequest(say(N_("a password has at least %(num)d characters"), num=PASSWORD_MIN))
    if len(password) > PASSWORD_MAX:
        raise BadRequest(say(N_("a password has at most %(num)d characters"), num=PASSWORD_MAX))
    return password


def hash_password(password: str) -> str:
    return generate_password_hash(password, method=HASH_METHOD)


def find_by_name(name: str) -> Teacher | None:
    name = " ".join(str(name).split())
    if not name or len(name) > NAME_MAX or any(unicodedata.category(ch).startswith("C") for ch in name):
        return None  # no account has such a name (and a NUL would upset PostgreSQL)
    found: Teacher | None = Teacher.query.filter_by(name_key=account_key(name)).one_or_none()
    return found


def get(teacher_id: int) -> Teacher | None:
    return db.session.get(Teacher, teacher_id)


def any_teacher() -> bool:
    return db.session.query(Teacher.id).limit(1).first() is not None


def create_teacher(name: Any, password: Any, invited_by: int | None = None,
                   password_hash: str | None = None) -> Teacher:
    """A new account. `password_hash` lets a caller that already hashed (tests) skip the work."""
    name = clean_teacher_name(name)
    if password_hash is None:
        password_hash = hash_password(check_password_rules(password))
    if find_by_name(name) is not None:
        raise Conflict(say(N_('There is already a teacher called "%(name)s"; choose another name.'), name=name),
                       code="name-taken")
    begin_write()  # (SQLite: a read turned into a write fails at once when another wrote in between)
    teacher = Teacher(name=name, name_key=account_key(name), password_hash=password_hash, invited_by=invited_by)
    db.session.add(teacher)
    try:
        db.session.commit()
    except IntegrityError:
        db.session.rollback()
        raise Conflict(say(N_('There is already a teacher called "%(name)s"; choose another name.'), name=name),
                       code="name-taken") from None
    return teacher


@dataclass(frozen=True)
class Device:
    """A browser that has logged in to these accounts before: its signed device cookie (the OWASP
    pattern against online guessing, read by app/web/accounts.py). Another browser's failures do not
    lock it out."""
    nonce: str                     # random, made with the cookie: this browser's own count of failures
    accounts: tuple[int, ...] = ()  # the accounts it logged in to, the latest last


def _login_key(name: str, teacher: Teacher | None, device: Device | None) -> tuple[str, bool]:
    """The count this log-in attempt goes into, and whether it is the browser's own (a known device)."""
    if teacher is not None and device is not None and teacher.id in device.accounts:
        return f"login:{teacher.id}:device:{device.nonce}", True
    return f"login:{account_key(' '.join(str(name).split()))}:unknown-browsers", False


def authenticate(name: Any, password: Any, device: Device | None = None) -> Teacher:
    """The account for this name and password, or a refusal: 401, or 429 after LOGIN_FAILURES failures
    within LOGIN_WINDOW. A browser that logged in to the account before (`device`) has a count of its
    own; every other browser shares the account's. The attempt is counted in the database BEFORE the
    password is checked, atomically (ratelimit.take), so parallel attempts check at most LOGIN_FAILURES
    passwords in every process together; a success gives its place back."""
    global _dummy_hash
    if not isinstance(name, str) or not isinstance(password, str) or len(password) > PASSWORD_MAX \
            or len(name) > 4 * NAME_MAX:
        raise LoginFailed(N_("The name or the password is wrong."))
    teacher = find_by_name(name) if name.strip() else None
    key, known = _login_key(name, teacher, device)
    wait = ratelimit.take(key, LOGIN_FAILURES, LOGIN_WINDOW)
    if wait:
        minutes = max(1, round(wait / 60))
        if known:
            raise TooManyAttempts(say(N_plural(
                "Too many failed log-ins for this account in this browser: wait about %(num)d minute and try again.",
                "Too many failed log-ins for this account in this browser: wait about %(num)d minutes and try again."),
                num=minutes))
        raise TooManyAttempts(say(N_plural(
            "Too many failed log-ins for this account from browsers it has not logged in from before: log in from "
            "a browser you have used before, or wait about %(num)d minute and try again.",
            "Too many failed log-ins for this account from browsers it has not logged in from before: log in from "
            "a browser you have used before, or wait about %(num)d minutes and try again."), num=minutes))
    if teacher is None:
        if _dummy_hash is None:
            _dummy_hash = hash_password("not anybody's password")
        check_password_hash(_dummy_hash, password)
        raise LoginFailed(N_("The name or the password is wrong."))  # (the attempt stays counted)
    if not check_password_hash(teacher.password_hash, password):
        raise LoginFailed(N_("The name or the password is wrong."))  # (the attempt stays counted)
    ratelimit.give_back(key, LOGIN_WINDOW)
    return teacher


def change_password(teacher: Teacher, current: Any, new: Any, repeat: Any, keep_login: str | None = None) -> None:
    """A new password; every log-in of the account ends but `keep_login` (the browser it was changed in)."""
    if not isinstance(current, str) or not check_password_hash(teacher.password_hash, current):
        raise BadRequest(N_("The current password is wrong."), code="wrong-password")
    check_password_rules(new)
    if new != repeat:
        raise BadRequest(N_("The two new passwords differ."), code="passwords-differ")
    new_hash = hash_password(new)
    begin_write()
    teacher.password_hash = new_hash
    others = delete(TeacherLogin).where(TeacherLogin.teacher_id == teacher.id)
    if keep_login:
        others = others.where(TeacherLogin.token_hash != token_hash(keep_login))
    db.session.execute(others.execution_options(synchronize_session=False))
    db.session.commit()


# ----------------------------------------------------------------------------------------------------
# Log-ins: one row per browser, its secret token in that browser's session cookie
# ----------------------------------------------------------------------------------------------------
def start_login(teacher: Teacher, replacing: str | None = None, max_idle: float = 31 * 86400) -> str:
    """A new log-in of this account in one browser: its secret token, for the session cookie (only its
    hash is stored). `replacing` is the browser's log-in before, if any: it ends. Log-ins unused for
    longer than `max_idle` seconds (a session's lifetime) are deleted on the way."""
    token, now = new_token(), time.time()
    begin_write()
    stale = TeacherLogin.seen_at < now - max_idle
    if replacing:
        stale = stale | (TeacherLogin.token_hash == token_hash(replacing))
    db.session.execute(delete(TeacherLogin).where(stale).execution_options(synchronize_session=False))
    db.session.add(TeacherLogin(token_hash=token_hash(token), teacher_id=teacher.id, created_at=now, seen_at=now))
    db.session.commit()
    teacher.login_token, teacher.login_seen_at = token, now
    return token


def logged_in_teacher(teacher_id: int, token: str, max_idle: float) -> Teacher | None:
    """The account of this log-in, if it still stands (not logged out, not ended by a password change,
    used within `max_idle` seconds): one query, on every request of a logged-in teacher."""
    if not token or len(token) > 100:
        return None
    row = db.session.execute(select(Teacher, TeacherLogin.seen_at)
                             .join(TeacherLogin, TeacherLogin.teacher_id == Teacher.id)
                             .where(TeacherLogin.token_hash == token_hash(token), Teacher.id == teacher_id)).first()
    if row is None or row.seen_at < time.time() - max_idle:
        return None
    teacher: Teacher = row.Teacher
    teacher.login_token, teacher.login_seen_at = token, row.seen_at
    return teacher


def note_seen(teacher: Teacher) -> None:
    """Write down that this log-in is in use, at most once every SEEN_EVERY seconds. Call it before the
    request's own work: it ends the request's transaction."""
    now = time.time()
    if not teacher.login_token or (teacher.login_seen_at or 0) > now - SEEN_EVERY:
        return
    begin_write()
    db.session.execute(update(TeacherLogin).where(TeacherLogin.token_hash == token_hash(teacher.login_token))
                       .values(seen_at=now).execution_options(synchronize_session=False))
    db.session.commit()
    teacher.login_seen_at = now


def end_login(token: str | None) -> None:
    """Log out: this log-in's row goes, so its session cookie, saved anywhere, opens nothing any more."""
    if token:
        begin_write()
        db.session.execute(delete(TeacherLogin).where(TeacherLogin.token_hash == token_hash(token))
                           .execution_options(synchronize_session=False))
        db.session.commit()


# ----------------------------------------------------------------------------------------------------
# Invitations
# ----------------------------------------------------------------------------------------------------
def create_invitation(teacher: Teacher) -> str:
    """A one-use sign-up link's secret; only its hash is stored."""
    token = new_token()
    begin_write()
    db.session.add(Invitation(token_hash=token_hash(token), created_by=teacher.id,
                              expires_at=time.time() + INVITATION_DAYS * 86400))
    db.session.commit()
    return token


def invitations_of(teacher: Teacher) -> list[Invitation]:
    found: list[Invitation] = (Invitation.query.filter_by(created_by=teacher.id)
                               .order_by(Invitation.created_at.desc(), Invitation.id.desc()).limit(50).all())
    return found


def find_invitation(token: Any) -> Invitation:
    """The unused, unexpired invitation for this secret, or a clear refusal."""
    if not isinstance(token, str) or not 10 <= len(token) <= 100:
        raise NotFound(N_("This invitation link is not valid; ask for a new one."), code="unknown-invitation")
    found: Invitation | None = Invitation.query.filter_by(token_hash=token_hash(token)).one_or_none()
    if found is None or not token_matches(token, found.token_hash):
        raise NotFound(N_("This invitation link is not valid; ask for a new one."), code="unknown-invitation")
    if found.used_at is not None:
        raise Conflict(N_("This invitation link has already been used; ask for a new one."), code="invitation-used")
    if found.expires_at < time.time():
        raise Conflict(N_("This invitation link has expired; ask for a new one."), code="invitation-expired")
    return found


def sign_up(name: Any, password: Any, repeat: Any, invitation_token: str | None = None,
            open_signup: bool = True) -> Teacher:
    """A new account, open to anyone when sign-up is open, else by an invitation (used up here)."""
    invitation = find_invitation(invitation_token) if invitation_token else None
    if invitation is None and not open_signup:
        raise ServiceError(N_("Sign-up is closed on this server: ask a teacher who has an account for an "
                              "invitation link."), code="signup-closed", status=403)
    check_password_rules(password)
    if password != repeat:
        raise BadRequest(N_("The two passwords differ."), code="passwords-differ")
    if invitation is not None:
        # Claim the invitation first, in one UPDATE: two sign-ups with one link cannot both succeed.
        begin_write()
        claimed = (Invitation.query.filter(Invitation.id == invitation.id, Invitation.used_at.is_(None))
                   .update({Invitation.used_at: time.time()}, synchronize_session=False))
        db.session.commit()
        if not claimed:
            raise Conflict(N_("This invitation link has already been used; ask for a new one."), code="invitation-used")
    try:
        teacher = create_teacher(name, password, invited_by=invitation.created_by if invitation else None)
    except ServiceError:
        if invitation is not None:  # the link is not spent by a refused sign-up
            Invitation.query.filter_by(id=invitation.id).update({Invitation.used_at: None},
                                                               synchronize_session=False)
            db.session.commit()
        raise
    if invitation is not None:
        Invitation.query.filter_by(id=invitation.id).update({Invitation.used_by: teacher.id},
                                                           synchronize_session=False)
        db.session.commit()
    return teacher
