"""Polling for the owner's updates (replica/owner_bot/polling.py): a conflict with another poller or a
webhook is logged, and polling recovers."""

from __future__ import annotations

import logging

from tests.fixtures.environment import wait_until


def test_a_webhook_conflict_is_logged_and_polling_recovers(start_app, settings, fake_telegram, caplog):
    fake_telegram.conflicts_next = 1
    with caplog.at_level(logging.WARNING):
        start_app(settings)
        assert wait_until(lambda: "another getUpdates poller or a webhook" in caplog.text)
    fake_telegram.push("/help")
    assert wait_until(lambda: any("/forget N" in t for t in fake_telegram.sent_texts()))
