"""A simulated class: does dealing each student's due works back make her remember more?

    .venv/bin/python bench/review_sim.py [--students 30] [--days 28] [--seed 1]

Each of `--students` students plays one homework game a day for `--days` days against three computer
players (the 1861 deck, Authors with its name-the-work bonus: every card she receives she names from
memory). The games are real: the engine deals and plays them (the student's seat is the `memory`
computer player, which asks as a careful child would), and the works she names are the cards she
receives. Twice over the same seeds: once with random deals, once with her due works dealt back into
the computers' hands (app/engine/dealing.py), due as FSRS schedules them from her namings
(app/services/reviews.py's scheduler and ratings).

The student is a forgetting curve (ours, not FSRS's, so the scheduler is not graded by its own model):
every work starts learnt in class on day 0 with a memory of one day; she recalls a work with probability
exp(-days since last practice / memory). A naming recalled strengthens the memory (x 1.5, more when it
was harder: + 3 x (1 - recall)); a naming missed shows her the answer, and the memory starts again at
one day. Printed, as JSON: the share of all works each condition's students recall a week after the
last day (the expected share, averaged), and how many namings they made.
"""
from __future__ import annotations

import argparse
import json
import math
import random
from datetime import datetime, timedelta, timezone

from fsrs import Card

from app.decks import builtin_decks
from app.engine.bots import make_bot
from app.engine.dealing import deal_back
from app.engine.game import Game
from app.engine.options import make_options
from app.services.reviews import SCHEDULER, rating_of

DECK = builtin_decks()["authors-1861"]
RULES, OPTIONS = "classic", make_options("classic", {"name_the_work": True, "ask_by": "set"})
PLAYERS = ["Anna", "Computer 1", "Computer 2", "Computer 3"]
START = datetime(2026, 9, 7, 17, 0, tzinfo=timezone.utc)
SET_OF = {card.id: card_set.id for card_set in DECK.sets for card in card_set.cards}


class Student:
    def __init__(self) -> None:
        self.memory = {card: 1.0 for card in SET_OF}     # days
        self.last = {card: 0.0 for card in SET_OF}       # day of the last practice
        self.cards: dict[str, Card] = {}                 # the schedule, as the app keeps it

    def recall(self, card: str, day: float) -> float:
        return math.exp(-(day - self.last[card]) / self.memory[card])

    def name(self, card: str, day: float, rng: random.Random) -> bool:
        chance = self.recall(card, day)
        right = rng.random() < chance
        self.memory[card] = self.memory[card] * (1.5 + 3 * (1 - chance)) if right else 1.0
        self.last[card] = day
        when = START + timedelta(days=day)
        card_state = self.cards.get(card) or Card(card_id=0, due=when)
        self.cards[card], _log = SCHEDULER.review_card(card_state, rating_of("right" if right else "wrong"), when)
        return right

    def due(self, day: float) -> list[str]:
        when = START + timedelta(days=day)
        return [card for card, state in sorted(self.cards.items(), key=lambda item: item[1].due) if state.due <= when]


def play(student: Student, day: float, seed: int, dealt_back: bool, rng: random.Random) -> int:
    game = Game(DECK, OPTIONS, PLAYERS, seed=seed, rules=RULES)
    if dealt_back:
        wanted = [(card, "Anna") for card in student.due(day)]
        if wanted:
            moved = deal_back(game.initial_hands, game.initial_stock, SET_OF, wanted, PLAYERS[1:])
            game = Game(DECK, OPTIONS, PLAYERS, hands=moved.hands, stock=moved.stock or None, seed=seed, rules=RULES)
    bots = {name: make_bot("memory", seed * 5 + i) for i, name in enumerate(PLAYERS)}
    for name, bot in bots.items():
        bot.observe(game.events_seen_by(name, 0))
    named = 0
    while not game.finished:
        seen = game.event_count
        actor = game.turn
        assert actor is not None
        game.apply(bots[actor].choose(game.view(actor)))
        for event in game.events_seen_by(None, seen):
            if event.get("type") == "answer" and event.get("player") == "Anna" and event.get("card"):
                student.name(event["card"], day, rng)
                named += 1
        for name, bot in bots.items():
            bot.observe(game.events_seen_by(name, seen))
    return named


def run(students: int, days: int, seed: int, dealt_back: bool) -> dict[str, float]:
    rng = random.Random(seed)
    class_ = [Student() for _ in range(students)]
    namings = 0
    for day in range(days):
        for number, student in enumerate(class_):
            namings += play(student, day + 0.7, seed * 1_000_003 + day * 1000 + number, dealt_back, rng)
    end = days + 7
    recalled = sum(student.recall(card, end) for student in class_ for card in SET_OF) / (students * len(SET_OF))
    return {"recalled_share": round(recalled, 4), "namings": namings}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--students", type=int, default=30)
    parser.add_argument("--days", type=int, default=28)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    random_deals = run(args.students, args.days, args.seed, dealt_back=False)
    due_back = run(args.students, args.days, args.seed, dealt_back=True)
    print(json.dumps({"students": args.students, "days": args.days, "seed": args.seed,
                      "random_deals": random_deals, "due_works_dealt_back": due_back}))


if __name__ == "__main__":
    main()
