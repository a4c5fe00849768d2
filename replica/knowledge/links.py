"""Where visitors can reach the real person: the owner's site, LinkedIn, GitHub, email and booking page.

Each comes from its setting (``OWNER_WEBSITE``, ``OWNER_LINKEDIN``, ``OWNER_GITHUB``, ``OWNER_EMAIL``,
``OWNER_BOOKING``), else from a line beside ``name:`` at the top of a knowledge file (``website:``,
``linkedin:``, ``github:``, ``email:``, ``booking:``, each followed by an address). A profile line whose
address is not one is skipped with a warning naming the file and line (``doctor`` reports it too), so a
typo never becomes a broken link on the page.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Literal, TypedDict

from replica.knowledge.identity import file_heads
from replica.settings import BY_FIELD, ConfigError, Settings

log = logging.getLogger(__name__)

LinkField = Literal["owner_website", "owner_linkedin", "owner_github", "owner_email", "owner_booking"]


class LinkSettings(TypedDict, total=False):
    """The owner's links a profile fills in, as the :class:`Settings` fields they set."""

    owner_website: str
    owner_linkedin: str
    owner_github: str
    owner_email: str
    owner_booking: str


# The profile's line name -> the Settings field it fills, in the order the page shows them.
LINES: dict[str, LinkField] = {
    "website": "owner_website",
    "linkedin": "owner_linkedin",
    "github": "owner_github",
    "email": "owner_email",
    "booking": "owner_booking",
}
LINE = re.compile(r"^\s*(website|linkedin|github|email|booking)\s*:\s*(\S+)\s*$", re.IGNORECASE)
HEAD_LINES = 12  # the links sit at the top, beside name:


@dataclass(frozen=True)
class ProfileLine:
    """One links line of a profile, where it was found, and what is wrong with it ("" when nothing)."""

    kind: str
    address: str
    place: str  # "knowledge/profile.md, line 2"
    problem: str = ""


def profile_lines(knowledge_dir: Path) -> list[ProfileLine]:
    """Every links line at the top of the knowledge files, the first file's first, each checked with
    its setting's own parser."""
    found = []
    for path, head in file_heads(knowledge_dir, HEAD_LINES):
        for number, line in enumerate(head, 1):
            if match := LINE.match(line):
                kind, address = match.group(1).lower(), match.group(2)
                try:
                    BY_FIELD[LINES[kind]].parse(kind, address)
                    problem = ""
                except ConfigError as error:
                    problem = str(error)
                found.append(ProfileLine(kind, address, f"{path}, line {number}", problem))
    return found


def filled_in(settings: Settings, lines: list[ProfileLine]) -> Settings:
    """``settings`` with each link not set filled in from ``lines`` (the first good one of its kind)."""
    filled: LinkSettings = {}
    for line in lines:
        field = LINES[line.kind]
        if not line.problem and getattr(settings.owner, field) is None and field not in filled:
            filled[field] = line.address
    return settings.updated(**filled)


def with_owner_links(settings: Settings) -> Settings:
    """``settings`` with the profile's links filled in; a line that is not an address is logged and skipped."""
    lines = profile_lines(settings.owner.knowledge_dir)
    for line in lines:
        if line.problem:
            log.warning("Profile links: %s skipped (%s; docs/page.md)", line.place, line.problem)
    return filled_in(settings, lines)


def owner_links(settings: Settings) -> list[tuple[str, str]]:
    """The owner's links as (kind, address) pairs, in the page's order; only those that are set."""
    return [(kind, getattr(settings.owner, field)) for kind, field in LINES.items() if getattr(settings.owner, field)]
