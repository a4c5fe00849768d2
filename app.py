"""Replica: run the owner's AI stand-in as a Gradio app (``python app.py``)."""

from __future__ import annotations

import logging
import os
from dataclasses import dataclass

import gradio as gr
import openai

from replica.agent import Replica
from replica.config import Settings, load_settings
from replica.knowledge import load_documents, render_knowledge
from replica.logs import setup_logging
from replica.notify import Notifier
from replica.notify.delivery import LogNotifier, TelegramNotifier
from replica.notify.telegram import TelegramClient
from replica.prompts import render_prompt
from replica.ui import build_demo
from tools import default_registry

log = logging.getLogger("replica")


@dataclass
class App:
    """The assembled app: the page to serve and the parts that need closing."""

    demo: gr.ChatInterface
    replica: Replica
    notifier: Notifier

    def close(self) -> None:
        """Stop serving, then let queued alerts go out."""
        self.demo.close()
        if isinstance(self.notifier, TelegramNotifier):
            self.notifier.close()


def make_notifier(settings: Settings) -> Notifier:
    """Telegram when configured; otherwise alerts go to the log."""
    if not settings.telegram_configured:
        log.warning("Telegram is not configured: alerts will be written to the log only")
        return LogNotifier()
    client = TelegramClient(settings.telegram_api_base, settings.telegram_bot_token, settings.telegram_chat_id)
    return TelegramNotifier(client)


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


def create_app(settings: Settings) -> App:
    """Assemble knowledge, prompt, model client, tools, notifier and page from ``settings``."""
    documents = load_documents(settings.knowledge_dir)
    knowledge = render_knowledge(documents) or render_prompt("no_knowledge.md")
    system_prompt = render_prompt("system.md", owner_name=settings.owner_name, knowledge=knowledge)
    notifier = make_notifier(settings)
    replica = Replica(
        client=make_model_client(settings),
        model=settings.openai_model,
        system_prompt=system_prompt,
        registry=default_registry(),
        notifier=notifier,
        max_turns=settings.max_turns,
        max_message_chars=settings.max_message_chars,
        check_deliverability=settings.email_check_deliverability,
    )
    demo = build_demo(replica.reply, settings.owner_name, settings.queue_concurrency, settings.queue_max_size)
    return App(demo=demo, replica=replica, notifier=notifier)


def main() -> None:
    """Read configuration, assemble the app and serve it until interrupted."""
    settings = load_settings(os.environ)
    setup_logging([settings.openai_api_key, settings.telegram_bot_token])
    app = create_app(settings)
    log.info("Serving %s's replica with model %s", settings.owner_name, settings.openai_model)
    app.demo.launch(server_name=settings.server_name, server_port=settings.server_port)


if __name__ == "__main__":
    main()
