"""Class reports for the teacher: what each table and each student did over a period, every answer to
name-the-work, the works each deck's players name least; CSV exports. Teachers only, their own tables."""
from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, g, render_template, request
from flask_login import current_user

from ..services import classes, reports
from .asking import teachers_only

bp = Blueprint("reports", __name__, url_prefix="/reports")
teachers_only(bp)


def _period() -> reports.Period:
    """The days asked for, days of the teacher's time zone once the browser has told it (else UTC)."""
    return reports.period(request.args.get("from"), request.args.get("to"), zone=g.get("time_zone"))


def _class() -> Any:
    """The class asked for (?class=ID), one of the teacher's own; None for every table. (A row of
    app/models.py, which the web does not name.)"""
    number = request.args.get("class")
    return classes.get_own(current_user.id, number) if number else None


def _student() -> str | None:
    name = " ".join(request.args.get("student", "").split())
    return name[:40] or None


@bp.get("/")
def index() -> str:
    """Every table of the teacher's in the period, every student, the works named least."""
    school_class = _class()
    report = reports.build(current_user.id, _period(), student=_student(),
                           class_id=school_class.id if school_class else None)
    return _page(report, None, school_class)


@bp.get("/tables/<code>")
def table(code: str) -> str:
    """One table: its students and every answer typed at it."""
    found = reports.own_table(current_user.id, code)
    report = reports.build(current_user.id, _period(), table_code=found.code, student=_student())
    return _page(report, found)


def _page(report: reports.Report, table: Any, school_class: Any = None) -> str:
    csv_args: dict[str, str | int] = dict(report.period.query())
    if table is not None:
        csv_args["table"] = table.code
    if school_class is not None:
        csv_args["class"] = school_class.id
    student = _student()
    if student:
        csv_args["student"] = student
    return render_template("reports/index.html", report=report, student=student, table=table, csv_args=csv_args,
                           time_zone=g.get("time_zone"), school_class=school_class,
                           classes=classes.of_teacher(current_user.id))


def _csv(text: str, name: str) -> Response:
    response = Response(text, mimetype="text/csv")
    response.headers["Content-Disposition"] = f'attachment; filename="{name}"'
    response.headers["Cache-Control"] = "private, no-store"
    return response


def _narrowed_report() -> tuple[reports.Period, reports.Report]:
    """The period's report, narrowed by ?table=CODE (one of the teacher's own) and ?student=NAME."""
    when = _period()
    code = request.args.get("table") or None
    if code:
        code = reports.own_table(current_user.id, code).code
    school_class = _class()
    return when, reports.build(current_user.id, when, table_code=code, student=_student(),
                               class_id=school_class.id if school_class else None)


@bp.get("/answers.csv")
def answers_csv() -> Response:
    """Every name-the-work answer of the period."""
    when, report = _narrowed_report()
    return _csv(reports.answers_csv(report), f"answers-{when.first}-{when.last}.csv")


@bp.get("/students.csv")
def students_csv() -> Response:
    when, report = _narrowed_report()
    return _csv(reports.students_csv(report), f"students-{when.first}-{when.last}.csv")
