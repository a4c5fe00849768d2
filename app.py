"""Replica: run the owner's AI stand-in as a Gradio app (``python app.py``)."""

from __future__ import annotations

import argparse
import logging
import os
import secrets
import socket
import sys
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING
from urllib.parse import urlparse

import openai
from starlette.middleware import Middleware

from replica.agent import Replica, Visitor
from replica.config import ConfigError, Settings, load_settings
from replica.doctor import run_doctor
from replica.export import EXPORTS, export
from replica.housekeeping import Housekeeper
from replica.inbox import Inbox, address_salt
from replica.knowledge import knowledge_files
from replica.limits import UsageLimits
from replica.logs import setup_logging
from replica.notify import Notifier
from replica.notify.delivery import LogNotifier, OutboxSender
from replica.notify.telegram import TelegramClient
from replica.owner import owner_avatar, owner_name
from replica.owner_bot import OwnerBot
from replica.owner_inbox import InboxCommands
from replica.persona import SystemPrompt
from replica.prompts import read_lines, render_prompt
from replica.retrieval import KnowledgeIndex
from replica.store import Store, StoreError
from replica.telegram_setup import WAIT_SECONDS, telegram_setup
from replica.telegram_webhook import WebhookReceiver, webhook_secret
from tools import default_registry

if TYPE_CHECKING:  # Gradio takes seconds to import: the owner's commands (export, doctor, …) do without it
    import gradio as gr

    from replica.ui import PageText

log = logging.getLogger("replica")
DEFAULT_PORT = 7860  # Gradio's, and the README's


@dataclass
class App:
    """The assembled app: the page to serve and the parts that need closing."""

    settings: Settings
    demo: gr.Blocks
    replica: Replica
    store: Store
    notifier: Notifier
    inbox: Inbox
    housekeeper: Housekeeper
    owner_bot: OwnerBot | None = None
    middleware: list = field(default_factory=list)  # served in front of the page (the Telegram webhook)

    def serve(self, block: bool = True, **launch_options) -> None:
        """Serve the page (behind the HTTP guard, with the webhook and MCP if configured); with ``block``,
        until interrupted."""
        from replica.ui import serve

        serve(
            self.demo,
            middleware=self.middleware,
            mcp=self.settings.mcp_enabled,
            block=block,
            trusted_proxy_hops=self.settings.trusted_proxy_hops,
            max_message_chars=self.settings.max_message_chars,
            **launch_options,
        )

    def close(self) -> None:
        """Stop serving, stop the background threads (pending alerts stay stored), close the database."""
        self.demo.close()
        self.housekeeper.close()
        if self.owner_bot:
            self.owner_bot.close()
        if isinstance(self.notifier, OutboxSender):
            self.notifier.close()
        self.store.close()


def open_store(settings: Settings) -> Store:
    """The database in ``DATA_DIR``, with the per-visitor alert caps applied."""
    caps = {"lead": settings.lead_alerts_per_visitor, "question": settings.question_alerts_per_visitor}
    return Store(settings.database_path, alert_caps=caps, database_url=settings.database_url)


def make_notifier(settings: Settings, store: Store) -> Notifier:
    """With Telegram configured, the outbox sender (started); without it, alerts go to the log (and stay
    stored, pending)."""
    if not settings.telegram_configured:
        log.warning("Telegram is not configured: alerts will be written to the log only")
        return LogNotifier()
    sender = OutboxSender(
        store,
        telegram_client(settings),
        min_interval=settings.alert_min_interval_seconds,
        base_delay=settings.alert_retry_base_seconds,
        unreachable_warning_after=settings.telegram_unreachable_warning_seconds,
    )
    return sender.start()


def telegram_client(settings: Settings) -> TelegramClient:
    """A client for the owner's chat. One per thread: a requests.Session is not meant to be shared."""
    return TelegramClient(settings.telegram_api_base, settings.telegram_bot_token, settings.telegram_chat_id)


def make_owner_bot(settings: Settings, store: Store, inbox: Inbox) -> tuple[OwnerBot | None, list]:
    """With Telegram configured, the owner's bot (started), with the inbox commands and buttons; and, in
    webhook mode, the middleware that receives Telegram's pushes on the page's own server."""
    if not settings.telegram_configured:
        return None, []
    client = telegram_client(settings)
    bot = OwnerBot(
        store, client, poll_seconds=settings.telegram_poll_seconds, inbox=InboxCommands(inbox, store, client)
    )
    if not settings.telegram_webhook_url:
        return bot.start(), []
    secret = webhook_secret(store, settings.telegram_webhook_secret)
    path = urlparse(settings.telegram_webhook_url).path
    receiver = Middleware(WebhookReceiver, path=path, secret=secret, store=store, handle=bot.handle)
    return bot.start(webhook=(settings.telegram_webhook_url, secret)), [receiver]


def make_limits(settings: Settings, store: Store, inbox: Inbox) -> UsageLimits:
    """Usage limits: in memory; with ``DATABASE_URL``, the address and daily ones shared by every instance
    (addresses stored only as the inbox's salted hashes)."""
    counts = (settings.visitor_messages_per_hour, settings.address_messages_per_hour, settings.daily_model_calls)
    if not settings.database_url:
        return UsageLimits.build(*counts)
    return UsageLimits.shared(store, *counts, address_key=inbox.address_hash)


def make_model_client(settings: Settings) -> openai.OpenAI | None:
    """The OpenAI client, or ``None`` when no API key is configured (the replica then says so)."""
    if not settings.model_configured:
        log.warning("OPENAI_API_KEY is not set: the replica will tell visitors it is not configured")
        return None
    return openai.OpenAI(
        api_key=settings.openai_api_key,
        base_url=settings.openai_base_url,
        timeout=settings.model_timeout_seconds,
        max_retries=settings.model_max_retries,
    )


def page_text(settings: Settings) -> PageText:
    """The page's words, from the templates in ``prompts/``, and the owner's face."""
    from replica.ui import PageText

    owner = settings.owner_name
    return PageText(
        title=f"{owner} — AI replica",
        description=render_prompt("page.md", owner_name=owner).strip(),
        greeting=render_prompt("greeting.md", owner_name=owner).strip(),
        examples=read_lines("examples.txt")[:4],
        avatar=owner_avatar(settings, owner),
        owner_name=owner,
    )


def create_app(settings: Settings) -> App:
    """Assemble knowledge, prompt, model client, tools, store, notifier and page from ``settings``."""
    from replica.ui import build_demo

    store = open_store(settings)
    settings = replace(settings, owner_name=owner_name(settings))  # the page always names a person
    index = KnowledgeIndex.load(settings.knowledge_dir, settings.data_dir / "knowledge-index")
    system_prompt = SystemPrompt(settings.owner_name, index, store, settings.knowledge_budget_chars)
    system_prompt("")  # a template mistake stops the start, not a visitor's message
    notifier = make_notifier(settings, store)
    inbox = Inbox(store, address_salt(store, settings.data_dir), settings.owner_name, notifier)
    housekeeper = Housekeeper(
        store,
        inbox,
        notifier,
        settings.conversation_retention_days,
        settings.digest_hour_utc,
        settings.daily_model_calls,
    ).start()
    owner_bot, middleware = make_owner_bot(settings, store, inbox)
    replica = Replica(
        client=make_model_client(settings),
        model=settings.openai_model,
        system_prompt=system_prompt,
        registry=default_registry(),
        store=store,
        notifier=notifier,
        limits=make_limits(settings, store, inbox),
        max_turns=settings.max_turns,
        max_message_chars=settings.max_message_chars,
        history_budget_chars=settings.history_budget_chars,
        check_deliverability=settings.email_check_deliverability,
        reply_deadline_seconds=settings.reply_deadline_seconds,
        max_reply_tokens=settings.max_reply_tokens,
        # The queue already allows this many at once; the same bound here holds for any other route.
        max_concurrent=settings.queue_concurrency,
        inbox=inbox,
    )
    mcp_tool = make_mcp_tool(settings, replica, store) if settings.mcp_enabled else None
    demo = build_demo(
        replica.stream_reply,
        page_text(settings),
        settings.queue_concurrency,
        settings.queue_max_size,
        history=inbox.page_messages,
        owner_words=inbox.for_page,
        trusted_proxy_hops=settings.trusted_proxy_hops,
        max_message_chars=settings.max_message_chars,
        mcp_tool=mcp_tool,
    )
    return App(settings, demo, replica, store, notifier, inbox, housekeeper, owner_bot, middleware)


def make_mcp_tool(settings: Settings, replica: Replica, store: Store):
    """The one MCP tool, ``ask_<owner>``: each caller a visitor, by its conversation and its real address."""
    from replica.guard import CALLER_HEADER, SIGNATURE
    from replica.mcp_tool import KEY_NAME, ConversationIds, make_ask
    from replica.ui import client_address

    def visitor_for(session: str, request) -> Visitor:
        # Gradio's MCP server calls the tool over loopback; the guard signed the caller's address.
        forwarded = request.headers.get(CALLER_HEADER.decode()) if request is not None else None
        address = SIGNATURE.address(forwarded) or client_address(request, settings.trusted_proxy_hops)
        return Visitor(session, address, via="MCP")

    knows = ", ".join(path.name for path in knowledge_files(settings.knowledge_dir)[:6]) or "no files yet"
    ids = ConversationIds(store.shared_value(KEY_NAME, secrets.token_hex(32)))
    return make_ask(replica.reply, settings.owner_name, knows, visitor_for, ids)


def port_is_free(host: str, port: int) -> bool:
    """True when the page could listen on ``host:port`` now (checked as Gradio checks it)."""
    with socket.socket() as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError:
            return False
    return True


def main(argv: list[str] | None = None) -> int:
    """Serve the app; or run one of the owner's commands (``export``, ``telegram-setup``, ``doctor``) and exit."""
    parser = argparse.ArgumentParser(description="Replica: your AI stand-in on the web.")
    commands = parser.add_subparsers(dest="command")
    export_command = commands.add_parser(
        "export", help="print stored records (CSV; conversations as JSON Lines) and exit; the server is not started"
    )
    export_command.add_argument("what", choices=sorted(EXPORTS))
    setup = commands.add_parser("telegram-setup", help="find your Telegram chat id and send a test message")
    setup.add_argument("--write", action="store_true", help="add or update TELEGRAM_CHAT_ID in .env")
    setup.add_argument("--delete-webhook", action="store_true", help="remove a webhook that blocks polling")
    setup.add_argument("--wait", type=float, default=WAIT_SECONDS, help="seconds to wait for your message (180)")
    doctor = commands.add_parser("doctor", help="check every setting against the real services")
    doctor.add_argument("--ping", action="store_true", help="send a real test message to your Telegram chat")
    args = parser.parse_args(argv)

    try:
        settings = load_settings(os.environ)
    except ConfigError as exc:
        parser.exit(2, f"Configuration error: {exc}\n")
    setup_logging([settings.openai_api_key, settings.telegram_bot_token, settings.database_url])
    if args.command == "telegram-setup":
        return telegram_setup(settings, sys.stdout, args.write, args.delete_webhook, args.wait)
    if args.command == "doctor":
        return run_doctor(settings, sys.stdout, ping=args.ping)
    port = settings.server_port or DEFAULT_PORT
    if args.command is None and not port_is_free(settings.server_name or "127.0.0.1", port):
        parser.exit(
            2, f"Port {port} is already in use: stop what is using it, or set GRADIO_SERVER_PORT to a free port.\n"
        )
    try:
        if args.command == "export":
            store = open_store(settings)
            try:
                export(store, args.what, sys.stdout)
            finally:
                store.close()
            return 0
        app = create_app(settings)
    except StoreError as exc:
        parser.exit(2, f"Storage error: {exc}\n")
    log.info("Serving %s's replica with model %s", app.replica.inbox.owner_name, settings.openai_model)
    app.serve(server_name=settings.server_name, server_port=port)
    return 0


if __name__ == "__main__":
    sys.exit(main())
