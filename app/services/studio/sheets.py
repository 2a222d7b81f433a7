"""Pasting from a spreadsheet, the service side: the rows read by app.decks.spreadsheet with their
problems (sentences, said in the reader's language where the page shows them: spreadsheet.say), and
the deck made once every row is good."""
from __future__ import annotations

from ...decks import DeckError, load_deck_text, spreadsheet
from ...decks.errors import N_, Text, say
from ...decks.spreadsheet import TEXT_MAX, Sheet, sheet_yaml
from ...models import StudioDeck
from .problems import too_long
from .storing import canonical_yaml, check_room, new_deck_id, store


def read_sheet(text: str, labels: tuple[str, ...] = ()) -> Sheet[Text]:
    """Every row of a pasted spreadsheet with what it becomes, or its problems."""
    return spreadsheet.read_sheet(text, labels)


def create_from_sheet(teacher_id: int, text: str, head: dict[str, str],
                      shared: bool = False) -> tuple[Sheet[Text], StudioDeck | None]:
    """Read the pasted rows; when every row is good, make the deck (checked by the validator, whose
    problems are put back on the rows they came from). Returns the sheet and the deck, if made."""
    head = {k: " ".join(str(v or "").split()) for k, v in head.items()}
    sheet = read_sheet(text, (head.get("set_label", ""), head.get("card_label", "")))
    for key, what, limit in (("title", N_("the title"), TEXT_MAX), ("language", N_("the language"), 35),
                             ("set_label", N_("what a set is called"), 40),
                             ("card_label", N_("what a card is called"), 40)):
        if len(head.get(key, "")) > limit:
            sheet.problems.append(too_long(say(what), limit))
    if not head.get("title"):
        sheet.problems.append(say(N_("give the deck a title")))
    if not sheet.ok:
        return sheet, None
    head = {**head, "id": new_deck_id(head["title"]), "language": head.get("language") or "en"}
    source, origin = sheet_yaml(sheet, head)
    try:
        deck = load_deck_text(source, source="the sheet")
    except DeckError as exc:
        by_number = {row.number: row for row in sheet.rows}
        for problem in exc.problems:
            rows = origin.get(problem.line)
            if "first" in problem.params:  # the first one's line of the YAML, as the row it came from
                line = problem.params["first"].params["line"]
                problem = problem.with_params(first=Text.of(N_("first in row %(row)s"),
                                                            row=origin.get(line, ["?"])[0]))
            if rows:
                by_number[rows[0]].problems.append(problem.text)
            else:
                sheet.problems.append(problem.text)
        return sheet, None
    check_room(teacher_id)
    row = store(StudioDeck(owner_id=teacher_id, shared=bool(shared)), canonical_yaml(deck), deck)
    return sheet, row
