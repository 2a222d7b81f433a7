"""/favicon.ico, which browsers ask for where no page names an icon (a PDF, a JSON answer): the app's icon
(app/static/favicon.svg, rendered at the sizes browsers use), kept a week by their caches."""
from __future__ import annotations

import io
import re
from collections import Counter
from pathlib import Path

from PIL import Image

STATIC = Path(__file__).resolve().parent.parent / "app" / "static"


def test_the_favicon_is_the_apps_icon_and_is_cached(app):
    client = app.test_client()
    response = client.get("/favicon.ico")
    assert response.status_code == 200, response.status_code
    assert response.mimetype in ("image/vnd.microsoft.icon", "image/x-icon")
    assert response.headers["Cache-Control"] == "public, max-age=604800"
    assert response.data == (STATIC / "favicon.ico").read_bytes()
    icon = Image.open(io.BytesIO(response.data))
    assert icon.format == "ICO" and {(16, 16), (32, 32), (48, 48)} <= icon.info["sizes"]

    icon.size = (32, 32)
    icon.load()
    rgba = icon.convert("RGBA").tobytes()
    pixels = Counter(tuple(rgba[i:i + 3]) for i in range(0, len(rgba), 4) if rgba[i + 3] == 255)
    card = re.search(r'fill="#([0-9a-f]{6})"/><text', (STATIC / "favicon.svg").read_text()).group(1)
    assert pixels.most_common(1)[0][0] == tuple(bytes.fromhex(card)), pixels.most_common(3)  # the svg's card

    assert client.head("/favicon.ico").status_code == 200
    again = client.get("/favicon.ico", headers={"If-None-Match": response.headers["ETag"]})
    assert again.status_code == 304
