"""The join link as a QR code in SVG, drawn by reportlab's QR widget (no extra dependency)."""
from __future__ import annotations

from reportlab.graphics import renderSVG
from reportlab.graphics.barcode.qr import QrCodeWidget
from reportlab.graphics.shapes import Drawing, Rect
from reportlab.lib.colors import white

SIZE = 400  # drawing units; the page scales it to fit a projector


def qr_svg(text: str, size: int = SIZE) -> str:
    widget = QrCodeWidget(text, barLevel="M", barWidth=size, barHeight=size)
    drawing = Drawing(size, size)
    drawing.add(Rect(0, 0, size, size, fillColor=white, strokeColor=None))
    drawing.add(widget)
    svg = renderSVG.drawToString(drawing)
    return svg.replace("<title>...</title>", "<title>Join link</title>").replace("<desc>...</desc>",
                                                                                   f"<desc>{_escape(text)}</desc>")


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
