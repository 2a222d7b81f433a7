"""Classes and rosters for the teacher: paste a list of first names, keep the roster, open a table for
the class (its students then join by picking their name). Teachers only, their own classes."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import Blueprint, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_login import current_user
from werkzeug.wrappers import Response as BaseResponse

from ..i18n import translated
from ..services import classes, homework
from ..services.errors import ServiceError
from .asking import teachers_only

bp = Blueprint("classes", __name__, url_prefix="/classes")
teachers_only(bp)


def _index(error: ServiceError | None = None, form: Mapping[str, str] | None = None) -> str | tuple[str, int]:
    page = render_template("classes/index.html", classes=classes.of_teacher(current_user.id),
                           error=translated(error) if error else None, form=form or {})
    return (page, error.status) if error else page


@bp.get("/")
def index() -> str | tuple[str, int]:
    return _index()


@bp.post("/")
def create() -> ResponseReturnValue:
    try:
        made = classes.create(current_user.id, request.form.get("name"), request.form.get("names", ""),
                              with_word=request.form.get("word") == "1")
    except ServiceError as exc:
        return _index(exc, request.form)
    return redirect(url_for("classes.show", number=made.id), 303)


def _page(school_class: Any, error: ServiceError | None = None) -> str | tuple[str, int]:
    page = render_template("classes/class.html", school_class=school_class,
                           roster=classes.on_roster(school_class), assignments=homework.of_class(school_class),
                           error=translated(error) if error else None)
    return (page, error.status) if error else page


@bp.get("/<int:number>")
def show(number: int) -> str | tuple[str, int]:
    return _page(classes.get_own(current_user.id, number))


@bp.post("/<int:number>/names")
def add_names(number: int) -> ResponseReturnValue:
    school_class = classes.get_own(current_user.id, number)
    try:
        classes.add_names(school_class, request.form.get("names", ""))
    except ServiceError as exc:
        return _page(school_class, exc)
    return redirect(url_for("classes.show", number=number), 303)


@bp.post("/<int:number>/students/<int:student>/remove")
def remove_student(number: int, student: int) -> BaseResponse:
    classes.remove_student(classes.get_own(current_user.id, number), student)
    return redirect(url_for("classes.show", number=number), 303)


@bp.post("/<int:number>/word")
def word(number: int) -> BaseResponse:
    classes.set_word(classes.get_own(current_user.id, number), request.form.get("on") == "1")
    return redirect(url_for("classes.show", number=number), 303)


@bp.post("/<int:number>/delete")
def delete(number: int) -> BaseResponse:
    classes.delete(classes.get_own(current_user.id, number))
    return redirect(url_for("classes.index"), 303)
