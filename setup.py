"""The project is described in pyproject.toml; this file only adds two build steps to it.

The built-in decks live at the top of the repository, in decks/, where teachers and scripts find them;
every wheel carries them inside the package, as app/decks/builtin/ (app/decks/library.py reads them
there when installed, and from decks/ in a checkout or an editable install).

The translations' compiled catalogs (app/translations/*/LC_MESSAGES/messages.mo) are not committed:
`make i18n-compile` makes them in a checkout, and this step makes them inside every wheel, so that
`pip install .` from a fresh clone gives an `authors` that speaks every language. Babel (a build
requirement in pyproject.toml, and installed with Flask-Babel anyway) compiles them exactly as
`pybabel compile` does: fuzzy entries left out, a catalog marked fuzzy as a whole not compiled.
"""
from __future__ import annotations

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

CATALOGS = Path("app") / "translations"
DECKS = Path("decks")


class build_py_with_catalogs(build_py):
    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return  # an editable install reads the checkout: decks/, and the catalogs make i18n-compile keeps
        decks = sorted(DECKS.glob("*.yaml"))
        if not decks:  # (a source archive made without MANIFEST.in's decks/, say)
            raise SystemExit("building the wheel needs the built-in decks: decks/*.yaml is missing")
        packaged = Path(self.build_lib) / "app" / "decks" / "builtin"
        packaged.mkdir(parents=True, exist_ok=True)
        for deck in decks:
            shutil.copyfile(deck, packaged / deck.name)
        try:
            from babel.messages.mofile import write_mo
            from babel.messages.pofile import read_po
        except ImportError as exc:  # only when building without the build requirements
            raise SystemExit(f"building the wheel needs Babel to compile the translations ({exc}): "
                             "pip install babel, or build with build isolation") from None
        for po in sorted(CATALOGS.glob("*/LC_MESSAGES/messages.po")):
            with po.open("rb") as source:
                catalog = read_po(source, locale=po.parts[-3])
            target = Path(self.build_lib) / po.with_suffix(".mo")
            if catalog.fuzzy:
                self.announce(f"{po} is marked fuzzy: not compiled", level=3)
                target.unlink(missing_ok=True)
                continue
            target.parent.mkdir(parents=True, exist_ok=True)
            with target.open("wb") as out:
                write_mo(out, catalog)
            self.announce(f"compiled {po} -> {target}", level=2)


setup(cmdclass={"build_py": build_py_with_catalogs})
