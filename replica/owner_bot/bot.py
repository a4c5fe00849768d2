"""The owner's bot: the dispatcher, its handlers, and the transport (polling, or a webhook) that feeds it."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from functools import partial
from typing import Callable

from starlette.middleware import Middleware

from replica.inbox import Inbox
from replica.knowledge.faq_files import Approved
from replica.owner_bot.answer_back import AnswerBack
from replica.owner_bot.buttons import Buttons
from replica.owner_bot.commands import COMMANDS, menu
from replica.owner_bot.confirmations import Confirmations
from replica.owner_bot.conversation_commands import ConversationCommands
from replica.owner_bot.dispatcher import Dispatcher
from replica.owner_bot.owner import Owner
from replica.owner_bot.polling import Polling
from replica.owner_bot.question_commands import QuestionCommands
from replica.owner_bot.stats_command import StatsCommand
from replica.owner_bot.webhook import ALLOWED_UPDATES, WebhookReceiver, WebhookUpdates
from replica.runtime.clock import REAL_CLOCK, Clock
from replica.runtime.timings import Timings
from replica.settings import default
from replica.stats.report import Report
from replica.storage import Store
from replica.telegram.client import TelegramClient, TelegramError

log = logging.getLogger(__name__)
STATS_COLOUR, DAILY_CALLS = default("stats_colour"), default("daily_model_calls")


@dataclass(frozen=True)
class Handlers:
    """What the commands are answered by (each command's ``run`` is given these): the conversation
    commands, the question commands, the store, the owner's pictures."""

    talk: ConversationCommands
    questions: QuestionCommands
    store: Store
    stats: StatsCommand


class OwnerBot:
    """Everything the owner's Telegram chat can do, fed by long polling or by a webhook.

    Replies go through ``client``, which can only write to the owner's chat. :meth:`start` registers
    the command menu and starts the transport; :meth:`close` stops every worker it started. Its workers
    wait on ``clock``, and read the time from it.
    """

    def __init__(
        self,
        store: Store,
        inbox: Inbox,
        client: TelegramClient,
        poll_seconds: float = Timings.telegram_poll_seconds,
        base_delay: float = Timings.telegram_retry_base,
        confirm_seconds: float = Timings.owner_words_shown,
        retention_days: int = default("conversation_retention_days"),
        owner_id: str | None = default("telegram_owner_id"),
        close: Callable[[str], Approved | None] = lambda question: None,
        mail_answers: Callable[[], None] | None = None,
        owner_name: str = "",
        report: Report | None = None,
        clock: Clock = REAL_CLOCK,
    ):
        self._store = store
        self._client = client
        self.confirmations = Confirmations(inbox.page, client, wait_seconds=confirm_seconds, clock=clock)
        # With verified contacts on (``mail_answers`` wakes the mailer), an asker who confirmed an address may
        # be mailed the owner's answer, when the owner taps the button offered.
        answer_back = AnswerBack(
            store, inbox, self.confirmations, retention_days, client if mail_answers else None, owner_name
        )
        questions = QuestionCommands(store, answer_back, close)
        talk = ConversationCommands(inbox, store, client, self.confirmations)
        report = report or Report(owner_name or "the owner", STATS_COLOUR, DAILY_CALLS)
        stats = StatsCommand(store, client, report, clock)
        parts = Handlers(talk, questions, store, stats)
        handlers = {c.name: partial(c.run, parts) for c in COMMANDS if c.run}  # each bound where it is declared
        owner = self.owner = Owner(str(client.chat_id), owner_id)
        self.dispatcher = Dispatcher(
            client,
            handlers,
            questions,
            talk,
            Buttons(store, client, talk, owner, questions, close, mail_answers),
            owner,
        )
        self._polling = Polling(store, client, self.dispatcher.handle, poll_seconds, base_delay, clock)
        self._webhook = WebhookUpdates(store, self.dispatcher.handle, clock)
        self._started: list = []

    def start(self, webhook: tuple[str, str] | None = None) -> "OwnerBot":
        """Register the command menu; then, with ``webhook=(url, secret)``, have Telegram push updates there
        (served by :meth:`receiver`), else delete any webhook and start polling."""
        if not self.owner.known:
            log.warning(
                "TELEGRAM_CHAT_ID is a group and TELEGRAM_OWNER_ID is not set: no one's button presses or commands "
                "are acted on there; set it to your Telegram user id (python app.py telegram-setup finds it)"
            )
        try:
            self._client.set_my_commands(menu())
            if webhook:
                self._client.set_webhook(webhook[0], webhook[1], ALLOWED_UPDATES)
                log.info("Telegram pushes the owner's messages to the webhook")
            else:
                self._client.delete_webhook()  # switching modes: a webhook would block polling
        except TelegramError as error:
            log.warning("Could not set up the bot with Telegram: %s", error)
        transport = self._webhook if webhook else self._polling
        self._started = [self.confirmations.start(), transport.start()]
        return self

    def receiver(self, path: str, secret: str) -> Middleware:
        """The middleware that receives Telegram's pushes at ``path`` on the page's own server."""
        return Middleware(WebhookReceiver, path=path, secret=secret, accept=self._webhook.accept)

    def close(self, timeout: float = 2.0) -> None:
        """Stop the transport and the confirmations; a poll under way is abandoned (fetched again next time)."""
        for worker in self._started:
            worker.close(timeout)
