"""Printable PDF card sheets (reportlab). Knows decks, not games.

- geometry: paper, card sizes, the grid, crop marks, bleed, duplex back positions (mm, pure numbers)
- fonts: the embedded Unicode TTF (regular and bold) and the check that it has every glyph needed
- textfit: shrink-to-fit, then wrap; never overflow, never cut
- faces: one card's front or back at the origin, knowing nothing of sheets
- sheets: a deck as a PDF, each front sheet followed by its back sheet
- alignment, rules_sheet (text from app/rules), scorepad: the other printables
- language: the words printing adds, in a language (the app's gettext catalogs, read with Babel)
- printables: rebuilds printables/ (`make printables`); cli: `authors print`
"""
