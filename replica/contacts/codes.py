"""Codes: six digits from :mod:`secrets`, kept only as a keyed hash; and a code read as people type it.

The key is made from the app's salt (kept in the database, the same on every instance and after a
restart), so every instance checks a code the same way; the database alone never tells a code (the
hash is keyed), and a code is never written anywhere else but the visitor's mail.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets

DIGITS = 6
# Digits in groups joined by a space, a dash or a dot ("482 913", "482-913"); a code is such a run of six
# digits in all, so a phone number ("+351 912 345 678") or a year is never read as one.
NUMBER = re.compile(r"(?<![\d\w])\d+(?:[ .\-]\d+)*(?![\d\w])")
# "send it again", "a new code", "resend", "I didn't get it": a visitor asking for another code.
AGAIN = re.compile(
    r"\b(?:re-?send|send\b.{0,20}\bagain|(?:new|another|fresh)\s+(?:one|code)"
    r"|(?:did|does|has|have|is)\s*n[o'’]?t\s+(?:(?:yet\s+)?(?:get|got|receive|received|arrive|arrived|come|reach|reached)|here)"
    r"|never\s+(?:got|came|arrived)|no\s+code|not\s+(?:received|arrived)|reenv[ií]a|otro\s+c[oó]digo|nuevo\s+c[oó]digo"
    r"|reenvi[ae]|outro\s+c[oó]digo|novo\s+c[oó]digo|renvoy|nouveau\s+code|neuen?\s+code|erneut\s+senden)",
    re.I,
)
MASK = "••••••"
# A message is read as a code when it names one, or is little besides the number ("482913 thanks"):
# "Our budget is 150000" is a budget, not a wrong try.
NAMES_A_CODE = re.compile(r"\b(?:code|codes|c[oó]digo|otp|pin|token)\b", re.I)
FEW_WORDS = 3


def new_code() -> str:
    """Six digits, from :mod:`secrets`."""
    return f"{secrets.randbelow(10**DIGITS):0{DIGITS}d}"


class CodeKey:
    """Hashes codes with the app's key (made from ``salt``): a code's hash is bound to its row."""

    def __init__(self, salt: str):
        self._key = hmac.new(salt.encode(), b"replica contact code", hashlib.sha256).digest()

    def digest(self, code_id: int, code: str) -> str:
        """The keyed hash of ``code`` for the code row ``code_id``."""
        return hmac.new(self._key, f"{code_id}:{code}".encode(), hashlib.sha256).hexdigest()

    def matches(self, code_id: int, code: str, digest: str | None) -> bool:
        """Whether ``code`` is the one hashed as ``digest`` for row ``code_id`` (in constant time)."""
        return digest is not None and hmac.compare_digest(self.digest(code_id, code), digest)


def codes_in(message: str) -> list[str]:
    """The six-digit codes written in ``message``, as digits ("my code is 482-913" gives ["482913"]), when
    the message reads as giving a code: it names one, or holds few words besides."""
    found = [re.sub(r"\D", "", number) for number in NUMBER.findall(message or "")]
    codes = [digits for digits in found if len(digits) == DIGITS]
    if not codes:
        return []
    rest = re.findall(r"[^\W\d_]+", NUMBER.sub(" ", message))
    return codes if NAMES_A_CODE.search(message) or len(rest) <= FEW_WORDS else []


def masked(message: str) -> str:
    """``message`` with every six-digit code in it masked (what a transcript and the model may see)."""
    return NUMBER.sub(lambda m: MASK if len(re.sub(r"\D", "", m.group())) == DIGITS else m.group(), message)


def asks_again(message: str) -> bool:
    """Whether ``message`` asks for another code."""
    return bool(AGAIN.search(message or ""))
