"""The one command table (replica/owner_bot/commands.py): the commands registered with Telegram, /help,
and a hint for any other message."""

from __future__ import annotations

from tests.fixtures.environment import wait_until


def test_commands_are_registered_and_other_messages_get_a_hint(start_app, settings, fake_telegram):
    start_app(settings)
    assert wait_until(lambda: fake_telegram.commands is not None)
    assert {c["command"] for c in fake_telegram.commands} >= {"leads", "unanswered", "forget", "help"}
    fake_telegram.push("hello bot")
    assert wait_until(
        lambda: fake_telegram.delivered and "reply to an “Unanswered question” alert" in fake_telegram.sent_texts()[-1]
    )
    fake_telegram.push("/help")
    assert wait_until(lambda: "/forget N" in fake_telegram.sent_texts()[-1])
