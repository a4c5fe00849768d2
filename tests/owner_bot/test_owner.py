"""Only the owner uses the owner's bot: in a group (``TELEGRAM_CHAT_ID`` negative), a button another
member presses is answered "only the owner" and does nothing, and their commands and replies to alerts
are not acted on; the owner is the user ``TELEGRAM_OWNER_ID`` names (in a private chat, the chat's own
user). Against the Telegram stand-in, on both databases."""

from __future__ import annotations

import logging

import pytest

from replica.alerts.sender import AlertSender
from replica.alerts.telegram_channel import TelegramChannel
from replica.chat.reply import Visitor
from replica.owner_bot.bot import OwnerBot
from replica.owner_bot.owner import COMMANDS_FOR_THE_OWNER, NO_OWNER_SET, NOT_THE_OWNER, Owner
from replica.telegram.client import TelegramClient
from replica.telegram.updates import parse_update
from tests.fakes.telegram_server import FakeTelegram
from tests.fixtures.environment import wait_until
from tests.fixtures.replicas import inbox_of, replica_around

GROUP = "-1001234567"
OWNER = "4242"
MEMBER = "777"


@pytest.fixture
def group():
    """The Telegram stand-in, with the owner's chat a group."""
    server = FakeTelegram(chat_id=GROUP)
    yield server
    server.close()


@pytest.fixture
def inbox(store, group):
    """Start the alert sender and the owner's bot on ``store`` (given ``TELEGRAM_OWNER_ID``), a visitor
    leaves a lead, and its alert reaches the group; returns the alert as delivered."""
    started = []

    def start(owner_id: str | None):
        def client():
            return TelegramClient(group.url, group.token, group.chat_id, timeout=(1, 2))

        sender = AlertSender(store, TelegramChannel(client()), min_interval=0.05, base_delay=0.1).start()
        bot = OwnerBot(store, inbox_of(store, notifier=sender), client(), poll_seconds=0.2, owner_id=owner_id)
        started.extend([bot.start(), sender])
        replica_around(None, store, sender).reply("Write to me: ada@example.org", Visitor("visitor", "203.0.113.7"))
        [alert] = group.wait_for(1)
        return alert

    yield start
    for part in started:
        part.close()


def answers(group, count: int) -> list[str]:
    assert wait_until(lambda: len(group.callback_answers) >= count), group.callback_answers
    return [answer["text"] for answer in group.callback_answers]


def handled(group, update_id: int) -> bool:
    """Whether the bot has taken the update (it polls on from past it)."""
    return wait_until(lambda: any((poll.get("offset") or 0) > update_id for poll in group.polls))


def test_in_a_group_a_members_press_is_answered_only_for_the_owner_and_does_nothing(store, group, inbox):
    alert = inbox(owner_id=OWNER)
    group.push_callback("handled:1", alert.message_id, sender=MEMBER)
    group.push_callback("show:1", alert.message_id, sender=MEMBER)
    assert answers(group, 2) == [NOT_THE_OWNER, NOT_THE_OWNER]
    assert store.leads.all()[0].status == "new" and group.markup_edits == []
    assert not any(text.startswith("Conversation #1") for text in group.sent_texts())  # no transcript shown
    group.push_callback("handled:1", alert.message_id, sender=OWNER)
    assert answers(group, 3)[-1] == "Marked handled."
    assert store.leads.all()[0].status == "handled" and len(group.markup_edits) == 1


def test_in_a_group_a_members_command_is_refused_and_their_reply_to_an_alert_reaches_no_visitor(store, group, inbox):
    alert = inbox(owner_id=OWNER)
    group.push("/leads", sender=MEMBER)
    assert wait_until(lambda: COMMANDS_FOR_THE_OWNER in group.sent_texts())
    assert handled(
        group, group.push("I'll take this one, write to me instead", reply_to=alert.message_id, sender=MEMBER)
    )
    group.push("/leads", sender=OWNER)
    assert wait_until(lambda: any(text.startswith("Recent leads") for text in group.sent_texts()))
    said = [m["role"] for c in store.reports.records() for m in c["messages"]]
    assert "owner" not in said  # the member's words never reached the visitor's conversation
    assert sum(text.startswith("Recent leads") for text in group.sent_texts()) == 1  # the owner's /leads only
    assert group.sent_texts().count(COMMANDS_FOR_THE_OWNER) == 1  # the chatter in the group got no answer
    group.push("Hello, this is Ada herself.", reply_to=alert.message_id, sender=OWNER)
    assert wait_until(lambda: "owner" in [m["role"] for c in store.reports.records() for m in c["messages"]])


def test_in_a_group_without_telegram_owner_id_no_press_acts_and_the_answer_says_what_to_set(
    store, group, inbox, caplog
):
    with caplog.at_level(logging.WARNING, logger="replica.owner_bot.bot"):
        alert = inbox(owner_id=None)
    assert any("TELEGRAM_OWNER_ID is not set" in record.getMessage() for record in caplog.records)
    group.push_callback("handled:1", alert.message_id, sender=OWNER)
    assert answers(group, 1) == [NO_OWNER_SET] and store.leads.all()[0].status == "new"


@pytest.mark.parametrize(
    "chat, owner_id, sender, owner",
    [
        ("4242", None, {"id": 4242}, True),  # a private chat: its user is the owner, nothing to set
        ("4242", None, {"id": 777}, False),
        (GROUP, None, {"id": 4242}, False),  # a group: no one, until TELEGRAM_OWNER_ID says who
        (GROUP, "4242", {"id": 4242}, True),
        (GROUP, "4242", {"id": 777}, False),
        (GROUP, "4242", {"id": 4242, "is_bot": True}, False),
        (GROUP, "4242", None, False),  # posted as the group itself: no one's
        (GROUP, None, {}, False),
    ],
)
def test_the_owner_is_the_chats_own_user_or_the_one_telegram_owner_id_names(chat, owner_id, sender, owner):
    message = {"message_id": 1, "chat": {"id": int(chat)}, "text": "hi"} | (
        {"from": sender} if sender is not None else {}
    )
    update = parse_update({"update_id": 1, "message": message})  # the sender as the bot reads it
    assert Owner(chat, owner_id).sent(update.message.sender) is owner


def test_updates_of_the_wrong_shape_are_read_as_nothing_and_the_bot_goes_on(store, group, inbox):
    """Read once at the edge (tests/telegram/test_updates.py): a chat id or a sender's id as a string is
    no one's, text that is not a string is no text, and the bot handles the next update as ever."""
    inbox(owner_id=OWNER)
    owner, chat = {"id": int(OWNER), "is_bot": False}, {"id": int(GROUP), "type": "supergroup"}
    leads = {"message_id": 1, "chat": chat, "from": owner, "text": "/leads"} | {
        "entities": [{"type": "bot_command", "offset": 0, "length": 6}]
    }
    shapes = [
        {"message": leads | {"chat": {"id": GROUP}}},  # the owner's chat id, as a string
        {"message": leads | {"chat": {"id": 2**64}}},
        {"message": leads | {"text": ["/leads"]}},
        {"edited_message": leads},
        {"callback_query": {"id": 7, "from": owner, "data": "handled:1", "message": {"message_id": 1, "chat": chat}}},
        {"message": leads | {"from": {"id": OWNER, "is_bot": False}}},  # the owner's id as a string: not the owner
    ]
    for shape in shapes:
        group.updates.append({"update_id": 500 + len(group.updates)} | shape)
    assert handled(group, group.updates[-1]["update_id"])
    assert group.sent_texts().count(COMMANDS_FOR_THE_OWNER) == 1 and group.callback_answers == []
    assert not any(text.startswith("Recent leads") for text in group.sent_texts())
    group.push("/leads", sender=OWNER)
    assert wait_until(lambda: any(text.startswith("Recent leads") for text in group.sent_texts()))
    assert store.leads.all()[0].status == "new" and group.markup_edits == []
