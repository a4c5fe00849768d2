"""The owner's Telegram chat as an alert channel: HTML with buttons, plain text when Telegram balks.

A message Telegram cannot parse, or finds too long, is sent again as plain text (shorter); a folded
message has no buttons (replies to it teach nothing: the owner uses the commands its last line names).
Telegram's answers become :class:`ChannelError`: network trouble, rate limits (with Telegram's own
``retry_after``) and server errors may pass; any other refusal (bad token, unknown chat) is final.
"""

from __future__ import annotations

import logging
from contextlib import contextmanager
from typing import Iterator

from replica.alerts.alert import Alert
from replica.alerts.channel import ChannelError
from replica.alerts.pictures import Pictures, drawn_for
from replica.alerts.render import FOLD_HINT, fold, keyboard_for, to_plain, to_telegram_html
from replica.stats.caption import questions_keyboard, questions_text
from replica.stats.report import PICTURE_NAME, Drawn
from replica.storage.deliveries import TELEGRAM
from replica.telegram.client import BLOCKED_HINT, TelegramClient, TelegramError
from replica.telegram.length import TELEGRAM_LIMIT

log = logging.getLogger(__name__)


class TelegramChannel:
    """Sends alerts to the owner's chat through ``client``."""

    key = TELEGRAM
    label = "Telegram"
    unreachable_hint = BLOCKED_HINT

    def __init__(self, client: TelegramClient, pictures: Pictures | None = None):
        self._client = client
        self._pictures = pictures  # draws a digest's picture of the week (None: digests come in words only)

    def send(self, alert: Alert) -> int:
        """Send one alert with its buttons; Telegram's message id (owner replies to it are matched by it).
        A digest with a picture comes after it: first the picture with its totals, then the period's open
        questions with their Answer buttons, then the digest's words, whose id is returned. A failure on
        the way is tried again whole, as any alert's (delivered at least once)."""
        with _as_channel_error():
            drawn = drawn_for(alert, self._pictures)
            if drawn is not None:
                send_picture(self._client, drawn)
            try:
                return self._client.send_message(
                    to_telegram_html(alert), parse_mode="HTML", reply_markup=keyboard_for(alert)
                )
            except TelegramError as error:
                limit = _plain_limit(error)
                log.warning("Telegram refused a %s alert (%s); resending as plain text", alert.kind, error)
                return self._client.send_message(
                    to_plain(alert, limit), parse_mode=None, reply_markup=keyboard_for(alert)
                )

    def edit(self, message_id: int, alert: Alert) -> None:
        """Replace an alert already in the chat (``message_id``) with ``alert``, its buttons kept."""
        with _as_channel_error():
            self._client.edit_message_text(
                message_id, to_telegram_html(alert), parse_mode="HTML", reply_markup=keyboard_for(alert)
            )

    def send_fold(self, alerts: list[tuple[int | None, Alert]]) -> None:
        """Send several alerts as one message, without buttons."""
        with _as_channel_error():
            try:
                title, body = fold(alerts, TELEGRAM_LIMIT, as_html=True)
                self._client.send_message(f"<b>{title}</b>\n{body}\n{FOLD_HINT}", parse_mode="HTML")
            except TelegramError as error:
                title, body = fold(alerts, _plain_limit(error))
                self._client.send_message(f"{title}\n{body}\n{FOLD_HINT}", parse_mode=None)


def send_picture(client: TelegramClient, drawn: Drawn) -> None:
    """A period's picture with its totals as the caption, then its open questions, each with an Answer
    button: what ``/stats`` and the weekly digest send alike."""
    client.send_photo(PICTURE_NAME, drawn.png, drawn.caption)
    questions = drawn.figures.open_questions
    client.send_message(
        questions_text(questions, len(drawn.figures.days)),
        parse_mode="HTML",
        reply_markup=questions_keyboard(questions),
    )


def _plain_limit(error: TelegramError) -> int:
    """How long the plain-text resend may be; re-raises any error a resend cannot mend."""
    if error.is_parse_error:
        return TELEGRAM_LIMIT
    if error.is_too_long:
        return TELEGRAM_LIMIT // 2  # Telegram measured it differently: leave a wide margin
    raise error


@contextmanager
def _as_channel_error() -> Iterator[None]:
    """Turns a :class:`TelegramError` raised inside it into the sender's :class:`ChannelError`."""
    try:
        yield
    except TelegramError as error:
        raise ChannelError(
            str(error), final=not error.is_retryable, retry_after=error.retry_after, unreachable=error.is_network
        ) from None
