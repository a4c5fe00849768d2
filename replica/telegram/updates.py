"""Telegram updates, parsed once at the edge into frozen types: all the owner's bot reads of them.

An update (https://core.telegram.org/bots/api#update) is a JSON object with an ``update_id`` and at most
one kind of content. The bot asks for two kinds (:data:`HANDLED_KINDS`): ``message`` (the owner's text,
commands and replies) and ``callback_query`` (a press of a button on one of the bot's messages).
:func:`parse_update` turns a decoded update into an :class:`Update` holding a :class:`Message` or a
:class:`ButtonPress`; polling and the webhook call it on each update as it arrives, and nothing past
them sees the raw JSON.

What is read is checked against the type the Bot API documents, and nothing raises, whatever arrives:
an object without what the bot needs to act on it at all (an update's id; a message's id and chat; a
press's id) is left out, and a field that is absent or of the wrong type reads as absent (``None``, an
empty string, an empty tuple). Every id must fit a signed 64-bit integer, as Telegram's do (a chat id has
at most 52 significant bits), so that a forged one cannot overflow a database column later on.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from itertools import islice
from typing import Any

from replica.storage.records import TextEnum

log = logging.getLogger(__name__)

# The kinds of update the bot asks Telegram for (``allowed_updates``) and the parse reads.
HANDLED_KINDS = ("message", "callback_query")
LARGEST_ID = 2**63 - 1  # a signed 64-bit integer: Telegram's ids and the databases' BIGINT


@dataclass(frozen=True)
class User:
    """Who sent a message or pressed a button (the API's ``from``): their user id, and whether a bot."""

    id: int
    is_bot: bool = False


@dataclass(frozen=True)
class Entity:
    """A marked span of a message's text (``MessageEntity``), in UTF-16 units as Telegram counts them;
    the bot reads ``bot_command``."""

    type: str
    offset: int
    length: int


@dataclass(frozen=True)
class RepliedTo:
    """The message a message replies to, as far as the bot reads it: its id and its text ("" for none)."""

    message_id: int
    text: str = ""


@dataclass(frozen=True)
class Message:
    """A new message in a chat the bot is in. ``sender`` is ``None`` where Telegram names no user (a
    channel); ``text`` is "" for a message without text (a photo's caption is not its text)."""

    message_id: int
    chat_id: int
    sender: User | None = None
    text: str = ""
    entities: tuple[Entity, ...] = ()
    reply_to: RepliedTo | None = None


class Action(TextEnum):
    """What a button the bot makes does. Its data is the action and the number of the record it acts on
    (``handled:12``), which a press sends back."""

    SHOW = "show"  # send a conversation's transcript
    HANDLED = "handled"  # mark a lead handled
    ANSWER = "answer"  # ask the owner for a question's answer
    DISMISS = "dismiss"  # dismiss a question
    FAQ = "faq"  # answer a question with the approved answer close to it
    MAIL = "mail"  # mail the owner's answer to the address the asker confirmed

    def data(self, number: int) -> str:
        """The data of this action's button for record ``number`` (``handled:12``)."""
        return f"{self.value}:{number}"

    @classmethod
    def of(cls, data: str) -> Action | None:
        """The action a button's ``data`` names (the part before the colon), or ``None`` for none of the bot's."""
        try:
            return cls(data.partition(":")[0])
        except ValueError:
            return None


@dataclass(frozen=True)
class Button:
    """A button of an inline keyboard, as the bot makes them: a label and the data a press sends back."""

    text: str
    data: str

    @property
    def action(self) -> Action | None:
        """What the button does, named by its data (``handled`` of ``handled:12``); ``None`` for a button
        that is not the bot's."""
        return Action.of(self.data)


# An inline keyboard: rows of buttons, the one typed form of every keyboard the bot sends or reads back
# (the client writes it as Telegram's ``InlineKeyboardMarkup``: replica.telegram.client.markup_json).
Keyboard = tuple[tuple[Button, ...], ...]


@dataclass(frozen=True)
class ButtonPress:
    """A press of a button on a message (the API's ``CallbackQuery``). ``chat_id``, ``message_id`` and
    ``keyboard`` are those of the message the button is on; ``None`` and empty when Telegram does not
    give it (a message sent in inline mode). ``data`` is "" for none."""

    id: str
    sender: User | None = None
    data: str = ""
    chat_id: int | None = None
    message_id: int | None = None
    keyboard: Keyboard = ()


@dataclass(frozen=True)
class Update:
    """One update: its id, and the message or the button press it holds. Both are ``None`` for a kind
    the bot does not handle (an edited message, a channel post, …) or one too malformed to act on; its
    id still counts, so that polling moves past it and the webhook handles it once."""

    update_id: int
    message: Message | None = None
    press: ButtonPress | None = None


def parse_update(raw: Any) -> Update | None:
    """The typed :class:`Update` of ``raw`` (a decoded update as the Bot API sends it), or ``None`` when
    it has no usable ``update_id``. Never raises; what is left out is logged at debug level."""
    update_id = _id(_field(raw, "update_id"), lowest=0)
    if update_id is None:
        log.debug("Telegram update left out: no update_id that is a non-negative 64-bit integer")
        return None
    message, press = _message(_field(raw, "message")), _press(_field(raw, "callback_query"))
    if message is None and press is None:
        kinds = ", ".join(repr(str(key)[:32]) for key in islice(raw, 4) if key != "update_id")
        log.debug("Telegram update %d holds no message or button press the bot can read (%s)", update_id, kinds)
    return Update(update_id, message, press)


def _field(value: Any, name: str) -> Any:
    """``value[name]`` when ``value`` is a JSON object, else ``None``."""
    return value.get(name) if isinstance(value, dict) else None


def _id(value: Any, lowest: int = -LARGEST_ID - 1) -> int | None:
    """``value`` when it is an integer (never a bool or a float) from ``lowest`` to :data:`LARGEST_ID`."""
    return value if type(value) is int and lowest <= value <= LARGEST_ID else None


def _text(value: Any) -> str:
    return value if isinstance(value, str) else ""


def _user(value: Any) -> User | None:
    user_id, is_bot = _id(_field(value, "id")), _field(value, "is_bot")
    if user_id is None or not isinstance(is_bot, (bool, type(None))):
        return None  # a sender the bot cannot be sure of is no one (and so never the owner)
    return User(user_id, bool(is_bot))


def _message(value: Any) -> Message | None:
    message_id, chat_id = _id(_field(value, "message_id")), _id(_field(_field(value, "chat"), "id"))
    if message_id is None or chat_id is None:
        return None
    replied = _field(value, "reply_to_message")
    replied_id = _id(_field(replied, "message_id"))
    return Message(
        message_id,
        chat_id,
        _user(_field(value, "from")),
        _text(_field(value, "text")),
        tuple(_entities(_field(value, "entities"))),
        RepliedTo(replied_id, _text(_field(replied, "text"))) if replied_id is not None else None,
    )


def _entities(value: Any) -> list[Entity]:
    entities = []
    for entity in value if isinstance(value, list) else []:
        kind = _field(entity, "type")
        offset, length = _id(_field(entity, "offset"), 0), _id(_field(entity, "length"), 0)
        if isinstance(kind, str) and offset is not None and length is not None:
            entities.append(Entity(kind, offset, length))
    return entities


def _press(value: Any) -> ButtonPress | None:
    query_id = _field(value, "id")
    if not isinstance(query_id, str):
        return None  # without its id a press cannot even be answered
    message = _field(value, "message")
    return ButtonPress(
        query_id,
        _user(_field(value, "from")),
        _text(_field(value, "data")),
        _id(_field(_field(message, "chat"), "id")),
        _id(_field(message, "message_id")),
        _keyboard(_field(_field(message, "reply_markup"), "inline_keyboard")),
    )


def _keyboard(value: Any) -> Keyboard:
    """The rows of callback buttons in ``value`` (an ``inline_keyboard``): the only buttons the bot makes."""
    rows = []
    for row in value if isinstance(value, list) else []:
        buttons = tuple(button for button in map(_button, row if isinstance(row, list) else []) if button)
        if buttons:
            rows.append(buttons)
    return tuple(rows)


def _button(value: Any) -> Button | None:
    text, data = _field(value, "text"), _field(value, "callback_data")
    return Button(text, data) if isinstance(text, str) and isinstance(data, str) else None
