"""Replica: run the owner's AI stand-in as a Gradio app (``python app.py``)."""

from __future__ import annotations

import argparse
import logging
import os
import sys
from dataclasses import dataclass

import gradio as gr
import openai

from replica.agent import Replica
from replica.config import ConfigError, Settings, load_settings
from replica.export import COLUMNS, export_csv
from replica.knowledge import load_documents, render_knowledge
from replica.limits import UsageLimits
from replica.logs import setup_logging
from replica.notify import Notifier
from replica.notify.delivery import LogNotifier, OutboxSender
from replica.notify.telegram import TelegramClient
from replica.prompts import read_lines, render_prompt
from replica.store import Store
from replica.ui import PageText, build_demo, serve
from tools import default_registry

log = logging.getLogger("replica")


@dataclass
class App:
    """The assembled app: the page to serve and the parts that need closing."""

    demo: gr.ChatInterface
    replica: Replica
    store: Store
    notifier: Notifier

    def close(self) -> None:
        """Stop serving, stop the alert sender (pending alerts stay stored), close the database."""
        self.demo.close()
        if isinstance(self.notifier, OutboxSender):
            self.notifier.close()
        self.store.close()


def open_store(settings: Settings) -> Store:
    """The database in ``DATA_DIR``, with the per-visitor alert caps applied."""
    caps = {"lead": settings.lead_alerts_per_visitor, "question": settings.question_alerts_per_visitor}
    return Store(settings.database_path, alert_caps=caps)


def make_notifier(settings: Settings, store: Store) -> Notifier:
    """The Telegram outbox sender when configured; otherwise alerts go to the log (and stay stored)."""
    if not settings.telegram_configured:
        log.warning("Telegram is not configured: alerts will be written to the log only")
        return LogNotifier()
    client = TelegramClient(settings.telegram_api_base, settings.telegram_bot_token, settings.telegram_chat_id)
    return OutboxSender(
        store,
        client,
        min_interval=settings.alert_min_interval_seconds,
        base_delay=settings.alert_retry_base_seconds,
    ).start()


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
    """The page's words, from the templates in ``prompts/``."""
    owner = settings.owner_name
    return PageText(
        title=f"{owner} — AI replica",
        description=render_prompt("page.md", owner_name=owner).strip(),
        greeting=render_prompt("greeting.md", owner_name=owner).strip(),
        examples=read_lines("examples.txt")[:4],
    )


def create_app(settings: Settings) -> App:
    """Assemble knowledge, prompt, model client, tools, store, notifier and page from ``settings``."""
    documents = load_documents(settings.knowledge_dir)
    knowledge = render_knowledge(documents) or render_prompt("no_knowledge.md")
    system_prompt = render_prompt("system.md", owner_name=settings.owner_name, knowledge=knowledge)
    store = open_store(settings)
    notifier = make_notifier(settings, store)
    replica = Replica(
        client=make_model_client(settings),
        model=settings.openai_model,
        system_prompt=system_prompt,
        registry=default_registry(),
        store=store,
        notifier=notifier,
        limits=UsageLimits.build(
            settings.visitor_messages_per_hour, settings.address_messages_per_hour, settings.daily_model_calls
        ),
        max_turns=settings.max_turns,
        max_message_chars=settings.max_message_chars,
        history_budget_chars=settings.history_budget_chars,
        check_deliverability=settings.email_check_deliverability,
    )
    demo = build_demo(
        replica.stream_reply,
        page_text(settings),
        settings.queue_concurrency,
        settings.queue_max_size,
        settings.trusted_proxy_hops,
    )
    return App(demo=demo, replica=replica, store=store, notifier=notifier)


def main(argv: list[str] | None = None) -> int:
    """Serve the app, or with ``export leads|questions`` print the owner's records as CSV and exit."""
    parser = argparse.ArgumentParser(description="Replica: your AI stand-in on the web.")
    commands = parser.add_subparsers(dest="command")
    export = commands.add_parser("export", help="print stored records as CSV and exit (the server is not started)")
    export.add_argument("what", choices=sorted(COLUMNS))
    args = parser.parse_args(argv)

    try:
        settings = load_settings(os.environ)
    except ConfigError as exc:
        parser.exit(2, f"Configuration error: {exc}\n")
    setup_logging([settings.openai_api_key, settings.telegram_bot_token])
    if args.command == "export":
        store = open_store(settings)
        try:
            export_csv(store, args.what, sys.stdout)
        finally:
            store.close()
        return 0

    app = create_app(settings)
    log.info("Serving %s's replica with model %s", settings.owner_name, settings.openai_model)
    serve(app.demo, server_name=settings.server_name, server_port=settings.server_port)
    return 0


if __name__ == "__main__":
    sys.exit(main())
