"""The recorder (replica/inbox/recorder.py): each conversation's messages kept with what the tools did,
read back in order, and deleted whole, forwarded words included, after the retention."""

from __future__ import annotations

from replica.alerts import Alert
from replica.cli.evaluate import RecordingNotifier
from replica.inbox import Inbox
from replica.storage.deliveries import TELEGRAM
from replica.storage.records import AlertKind
from tests.fixtures.clock import HandClock


def test_what_the_tools_did_is_kept_with_each_reply_and_read_back_in_order(store):
    recorder = Inbox.build(store, "salt", "Ada", RecordingNotifier()).recorder
    mine, other = recorder.begin("s1", "1.2.3.4"), recorder.begin("s2", "1.2.3.4")
    recorder.record(mine.id, "replica", "Noted.", ("inform_unknown",), facts=("question ('Opera?') recorded",))
    recorder.record(other.id, "replica", "Hi.", facts=("a fact of another conversation",))
    recorder.record(mine.id, "replica", "Hello.")
    recorder.record(mine.id, "replica", "Noted.", facts=("lead (a@example.com) recorded", "address refused"))
    assert recorder.facts(mine.id) == [
        "question ('Opera?') recorded",
        "lead (a@example.com) recorded",
        "address refused",
    ]


def test_retention_also_clears_forwarded_messages_from_the_outbox(store):
    clock = HandClock()
    inbox = Inbox.build(store, "salt", "Ada", RecordingNotifier(), clock=clock)
    conversation = inbox.recorder.begin("s1", "1.2.3.4")
    inbox.recorder.record(conversation.id, "visitor", "Hi")
    inbox.handoff.pause(conversation.id)
    inbox.handoff.pass_to_owner(conversation, "My phone number is 555-0100")  # forwarded: an outbox row of visitor text
    lead = Alert(AlertKind.LEAD, "New lead", (("Email", "ada@example.org"),), "s1", conversation=conversation.id)
    store.leads.record("ada@example.org", "Ada", "Hiring", lead.entry())
    for pending in store.deliveries.waiting(TELEGRAM, 100):
        store.deliveries.mark_sent([pending.id], 100 + pending.id)
    store.deliveries.link(555, conversation.id)
    kinds = lambda: sorted(row.kind for row in store.deliveries.rows())  # noqa: E731
    assert kinds() == ["lead", "visitor"]
    clock.now += 91 * 86400
    assert inbox.recorder.delete_older_than(90) == 1
    assert kinds() == ["lead"]  # the lead is the owner's record; the visitor's forwarded words are gone
    assert store.deliveries.conversation_of(555) is None and store.leads.all()[0].email == "ada@example.org"
