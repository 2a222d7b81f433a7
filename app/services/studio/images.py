"""Images of a set or a card: PNG or JPEG, size-checked, re-encoded with Pillow, and saved with the deck
that names them (this host's copies of them are kept by .uploads)."""
from __future__ import annotations

import io
import secrets

import yaml

from ...decks.errors import N_, say
from ...decks import Deck, slugify
from ...decks.dump import CardData, SetData, deck_to_dict
from ...models import StudioDeck
from ..errors import BadRequest
from .finding import deck_of
from .storing import save_text
from .uploads import keep_image

IMAGE_MAX_BYTES = 1024 * 1024
IMAGE_MAX_PIXELS = 30_000_000  # refused before decoding: no decompression bombs
IMAGE_MAX_SIDE = 1600          # larger images are scaled down (a poker card at 300 dpi is 750 x 1050)


def clean_image(data: bytes, max_bytes: int = IMAGE_MAX_BYTES) -> tuple[bytes, str]:
    """The image re-encoded (metadata dropped, scaled down when huge) and its suffix; BadRequest when
    it is not a PNG or JPEG, too large, or unreadable."""
    from PIL import Image, ImageOps, UnidentifiedImageError

    if not data:
        raise BadRequest(N_("Choose an image file (PNG or JPEG) to upload."), code="no-file")
    if len(data) > max_bytes:
        raise BadRequest(say(N_("The image is %(size)d KiB; an image may be at most %(most)d KiB."),
                             size=len(data) // 1024, most=max_bytes // 1024), code="image-too-large")
    try:
        with Image.open(io.BytesIO(data)) as image:
            kind = image.format
            if kind not in ("PNG", "JPEG"):
                raise BadRequest(say(N_("This file is a %(kind)s image, not a PNG or JPEG."), kind=kind) if kind
                                 else N_("This file is not an image, not a PNG or JPEG."),
                                 code="not-an-image")
            width, height = image.size
            if width * height > IMAGE_MAX_PIXELS or width < 1 or height < 1:
                raise BadRequest(say(N_("The image is %(width)d x %(height)d pixels; that is too many for a card "
                                        "(at most 30 million)."), width=width, height=height), code="image-too-large")
            image.load()
            upright = ImageOps.exif_transpose(image)
            if max(upright.size) > IMAGE_MAX_SIDE:
                upright.thumbnail((IMAGE_MAX_SIDE, IMAGE_MAX_SIDE))
            out = io.BytesIO()
            if kind == "PNG":
                if upright.mode not in ("RGB", "RGBA", "L", "LA"):
                    upright = upright.convert("RGBA")
                upright.save(out, "PNG")
                return out.getvalue(), "png"
            upright.convert("RGB").save(out, "JPEG", quality=88)
            return out.getvalue(), "jpg"
    except BadRequest:
        raise
    except Image.DecompressionBombError:
        raise BadRequest(N_("The image has too many pixels for a card (at most 30 million)."),
                         code="image-too-large") from None
    except UnidentifiedImageError:
        raise BadRequest(N_("This file is not a PNG or JPEG image."), code="not-an-image") from None
    except (OSError, ValueError, SyntaxError, EOFError):
        raise BadRequest(N_("This image is damaged and cannot be read; save it again as PNG or JPEG."),
                         code="not-an-image") from None


def _target(deck: Deck, target: str) -> tuple[str, str]:
    kind, _colon, item = str(target).partition(":")
    if kind == "set" and deck.has_set(item):
        return kind, item
    if kind == "card" and deck.has_card(item):
        return kind, item
    raise BadRequest(N_("Choose a set or a card of this deck for the image."), code="unknown-target")


def set_image(row: StudioDeck, target: str, data: bytes) -> StudioDeck:
    deck = deck_of(row)
    kind, item = _target(deck, target)
    content, suffix = clean_image(data)
    name = f"{kind}-{slugify(item)[:40] or 'x'}-{secrets.token_hex(4)}.{suffix}"
    keep_image(row.id, f"images/{name}", content)  # committed with the deck that names it
    return _with_image(row, deck, kind, item, f"images/{name}")


def remove_image(row: StudioDeck, target: str) -> StudioDeck:
    deck = deck_of(row)
    kind, item = _target(deck, target)
    return _with_image(row, deck, kind, item, None)


def _with_image(row: StudioDeck, deck: Deck, kind: str, item: str, image: str | None) -> StudioDeck:
    data = deck_to_dict(deck)
    for card_set in data["sets"]:
        places: list[SetData] | list[CardData] = [card_set] if kind == "set" and card_set["id"] == item else []
        if kind == "card":
            places = [c for c, original in zip(card_set["cards"], deck.set(card_set["id"]).cards) if original.id == item]
        for place in places:
            if image:
                place["image"] = image
            else:
                place.pop("image", None)
    return save_text(row, yaml.safe_dump(data, allow_unicode=True, sort_keys=False, width=100))
