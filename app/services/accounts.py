"""Teacher accounts: sign-up (open, or by a one-use invitation), log-in with a rate limit that holds
across processes, password changes. Passwords are hashed with werkzeug.security (scrypt)."""
from __future__ import annotations

import time
import unicodedata

from flask_babel import gettext as _
from flask_babel import ngettext
from sqlalchemy.exc import IntegrityError
from werkzeug.security import check_password_hash, generate_password_hash

from ..db import db
from ..models import Invitation, Teacher
from . import ratelimit
from .codes import name_key, new_token, token_hash, token_matches
from .errors import BadRequest, Conflict, NotFound, ServiceError, TooManyAttempts

NAME_MIN, NAME_MAX = 2, 60
PASSWORD_MIN, PASSWORD_MAX = 8, 256
HASH_METHOD = "scrypt"
INVITATION_DAYS = 14
LOGIN_FAILURES = 10            # failed log-ins per account and address ...
LOGIN_WINDOW = 15 * 60         # ... within this many seconds, then 429 until the window ends

_dummy_hash: str | None = None  # checked against when the account does not exist: the same time either way


class LoginFailed(ServiceError):
    status, code = 401, "login-failed"


def clean_teacher_name(text) -> str:
    if not isinstance(text, str):
        raise BadRequest(_("a name is a piece of text"))
    name = " ".join(unicodedata.normalize("NFC", text).split())
    if not NAME_MIN <= len(name) <= NAME_MAX:
        raise BadRequest(_("a teacher's name has %(least)d to %(most)d characters", least=NAME_MIN, most=NAME_MAX))
    if any(unicodedata.category(ch).startswith("C") for ch in name):
        raise BadRequest(_("a name cannot hold control characters"))
    return name


def check_password_rules(password) -> str:
    if not isinstance(password, str) or len(password) < PASSWORD_MIN:
        raise BadRequest(_("a password has at least %(num)d characters", num=PASSWORD_MIN))
    if len(password) > PASSWORD_MAX:
        raise BadRequest(_("a password has at most %(num)d characters", num=PASSWORD_MAX))
    return password


def hash_password(password: str) -> str:
    return generate_password_hash(password, method=HASH_METHOD)


def find_by_name(name: str) -> Teacher | None:
    name = " ".join(str(name).split())
    if not name or len(name) > NAME_MAX or any(unicodedata.category(ch).startswith("C") for ch in name):
        return None  # no account has such a name (and a NUL would upset PostgreSQL)
    return Teacher.query.filter_by(name_key=name_key(name)).one_or_none()


def get(teacher_id: int) -> Teacher | None:
    return db.session.get(Teacher, teacher_id)


def create_teacher(name, password, invited_by: int | None = None, password_hash: str | None = None) -> Teacher:
    """A new account. `password_hash` lets a caller that already hashed (tests) skip the work."""
    name = clean_teacher_name(name)
    if password_hash is None:
        password_hash = hash_password(check_password_rules(password))
    if find_by_name(name) is not None:
        raise Conflict(_('There is already a teacher called "%(name)s"; choose another name.', name=name),
                       code="name-taken")
    teacher = Teacher(name=name, name_key=name_key(name), password_hash=password_hash, invited_by=invited_by)
    db.session.add(teacher)
    try:
        db.session.commit()
    except IntegrityError:
        db.session.rollback()
        raise Conflict(_('There is already a teacher called "%(name)s"; choose another name.', name=name),
                       code="name-taken") from None
    return teacher


def _login_key(name: str, address: str | None) -> str:
    return f"login:{name_key(' '.join(str(name).split()))}:{address or '-'}"


def authenticate(name, password, address: str | None) -> Teacher:
    """The account for this name and password, or a refusal: 401, or 429 after too many failures from
    this address for this account (counted in the database, so every process sees them)."""
    global _dummy_hash
    if not isinstance(name, str) or not isinstance(password, str) or len(password) > PASSWORD_MAX \
            or len(name) > 4 * NAME_MAX:
        raise LoginFailed(_("The name or the password is wrong."))
    key = _login_key(name, address)
    wait = ratelimit.blocked(key, LOGIN_FAILURES, LOGIN_WINDOW)
    if wait:
        minutes = max(1, round(wait / 60))
        raise TooManyAttempts(ngettext("Too many failed log-ins for this account from your address: wait about "
                                       "%(num)d minute and try again.",
                                       "Too many failed log-ins for this account from your address: wait about "
                                       "%(num)d minutes and try again.", minutes))
    teacher = find_by_name(name) if name.strip() else None
    if teacher is None:
        if _dummy_hash is None:
            _dummy_hash = hash_password("not anybody's password")
        check_password_hash(_dummy_hash, password)
        ok = False
    else:
        ok = check_password_hash(teacher.password_hash, password)
    if not ok:
        ratelimit.hit(key, LOGIN_WINDOW)
        raise LoginFailed(_("The name or the password is wrong."))
    ratelimit.reset(key)
    return teacher


def change_password(teacher: Teacher, current, new, repeat) -> None:
    if not isinstance(current, str) or not check_password_hash(teacher.password_hash, current):
        raise BadRequest(_("The current password is wrong."), code="wrong-password")
    check_password_rules(new)
    if new != repeat:
        raise BadRequest(_("The two new passwords differ."), code="passwords-differ")
    teacher.password_hash = hash_password(new)
    teacher.session_version = (teacher.session_version or 1) + 1  # every other session of the account ends
    db.session.commit()


# ----------------------------------------------------------------------------------------------------
# Invitations
# ----------------------------------------------------------------------------------------------------
def create_invitation(teacher: Teacher) -> str:
    """A one-use sign-up link's secret; only its hash is stored."""
    token = new_token()
    db.session.add(Invitation(token_hash=token_hash(token), created_by=teacher.id,
                              expires_at=time.time() + INVITATION_DAYS * 86400))
    db.session.commit()
    return token


def invitations_of(teacher: Teacher) -> list[Invitation]:
    return (Invitation.query.filter_by(created_by=teacher.id)
            .order_by(Invitation.created_at.desc(), Invitation.id.desc()).limit(50).all())


def find_invitation(token) -> Invitation:
    """The unused, unexpired invitation for this secret, or a clear refusal."""
    if not isinstance(token, str) or not 10 <= len(token) <= 100:
        raise NotFound(_("This invitation link is not valid; ask for a new one."), code="unknown-invitation")
    found = Invitation.query.filter_by(token_hash=token_hash(token)).one_or_none()
    if found is None or not token_matches(token, found.token_hash):
        raise NotFound(_("This invitation link is not valid; ask for a new one."), code="unknown-invitation")
    if found.used_at is not None:
        raise Conflict(_("This invitation link has already been used; ask for a new one."), code="invitation-used")
    if found.expires_at < time.time():
        raise Conflict(_("This invitation link has expired; ask for a new one."), code="invitation-expired")
    return found


def sign_up(name, password, repeat, invitation_token: str | None = None, open_signup: bool = True) -> Teacher:
    """A new account, open to anyone when sign-up is open, else by an invitation (used up here)."""
    invitation = find_invitation(invitation_token) if invitation_token else None
    if invitation is None and not open_signup:
        raise ServiceError(_("Sign-up is closed on this server: ask a teacher who has an account for an "
                             "invitation link."), code="signup-closed", status=403)
    check_password_rules(password)
    if password != repeat:
        raise BadRequest(_("The two passwords differ."), code="passwords-differ")
    if invitation is not None:
        # Claim the invitation first, in one UPDATE: two sign-ups with one link cannot both succeed.
        claimed = (Invitation.query.filter(Invitation.id == invitation.id, Invitation.used_at.is_(None))
                   .update({Invitation.used_at: time.time()}, synchronize_session=False))
        db.session.commit()
        if not claimed:
            raise Conflict(_("This invitation link has already been used; ask for a new one."), code="invitation-used")
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
