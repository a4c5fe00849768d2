"""Conversations as stored: one per visitor session, its messages in order, the owner's handoff, and
what goes once a conversation has been idle past its keeping time."""

from __future__ import annotations

from replica.storage.records import REPLICA, VISITOR
from tests.storage.test_store import alert


def test_a_session_has_one_conversation_and_its_messages_come_back_in_order(store):
    conversations = store.conversations
    first = conversations.begin("s1", "h1", now=100.0)
    assert conversations.begin("s1", "h1", now=200.0).id == first.id  # the same session: the same conversation
    assert conversations.begin("s2", "h1", now=200.0).id != first.id
    conversations.add_message(first.id, VISITOR, "Hello?", at=101.0, activity=True)
    conversations.add_message(first.id, REPLICA, "Hi.", at=102.0, tools=("inform_unknown",), facts=("passed on",))
    assert [(m.role, m.text, m.tools) for m in conversations.messages(first.id)] == [
        (VISITOR, "Hello?", ""),
        (REPLICA, "Hi.", "inform_unknown"),
    ]
    assert [m.text for m in conversations.messages(first.id, leave_out_role=VISITOR)] == ["Hi."]
    assert [(m.role, m.text) for m in conversations.messages_of_session("s1")] == [
        (VISITOR, "Hello?"),
        (REPLICA, "Hi."),
    ]
    assert conversations.facts(first.id) == ["passed on"]
    assert conversations.of_session("s1").last_at == 101.0  # moved by the visitor's message, not the reply
    assert conversations.of_session("nobody") is None


def test_messages_the_page_has_not_shown_are_taken_once(store):
    conversations = store.conversations
    conversation = conversations.begin("s1", "h1", now=1.0).id
    unseen = conversations.add_message(conversation, REPLICA, "From the owner", at=2.0, shown=False)
    assert not conversations.was_shown(unseen)
    assert conversations.take_unshown(conversation) == 1 and conversations.was_shown(unseen)
    assert conversations.take_unshown(conversation) == 0


def test_a_handoff_is_paused_told_once_extended_and_resumed(store):
    conversations = store.conversations
    conversation = conversations.begin("s1", "h1", now=1.0).id
    assert not conversations.pause(999, until=50.0)
    conversations.extend_pause(conversation, until=70.0)  # not paused: nothing changes
    assert conversations.get(conversation).paused_until is None
    assert conversations.pause(conversation, until=50.0)
    assert conversations.claim_handoff_notice(conversation) and not conversations.claim_handoff_notice(conversation)
    conversations.extend_pause(conversation, until=80.0)
    assert conversations.paused_until_before(79.0) == [] and conversations.paused_until_before(80.0) == [conversation]
    assert conversations.resume(conversation) and not conversations.resume(conversation)
    assert conversations.get(conversation).paused_until is None


def test_a_browser_keeps_a_conversation_only_once_it_exists(store):
    conversations = store.conversations
    assert not conversations.mark_kept_by_browser("s1")
    conversation = conversations.begin("s1", "h1", now=1.0).id
    assert not conversations.get(conversation).kept_by_browser
    assert conversations.mark_kept_by_browser("s1") and conversations.get(conversation).kept_by_browser


def test_recent_lists_the_newest_first_with_its_first_question_size_lead_and_question(store):
    conversations = store.conversations
    older = conversations.begin("s1", "h1", now=1.0).id
    conversations.add_message(older, VISITOR, "First words", at=1.0, activity=True)
    conversations.add_message(older, REPLICA, "Reply", at=2.0)
    newer = conversations.begin("s2", "h2", now=5.0).id
    store.leads.record("a@example.org", "", "", alert(session="s2").entry())
    assert [(c.id, c.first, c.size, c.lead, c.question) for c in conversations.recent(10)] == [
        (newer, None, 0, True, False),
        (older, "First words", 2, False, False),
    ]
    assert [c.id for c in conversations.recent(1)] == [newer]


def test_idle_conversations_go_with_their_messages_and_leads_stay(store):
    conversations = store.conversations
    idle = conversations.begin("s1", "h1", now=10.0).id
    conversations.add_message(idle, VISITOR, "Old", at=10.0, activity=True)
    active = conversations.begin("s2", "h2", now=10.0).id
    conversations.add_message(active, VISITOR, "New", at=100.0, activity=True)
    store.leads.record("a@example.org", "", "", alert(session="s1").entry())
    assert conversations.delete_idle_since(50.0) == 1
    assert conversations.get(idle) is None and conversations.messages(idle) == []
    assert [m.text for m in conversations.messages(active)] == ["New"]
    assert [lead.email for lead in store.leads.all()] == ["a@example.org"]  # a record the owner keeps
