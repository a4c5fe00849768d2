"""The page channel (replica/inbox/page_channel.py): what an open page shows of the owner's side, and
how long it keeps checking for it."""

from __future__ import annotations

from replica.cli.evaluate import RecordingNotifier
from replica.inbox import Inbox
from replica.inbox.recorder import VISITOR
from tests.fixtures.clock import HandClock
from tests.fixtures.replicas import asked, inbox_of


def test_a_page_left_open_during_a_handoff_keeps_checking_until_the_replica_is_back(store):
    clock = HandClock()
    inbox = Inbox.build(store, "salt", "Ada", RecordingNotifier(), handoff_seconds=1800, clock=clock)
    conversation = inbox.recorder.begin("s1", "1.2.3.4")
    inbox.recorder.record(conversation.id, "visitor", "Can I talk to Ada?")
    inbox.handoff.pause(conversation.id)
    assert inbox.page.for_page("s1") == (True, True)  # the handoff notice
    clock.now += 1790  # the visitor's last message is almost 30 minutes old: the page would stop here
    assert inbox.page.for_page("s1") == (False, True)  # but the owner has the conversation: it goes on
    clock.now += 70
    assert inbox.handoff.resume_expired() == [conversation.id]
    assert inbox.page.for_page("s1") == (True, False)  # the "stepped away" notice reaches the page
    assert inbox.page.page_messages("s1")[-1][0] == "notice" and "stepped away" in inbox.page.page_messages("s1")[-1][1]


def test_the_page_stops_checking_after_30_minutes_without_activity(store):
    clock = HandClock()
    inbox = Inbox.build(store, "salt", "Ada", RecordingNotifier(), clock=clock)
    assert inbox.page.for_page("new-page") == (False, True)  # no conversation yet: keeps checking
    conversation = inbox.recorder.begin("s1", "1.2.3.4")
    inbox.recorder.record(conversation.id, "visitor", "Hi")
    clock.now += 29 * 60
    assert inbox.page.for_page("s1") == (False, True)
    clock.now += 2 * 60
    assert inbox.page.for_page("s1") == (False, False)
    inbox.handoff.say(conversation.id, "Still there?")  # the owner's words are activity too
    assert inbox.page.for_page("s1") == (True, True)
    assert inbox.page.page_messages("s1") == [("visitor", "Hi"), ("owner", "Still there?")]


def test_a_page_waiting_for_an_answer_keeps_checking_past_the_idle_time(store):
    clock = HandClock()
    inbox = inbox_of(store, owner_name="Ada", clock=clock)
    asked(store, inbox, "waiting", "Do you like cats?")
    conversation = inbox.recorder.begin("idle", "203.0.113.7")
    inbox.recorder.record(conversation.id, VISITOR, "Hello")
    clock.now += 3 * 3600
    assert inbox.page.for_page("waiting")[1] is True
    assert inbox.page.for_page("idle")[1] is False
    store.questions.dismiss(store.questions.in_status()[0].id)
    assert inbox.page.for_page("waiting")[1] is False
