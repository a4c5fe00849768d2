"""A visitor's address as a code mail goes to it, and as the caps count it.

One mailbox has many spellings: ``Ada@Example.org`` and ``ada@example.org``, ``ada+1@example.org`` (a
plus tag, which every large mail service delivers to ``ada``), ``a.da@gmail.com`` (Gmail ignores dots in
its addresses). The caps on code mails and tries count the mailbox (:attr:`Mailbox.key`), so no spelling
buys another mail or try. The mail goes to the address as validated, its domain in ASCII (an accented
domain as punycode, which every mail service takes), and to nothing else: an address the mail service
would read otherwise (an apostrophe or a quote before the @ makes Apprise take what precedes it for a
display name, and mail the rest) or cannot carry (letters outside ASCII before the @) gets no code, and
the visitor is told so before anything is promised.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from email_validator import EmailNotValidError, validate_email

# What a mail service takes before the @ as it is written: letters, digits, and . _ - +.
PLAIN_LOCAL = re.compile(r"[A-Za-z0-9._+\-]+")
# Gmail delivers a.da@ and ada@ to one mailbox (its help: "Gmail doesn't recognize dots as characters within
# usernames"); elsewhere a dot is part of the name (first.last@ and firstlast@ are two people at most firms).
DOTLESS_DOMAINS = {"gmail.com": "gmail.com", "googlemail.com": "gmail.com"}


@dataclass(frozen=True)
class Mailbox:
    """Where a code mail goes (``address``), what the caps count (``key``), and why no code can be mailed
    to it (``problem``, in the owner's words; "" when one can)."""

    address: str
    key: str
    problem: str = ""


def mailbox(email: str) -> Mailbox:
    """The mailbox of ``email``: an address the lead was stored with (already validated)."""
    try:
        valid = validate_email(email.strip(), check_deliverability=False)
    except EmailNotValidError as error:
        return Mailbox(email, email.strip().lower(), f"the address is not valid ({error})")
    local, domain = valid.local_part, (valid.ascii_domain or valid.domain).lower()
    key_local = local.lower().split("+", 1)[0] or local.lower()
    if domain in DOTLESS_DOMAINS:
        key_local, domain = key_local.replace(".", ""), DOTLESS_DOMAINS[domain]
    key = f"{key_local}@{domain}"
    if valid.ascii_email is None or not PLAIN_LOCAL.fullmatch(local):
        return Mailbox(email, key, "the mail service takes only plain letters, digits and . _ - + before the @")
    return Mailbox(valid.ascii_email, key)
