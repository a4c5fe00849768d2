"""What a reply claims the app did: saved the visitor's address, passed a question on, told the owner
what the visitor said, will follow up; and whether it declines to answer. The phrasings are the owner's
to extend, in ``prompts/claims.md`` (English as shipped, with Spanish and Portuguese for telling the
owner and for a visitor asking to pass words on), one regular expression a line under each heading."""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum
from pathlib import Path

from replica.knowledge.prompts import PROMPTS_DIR, earliest, pattern_sections

CLAIMS_FILE = "claims.md"


class Claim(Enum):
    """A heading of ``prompts/claims.md``: what a sentence says."""

    LEAD = "lead"  # the visitor's address or details were saved or passed on
    QUESTION = "question"  # a question was passed on
    TOLD = "told the owner"  # the visitor's words reached, or will reach, the owner ("I'll let Jordan know")
    FOLLOW_UP = "follow up"  # the owner will answer, follow up, be in touch
    DECLINED = "declined"  # it cannot help, does not know
    NEVER = "never a claim"  # asks, offers or denies: none of the above
    ABOUT_RECORDS = "asks about the records"  # a visitor's message asking what was saved or passed on
    PASS_ON = "asks to pass on"  # a visitor's message asking for their words to reach the owner
    HOLD_FROM = "hold from"  # where a claim may begin, while a reply streams


CLAIMS = (Claim.LEAD, Claim.QUESTION, Claim.TOLD, Claim.FOLLOW_UP, Claim.DECLINED)  # what a sentence may claim


@dataclass(frozen=True)
class ClaimPatterns:
    """The patterns of each heading."""

    patterns: dict[Claim, tuple[re.Pattern, ...]]

    @classmethod
    def load(cls, prompts_dir: Path = PROMPTS_DIR) -> "ClaimPatterns":
        """Read ``claims.md`` (:func:`~replica.knowledge.prompts.pattern_sections`)."""
        found = pattern_sections(CLAIMS_FILE, [claim.value for claim in Claim], prompts_dir=prompts_dir)
        return cls({claim: tuple(found[claim.value]) for claim in Claim})

    def claims(self, sentence: str) -> set[Claim]:
        """What ``sentence`` claims: some of :data:`CLAIMS`."""
        if any(p.search(sentence) for p in self.patterns[Claim.NEVER]):
            return {Claim.DECLINED} if self._says(Claim.DECLINED, sentence) else set()
        return {c for c in CLAIMS if self._says(c, sentence)}

    def asks_about_records(self, message: str) -> bool:
        """Whether a visitor's ``message`` asks whether something was saved or passed on."""
        return self._says(Claim.ABOUT_RECORDS, message)

    def asks_to_pass_on(self, message: str) -> bool:
        """Whether a visitor's ``message`` asks for their words to reach the owner ("tell Jordan I said hi")."""
        return self._says(Claim.PASS_ON, message)

    def hold_from(self, text: str) -> int | None:
        """Where in ``text`` (a sentence still arriving) a claim may begin, or ``None``."""
        return earliest(self.patterns[Claim.HOLD_FROM], text)

    def _says(self, claim: Claim, sentence: str) -> bool:
        return any(p.search(sentence) for p in self.patterns[claim])
