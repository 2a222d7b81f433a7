"""Printable PDF card sheets (reportlab). Knows decks, not games."""
