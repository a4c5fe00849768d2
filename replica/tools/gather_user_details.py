"""``gather_user_details``: a visitor left their email; check it, store the lead, then tell the owner.

The address is validated with email-validator and normalised. ``ok`` comes back also for a repeat, or
past the visitor's alert cap (the lead is kept either way); a store failure gets an instruction to say
so (the lead is then written to the log whole). The tool refuses, by raising :class:`ToolRetry` with
what to ask the visitor instead, an invalid address, an address the visitor never wrote in this
conversation (models invent and "correct" addresses), and one the visitor said is someone else's.
"""

from __future__ import annotations

import re

from email_validator import EmailNotValidError, validate_email

from replica.alerts import Alert
from replica.alerts.alert import NOT_GIVEN
from replica.storage.records import AlertKind
from replica.text import clip, one_line
from replica.tools.keeping import keep
from replica.tools.tool import Outcome, ToolContext, ToolResult, ToolRetry

# Words right before an address that say it is not the visitor's own: "don't contact ceo@…", "my
# colleague's email is bob@…". Kept narrow: a lead wrongly refused is worse than one wrongly kept.
SOMEONE_ELSES = re.compile(
    r"(?:(?:do\s*n[o'’]?t|never)\s+(?:contact|e-?mail|write\s+to|reach|cc|copy)(?:\s+\w+)?(?:\s+(?:at|on))?"
    r"|(?:not\s+(?:my|mine)|\b(?:his|her|their)|(?:colleague|boss|manager|friend|client|partner|wife|husband"
    r"|assistant|recruiter|ceo|someone\s+else|somebody\s+else)(?:['’]s|s['’])?)\s+(?:e-?mail(?:\s+address)?"
    r"|address|contact)(?:\s+(?:is|was))?)\s*[:\-–]?\s*$",
    re.I,
)


# Verified contacts: the alert's "Confirmed" line until the visitor types the code mailed to the address,
# which is true whether or not a code could be mailed; and the line of a lead passed on with no code to come.
NOT_CONFIRMED = "no (no code mailed to the address has been typed back)"
NOT_CONFIRMED_BECAUSE = "no: {why}"


def marked_as_someone_elses(words: str, email: str) -> bool:
    """Whether, in ``words``, each place ``email`` is written is preceded in its sentence by words that
    say it is someone else's."""
    lowered, needle = words.lower(), email.strip().lower()
    places = [m.start() for m in re.finditer(re.escape(needle), lowered)] if needle else []
    return bool(places) and all(SOMEONE_ELSES.search(words[max(0, at - 60) : at]) for at in places)


def gather_user_details(context: ToolContext, email: str, notes: str, name: str | None = None) -> ToolResult:
    """Record that a visitor wants to get in touch: call this when the visitor gives an email address. The owner is told at once.

    Args:
        email: The visitor's email address, exactly as given.
        notes: What the visitor wants or is interested in, in a sentence or two.
        name: The visitor's name, if they gave it.
    """
    if not context.visitor_wrote(email):
        raise ToolRetry(
            f"the visitor has not written the email address {clip(email, 100)!r} in this conversation, "
            "so nothing was saved. Never guess, complete or correct an address: ask the visitor to type theirs.",
            outcome=Outcome.EMAIL_NOT_WRITTEN,
            fact="an email address the visitor never wrote was not recorded",
        )
    covered = frozenset({email.strip().lower()})  # dealt with: the lead net does not take it either
    if context.visitor_words is not None and marked_as_someone_elses(context.visitor_words, email):
        raise ToolRetry(
            f"the visitor said {clip(email, 100)!r} is someone else's address, so it was not recorded. "
            "Do not say their address was passed on; if they want to hear back, ask for their own.",
            fact="an email address the visitor said was someone else's was not recorded as a lead",
            emails=covered,
        )
    try:
        valid = validate_email(email.strip(), check_deliverability=context.check_deliverability)
    except EmailNotValidError as exc:
        raise ToolRetry(
            f"the email address {clip(email, 100)!r} is invalid: {exc} Nothing was saved. "
            "Tell the visitor the address does not look right and ask them for a valid email address.",
            outcome=Outcome.EMAIL_REFUSED,
            fact=f"the email address {one_line(email, 80)!r} was refused as invalid; nothing was recorded",
            emails=covered,
        ) from None
    name = (name or "").strip()
    confirmed = NOT_CONFIRMED if context.verification != "off" else None
    alert = lead_alert(
        context.title("New lead"), name, valid.normalized, notes, context.session_id, context.conversation, confirmed
    )
    held = context.verification == "required"  # the alert waits for the code (replica.contacts)
    return keep(
        context,
        alert,
        lambda entry: context.store.leads.record(valid.normalized, name, notes, entry, held=held),
        Outcome.LEAD_SAVED,
        {"email": valid.normalized, "name": name, "notes": notes},
        what=f"lead ({valid.normalized})",
        emails=covered | {valid.normalized.lower()},
    )


def lead_alert(
    title: str,
    name: str,
    email: str,
    notes: str,
    session: str,
    conversation: int | None,
    confirmed: str | None = None,
) -> Alert:
    """The owner's alert for a lead; ``confirmed``, what it says of the address (verified contacts)."""
    return Alert(
        kind=AlertKind.LEAD,
        title=title,
        fields=(
            ("Name", name or NOT_GIVEN),
            ("Email", email),
            *((("Confirmed", confirmed),) if confirmed else ()),
            ("Notes", notes),
        ),
        session_id=session,
        conversation=conversation,
        quoted=("Notes",),
    )
