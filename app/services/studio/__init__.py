"""The deck studio: teachers' own decks, stored in the database as deck-format YAML.

Every deck that comes in (a form, a spreadsheet, an uploaded or edited file) is checked by the one
validator, app.decks.load_deck_text, the code behind `authors decks validate`: the web and the command
line never disagree. A deck is private to its owner or shared with every teacher on the server; a table
plays a snapshot of it taken as the table opens (models.DeckSnapshot), so editing or deleting a deck
never changes a game. Images live in instance/uploads/decks/<deck>/images/, re-encoded with Pillow.

One module per job, each importing only those above it: problems (DeckInvalid, with every problem),
finding (which decks a teacher sees or may change, the deck of a new table), uploads (this host's
copies of a deck's images and text), storing (validating and saving), images (putting an image on a set
or a card), forms (the form editor) and sheets (pasting from a spreadsheet; the parser itself is
app.decks.spreadsheet, pure like the rest of app.decks). Refusals and problems are sentences, said in
the reader's language by the web. Callers use the names below:
`from app.services import studio; studio.get_own(...)`.
"""
from __future__ import annotations

from ...decks.spreadsheet import (ALIASES_MAX, HEADINGS, MAX_PASTE_ROWS, NOTE_MAX, TEXT_MAX, Sheet, SheetRow,
                                  sheet_yaml)
from .finding import (SOURCE, STUDIO_PREFIX, deck_for_table, deck_of, get_own, get_visible, own, ref_of,
                      table_deck_id, visible)
from .forms import FormResult, deck_from_form, form_values, save_form
from .images import IMAGE_MAX_BYTES, IMAGE_MAX_PIXELS, IMAGE_MAX_SIDE, clean_image, remove_image, set_image
from .problems import DeckInvalid, form_problem, too_long
from .sheets import create_from_sheet, read_sheet
from .storing import (MAX_DECKS_PER_TEACHER, canonical_yaml, create_from_text, delete, duplicate, new_deck_id,
                      save_text, set_shared, validate)
from .uploads import (FRESH_COPY_SECONDS, IMAGE_NAME, deck_dir, deck_for_print, image_path, sync_images, table_image,
                      upload_root)

__all__ = [
    # finding
    "SOURCE", "STUDIO_PREFIX", "deck_for_table", "deck_of", "get_own", "get_visible", "own", "ref_of",
    "table_deck_id", "visible",
    # storing
    "MAX_DECKS_PER_TEACHER", "canonical_yaml", "create_from_text", "delete", "duplicate", "new_deck_id",
    "save_text", "set_shared", "validate",
    # problems
    "DeckInvalid", "form_problem", "too_long",
    # forms
    "FormResult", "deck_from_form", "form_values", "save_form",
    # sheets (and the parser's names, from app.decks.spreadsheet)
    "ALIASES_MAX", "HEADINGS", "MAX_PASTE_ROWS", "NOTE_MAX", "TEXT_MAX", "Sheet", "SheetRow", "create_from_sheet",
    "read_sheet", "sheet_yaml",
    # images and this host's copies of them
    "table_image", "FRESH_COPY_SECONDS", "IMAGE_MAX_BYTES", "IMAGE_MAX_PIXELS", "IMAGE_MAX_SIDE", "IMAGE_NAME", "clean_image",
    "deck_dir", "deck_for_print", "image_path", "remove_image", "set_image", "sync_images", "upload_root",
]
