"""Homework: the teacher assigns a deck and rules to a class and sees who has done how much; a student
opens the link (/h/<code>), taps her name and plays against computer players, and sees what comes back
when. Thin routes over app/services/homework.py; the JSON API beside the pages (/api/...)."""
from __future__ import annotations

import time
from typing import Any

from flask import Blueprint, jsonify, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_login import current_user

from ..decks.errors import N_, N_plural, say
from ..engine.bots import BOTS
from ..engine.options import PRESETS
from ..i18n import current_language, format_day, iso_time, preset_title, translated
from ..languages import LANGUAGES
from ..services import classes, homework, schemas
from ..services.catalog import BOT_NAMES, catalog
from ..services.errors import ServiceError
from . import guard, seating
from .api import json_body
from .asking import teacher, teacher_required
from .links import public_url, qr_of_link
from .tables import kept_language

bp = Blueprint("homework", __name__)
FORM_FIELDS = ("name", "rules", "deck", "computers", "bot", "games", "opens", "due", "language")


# ----------------------------------------------------------------------------------------------------
# What a page and the API say of an assignment
# ----------------------------------------------------------------------------------------------------
def _described(assignment: Any, now: float) -> dict[str, Any]:
    return {"id": assignment.id, "code": assignment.code, "name": assignment.name, "rules": assignment.rules,
            "deck": assignment.deck_id, "computers": assignment.computers, "bot": assignment.bot,
            "games": assignment.games, "language": assignment.language, "time_zone": assignment.time_zone,
            "opens_on": assignment.opens_on, "due_on": assignment.due_on,
            "opens_at": iso_time(assignment.opens_at), "due_at": iso_time(assignment.due_at),
            "status": homework.status(assignment, now),
            "link": public_url("homework.student_page", code=assignment.code)}


def _progress(assignment: Any) -> list[dict[str, Any]]:
    return [{"student": p.student_id, "name": p.name, "done": p.done, "wanted": assignment.games,
             "playing": p.playing, "last_played": iso_time(p.last_played) if p.last_played else None}
            for p in homework.progress(assignment)]


def _outlook(assignment: Any, student_id: int, now: float) -> dict[str, Any]:
    seen = homework.outlook(assignment, student_id, now)
    return {"games_done": seen.games_done, "games_wanted": seen.games_wanted, "playing": seen.playing,
            "named": [{"card": n.card_id, "title": n.title, "verdict": n.verdict,
                       "due": iso_time(n.due) if n.due is not None else None,
                       "again": _again(n.due, assignment.time_zone, now)} for n in seen.named],
            "due_now": seen.due_now, "next_due": iso_time(seen.next_due) if seen.next_due else None,
            "due_next_day": seen.due_next_day,
            "nudge": _nudge(seen, assignment.time_zone, now)}


def _again(due: float | None, zone: str, now: float) -> str:
    """When a work comes back, in words: "again today", "again tomorrow", "again in 3 days"."""
    if due is None:
        return ""
    days = homework.days_until(due, zone, now)
    if days <= 0:
        return translated(say(N_("again today")))
    if days == 1:
        return translated(say(N_("again tomorrow")))
    return translated(say(N_plural("again in %(num)d day", "again in %(num)d days"),
                                   num=days))


def _nudge(seen: homework.Outlook, zone: str, now: float) -> str:
    """When her next review is worth doing, in a sentence."""
    if seen.due_now:
        return translated(say(N_plural(
            "%(num)d work is due now: a game brings it back.",
            "%(num)d works are due now: a game brings them back."), num=seen.due_now))
    if seen.next_due is None:
        return ""
    days = homework.days_until(seen.next_due, zone, now)
    count = seen.due_next_day
    if days <= 0:
        return translated(say(N_plural(
            "Come back later today: %(num)d work will be due.", "Come back later today: %(num)d works will be due."),
            num=count))
    if days == 1:
        return translated(say(N_plural(
            "Come back tomorrow: %(num)d work will be due.", "Come back tomorrow: %(num)d works will be due."),
            num=count))
    return translated(say(N_plural(
        "Come back on %(day)s: %(num)d work will be due.", "Come back on %(day)s: %(num)d works will be due."),
        num=count, day=format_day(seen.next_due)))


# ----------------------------------------------------------------------------------------------------
# The teacher's pages
# ----------------------------------------------------------------------------------------------------
def _form_page(school_class: Any, form: dict[str, Any], error: ServiceError | None = None) -> ResponseReturnValue:
    decks = catalog(current_user.id)["decks"]
    page = render_template("homework/new.html", school_class=school_class, form=form, decks=decks,
                           presets=[(p, preset_title(p)) for p in PRESETS],
                           bots=[(b, BOT_NAMES.get(b, b)) for b in BOTS], languages=LANGUAGES,
                           error=translated(error) if error else None)
    return (page, error.status) if error else page


def _spec_from_form(form: Any) -> dict[str, Any]:
    spec: dict[str, Any] = {key: form.get(key) for key in FORM_FIELDS if form.get(key) not in (None, "")}
    options: dict[str, Any] = {}
    if form.get("works_listed") == "1":
        options["works_listed"] = True
    if form.get("hints") == "1":
        options["hints"] = True
    spec["options"] = options
    return spec


@bp.route("/classes/<int:number>/homework/new", methods=["GET", "POST"])
@teacher_required
def new(number: int) -> ResponseReturnValue:
    school_class = classes.get_own(current_user.id, number)
    if request.method == "GET":
        return _form_page(school_class, {"language": current_language()})
    try:
        made = homework.create(teacher(), number, _spec_from_form(request.form), default_language=current_language())
    except ServiceError as exc:
        return _form_page(school_class, dict(request.form.items()), exc)
    return redirect(url_for("homework.show", number=made.id), 303)


@bp.get("/homework/<int:number>")
@teacher_required
def show(number: int) -> str:
    assignment = homework.get_own(current_user.id, number)
    now = time.time()
    return render_template("homework/assignment.html", assignment=assignment, about=_described(assignment, now),
                           progress=homework.progress(assignment), school_class=homework.school_class_of(assignment),
                           rules_title=preset_title(assignment.rules), bot_title=BOT_NAMES.get(assignment.bot))


@bp.post("/homework/<int:number>/delete")
@teacher_required
def delete(number: int) -> ResponseReturnValue:
    assignment = homework.get_own(current_user.id, number)
    class_id = assignment.class_id
    homework.delete(assignment)
    return redirect(url_for("classes.show", number=class_id), 303)


@bp.get("/homework/<int:number>/qr.svg")
@teacher_required
def qr(number: int) -> ResponseReturnValue:
    assignment = homework.get_own(current_user.id, number)
    return qr_of_link(public_url("homework.student_page", code=assignment.code))


# ----------------------------------------------------------------------------------------------------
# The teacher's API
# ----------------------------------------------------------------------------------------------------
@bp.post("/api/classes/<int:number>/assignments")
@teacher_required
def api_create(number: int) -> ResponseReturnValue:
    made = homework.create(teacher(), number, json_body(), default_language=current_language())
    return jsonify(_described(made, time.time())), 201


@bp.get("/api/classes/<int:number>/assignments")
@teacher_required
def api_list(number: int) -> ResponseReturnValue:
    school_class = classes.get_own(current_user.id, number)
    now = time.time()
    return jsonify(assignments=[_described(a, now) for a in homework.of_class(school_class)])


@bp.get("/api/assignments/<int:number>")
@teacher_required
def api_show(number: int) -> ResponseReturnValue:
    assignment = homework.get_own(current_user.id, number)
    return jsonify(assignment=_described(assignment, time.time()), progress=_progress(assignment))


# ----------------------------------------------------------------------------------------------------
# The student's side: the link, her name, her game
# ----------------------------------------------------------------------------------------------------
def _me(assignment: Any) -> Any:
    """The roster student this browser tapped for this homework, while she is on its roster."""
    student_id = seating.homework_student(assignment.code)
    return homework.student_named(assignment, student_id) if student_id is not None else None


def _why_not_open(assignment: Any, now: float) -> str:
    why = homework.not_open_sentence(assignment, now)
    return translated(why) if why is not None else ""


def _student_page(assignment: Any, error: ServiceError | None = None, pick: bool = False) -> ResponseReturnValue:
    now = time.time()
    school_class = homework.school_class_of(assignment)
    me = None if pick else _me(assignment)
    page = render_template(
        "homework/student.html", assignment=assignment, status=homework.status(assignment, now),
        closed=_why_not_open(assignment, now), me=me,
        outlook=_outlook(assignment, me.id, now) if me is not None else None,
        roster=homework.roster(assignment), word=bool(school_class.word) and me is None,  # (known: not asked again)
        lang=kept_language(),
        rules_title=preset_title(assignment.rules), error=translated(error) if error else None)
    return (page, error.status) if error else page


@bp.get("/h/<code>")
def student_page(code: str) -> ResponseReturnValue:
    assignment = homework.by_code(code)
    return _student_page(assignment, pick=request.args.get("pick") == "1")


@bp.post("/h/<code>")
def start(code: str) -> ResponseReturnValue:
    assignment = homework.by_code(code)
    student = request.form.get("student") or seating.homework_student(assignment.code)
    try:
        started = guard.start_homework(assignment, student, request.form.get("word"))
    except ServiceError as exc:
        return _student_page(assignment, exc, pick=bool(request.form.get("student")))
    seating.remember_homework(assignment.code, int(str(student)))
    seating.remember_seat(started.table_code, started.position, started.token)
    return redirect(url_for("play.play", code=started.table_code, **kept_language()), 303)


@bp.get("/api/homework/<code>")
def api_student(code: str) -> ResponseReturnValue:
    assignment = homework.by_code(code)
    now = time.time()
    me = _me(assignment)
    school_class = homework.school_class_of(assignment)
    return jsonify(name=assignment.name, rules=assignment.rules, status=homework.status(assignment, now),
                   opens_on=assignment.opens_on, due_on=assignment.due_on, word=bool(school_class.word),
                   message=_why_not_open(assignment, now) or None,
                   roster=[{"id": s.id, "name": s.name} for s in homework.roster(assignment)],
                   me=({"id": me.id, "name": me.name, **_outlook(assignment, me.id, now)} if me is not None else None))


@bp.post("/api/homework/<code>")
def api_start(code: str) -> ResponseReturnValue:
    assignment = homework.by_code(code)
    body = schemas.parse(schemas.HomeworkStart, json_body())
    started = guard.start_homework(assignment, body.student, body.word)
    seating.remember_homework(assignment.code, body.student)
    seating.remember_seat(started.table_code, started.position, started.token)
    return jsonify(table=started.table_code, seat=started.position, resumed=started.resumed,
                   play=url_for("play.play", code=started.table_code))
