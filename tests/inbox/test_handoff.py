"""The handoff (replica/inbox/handoff.py): the owner takes a conversation over, and it comes back to the
replica by itself after the owner's silence, the open page told."""

from __future__ import annotations

from replica.cli.evaluate import RecordingNotifier
from replica.inbox import Inbox
from tests.fixtures.clock import HandClock


def test_a_handoff_resumes_by_itself_after_the_owner_is_silent(store):
    clock = HandClock()
    inbox = Inbox.build(store, "salt", "Ada", RecordingNotifier(), handoff_seconds=1800, clock=clock)
    conversation = inbox.recorder.begin("s1", "1.2.3.4")
    inbox.handoff.pause(conversation.id)
    clock.now += 1000
    inbox.handoff.say(conversation.id, "One moment")  # an owner message keeps the handoff alive
    clock.now += 1500
    assert inbox.handoff.resume_expired() == [] and inbox.recorder.begin("s1", "1.2.3.4").paused
    clock.now += 400
    assert inbox.handoff.resume_expired() == [conversation.id] and not inbox.recorder.begin("s1", "1.2.3.4").paused
    assert inbox.page.for_page("s1") == (True, False)  # shown to the open page; nothing more to wait for
    assert inbox.page.page_messages("s1")[-1] == (
        "notice",
        "Ada has stepped away; I'm answering again, as Ada's replica.",
    )
