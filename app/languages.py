"""The interface's five languages, each by its own name (English first: the default)."""
from __future__ import annotations

LANGUAGES: dict[str, str] = {"en": "English", "ru": "Русский", "fr": "Français", "pt": "Português",
                             "it": "Italiano"}
DEFAULT_LANGUAGE = "en"
