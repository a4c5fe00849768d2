"""Whether a sentence is in the owner's voice: not the machinery talking, not a promise nobody keeps.

Small models speak of "the visitor" and "the user" in the third person, of their tools, functions,
instructions and system prompt, head a reply "### System Prompt", speak in a system prompt's own voice
("You are a helpful assistant.", "Your task is…"), fall back on "As an AI, I don't have…" (or on "As a
data engineer, I don't have personal preferences or emotions.", the same in disguise), and promise what
the replica cannot do ("I'll let you know", "I'll call you"). The phrasings are the owner's to extend, in
``prompts/voice.md`` (English as shipped, with a few lines in Spanish and Portuguese), one regular
expression a line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum
from pathlib import Path

from replica.knowledge.prompts import PROMPTS_DIR, earliest, pattern_sections

VOICE_FILE = "voice.md"
EMPHASIS = re.compile(r"(?<!\w)[*_]{1,3}|[*_]{1,3}(?!\w)")


class Voice(Enum):
    """A heading of ``prompts/voice.md``: what is wrong with a sentence."""

    FRAMEWORK = "framework talk"  # the machinery talking: dropped
    PROMISE = "promise"  # a future act the replica cannot do: replaced by what is true
    HOLD_FROM = "hold from"  # where framework talk may begin, while a reply streams


@dataclass(frozen=True)
class VoicePatterns:
    """The patterns of each heading."""

    patterns: dict[Voice, tuple]

    @classmethod
    def load(cls, prompts_dir: Path = PROMPTS_DIR) -> "VoicePatterns":
        """Read ``voice.md`` (:func:`~replica.knowledge.prompts.pattern_sections`)."""
        found = pattern_sections(VOICE_FILE, [voice.value for voice in Voice], prompts_dir=prompts_dir)
        return cls({voice: tuple(found[voice.value]) for voice in Voice})

    def fault(self, sentence: str) -> Voice | None:
        """What is wrong with ``sentence`` (framework talk first), or ``None``."""
        plain = EMPHASIS.sub("", sentence)  # "**the user**" reads as "the user"
        for voice in (Voice.FRAMEWORK, Voice.PROMISE):
            if any(p.search(plain) for p in self.patterns[voice]):
                return voice
        return None

    def promised(self, sentence: str) -> str:
        """The words of a promise in ``sentence`` ("I'll get back to you"), or ""."""
        plain = EMPHASIS.sub("", sentence)
        found = [m.group() for p in self.patterns[Voice.PROMISE] for m in [p.search(plain)] if m]
        return min(found, key=len, default="")

    def hold_from(self, text: str) -> int | None:
        """Where in ``text`` (a sentence still arriving) framework talk may begin, or ``None``."""
        return earliest(self.patterns[Voice.HOLD_FROM], text)
