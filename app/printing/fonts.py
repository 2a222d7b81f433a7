"""The Unicode TrueType font (regular and bold) every printed page uses, embedded as subsets.

Found on the system, or given by AUTHORS_PRINT_FONT and AUTHORS_PRINT_FONT_BOLD (paths to .ttf files;
the bold one defaults to the regular one). A text that needs characters the font lacks is refused
with a message naming them, never printed as empty boxes.
"""
from __future__ import annotations

import hashlib
import os
import unicodedata
import zlib
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Iterable

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFError, TTFont

from .errors import N_, N_plural, PrintError, Text

ENV_REGULAR = "AUTHORS_PRINT_FONT"
ENV_BOLD = "AUTHORS_PRINT_FONT_BOLD"

# (regular, bold) in order of preference: DejaVu Sans on Debian/Ubuntu, Fedora, Arch, FreeBSD, macOS,
# then fonts found on most systems that also cover Latin, Cyrillic and Greek.
CANDIDATES: tuple[tuple[str, str], ...] = (
    ("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"),
    ("/usr/share/fonts/dejavu-sans-fonts/DejaVuSans.ttf", "/usr/share/fonts/dejavu-sans-fonts/DejaVuSans-Bold.ttf"),
    ("/usr/share/fonts/dejavu/DejaVuSans.ttf", "/usr/share/fonts/dejavu/DejaVuSans-Bold.ttf"),
    ("/usr/share/fonts/TTF/DejaVuSans.ttf", "/usr/share/fonts/TTF/DejaVuSans-Bold.ttf"),
    ("/usr/local/share/fonts/dejavu/DejaVuSans.ttf", "/usr/local/share/fonts/dejavu/DejaVuSans-Bold.ttf"),
    ("~/Library/Fonts/DejaVuSans.ttf", "~/Library/Fonts/DejaVuSans-Bold.ttf"),
    ("/Library/Fonts/DejaVuSans.ttf", "/Library/Fonts/DejaVuSans-Bold.ttf"),
    ("/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf",
     "/usr/share/fonts/truetype/liberation/LiberationSans-Bold.ttf"),
    ("/System/Library/Fonts/Supplemental/Arial.ttf", "/System/Library/Fonts/Supplemental/Arial Bold.ttf"),
    ("C:/Windows/Fonts/arial.ttf", "C:/Windows/Fonts/arialbd.ttf"),
)
INSTALL_HINT = Text.of(N_("install DejaVu Sans (Debian/Ubuntu: %(command)s) or set %(regular)s and %(bold)s "
                          "to .ttf files"), command="apt-get install fonts-dejavu-core", regular=ENV_REGULAR,
                       bold=ENV_BOLD)

# Where a glyph's ink may reach above the baseline, as a share of the font size: accented capitals
# and Cyrillic capitals with a breve reach about 0.93; the font's own "ascent" is lower.
INK_ASCENT = 0.95


@dataclass(frozen=True)
class FontPair:
    """A registered regular and bold face, by their reportlab names."""
    regular: str
    bold: str
    regular_path: str
    bold_path: str

    @property
    def family(self) -> str:
        return pdfmetrics.getFont(self.regular).face.familyName.decode("latin-1")

    @property
    def descent(self) -> float:
        """Below the baseline, per point of size (negative)."""
        return min(_face(self.regular).descent, _face(self.bold).descent) / 1000

    def fingerprint(self) -> str:
        """Which font files these are, to tell whether two machines print the same bytes."""
        names = []
        for path in (self.regular_path, self.bold_path):
            digest = hashlib.sha256(Path(path).read_bytes()).hexdigest()[:16]
            names.append(f"{Path(path).name} sha256:{digest}")
        return ", ".join(names)

    def missing(self, texts: Iterable[tuple[str | Text, str]]) -> dict[str, str | Text]:
        """Every character some text needs that either face lacks (or that needs right-to-left
        layout), with where it is first used; texts are (where, text) pairs, where a phrase such as
        Text.of(N_('set "%(set)s"'), set="monet")."""
        regular = _face(self.regular).charToGlyph
        bold = _face(self.bold).charToGlyph
        missing: dict[str, str | Text] = {}
        for where, text in texts:
            for ch in text:
                if ch.isspace() or ch in missing:
                    continue
                code = ord(ch)
                if code not in regular or code not in bold or unicodedata.bidirectional(ch) in ("R", "AL"):
                    missing[ch] = where
        return missing

    def check(self, texts: Iterable[tuple[str | Text, str]], what: str | Text) -> None:
        """Refuse, naming the characters, when the font cannot print every text (`what`: a phrase such
        as Text.of(N_('the deck "%(deck)s"'), deck="painters"))."""
        missing = self.missing(texts)
        if not missing:
            return
        chars = list(missing)
        codes = ", ".join(f"U+{ord(ch):04X}" for ch in chars[:12]) + (", ..." if len(chars) > 12 else "")
        shown = Text.of(N_plural("%(count)d character %(chars)s (%(codes)s), the first in %(where)s",
                                 "%(count)d characters %(chars)s (%(codes)s), the first in %(where)s"),
                        count=len(chars), chars=repr("".join(chars)), codes=codes, where=missing[chars[0]])
        if all(unicodedata.bidirectional(ch) in ("R", "AL") for ch in chars):
            raise PrintError(N_("%(what)s needs right-to-left text, which printing does not support yet: "
                                "%(shown)s"), what=what, shown=shown)
        raise PrintError(N_("%(what)s needs %(shown)s, which the font %(font)s (%(path)s) has no glyphs for; "
                            "set %(regular)s and %(bold)s to a .ttf font that has them"), what=what, shown=shown,
                         font=self.family, path=self.regular_path, regular=ENV_REGULAR, bold=ENV_BOLD)


def _face(name: str):
    return pdfmetrics.getFont(name).face


def find_fonts() -> tuple[str, str]:
    """Paths of the regular and bold font: from the environment, else the first candidate present."""
    regular = os.environ.get(ENV_REGULAR, "").strip()
    bold = os.environ.get(ENV_BOLD, "").strip()
    if regular or bold:
        regular = regular or bold
        return str(Path(regular).expanduser()), str(Path(bold or regular).expanduser())
    for regular, bold in CANDIDATES:
        regular_path, bold_path = Path(regular).expanduser(), Path(bold).expanduser()
        if regular_path.is_file() and bold_path.is_file():
            return str(regular_path), str(bold_path)
    raise PrintError(N_("no Unicode font found for printing; %(hint)s"), hint=INSTALL_HINT)


def fonts() -> FontPair:
    """The fonts to print with, registered with reportlab (once per process)."""
    return register(*find_fonts())


@lru_cache(maxsize=8)
def register(regular_path: str, bold_path: str) -> FontPair:
    names = []
    for path in (regular_path, bold_path):
        name = f"AC-{zlib.crc32(path.encode()):08x}"
        try:
            if name not in pdfmetrics.getRegisteredFontNames():
                pdfmetrics.registerFont(TTFont(name, path))
        except (OSError, TTFError) as exc:
            raise PrintError(N_("cannot use the font %(path)s: %(error)s; %(hint)s"), path=path, error=str(exc),
                             hint=INSTALL_HINT) from None
        names.append(name)
    return FontPair(regular=names[0], bold=names[1], regular_path=regular_path, bold_path=bold_path)
