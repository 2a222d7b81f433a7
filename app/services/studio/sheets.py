"""Pasting from a spreadsheet, the service side: the rows read by app.decks.spreadsheet, their problems
said in the reader's language, and the deck made once every row is good."""
from __future__ import annotations

from flask_babel import get_translations
from flask_babel import gettext as _

from ...decks import DeckError, load_deck_text, spreadsheet
from ...decks.errors import N_, Text
from ...decks.spreadsheet import TEXT_MAX, Sheet, sheet_yaml
from ...models import StudioDeck
from .problems import problem_text, too_long
from .storing import canonical_yaml, check_room, new_deck_id, store


def read_sheet(text: str, labels: tuple[str, ...] = ()) -> Sheet[str]:
    """Every row of a pasted spreadsheet with what it becomes, or its problems in the reader's language."""
    return spreadsheet.say(spreadsheet.read_sheet(text, labels), get_translations())


def create_from_sheet(teacher_id: int, text: str, head: dict[str, str], shared: bool = False) -> tuple[Sheet[str], StudioDeck | None]:
    """Read the pasted rows; when every row is good, make the deck (checked by the validator, whose
    problems are put back on the rows they came from). Returns the sheet and the deck, if made."""
    head = {k: " ".join(str(v or "").split()) for k, v in head.items()}
    sheet = read_sheet(text, (head.get("set_label", ""), head.get("card_label", "")))
    for key, what, limit in (("title", N_("the title"), TEXT_MAX), ("language", N_("the language"), 35),
                             ("set_label", N_("what a set is called"), 40),
                             ("card_label", N_("what a card is called"), 40)):
        if len(head.get(key, "")) > limit:
            sheet.problems.append(too_long(_(what), limit))
    if not head.get("title"):
        sheet.problems.append(_("give the deck a title"))
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
            message = problem_text(problem)
            if rows:
                by_number[rows[0]].problems.append(message)
            else:
                sheet.problems.append(message)
        return sheet, None
    check_room(teacher_id)
    row = store(StudioDeck(owner_id=teacher_id, shared=bool(shared)), canonical_yaml(deck), deck)
    return sheet, row
