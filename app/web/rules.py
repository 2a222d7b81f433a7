"""The rules of every preset for students, in seven languages: a page to read and a sheet to print.

    GET /rules                          every preset, with its page in each language
    GET /rules/<preset>?lang=xx         the student page (default: the interface's language, that is
                                        the remembered choice, else the browser's Accept-Language, else en)
    GET /rules/<preset>.pdf?lang=xx     the same page as a one-page PDF (&paper=a4|letter; default by language)

The pages are app/rules/content/*.md, rendered by app.rules.markup: every text is escaped.
"""
from __future__ import annotations

from collections.abc import Iterable

from flask import Blueprint, Response, abort, render_template, request, url_for
from flask_babel import gettext as _

from .. import rules
from ..i18n import rules_language, translated
from ..printing import geometry
from ..printing.errors import PrintError
from ..rules.markup import inline_html, sections_html

bp = Blueprint("rules", __name__)


def _choice_error(name: str, value: str, choices: Iterable[str]) -> str:
    return _(  # type: ignore[no-any-return]  # flask_babel is untyped: its gettext gives a str
        '"%(name)s" must be one of %(choices)s, not "%(value)s".', name=name, choices=", ".join(choices),
        value=value)


def _language() -> tuple[str, bool]:
    """The page's language, and whether it was negotiated (not given with ?lang=)."""
    asked = request.args.get("lang", "")
    if asked:
        if asked not in rules.LANGUAGES:
            abort(400, description=_choice_error("lang", asked, rules.LANGUAGES))
        return asked, False
    return rules_language(), True


def _page(preset: str) -> tuple[rules.RulesPage, bool]:
    if preset not in rules.PRESETS:
        abort(404, description=_('There are no rules called "%(preset)s".', preset=preset))
    language, negotiated = _language()
    return rules.rules_page(preset, language), negotiated


def _vary(response: Response, negotiated: bool) -> Response:
    if negotiated:
        response.vary.update(("Accept-Language", "Cookie"))
    return response


@bp.get("/rules")
def index() -> Response:
    language = rules_language()
    entries = [rules.rules_page(preset, language) for preset in rules.PRESETS]
    response = Response(render_template("rules/index.html", entries=entries, rule_languages=rules.LANGUAGES,
                                        summary_html=inline_html))
    return _vary(response, True)


@bp.get("/rules/<preset>")
def page(preset: str) -> Response:
    found, negotiated = _page(preset)
    pdf = {paper: url_for("rules.pdf", preset=preset, lang=found.language, paper=paper) for paper in geometry.PAPERS}
    html = render_template("rules/page.html", page=found, summary=inline_html(found.summary),
                           body=sections_html(found.sections), rule_languages=rules.LANGUAGES,
                           pdf_url=url_for("rules.pdf", preset=preset, lang=found.language), pdf_papers=pdf)
    return _vary(Response(html), negotiated)


@bp.get("/rules/<preset>.pdf")
def pdf(preset: str) -> Response:
    found, negotiated = _page(preset)
    paper = request.args.get("paper", "") or geometry.default_paper(found.language)
    if paper not in geometry.PAPERS:
        abort(400, description=_choice_error("paper", paper, geometry.PAPERS))
    from ..printing.rules_sheet import render_rules

    try:
        data = render_rules(preset, paper, found.language)
    except PrintError as exc:  # the server lacks a font with these glyphs: a server problem, not a bad request
        abort(503, description=_("These rules cannot be printed on this server: %(error)s", error=translated(exc)))
    response = Response(data, mimetype="application/pdf")
    response.headers["Content-Disposition"] = f'inline; filename="rules-{preset}-{found.language}-{paper}.pdf"'
    return _vary(response, negotiated)
