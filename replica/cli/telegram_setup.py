"""``python app.py telegram-setup``: from a bot token to a working alert chat, without reading raw JSON.

It checks the token (``getMe``), waits for the owner to send the bot any message (long-polling
``getUpdates``, with a countdown), prints the chat id and the exact line to configure, sends a test
message there, and with ``--write`` puts ``TELEGRAM_CHAT_ID`` into ``.env``. When the message came from a
group, it also gives the user id of whoever sent it as ``TELEGRAM_OWNER_ID``: in a group, only that user
may press the alerts' buttons and use the bot. Every failure is one line and exit code 1. The token is
never printed.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, TextIO
from urllib.parse import urlparse

from dotenv import set_key

from replica.runtime.clock import REAL_CLOCK, Clock
from replica.settings import Settings
from replica.telegram.client import BLOCKED_HINT, TelegramClient, TelegramError

WAIT_SECONDS = 180
POLL_SECONDS = 5  # short long-polls, so the countdown moves
TEST_MESSAGE = "Replica is connected ✓ Alerts about new leads and unanswered questions will arrive in this chat."


class SetupError(Exception):
    """A step failed; the message is the one line the owner reads."""


def telegram_setup(
    settings: Settings,
    out: TextIO,
    write: bool = False,
    delete_webhook: bool = False,
    wait_seconds: float = WAIT_SECONDS,
    env_file: Path = Path(".env"),
) -> int:
    """Run the setup, printing progress to ``out``; return the exit code (0 done, 1 failed)."""
    try:
        _setup(settings, out, write, delete_webhook, wait_seconds, env_file)
    except SetupError as error:
        out.write(f"✗ {error}\n")
        return 1
    return 0


def _say(out: TextIO, text: str) -> None:
    out.write(text + "\n")
    out.flush()


def _setup(
    settings: Settings, out: TextIO, write: bool, delete_webhook: bool, wait_seconds: float, env_file: Path
) -> None:
    if not settings.telegram.telegram_bot_token:
        raise SetupError(
            "TELEGRAM_BOT_TOKEN is not set: create a bot with @BotFather in Telegram (/newbot), then put its "
            "token in .env or the environment"
        )
    host = urlparse(settings.telegram.telegram_api_base).netloc or settings.telegram.telegram_api_base
    bot = TelegramClient(
        settings.telegram.telegram_api_base,
        settings.telegram.telegram_bot_token,
        settings.telegram.telegram_chat_id or "",
    )
    me = _step(host, bot.get_me)
    username = me.get("username", "?")
    _say(out, f"✓ The token works: your bot is @{username}")
    if delete_webhook:
        _step(host, bot.delete_webhook)
        _say(out, "✓ Deleted the bot's webhook")
    _say(out, f"Now send any message to @{username} in Telegram (https://t.me/{username}).")
    message = _wait_for_message(bot, host, out, wait_seconds)
    chat, sender = message["chat"], message.get("from")
    chat_id = str(chat["id"])
    lines = {"TELEGRAM_CHAT_ID": chat_id}
    _say(out, f"✓ Message from {_name(chat)}: chat id {chat_id}")
    if chat.get("type") != "private" and isinstance(sender, dict) and type(sender.get("id")) is int:
        lines["TELEGRAM_OWNER_ID"] = str(sender["id"])  # in a group, who the owner is
        _say(out, f"✓ It is a group: only {_name(sender)}, who sent it (user id {sender['id']}), may use the bot")
    these = "these lines" if len(lines) > 1 else "this line"
    _say(out, f"Put {these} in .env, or add {'them' if len(lines) > 1 else 'it'} to your Space's secrets:")
    _say(out, "\n" + "".join(f"    {name}={value}\n" for name, value in lines.items()))
    if write:
        env_file.touch(exist_ok=True)
        for name, value in lines.items():
            set_key(str(env_file), name, value, quote_mode="never")
        _say(out, f"✓ Wrote {' and '.join(lines)} to {env_file}")
    owner_chat = TelegramClient(settings.telegram.telegram_api_base, settings.telegram.telegram_bot_token, chat_id)
    _step(host, lambda: owner_chat.send_message(TEST_MESSAGE, parse_mode=None))
    _say(out, "✓ Sent a test message to that chat. Telegram is set up.")


def _name(who: dict[str, Any]) -> str:
    """A chat or a user as the owner knows it: @username, else first name or title."""
    username = who.get("username")
    return f"@{username}" if username else who.get("first_name") or who.get("title") or "someone"


def _step(host: str, call: Any) -> Any:
    """Run one Bot API call, turning its failure into the one line that says what to do."""
    try:
        return call()
    except TelegramError as error:
        if error.is_network:
            raise SetupError(f"Cannot reach {host} ({error.description}). {BLOCKED_HINT}") from None
        if error.status in (401, 404):
            raise SetupError(
                f"Telegram refused the token ({error.status}): check TELEGRAM_BOT_TOKEN (@BotFather shows it with /token)"
            ) from None
        if error.status == 409:
            raise SetupError(
                "A webhook is set for this bot, so its messages cannot be read here (409). Run again with "
                "--delete-webhook to remove it"
            ) from None
        raise SetupError(f"Telegram refused the request ({error.status}: {error.description})") from None


def _wait_for_message(
    bot: TelegramClient, host: str, out: TextIO, wait_seconds: float, clock: Clock = REAL_CLOCK
) -> dict[str, Any]:
    """Long-poll until any message to the bot arrives; return it (its ``chat`` has an ``id``)."""
    deadline = clock.monotonic() + wait_seconds
    offset = None
    while (left := deadline - clock.monotonic()) > 0:
        minutes, seconds = divmod(int(left), 60)
        _say(out, f"  waiting… {minutes}:{seconds:02d} left")
        updates = _step(host, lambda: bot.get_updates(offset, max(1, min(POLL_SECONDS, int(left)))))
        for update in updates:
            if not isinstance(update, dict) or type(update.get("update_id")) is not int:
                continue
            offset = update["update_id"] + 1
            message = update.get("message")
            if not isinstance(message, dict):
                continue
            chat = message.get("chat")
            if isinstance(chat, dict) and "id" in chat:
                _acknowledge(bot, offset)
                return message
    raise SetupError(
        f"No message arrived within {wait_seconds / 60:.0f} minute(s): send your bot a message in Telegram, "
        "then run python app.py telegram-setup again"
    )


def _acknowledge(bot: TelegramClient, offset: int) -> None:
    """Tell Telegram the setup message was read, so the running app's bot does not answer it later."""
    try:
        bot.get_updates(offset, 0)
    except TelegramError:
        pass  # harmless: the app's bot would only answer it with a hint
