"""Classes and their rosters, still without student accounts: a teacher pastes a list of first names; a
table opened for the class lets its students join by picking their name (no typing, no two of one name),
optionally confirmed by the class word shown on the projector; the seat remembers the roster student, so
a child's results join up across tables and days (app/services/reports.py).

A name taken off the roster is kept, marked removed: it is no longer offered, and the deals it played
stay in the reports under it.
"""
from __future__ import annotations

import re
import secrets
from typing import Any, overload

from ..db import begin_write, db, row_by_id
from ..decks.errors import N_, say
from ..models import RosterStudent, SchoolClass
from ..store import TableLike
from ..store.codes import NameProblem, clean_name, name_key
from .errors import BadRequest, Conflict, NotFound

MAX_STUDENTS = 60       # a class, or two classes together
CLASS_NAME_MAX = 80
MAX_CLASSES = 100       # per teacher
WORD_LETTERS = "ABCDEFGHJKLMNPRSTUVWXYZ"  # no I, O, Q: read off a wall, they pass for 1, 0 and O
WORD_LENGTH = 4
_SEPARATORS = re.compile(r"[\n\r\t,;]+")


def parse_roster(text: Any) -> list[str]:
    """The first names of a pasted list (one a line, or separated by commas or semicolons), as shown,
    each once (the first spelling kept); a BadRequest that names the name that cannot be one."""
    if not isinstance(text, str):
        raise BadRequest(N_("paste the students' first names, one a line"))
    names: list[str] = []
    seen: set[str] = set()
    for piece in _SEPARATORS.split(text):
        if not piece.strip():
            continue
        try:
            name = clean_name(piece)
        except NameProblem as problem:
            raise BadRequest(say(N_('"%(name)s": %(reason)s'), name=piece.strip()[:60],
                                 reason=say(problem.template, **problem.params))) from None
        if name_key(name) not in seen:
            seen.add(name_key(name))
            names.append(name)
    return names


def _checked_name(value: Any) -> str:
    name = " ".join(str(value or "").split())
    if not name:
        raise BadRequest(N_("a class needs a name (for example “7B” or “Tuesday reading club”)"))
    if len(name) > CLASS_NAME_MAX:
        raise BadRequest(say(N_("a class's name has at most %(max)d characters"), max=CLASS_NAME_MAX))
    return name


def new_word() -> str:
    return "".join(secrets.choice(WORD_LETTERS) for _ in range(WORD_LENGTH))


def create(teacher_id: int, name: Any, roster: Any, with_word: bool = False) -> SchoolClass:
    """A class of this teacher's, with the pasted names (at least one)."""
    name = _checked_name(name)
    names = parse_roster(roster)
    if not names:
        raise BadRequest(N_("paste the students' first names, one a line"))
    if len(names) > MAX_STUDENTS:
        raise BadRequest(say(N_("a class has at most %(max)d students, not %(count)d"), max=MAX_STUDENTS,
                             count=len(names)))
    if SchoolClass.query.filter_by(teacher_id=teacher_id).count() >= MAX_CLASSES:
        raise Conflict(say(N_("you have %(max)d classes already: delete one first"), max=MAX_CLASSES))
    begin_write()  # (SQLite: a read turned into a write fails at once when another wrote in between)
    school_class = SchoolClass(teacher_id=teacher_id, name=name, word=new_word() if with_word else None,
                               students=[RosterStudent(name=n, name_key=name_key(n)) for n in names])
    db.session.add(school_class)
    db.session.commit()
    return school_class


def of_teacher(teacher_id: int) -> list[SchoolClass]:
    found: list[SchoolClass] = SchoolClass.query.filter_by(teacher_id=teacher_id).order_by(SchoolClass.name).all()
    return found


def get_own(teacher_id: int | None, class_id: Any) -> SchoolClass:
    """One of this teacher's classes; another teacher's is not found."""
    found = row_by_id(SchoolClass, class_id)
    if found is None or teacher_id is None or found.teacher_id != teacher_id:
        raise NotFound(N_("There is no such class."), code="unknown-class")
    return found


def on_roster(school_class: SchoolClass) -> list[RosterStudent]:
    """The names offered to join, in alphabetical order."""
    return [s for s in school_class.students if not s.removed]


def add_names(school_class: SchoolClass, roster: Any) -> int:
    """Add pasted names (a removed name comes back); returns how many are new on the roster."""
    names = parse_roster(roster)
    begin_write()  # (SQLite: a read turned into a write fails at once when another wrote in between)
    by_key = {name_key(s.name): s for s in school_class.students}  # (a stored key may be of an older rule)
    added = 0
    for name in names:
        known = by_key.get(name_key(name))
        if known is None:
            school_class.students.append(RosterStudent(name=name, name_key=name_key(name)))
            added += 1
        elif known.removed:
            known.removed = False
            added += 1
    if len(on_roster(school_class)) > MAX_STUDENTS:
        db.session.rollback()
        raise BadRequest(say(N_("a class has at most %(max)d students"), max=MAX_STUDENTS))
    db.session.commit()
    return added


def remove_student(school_class: SchoolClass, student_id: Any) -> RosterStudent:
    student: RosterStudent | None = next((s for s in school_class.students
                                          if str(s.id) == str(student_id) and not s.removed), None)
    if student is None:
        raise NotFound(N_("There is no such student on this class's roster."), code="unknown-student")
    begin_write()
    student.removed = True
    db.session.commit()
    return student


def set_word(school_class: SchoolClass, on: bool) -> None:
    begin_write()
    school_class.word = new_word() if on else None
    db.session.commit()


def delete(school_class: SchoolClass) -> None:
    """The class and its roster go; tables and reports keep the names they were played with."""
    begin_write()
    db.session.delete(school_class)
    db.session.commit()


@overload
def student_of(class_id: int, student_id: Any) -> RosterStudent: ...
@overload
def student_of(class_id: None, student_id: Any) -> None: ...


def student_of(class_id: int | None, student_id: Any) -> RosterStudent | None:
    """The roster student a joining browser picked, at a table opened for that class."""
    if class_id is None:
        return None
    found = row_by_id(RosterStudent, student_id)
    if found is None or found.class_id != class_id or found.removed:
        raise BadRequest(N_("pick your name from the class list"), code="unknown-student")
    return found


def word_matches(school_class: SchoolClass | None, typed: Any) -> bool:
    if school_class is None or not school_class.word:
        return True
    return isinstance(typed, str) and typed.strip().upper() == school_class.word


def class_of(table: TableLike) -> SchoolClass | None:
    """The class a table was opened for, while it exists."""
    return db.session.get(SchoolClass, table.class_id) if getattr(table, "class_id", None) else None
