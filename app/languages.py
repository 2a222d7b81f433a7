"""The interface's seven languages, each by its own name (English first: the default)."""
from __future__ import annotations

LANGUAGES: dict[str, str] = {"en": "English", "ru": "Русский", "fr": "Français", "pt": "Português",
                             "it": "Italiano", "de": "Deutsch", "es": "Español"}
DEFAULT_LANGUAGE = "en"
