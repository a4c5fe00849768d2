"""The one dispatcher (replica/owner_bot/dispatcher.py): a command is read from Telegram's own
``bot_command`` entity, never from text that merely starts with a slash, and a command table with a
command no handler serves is refused when the bot is made."""

from __future__ import annotations

import pytest

from replica.owner_bot.dispatcher import Dispatcher, command_of
from replica.telegram.updates import parse_update


def message(text: str, entity: dict | None = None):
    raw = {"message_id": 1, "chat": {"id": 4242, "type": "private"}, "date": 0, "text": text}
    if entity:
        raw["entities"] = [{"type": "bot_command", **entity}]
    return parse_update({"update_id": 1, "message": raw}).message


@pytest.mark.parametrize(
    "text, entity, command",
    [
        ("/leads", {"offset": 0, "length": 6}, ("leads", "")),
        ("/Show@replica_test_bot  3 ", {"offset": 0, "length": 22}, ("show", "3")),
        ("/say 2 Hello, I'm Ada", {"offset": 0, "length": 4}, ("say", "2 Hello, I'm Ada")),
        ("/leads", None, None),  # no entity: words that start with a slash
        ("see /leads", {"offset": 4, "length": 6}, None),  # a command inside the text
    ],
)
def test_a_command_is_read_from_its_entity_at_the_start(text, entity, command):
    assert command_of(message(text, entity), text.strip()) == command


def test_a_command_without_a_handler_stops_the_bot_being_made():
    with pytest.raises(ValueError, match=r"commands without a handler: .*leads"):
        Dispatcher(None, {"recent": str}, questions=None, conversations=None, buttons=None)
