"""The owner is told when a lead's address is confirmed: the lead's own Telegram alert is edited to say
so (``editMessageText``, its buttons kept); where that alert cannot be edited (it went in a fold, or was
deleted), a short follow-up names the lead."""

# ruff: noqa: F811 (the sender's fixtures, imported, are the tests' arguments)
from __future__ import annotations

from replica.alerts.alert import CONFIRMED_LINE
from replica.contacts.verifier import announce_confirmed
from tests.alerts.test_sender import client, clock, queue_lead, start_sender, store  # noqa: F401 (fixtures)


def test_the_leads_alert_is_edited_to_say_the_address_is_confirmed_and_keeps_its_buttons(
    fake_telegram,
    store,
    start_sender,
    clock,
):
    sender = start_sender()
    queue_lead(store, sender)
    [original] = fake_telegram.wait_for(1)
    assert "Confirmed" not in original.text
    buttons = original.keys
    assert buttons  # the lead's, kept through the edit below
    announce_confirmed(store, sender)("s-1", "ada@example.org")
    clock.run_until(lambda: fake_telegram.text_edits)  # on the sender's pace: a second later
    assert len(fake_telegram.delivered) == 1 and original.text.startswith("New lead #1")
    assert f"Confirmed: {CONFIRMED_LINE}" in original.text and original.keys == buttons


def test_a_lead_whose_alert_is_gone_gets_a_follow_up_naming_it(fake_telegram, store, start_sender, clock):
    sender = start_sender()
    queue_lead(store, sender)
    fake_telegram.wait_for(1)
    fake_telegram.delivered.clear()  # the owner deleted it: Telegram answers "message to edit not found"
    announce_confirmed(store, sender)("s-1", "ada@example.org")
    clock.run_until(lambda: fake_telegram.delivered)
    [follow_up] = fake_telegram.delivered
    assert follow_up.text.startswith("Lead confirmed #1") and "ada@example.org" in follow_up.text


def test_no_alert_for_an_address_no_lead_of_that_conversation_has(fake_telegram, store, start_sender):
    sender = start_sender()
    queue_lead(store, sender)
    fake_telegram.wait_for(1)
    announce_confirmed(store, sender)("another-session", "ada@example.org")
    # One delivery in all, the lead's own (whether or not the sender has recorded it sent yet): none queued.
    assert [row.kind for row in store.deliveries.rows()] == ["lead"] and fake_telegram.text_edits == []


def test_a_channel_that_cannot_edit_gets_the_short_follow_up(tmp_path, fake_telegram, clock):
    from replica.alerts.apprise_channel import parse_channels
    from replica.alerts.sender import AlertSender
    from replica.storage.store import Store
    from tests.fakes.webhook_server import FakeWebhook

    webhook = FakeWebhook()
    [channel], _ = parse_channels((f"json://{webhook.url.split('//', 1)[1]}/hook",))
    store = Store(tmp_path / "replica.sqlite3", alert_channels=(channel.key,), clock=clock)
    sender = AlertSender(store, channel, clock=clock).start()
    try:
        queue_lead(store, sender)
        clock.run_until(lambda: webhook.received)
        announce_confirmed(store, sender)("s-1", "ada@example.org")
        clock.run_until(lambda: len(webhook.received) == 2)
        lead, follow_up = webhook.received
        assert lead.title.startswith("New lead #1") and follow_up.title == "Lead confirmed #1"
        assert CONFIRMED_LINE in follow_up.text and "ada@example.org" in follow_up.text
    finally:
        sender.close()
        store.close()
        webhook.close()
