"""The owner's face as the app serves it: for link previews (``og:image``), the favicon and the widget.

Link previews (LinkedIn, Slack, iMessage) show PNG, JPEG, GIF or WebP, never SVG: a picture in one of
those is served as it is; otherwise (the initials, or an SVG of the owner's) the initials are drawn as a
PNG with Pillow (which Gradio installs). A face given as a URL on another host is used there as it is.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from pathlib import Path

from replica.knowledge.identity import initials, name_hue

RASTER = {".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".gif": "image/gif", ".webp": "image/webp"}
SIZE = 512  # px, square: previews crop a square face well, and a favicon is scaled down from it


@dataclass(frozen=True)
class Face:
    """The image's bytes, its type, and the path the app serves it at."""

    data: bytes
    media_type: str
    path: str


def owner_face(avatar: str, name: str) -> Face | None:
    """The face to serve for ``avatar`` (a file path or URL); ``None`` when it is a URL elsewhere."""
    if avatar.startswith(("http://", "https://")):
        return None
    suffix = Path(avatar).suffix.lower()
    if suffix in RASTER:
        try:
            return Face(Path(avatar).read_bytes(), RASTER[suffix], f"/face{'.jpg' if suffix == '.jpeg' else suffix}")
        except OSError:
            pass  # unreadable: the initials stand in
    return Face(initials_png(name), "image/png", "/face.png")


def initials_png(name: str, size: int = SIZE) -> bytes:
    """The name's initials, white on a colour of the name's own, as a square PNG."""
    from PIL import Image, ImageDraw, ImageFont  # only when drawn: the CLI commands never need it

    image = Image.new("RGB", (size, size), f"hsl({name_hue(name)}, 45%, 32%)")
    draw = ImageDraw.Draw(image)
    font = ImageFont.load_default(size=size * 0.4)
    draw.text((size / 2, size / 2), initials(name), fill="white", font=font, anchor="mm")
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()
