"""The lead net (replica/chat/lead_net.py): an address in the visitor's words is never lost, whatever
the model did with it, and none is invented."""

from __future__ import annotations

from replica import wording
from replica.chat.limits import UsageLimits
from replica.chat.reply import Visitor
from tests.fakes.openai_server import call, fail, say

LEAD = {"email": "jane.doe@example.com", "notes": "Wants to hire Jordan", "name": "Jane"}


def test_an_email_the_model_did_not_record_becomes_one_lead_and_the_visitor_is_told(
    fake_openai, make_replica, store, notifier
):
    fake_openai.default = say("Thanks Jane, I'll pass that on to Jordan.")
    replica = make_replica()
    message = "I'd like to hire you, my email is jane.doe@example.com, I'm Jane"
    answer = replica.reply(message, Visitor("s1"))
    assert (
        answer == "Thanks Jane, I'll pass that on to Jordan.\n\nI've passed your email address on, so you'll hear back."
    )
    [lead] = store.leads.all()
    assert lead.email == "jane.doe@example.com" and message in lead.notes
    replica.reply("As I said: jane.doe@example.com", Visitor("s1"))
    assert len(store.leads.all()) == 1 and [a.kind for a in notifier.alerts] == ["lead"]  # alerted once


def test_the_models_own_call_is_the_only_record(fake_openai, make_replica, store, notifier):
    fake_openai.script(call(("gather_user_details", LEAD)), say("Thanks Jane!"))
    answer = make_replica().reply("Hire me? jane.doe@example.com, Jane", Visitor("s1"))
    assert answer == "Thanks Jane!"  # no second sentence: the model's call covered the address
    [lead] = store.leads.all()
    assert lead.notes == "Wants to hire Jordan" and len(notifier.alerts) == 1


def test_an_invalid_address_invents_nothing(fake_openai, make_replica, store, notifier):
    fake_openai.default = say("Could you check that address?")
    answer = make_replica().reply("Reach me at jane.doe@example or jane@@example.com", Visitor("s1"))
    assert answer == "Could you check that address?" and store.leads.all() == [] and notifier.alerts == []


def test_an_email_left_when_the_visitor_stops_the_reply_is_kept(fake_openai, make_replica, store):
    fake_openai.default = say("Let me think about that for a while. " * 20, pieces=20, piece_delay=0.05)
    reply = make_replica().stream_reply("jane.doe@example.com here, hire me?", Visitor("s1"))
    next(reply)
    reply.close()  # the visitor pressed stop
    assert [lead.email for lead in store.leads.all()] == ["jane.doe@example.com"]


def test_a_lead_in_the_message_is_kept_when_the_model_is_down(fake_openai, notifier, store, make_replica):
    fake_openai.default = fail(500)
    message = "Hi, I'm hiring for a data role; reach me at grace@example.org."
    answer = make_replica(max_retries=0).reply(message, Visitor("s1"))
    assert answer == f"{wording.MODEL_FAILED} {wording.LEAD_KEPT}"
    [lead] = store.leads.all()
    assert lead.email == "grace@example.org" and message in lead.notes
    assert [a.kind for a in notifier.alerts] == ["lead"]


def test_a_lead_is_kept_past_the_deadline_and_when_the_day_budget_is_spent(fake_openai, store, make_replica):
    fake_openai.default = say("late", delay=3600)
    slow = make_replica(reply_deadline_seconds=1, max_retries=0)  # no retry to reach the fake in a later test
    assert slow.reply("Email me: a@example.org", Visitor("s1")).endswith(wording.LEAD_KEPT)
    spent = make_replica(limits=UsageLimits.build(10, 10, 0))
    assert spent.reply("b@example.org please", Visitor("s2")) == (f"{wording.DAILY_LIMIT} {wording.LEAD_KEPT}")
    assert sorted(row.email for row in store.leads.all()) == ["a@example.org", "b@example.org"]


def test_no_lead_is_invented_from_a_message_without_a_valid_address(fake_openai, store, make_replica):
    fake_openai.default = fail(500)
    answer = make_replica(max_retries=0).reply("write to me at grace@localhost", Visitor("s1"))
    assert answer == wording.MODEL_FAILED and store.leads.all() == []
