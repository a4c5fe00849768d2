"""The visitor's page: a Gradio ChatInterface around a streaming answer function.

Knows nothing of the model or Telegram; it turns a Gradio request into a :class:`Visitor` and shows
whatever the answer function yields.
"""

from __future__ import annotations

import hashlib
import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterator

import gradio as gr
from starlette.middleware import Middleware

from replica.agent import Visitor
from replica.guard import RequestGuard, valid_session_id

log = logging.getLogger(__name__)

AnswerStream = Callable[[str, list[dict[str, Any]], Visitor], Iterator[str]]
UNEXPECTED = "Sorry, something went wrong on my side. Please try again."

# System fonts only: the page must not depend on Google Fonts or any other outside asset.
THEME = gr.themes.Soft(
    font=[gr.themes.Font("system-ui"), gr.themes.Font("-apple-system"), gr.themes.Font("Segoe UI"), "sans-serif"],
    font_mono=[gr.themes.Font("ui-monospace"), gr.themes.Font("Menlo"), "monospace"],
)
PAGE_DIR = Path(__file__).resolve().parent / "page"
CSS = (PAGE_DIR / "page.css").read_text(encoding="utf-8")
HEAD = f"<script>\n{(PAGE_DIR / 'page.js').read_text(encoding='utf-8')}\n</script>"


@dataclass(frozen=True)
class PageText:
    """The words on the page: title, one-line description, the replica's opening line, example questions."""

    title: str
    description: str
    greeting: str
    examples: list[str]
    avatar: str | None = None  # the owner's face beside the replica's messages: a file path or a URL


def client_address(request: gr.Request | None, trusted_proxy_hops: int) -> str:
    """The visitor's address: the hop our own proxies added to ``X-Forwarded-For``, never a client-set value.

    Each trusted proxy appends the address it saw, so with N trusted proxies the Nth entry from the right
    is the one the outermost of them recorded; anything left of it may be forged by the client.
    """
    if request is None:
        return "unknown"
    direct = request.client.host if request.client else "unknown"
    if trusted_proxy_hops <= 0:
        return direct
    forwarded = [part.strip() for part in request.headers.get("x-forwarded-for", "").split(",") if part.strip()]
    return forwarded[-trusted_proxy_hops] if len(forwarded) >= trusted_proxy_hops else direct


def session_id(request: gr.Request | None) -> str:
    """The visitor's session id as Gradio issued it; any other value is replaced by a short digest of it
    (the HTTP guard refuses such requests first: this covers any route it does not see)."""
    raw = getattr(request, "session_hash", None)
    if valid_session_id(raw):
        return raw
    if not raw:
        return "anonymous"
    return "unusual-" + hashlib.sha256(str(raw).encode("utf-8", "replace")).hexdigest()[:16]


OwnerWords = Callable[[str], tuple[list[str], bool]]
PLACEHOLDER = "Ask me something…"


class ReplicaChat(gr.ChatInterface):
    """Gradio's ChatInterface, keeping the text box's placeholder while a reply streams (Gradio blanks it)."""

    def _clear_and_save_textbox(self, message: str) -> tuple[gr.Textbox, str]:
        return gr.Textbox("", interactive=False, placeholder=PLACEHOLDER), message


CHECK_SECONDS = 4  # how often an open page asks for the owner's words: one light request, outside the queue


def build_demo(
    answer: AnswerStream,
    page: PageText,
    concurrency: int,
    max_queue: int,
    trusted_proxy_hops: int = 0,
    owner_words: OwnerWords | None = None,
    mcp_tool: Callable[..., str] | None = None,
) -> gr.Blocks:
    """Build the chat page; ``answer(message, history, visitor)`` yields each reply as it grows.

    The queue works on at most ``concurrency`` answers at once; up to ``max_queue`` more visitors wait
    in line rather than being turned away. With ``owner_words(session)`` (messages to show, keep
    checking?), the page checks every few seconds for words the owner sent in person, and shows them.
    """

    def chat(message: str, history: list[dict[str, Any]], request: gr.Request) -> Iterator[str]:
        visitor = Visitor(session_id(request), client_address(request, trusted_proxy_hops))
        try:
            yield from answer(message, history if isinstance(history, list) else [], visitor)
        except Exception:  # the visitor gets a sentence; the traceback stays in the log
            log.exception("Unexpected error while answering a visitor")
            yield UNEXPECTED

    with gr.Blocks(title=page.title, fill_height=True, delete_cache=(600, 600)) as demo:  # temp files: swept
        chat_page = ReplicaChat(
            chat,
            # The greeting is the empty chat's placeholder (styled as the first bubble), so the example
            # questions show beside it and the visitor's history starts with their own first message.
            chatbot=gr.Chatbot(
                placeholder=page.greeting,
                show_label=False,
                layout="bubble",
                buttons=["copy"],
                avatar_images=(None, page.avatar),
                elem_id="replica-chat",
                scale=1,
                height=None,
            ),
            textbox=gr.Textbox(
                placeholder=PLACEHOLDER,
                submit_btn=True,
                stop_btn=True,
                show_label=False,
                elem_id="replica-input",
                autofocus=True,
            ),
            title=page.title,
            description=page.description,
            examples=page.examples or None,
            run_examples_on_click=True,
            api_name="chat",
            flagging_mode="never",
            fill_height=True,
        )
        if owner_words:
            _check_for_owner_words(demo, chat_page, owner_words)
        if mcp_tool:
            gr.api(mcp_tool, api_name=mcp_tool.__name__)
    # api_open=False: no REST route may run the chat outside the queue and its concurrency limit.
    demo.queue(default_concurrency_limit=concurrency, max_size=max_queue, api_open=False)
    return demo


def _check_for_owner_words(demo: gr.Blocks, chat_page: gr.ChatInterface, owner_words: OwnerWords) -> None:
    """When the page loads and every few seconds after, show what the owner sent in person. Outside the
    queue (never behind a model call, never in a model slot); the timer stops after 30 minutes without
    activity and starts again when the visitor writes."""
    timer = gr.Timer(CHECK_SECONDS)

    def check(history: list[dict[str, Any]], request: gr.Request):
        try:
            words, keep_checking = owner_words(session_id(request))
        except Exception as error:  # a check that fails is tried again at the next tick
            log.error("Could not check for the owner's words (%s)", type(error).__name__)
            return gr.skip(), gr.Timer(active=True)
        if not words:
            return gr.skip(), gr.Timer(active=keep_checking)
        shown = list(history or []) + [{"role": "assistant", "content": text} for text in words]
        return shown, gr.Timer(active=True)

    gr.on(
        [demo.load, timer.tick],
        check,
        [chat_page.chatbot],
        [chat_page.chatbot, timer],
        queue=False,
        show_progress="hidden",
        api_visibility="undocumented",
    ).then(  # the chat's own record of the history follows what the page shows
        lambda shown: (shown, shown),
        [chat_page.chatbot],
        [chat_page.chatbot_state, chat_page.chatbot_value],
        queue=False,
        show_progress="hidden",
        api_visibility="undocumented",
    )
    chat_page.textbox.submit(
        lambda: gr.Timer(active=True), None, timer, queue=False, show_progress="hidden", api_visibility="undocumented"
    )


def serve(demo: gr.Blocks, middleware: list | None = None, mcp: bool = False, **launch_options: Any) -> None:
    """Launch ``demo`` with the page's theme and styles (Gradio takes them at launch), behind the
    :class:`RequestGuard` (no uploads, bounded bodies, well-formed session ids) and any ``middleware``
    given (the Telegram webhook)."""
    demo.launch(
        theme=THEME,
        css=CSS,
        head=HEAD,
        footer_links=[],
        max_file_size="1mb",
        app_kwargs={"middleware": [Middleware(RequestGuard), *(middleware or [])]},
        mcp_server=mcp,
        **launch_options,
    )
    if mcp and demo.mcp_server_obj:
        # Exactly one tool: the page's /chat endpoint (public, for gradio_client) is no MCP tool.
        tools = demo.mcp_server_obj.tool_to_endpoint
        demo.mcp_server_obj.tool_to_endpoint = {
            name: endpoint for name, endpoint in tools.items() if endpoint.lstrip("/").startswith("ask_")
        }
