"""The visitor's page: a Gradio ChatInterface around an answer function. Knows nothing of Telegram."""

from __future__ import annotations

import logging
from typing import Any, Callable

import gradio as gr

log = logging.getLogger(__name__)

Answer = Callable[[str, list[dict[str, Any]], str], str]
UNEXPECTED = "Sorry, something went wrong on my side. Please try again."


def build_demo(answer: Answer, owner_name: str, concurrency: int, max_queue: int) -> gr.ChatInterface:
    """Build the chat page; ``answer(message, history, session_id)`` produces each reply.

    The queue runs at most ``concurrency`` answers at once; up to ``max_queue`` more visitors wait in
    line rather than being turned away.
    """

    def chat(message: str, history: list[dict[str, Any]], request: gr.Request) -> str:
        session_id = getattr(request, "session_hash", None) or "anonymous"
        try:
            return answer(message, history, session_id)
        except Exception:  # the visitor gets a sentence; the traceback stays in the log
            log.exception("Unexpected error while answering a visitor")
            return UNEXPECTED

    demo = gr.ChatInterface(
        chat,
        title=f"{owner_name} — AI replica",
        description=(
            f"Ask me about {owner_name}'s work, experience and projects. I answer from {owner_name}'s own notes, "
            "and pass anything I can't answer on to them. Leave your email if you'd like to be in touch."
        ),
        api_name="chat",
        flagging_mode="never",
    )
    demo.queue(default_concurrency_limit=concurrency, max_size=max_queue)
    return demo
