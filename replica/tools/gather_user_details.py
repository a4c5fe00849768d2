"""``gather_user_details``: a visitor left their email; check it, store the lead, then tell the owner."""

from __future__ import annotations

from email_validator import EmailNotValidError, validate_email

from replica.alerts import Alert
from replica.alerts.render import one_line
from replica.logs import clip
from replica.tools.registry import Outcome, Tool, ToolContext


def gather_user_details(context: ToolContext, email: str, notes: str, name: str | None = None) -> str:
    """Validate ``email``; if valid, store the lead with its alert and wake the sender.

    Returns ``ok`` (also for a repeat, or past the visitor's alert cap: the lead is kept either way),
    an error telling the model to ask the visitor for a valid address, or, when the store fails, an
    error telling it to say so (the lead is then written to the log whole). An address the visitor
    never wrote in this conversation is not recorded: models invent and "correct" addresses.
    """
    if not context.visitor_wrote(email):
        context.outcomes.append(Outcome.EMAIL_NOT_WRITTEN)
        context.facts.append("an email address the visitor never wrote was not recorded")
        return (
            f"Error: the visitor has not written the email address {clip(email, 100)!r} in this conversation, "
            "so nothing was saved. Never guess, complete or correct an address: ask the visitor to type theirs."
        )
    if context.someone_elses(email):
        context.emails.add(email.strip().lower())  # covered: the lead net does not take it either
        context.facts.append("an email address the visitor said was someone else's was not recorded as a lead")
        return (
            f"Error: the visitor said {clip(email, 100)!r} is someone else's address, so it was not recorded. "
            "Do not say their address was passed on; if they want to hear back, ask for their own."
        )
    context.emails.add(email.strip().lower())
    try:
        valid = validate_email(email.strip(), check_deliverability=context.check_deliverability)
    except EmailNotValidError as exc:
        context.outcomes.append(Outcome.EMAIL_REFUSED)
        context.facts.append(f"the email address {one_line(email, 80)!r} was refused as invalid; nothing was recorded")
        return (
            f"Error: the email address {clip(email, 100)!r} is invalid: {exc} Nothing was saved. "
            "Tell the visitor the address does not look right and ask them for a valid email address."
        )
    name = (name or "").strip()
    context.emails.add(valid.normalized.lower())
    alert = Alert(
        kind="lead",
        title=context.title("New lead"),
        fields=(("Name", name or "(not given)"), ("Email", valid.normalized), ("Notes", notes)),
        session_id=context.session_id,
        conversation=context.conversation,
        quoted=("Notes",),
    )
    return context.keep(
        alert,
        lambda entry: context.store.leads.record(valid.normalized, name, notes, entry),
        Outcome.LEAD_SAVED,
        {"email": valid.normalized, "name": name, "notes": notes},
        what=f"lead ({valid.normalized})",
    )


TOOL = Tool(
    name="gather_user_details",
    description=(
        "Record that a visitor wants to get in touch: call this when the visitor gives an email address. "
        "The owner is told at once."
    ),
    parameters={
        "type": "object",
        "properties": {
            "email": {"type": "string", "description": "The visitor's email address, exactly as given."},
            "notes": {
                "type": "string",
                "description": "What the visitor wants or is interested in, in a sentence or two.",
            },
            "name": {"type": "string", "description": "The visitor's name, if they gave it."},
        },
        "required": ["email", "notes"],
        "additionalProperties": False,
    },
    function=gather_user_details,
)
