"""Telegram updates are read once, into frozen types: each shape Telegram sends as the bot reads it, and
every hostile one (wrong types, missing fields, huge numbers, nested junk) read as nothing, never raised."""

from __future__ import annotations

import dataclasses
import logging
import random

import pytest

from replica.alerts.alert import Alert
from replica.alerts.render import keyboard_for
from replica.storage.records import AlertKind
from replica.telegram.client import markup_json
from replica.telegram.updates import (
    LARGEST_ID,
    Button,
    ButtonPress,
    Entity,
    Message,
    RepliedTo,
    Update,
    User,
    parse_update,
)

OWNER = {"id": 4242, "is_bot": False, "first_name": "Ada", "language_code": "en"}
CHAT = {"id": 4242, "type": "private", "first_name": "Ada"}
GROUP = {"id": -1001234567890, "type": "supergroup", "title": "The owner's group"}
LEAD_KEYBOARD = {
    "inline_keyboard": [
        [
            {"text": "Open conversation", "callback_data": "show:3"},
            {"text": "Mark handled", "callback_data": "handled:7"},
        ]
    ]
}


def message(**fields):
    """A text message from the owner in their private chat, as Telegram sends it, with ``fields`` changed
    (a field given as ``None`` is left out)."""
    shape = {"message_id": 31, "from": OWNER, "chat": CHAT, "date": 1767225600, "text": "Tosca."} | fields
    return {key: value for key, value in shape.items() if value is not None}


def press(**fields):
    """A press of "Mark handled" on a lead alert, as Telegram sends it, with ``fields`` changed."""
    alert = {"message_id": 12, "from": {"id": 99, "is_bot": True, "first_name": "Bot"}, "chat": CHAT, "date": 1}
    shape = {
        "id": "4382bfdwdsb323b2d9",
        "from": OWNER,
        "message": alert | {"text": "New lead", "reply_markup": LEAD_KEYBOARD},
        "chat_instance": "-8391049190274",
        "data": "handled:7",
    } | fields
    return {key: value for key, value in shape.items() if value is not None}


ADA = User(4242)
TOSCA = Message(31, 4242, ADA, "Tosca.")
LEAD_BUTTONS = ((Button("Open conversation", "show:3"), Button("Mark handled", "handled:7")),)
HANDLED = ButtonPress("4382bfdwdsb323b2d9", ADA, "handled:7", 4242, 12, LEAD_BUTTONS)

# (what it is, the update as it arrives, what the bot reads of it)
SHAPES = [
    ("a text message", {"update_id": 500, "message": message()}, Update(500, message=TOSCA)),
    (
        "a command",
        {
            "update_id": 501,
            "message": message(text="/show 3", entities=[{"type": "bot_command", "offset": 0, "length": 5}]),
        },
        Update(501, message=dataclasses.replace(TOSCA, text="/show 3", entities=(Entity("bot_command", 0, 5),))),
    ),
    (
        "a reply to a question alert",
        {
            "update_id": 502,
            "message": message(
                reply_to_message={
                    "message_id": 9,
                    "from": OWNER,
                    "chat": CHAT,
                    "date": 1,
                    "text": "Unanswered question #3\n“Opera?”",
                }
            ),
        },
        Update(502, message=dataclasses.replace(TOSCA, reply_to=RepliedTo(9, "Unanswered question #3\n“Opera?”"))),
    ),
    (
        "a reply to a transcript sent as a document (a caption, no text)",
        {
            "update_id": 503,
            "message": message(reply_to_message={"message_id": 9, "chat": CHAT, "caption": "Conversation #2"}),
        },
        Update(503, message=dataclasses.replace(TOSCA, reply_to=RepliedTo(9, ""))),
    ),
    ("a button press", {"update_id": 504, "callback_query": press()}, Update(504, press=HANDLED)),
    (
        "a press in the owner's group, by a member",
        {
            "update_id": 505,
            "callback_query": press(
                **{"from": {"id": 777, "is_bot": False}, "message": {"message_id": 12, "chat": GROUP, "date": 1}}
            ),
        },
        Update(505, press=ButtonPress("4382bfdwdsb323b2d9", User(777), "handled:7", -1001234567890, 12)),
    ),
    (
        "a press on a message too old to be shown (InaccessibleMessage, date 0)",
        {"update_id": 506, "callback_query": press(message={"chat": CHAT, "message_id": 12, "date": 0})},
        Update(506, press=ButtonPress("4382bfdwdsb323b2d9", ADA, "handled:7", 4242, 12)),
    ),
    (
        "a press on a message sent in inline mode (no message)",
        {"update_id": 507, "callback_query": press(message=None, inline_message_id="AAAB")},
        Update(507, press=ButtonPress("4382bfdwdsb323b2d9", ADA, "handled:7")),
    ),
    ("an edited message", {"update_id": 508, "edited_message": message(edit_date=2)}, Update(508)),
    (
        "a channel post",
        {"update_id": 509, "channel_post": message(chat={"id": -100987, "type": "channel"}, **{"from": None})},
        Update(509),
    ),
    ("an update of a kind the bot never asked for", {"update_id": 510, "poll_answer": {"poll_id": "1"}}, Update(510)),
    (
        "a photo with a caption",
        {
            "update_id": 511,
            "message": message(text=None, caption="/leads", photo=[{"file_id": "x", "width": 90, "height": 90}]),
        },
        Update(511, message=dataclasses.replace(TOSCA, text="")),
    ),
    (
        "an anonymous admin's message (from the GroupAnonymousBot, as the group)",
        {
            "update_id": 512,
            "message": message(
                chat=GROUP, sender_chat=GROUP, **{"from": {"id": 1087968824, "is_bot": True, "first_name": "Group"}}
            ),
        },
        Update(512, message=Message(31, -1001234567890, User(1087968824, is_bot=True), "Tosca.")),
    ),
    # Hostile or broken: what the bot needs to act is missing or mistyped, so there is nothing to act on.
    ("no update_id", {"message": message()}, None),
    ("update_id as a string", {"update_id": "500", "message": message()}, None),
    ("update_id as a bool", {"update_id": True, "message": message()}, None),
    ("update_id as a float", {"update_id": 500.0, "message": message()}, None),
    ("a negative update_id", {"update_id": -1, "message": message()}, None),
    ("an update_id past 64 bits", {"update_id": 2**63, "message": message()}, None),
    ("an update_id of a thousand digits", {"update_id": 10**1000, "message": message()}, None),
    ("a list, not an object", [{"update_id": 500, "message": message()}], None),
    ("a string", "update_id", None),
    ("nothing", None, None),
    (
        "chat.id as a string",
        {"update_id": 520, "message": message(chat={"id": "4242", "type": "private"})},
        Update(520),
    ),
    ("no chat", {"update_id": 521, "message": message(chat=None)}, Update(521)),
    ("chat as a list", {"update_id": 522, "message": message(chat=[4242])}, Update(522)),
    ("a chat id past 64 bits", {"update_id": 523, "message": message(chat={"id": -(2**63) - 1})}, Update(523)),
    ("no message_id", {"update_id": 524, "message": message(message_id=None)}, Update(524)),
    ("message as a string", {"update_id": 525, "message": "Tosca."}, Update(525)),
    ("a press without an id", {"update_id": 526, "callback_query": press(id=None)}, Update(526)),
    ("a press with a numeric id", {"update_id": 527, "callback_query": press(id=4382)}, Update(527)),
    ("callback_query as a list", {"update_id": 528, "callback_query": [press()]}, Update(528)),
    # Hostile or broken in what may be absent: read as absent, the rest kept.
    (
        "no from",
        {"update_id": 530, "message": message(**{"from": None})},
        Update(530, message=dataclasses.replace(TOSCA, sender=None)),
    ),
    (
        "from as a string",
        {"update_id": 531, "message": message(**{"from": "Ada"})},
        Update(531, message=dataclasses.replace(TOSCA, sender=None)),
    ),
    (
        "from.id as a string",
        {"update_id": 532, "message": message(**{"from": {"id": "4242", "is_bot": False}})},
        Update(532, message=dataclasses.replace(TOSCA, sender=None)),
    ),
    (
        "from.is_bot as a string (no one can be sure it is not a bot)",
        {"update_id": 533, "message": message(**{"from": {"id": 4242, "is_bot": "no"}})},
        Update(533, message=dataclasses.replace(TOSCA, sender=None)),
    ),
    (
        "text as a list",
        {"update_id": 534, "message": message(text=["/leads"])},
        Update(534, message=dataclasses.replace(TOSCA, text="")),
    ),
    (
        "text as a number",
        {"update_id": 535, "message": message(text=7)},
        Update(535, message=dataclasses.replace(TOSCA, text="")),
    ),
    (
        "entities with junk among them",
        {
            "update_id": 536,
            "message": message(
                text="/leads",
                entities=[
                    None,
                    "bot_command",
                    {"type": "bot_command", "offset": 0, "length": "6"},
                    {"type": "bot_command", "offset": -1, "length": 6},
                    {"type": ["bot_command"], "offset": 0, "length": 6},
                    {"type": "bot_command", "offset": 0, "length": 2**64},
                    {"type": "bot_command", "offset": 0, "length": 6},
                ],
            ),
        },
        Update(536, message=dataclasses.replace(TOSCA, text="/leads", entities=(Entity("bot_command", 0, 6),))),
    ),
    (
        "entities as an object",
        {"update_id": 537, "message": message(entities={"type": "bot_command"})},
        Update(537, message=TOSCA),
    ),
    (
        "reply_to_message as a string",
        {"update_id": 538, "message": message(reply_to_message="9")},
        Update(538, message=TOSCA),
    ),
    (
        "a reply without a message_id",
        {"update_id": 539, "message": message(reply_to_message={"text": "Conversation #2"})},
        Update(539, message=TOSCA),
    ),
    (
        "a reply whose text is an object",
        {"update_id": 540, "message": message(reply_to_message={"message_id": 9, "text": {"a": 1}})},
        Update(540, message=dataclasses.replace(TOSCA, reply_to=RepliedTo(9, ""))),
    ),
    (
        "data as a number",
        {"update_id": 541, "callback_query": press(data=7)},
        Update(541, press=dataclasses.replace(HANDLED, data="")),
    ),
    (
        "no from on a press",
        {"update_id": 542, "callback_query": press(**{"from": None})},
        Update(542, press=dataclasses.replace(HANDLED, sender=None)),
    ),
    (
        "a press whose message's chat.id is a string",
        {"update_id": 543, "callback_query": press(message={"message_id": 12, "chat": {"id": "4242"}})},
        Update(543, press=dataclasses.replace(HANDLED, chat_id=None, keyboard=())),
    ),
    (
        "a keyboard with junk rows and buttons (and a URL button, which the bot never makes)",
        {
            "update_id": 544,
            "callback_query": press(
                message={
                    "message_id": 12,
                    "chat": CHAT,
                    "reply_markup": {
                        "inline_keyboard": [
                            "row",
                            [None, {"text": "Site", "url": "https://example.org"}, {"text": 1, "callback_data": "x:1"}],
                            [{"text": "Mark handled", "callback_data": "handled:7"}, [[{"text": "deep"}]]],
                            {"text": "Dismiss", "callback_data": "dismiss:1"},
                        ]
                    },
                }
            ),
        },
        Update(544, press=dataclasses.replace(HANDLED, keyboard=((Button("Mark handled", "handled:7"),),))),
    ),
    (
        "nested junk where nothing is read",
        {
            "update_id": 545,
            "message": message(chat=CHAT | {"photo": [[[[[[{"x": [None] * 50}]]]]]]}),
            "junk": {"a": [[[]]]},
        },
        Update(545, message=TOSCA),
    ),
]


@pytest.mark.parametrize("raw, expected", [shape[1:] for shape in SHAPES], ids=[shape[0] for shape in SHAPES])
def test_each_shape_is_read_as_the_bot_uses_it(raw, expected):
    assert parse_update(raw) == expected


def test_what_is_read_is_frozen():
    update = parse_update({"update_id": 504, "callback_query": press()})
    with pytest.raises(dataclasses.FrozenInstanceError):
        update.press.data = "dismiss:1"
    assert isinstance(update.press.keyboard, tuple) and all(isinstance(row, tuple) for row in update.press.keyboard)


def test_what_is_left_out_is_logged_at_debug_level_without_the_owners_words(caplog):
    with caplog.at_level(logging.DEBUG, logger="replica.telegram.updates"):
        parse_update({"update_id": 508, "edited_message": message(text="my secret words")})
        parse_update({"message": message(text="my secret words")})
    lines = [(record.levelno, record.getMessage()) for record in caplog.records]
    assert lines == [
        (logging.DEBUG, "Telegram update 508 holds no message or button press the bot can read ('edited_message')"),
        (logging.DEBUG, "Telegram update left out: no update_id that is a non-negative 64-bit integer"),
    ]


def test_an_alerts_keyboard_goes_back_to_telegram_as_it_came():
    """What the bot reads of its own buttons is what it sends back when it relabels one."""
    for kind, ref, conversation in ((AlertKind.LEAD, 7, 3), (AlertKind.QUESTION, 5, 3), (AlertKind.QUESTION, 5, None)):
        keyboard = keyboard_for(Alert(kind, "Title", (), ref=ref, conversation=conversation))
        markup = markup_json(keyboard)
        update = parse_update(
            {"update_id": 1, "callback_query": press(message={"message_id": 1, "chat": CHAT, "reply_markup": markup})}
        )
        assert update.press.keyboard == keyboard and markup_json(update.press.keyboard) == markup
        assert {b.action for row in update.press.keyboard for b in row} <= {"show", "handled", "answer", "dismiss"}


def test_ids_up_to_64_bits_are_read_and_no_further():
    for chat_id, read in (
        (LARGEST_ID, True),
        (-LARGEST_ID - 1, True),
        (LARGEST_ID + 1, False),
        (-LARGEST_ID - 2, False),
    ):
        update = parse_update({"update_id": LARGEST_ID, "message": message(chat={"id": chat_id})})
        assert update.update_id == LARGEST_ID and (update.message is not None) is read


def junk(rng: random.Random, depth: int = 0):
    """A random JSON value, nested a few levels, with Telegram's own field names among the keys."""
    names = ["update_id", "message", "callback_query", "chat", "id", "from", "is_bot", "text", "entities", "type"]
    names += ["offset", "length", "reply_to_message", "message_id", "data", "reply_markup", "inline_keyboard"]
    names += ["callback_data", "edited_message", "x"]
    leaves = [None, True, False, 0, -1, 7, 2**63, -(2**70), 1.5, float("nan"), "", "/leads", "4242", "\x00\ud800"]
    if depth > 4 or rng.random() < 0.3:
        return rng.choice(leaves)
    if rng.random() < 0.5:
        return [junk(rng, depth + 1) for _ in range(rng.randrange(4))]
    return {rng.choice(names): junk(rng, depth + 1) for _ in range(rng.randrange(6))}


def mutated(rng: random.Random, value, depth: int = 0):
    """``value`` (a real update) with some of its fields, at any depth, swapped for junk or left out."""
    if isinstance(value, dict):
        changed = {}
        for key, field in value.items():
            roll = rng.random()
            if roll < 0.1:
                continue
            changed[key] = junk(rng, depth + 1) if roll < 0.25 else mutated(rng, field, depth + 1)
        return changed
    if isinstance(value, list):
        return [mutated(rng, item, depth + 1) for item in value]
    return value


@pytest.mark.parametrize("seed", range(5))
def test_no_update_however_hostile_makes_the_parse_raise(seed):
    rng = random.Random(seed)
    real = [shape[1] for shape in SHAPES if isinstance(shape[1], dict)]
    for _ in range(400):
        raw = junk(rng) if rng.random() < 0.3 else mutated(rng, rng.choice(real))
        update = parse_update(raw)
        if update is None:
            continue
        assert type(update.update_id) is int and 0 <= update.update_id <= LARGEST_ID
        for part in (update.message, update.press):
            if part is not None:
                assert isinstance(part.sender, (User, type(None)))
        if update.message is not None:
            assert isinstance(update.message.text, str) and type(update.message.chat_id) is int
            assert all(isinstance(e, Entity) for e in update.message.entities)
        if update.press is not None:
            assert isinstance(update.press.id, str) and isinstance(update.press.data, str)
            markup_json(update.press.keyboard)  # whatever was read can be sent back
