"""Server CPU to read a student's due works and deal them back (issue #34's target: under 50 ms).

    .venv/bin/python bench/review_deal.py [--students 30] [--due 100] [--rounds 200] [--database URL]

A class of `--students` roster students, each with a schedule of every work of the 1861 deck (52), of
which `--due` in all are due now (spread over the students); the rest are due in the coming weeks. Each
round is what dealing a game for one student does (app/services/deals.py `_dealt_back`): the due works'
read (one query on the index of (student, deck, due)), the deal as it falls, the due works moved into
the computers' hands (app/engine/dealing.py) and the game dealt again from those hands. Prints the CPU
time of a round (process time: this process only), median and 95th percentile, as JSON.

`--homework` times instead a whole homework game's start, as a student's tap on her name does it
(app/services/homework.py `start`): the link's and the roster's checks, her game looked for, a new table
of the 1861 rules with three computers, its deal with her due works dealt back, and the commit.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import tempfile
import time
from pathlib import Path

from app import create_app
from app.db import db
from app.decks import builtin_decks
from app.engine.dealing import deal_back
from app.engine.game import Game
from app.engine.options import make_options
from app.models import ReviewCard, RosterStudent, SchoolClass, Teacher
from app.services import reviews

DECK_ID = "authors-1861"


def fill(students: int, due: int, rng: random.Random) -> list[int]:
    teacher = Teacher(name="Bench Teacher", name_key="bench teacher", password_hash="x")
    db.session.add(teacher)
    db.session.flush()
    school_class = SchoolClass(teacher_id=teacher.id, name="7B")
    db.session.add(school_class)
    db.session.flush()
    ids = []
    for number in range(students):
        student = RosterStudent(class_id=school_class.id, name=f"S{number}", name_key=f"s{number}")
        db.session.add(student)
        db.session.flush()
        ids.append(student.id)
    cards = [card.id for card in builtin_decks()[DECK_ID].cards]
    now = time.time()
    pairs = [(sid, card) for sid in ids for card in cards]
    due_now = set(rng.sample(range(len(pairs)), due))
    for index, (sid, card) in enumerate(pairs):
        when = now - rng.uniform(60, 7 * 86400) if index in due_now else now + rng.uniform(3600, 28 * 86400)
        db.session.add(ReviewCard(student_id=sid, deck_key=DECK_ID, card_id=card, due=when, last_review=now - 86400,
                                  reviews=1, lapses=0, state_json="{}"))
    db.session.commit()
    return ids


def one_round(student_id: int, seed: int) -> int:
    deck, options = builtin_decks()[DECK_ID], make_options("classic", {"name_the_work": True})
    players = ["Anna", "Computer 1", "Computer 2", "Computer 3"]
    game = Game(deck, options, players, seed=seed, rules="classic")
    due = reviews.due_works([student_id], DECK_ID, time.time())
    set_of = {card.id: card_set.id for card_set in game.deck.sets for card in card_set.cards}
    moved = deal_back(game.initial_hands, game.initial_stock, set_of, [(w.card_id, "Anna") for w in due], players[1:])
    Game(deck, options, players, hands=moved.hands, stock=moved.stock or None, seed=seed, rules="classic")
    return len(moved.placed)


def assigned():
    from app.services import homework

    teacher = Teacher.query.one()
    school_class = SchoolClass.query.one()
    return homework.create(teacher, school_class.id, {"rules": "classic", "deck": DECK_ID, "computers": 3,
                                                      "due": time.strftime("%Y-%m-%d", time.gmtime(time.time() + 7 * 86400))})


def homework_round(assignment, student_id: int) -> int:
    from app.models import Table
    from app.services import homework

    started = homework.start(assignment, student_id)
    table = Table.query.filter_by(code=started.table_code).one()
    table.status = "finished"  # (her next tap deals a new game)
    db.session.commit()
    due = {work.card_id for work in reviews.due_works([student_id], DECK_ID, time.time())}
    hands = json.loads(table.deals[0].header_json)["hands"]
    return sum(1 for name, cards in hands.items() if name != table.seats[0].name for card in cards if card in due)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--students", type=int, default=30)
    parser.add_argument("--due", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=200)
    parser.add_argument("--database", default=None, help="a database URL (default: a new SQLite file)")
    parser.add_argument("--homework", action="store_true", help="time a whole homework game's start")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="review-bench-"))
    url = args.database or f"sqlite:///{folder / 'bench.sqlite3'}"
    os.environ.setdefault("AUTHORS_INSTANCE_PATH", str(folder / "instance"))
    app = create_app({"SQLALCHEMY_DATABASE_URI": url, "SECRET_KEY": "bench"})
    rng = random.Random(7)
    with app.app_context():
        ids = fill(args.students, args.due, rng)
        assignment = assigned() if args.homework else None
        timings, placed = [], []
        for number in range(args.rounds):
            student = ids[number % len(ids)]
            started = time.process_time()
            if assignment is not None:
                placed.append(homework_round(assignment, student))
            else:
                placed.append(one_round(student, number))
            timings.append((time.process_time() - started) * 1000)
            db.session.rollback()  # (each round's read ends, as a request's does)
    timings.sort()
    print(json.dumps({"students": args.students, "due": args.due, "rounds": args.rounds,
                      "measured": "homework start" if args.homework else "read and deal",
                      "cpu_ms_median": round(statistics.median(timings), 3),
                      "cpu_ms_p95": round(timings[int(0.95 * (len(timings) - 1))], 3),
                      "works_dealt_back_per_game": round(statistics.mean(placed), 2)}))


if __name__ == "__main__":
    main()
