"""The join link as a QR code (segno): an SVG for the table page and the projector, block characters for
the terminal where `make run` prints the address phones open."""
from __future__ import annotations

import io

import segno


def qr_svg(text: str) -> str:
    """A standalone SVG that scales to whatever size the page gives it (a viewBox, no fixed size)."""
    out = io.BytesIO()
    segno.make(text, error="m").save(out, kind="svg", border=4, omitsize=True, xmldecl=False, title="Join link",
                                     desc=text, dark="#000", light="#fff")
    return out.getvalue().decode()


def qr_terminal(text: str) -> str:
    """The code in block characters, two modules a line, for a terminal."""
    out = io.StringIO()
    segno.make(text, error="m").terminal(out=out, compact=True)
    return out.getvalue()
