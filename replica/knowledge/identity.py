"""Who the page speaks for: the owner's name and face, from the settings or else from the knowledge.

The page always names a person. ``OWNER_NAME`` wins; without it, a ``name:`` line at the top of a
knowledge file (the example profile has one), then the first heading of the first file. The face is
``OWNER_AVATAR`` (a path or URL), else an image named ``avatar.*`` in ``KNOWLEDGE_DIR``, else the
owner's initials drawn as an SVG in ``DATA_DIR``: served by the app itself, never fetched elsewhere.
"""

from __future__ import annotations

import hashlib
import html
import re
from pathlib import Path

from replica.knowledge.files import TEXT_SUFFIXES, knowledge_files
from replica.settings import DEFAULT_OWNER_NAME, Settings

NAME_LINE = re.compile(r"^\s*name\s*:\s*(.{1,80}?)\s*$", re.IGNORECASE)
HEADING = re.compile(r"^#\s+(.{1,80}?)(?:\s+[—–-]\s+.*)?\s*$")
AVATAR_SUFFIXES = (".png", ".jpg", ".jpeg", ".webp", ".gif", ".svg")
FALLBACK_NAME = "your host"  # only when nothing at all names the person


def owner_name(settings: Settings) -> str:
    """The name the page and the persona use."""
    if settings.owner.owner_name != DEFAULT_OWNER_NAME:
        return settings.owner.owner_name
    heads = [lines for _, lines in file_heads(settings.owner.knowledge_dir)]
    for lines in heads:
        for line in lines:
            if match := NAME_LINE.match(line):
                return match.group(1)
    for lines in heads:
        for line in lines:
            if match := HEADING.match(line):
                return match.group(1)
    return FALLBACK_NAME


def file_heads(folder: Path, lines: int = 5) -> list[tuple[Path, list[str]]]:
    """The first ``lines`` lines of each text file of the knowledge in ``folder`` (where ``name:`` and
    the links lines are written), in the knowledge's order; a file that cannot be read is left out."""
    heads = []
    for path in knowledge_files(folder):
        if path.suffix.lower() not in TEXT_SUFFIXES:
            continue
        try:
            with path.open(encoding="utf-8") as file:
                heads.append((path, [file.readline() for _ in range(lines)]))
        except (OSError, UnicodeDecodeError):
            continue
    return heads


def owner_avatar(settings: Settings, name: str) -> str:
    """A path or URL of the owner's picture, beside the replica's messages."""
    if settings.owner.owner_avatar:
        return settings.owner.owner_avatar
    if settings.owner.knowledge_dir.is_dir():
        for path in sorted(settings.owner.knowledge_dir.iterdir()):
            if path.stem.lower() == "avatar" and path.suffix.lower() in AVATAR_SUFFIXES and path.is_file():
                return str(path)
    return str(initials_svg(name, settings.storage.data_dir))


def initials(name: str) -> str:
    """The name's initials (two at most), ``?`` when it has none."""
    return "".join(word[0] for word in name.split()[:2] if word[:1].isalnum()).upper() or "?"


def name_hue(name: str) -> int:
    """A colour of the name's own (a hue, 0-359): the same name is always drawn the same."""
    return int(hashlib.sha256(name.encode()).hexdigest()[:4], 16) % 360


def initials_svg(name: str, folder: Path) -> Path:
    """Draw the name's initials on a colour of its own, as an SVG file in ``folder``."""
    hue = name_hue(name)
    svg = (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64" role="img">'
        f'<circle cx="32" cy="32" r="32" fill="hsl({hue}, 45%, 32%)"/>'
        '<text x="32" y="40" font-family="system-ui, sans-serif" font-size="24" font-weight="600" '
        f'fill="#ffffff" text-anchor="middle">{html.escape(initials(name))}</text></svg>'
    )
    path = folder / "avatar-initials.svg"
    path.write_text(svg, encoding="utf-8")
    return path
