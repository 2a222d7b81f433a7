"""The game told as a person would read it, one line per move."""
from __future__ import annotations

from ..decks.model import Deck
from .events import Event, EventFields
from .game import Game
from .moves import Move


def tell(game: Game, numbered: tuple[int, Move] | None, events: list[Event]) -> list[str]:
    deck = game.deck
    if numbered is None:  # the opening: who plays, who deals, what went down from the deal
        lines = [f"{game.rules} with {deck.title}: {', '.join(game.players)}; "
                 f"{game.players[game.dealer]} deals."]
        lines += [f"   {e['player']} lays down {deck.set(e['set']).name} from the deal."
                  for e in game.events_seen_by(None) if e["type"] == "laid-down"]
        return lines
    number, move = numbered
    any_work = game.options.answer_names == "set"
    lines = []
    for event in events:
        lines.append(_line(deck, event, any_work))
    head = f"{number}. " + (lines[0] if lines else f"{move.player} moves.")
    return [head] + [f"   {line}" for line in lines[1:]]


def _line(deck: Deck, event: Event, any_work: bool = False) -> str:
    """One event in words; `any_work`: answers may name any work of the set (`answer_names: set`), so
    the line also says which received card the answer resolved to."""
    d: EventFields = {**event.data, **(event.secret or {})}  # the whole story: what was typed too
    if event.kind == "ask":
        wanted = deck.card(d["card"]).title if d["card"] else deck.set(d["set"]).name
        if "verdict" in d:  # named_asks: what the asker typed, and how it was graded
            said = "naming nothing" if d["named"] is None else f"naming it \"{d['named']}\""
            wanted = f"{wanted}, {said} ({_verdict(d)}{', +1' if d['bonus'] else ''})"
        if d["given"]:
            got = ", ".join(deck.card(c).title for c in d["given"])
            return f"{d['player']} asks {d['target']} for {wanted}: {d['target']} hands over {got}."
        return f"{d['player']} asks {d['target']} for {wanted}: no."
    if event.kind == "draw":
        card = d.get("card")
        what = deck.card(card).title if card else "a card"
        why = {"go-fish": "", "empty-hand": " (an empty hand draws)",
               "no-one-to-ask": " (nobody else holds cards, so the turn passes)"}.get(d["reason"], "")
        luck = " - the one asked for, so the turn goes on" if d["lucky"] else ""
        return f"{d['player']} draws {what} from the stock{why}{luck}."
    if event.kind == "laid-down":
        return f"{d['player']} lays down {deck.set(d['set']).name}."
    if event.kind == "answer":
        said = "passes" if d["text"] is None else f"says \"{d['text']}\""
        if any_work and d["correct"]:  # the work named may be another than the card's: say both
            verdict = f"{'right' if d['verdict'] == 'right' else 'almost right'} - the card: \"{d['title']}\""
        else:
            verdict = _verdict(d)
        return f"{d['player']} names the work: {said} ({verdict}{', +1' if d['correct'] else ''})."
    if event.kind == "claim":
        outcome = {"correct": "correct - the set is won", "opponents": "an opponent held a card - the set goes "
                   "to the other team", "cancelled": "wrong holders - the set is cancelled"}[d["outcome"]]
        return f"{d['player']} claims {deck.set(d['set']).name}: {outcome}."
    if event.kind == "pass":
        return f"{d['player']} hands the turn to {d['to']}."
    if event.kind == "challenge":
        name = deck.set(d["set"]).name
        if d["challenged"]:
            return f"{d['player']} challenges {d['target']}'s {name}: name its works."
        return f"{d['player']} lets {d['target']}'s {name} stand."
    if event.kind == "defence":
        name = deck.set(d["set"]).name
        said = "; ".join(f"\"{text}\" ({verdict})" for text, verdict in zip(d.get("names", []), d.get("verdicts", [])))
        kept = "keeps it, +1" if d["held"] else f"it goes to {d['target']}"
        return (f"{d['player']} names {d['count']} of the {d['size']} works of {name}"
                f"{': ' + said if said else ''} - {kept}.")
    if event.kind == "last-card":
        return f"{d['player']} has one card left."
    return f"{event.kind}: {d}"


def _verdict(d: EventFields) -> str:
    return {"right": "right", "almost": f"almost - the spelling is \"{d['title']}\"",
            "wrong": f"it was \"{d['title']}\""}[d["verdict"]]
