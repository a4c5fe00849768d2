"""One visitor, one address group: an IPv4 address whole, an IPv6 address by its /64, so a visitor who
walks through the addresses of their /64 still meets the message limit per address and the alert caps
per address; a neighbouring /64 is another visitor. On both databases, with the limits in memory and
shared."""

from __future__ import annotations

import pytest

from replica import wording
from replica.chat.limits import DailyBudget, SlidingWindow, UsageLimits
from replica.chat.reply import Visitor
from replica.inbox.recorder import address_group
from tests.fakes.openai_server import call
from tests.fixtures.clients import app_client, ask
from tests.fixtures.clock import HandClock
from tests.fixtures.replicas import inbox_of, replica_around

ONE_64 = ["2001:db8:1:2::1", "2001:db8:1:2:ffff:ffff:ffff:fffe", "2001:db8:1:2:a::9", "2001:DB8:1:2::77"]
NEXT_64 = "2001:db8:1:3::1"


@pytest.mark.parametrize(
    "address, group",
    [
        ("203.0.113.7", "203.0.113.7"),
        ("203.0.113.8", "203.0.113.8"),  # IPv4: the whole address, a neighbour is someone else
        ("2001:db8:1:2::1", "2001:db8:1:2::/64"),
        ("2001:db8:1:2:ffff:ffff:ffff:fffe", "2001:db8:1:2::/64"),
        ("2001:DB8:0001:0002:0:0:0:1", "2001:db8:1:2::/64"),  # however it is written
        ("2001:db8:1:3::1", "2001:db8:1:3::/64"),
        ("::ffff:203.0.113.7", "203.0.113.7"),  # IPv4-mapped: the IPv4 address
        ("[2001:db8:1:2::1]", "2001:db8:1:2::/64"),
        ("fe80::1%eth0", "fe80::/64"),
        ("unknown", "unknown"),  # no address: as it is
    ],
)
def test_an_address_is_counted_in_its_group(address, group):
    assert address_group(address) == group


@pytest.fixture(params=["in memory", "shared"])
def limits(request, store):
    """The limits of one message an hour per address, kept as a single instance or in the database."""
    if request.param == "in memory":
        return UsageLimits.build(100, 1, 1000)
    return UsageLimits.shared(store, 100, 1, 1000, address_key=inbox_of(store).recorder.address_hash)


def test_addresses_of_one_ipv6_64_share_one_message_limit_and_the_next_64_has_its_own(store, notifier, limits):
    replica = replica_around(None, store, notifier, limits=limits)
    answers = [replica.reply("Hello!", Visitor(f"session-{n}", address)) for n, address in enumerate(ONE_64)]
    assert answers[0] != wording.TOO_MANY_MESSAGES
    assert answers[1:] == [wording.TOO_MANY_MESSAGES] * 3  # new sessions, new addresses, the same /64
    assert replica.reply("Hello!", Visitor("next", NEXT_64)) != wording.TOO_MANY_MESSAGES
    assert replica.reply("Hello!", Visitor("v4", "203.0.113.7")) != wording.TOO_MANY_MESSAGES
    assert replica.reply("Hello!", Visitor("mapped", "::ffff:203.0.113.7")) == wording.TOO_MANY_MESSAGES


def test_leads_from_one_ipv6_64_share_the_alert_cap_per_address(store, notifier):
    replica = replica_around(None, store, notifier)  # the store's caps: 3 lead alerts per address an hour
    for n, address in enumerate(ONE_64):  # four visitors, each a session and an address of their own
        replica.reply(f"Write to me: visitor{n}@example.org", Visitor(f"session-{n}", address))
    replica.reply("Write to me: neighbour@example.org", Visitor("next", NEXT_64))
    assert len(store.leads.all()) == 5  # every lead kept
    alerted = [value for alert in notifier.alerts for label, value in alert.fields if label == "Email"]
    assert alerted == ["visitor0@example.org", "visitor1@example.org", "visitor2@example.org", "neighbour@example.org"]


def test_the_fourth_message_in_an_hour_is_refused_without_a_model_call(start_app, settings, fake_openai):
    url = start_app(settings.updated(visitor_messages_per_hour=3)).demo.local_url
    client = app_client(url)
    answers = [ask(client, f"Question {n}") for n in range(4)]  # the fourth refused at once, as it joins the line
    assert fake_openai.calls == 3
    assert answers[3] == wording.TOO_MANY_MESSAGES
    assert app_client(url).predict("Hello", api_name="/chat") != wording.TOO_MANY_MESSAGES  # a new visitor


def test_one_address_is_limited_across_visitor_sessions(start_app, settings, fake_openai):
    url = start_app(settings.updated(address_messages_per_hour=2)).demo.local_url
    answers = [ask(app_client(url), "Hi") for _ in range(3)]
    assert answers[2] == wording.TOO_MANY_MESSAGES and fake_openai.calls == 2


def test_the_daily_model_budget_stops_model_calls(start_app, settings, fake_openai):
    fake_openai.script(call(("inform_unknown", {"question": "q"})))
    url = start_app(settings.updated(daily_model_calls=3)).demo.local_url
    first = app_client(url).predict("One", api_name="/chat")  # a tool round: 2 calls
    second = app_client(url).predict("Two", api_name="/chat")  # 1 call
    third = app_client(url).predict("Three", api_name="/chat")  # none left
    assert fake_openai.calls == 3 and wording.DAILY_LIMIT not in first + second
    assert third == wording.DAILY_LIMIT


def test_sliding_window_and_daily_budget_reset():
    clock = HandClock()
    window = SlidingWindow(2, window=3600, clock=clock)
    for _ in range(2):
        assert window.has_room("a")
        window.record("a")
    assert not window.has_room("a") and window.has_room("b")
    clock.now += 3599
    assert not window.has_room("a")
    clock.now += 1  # the hour since the first is over: it no longer counts
    assert window.has_room("a")
    clock = HandClock.on(2026, 1, 1, 23, 59)
    budget = DailyBudget(1, clock)
    assert budget.take() and not budget.take()
    clock.now += 59
    assert not budget.take()
    clock.now += 1  # midnight, UTC
    assert budget.take()
