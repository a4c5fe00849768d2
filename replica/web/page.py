"""The visitor's page: a Gradio ChatInterface around a streaming answer function.

Knows nothing of the model or Telegram; it turns a Gradio request into a :class:`Visitor` and shows
whatever the answer function yields.

No event of the page takes the chat history from the browser: the recorded conversation is the truth,
and each update the page receives is rebuilt on the server from it (``history(session)``). So a
client can neither make the server keep a history it invents, nor grow the memory of a session beyond
what the conversation itself holds. The only client values events take are the typed message (cut to
the longest message accepted) and which example was clicked.
"""

from __future__ import annotations

import hashlib
import html
import json
import logging
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterator

import gradio as gr
from starlette.middleware import Middleware

from replica import wording
from replica.chat.reply import Visitor
from replica.settings import default
from replica.storage.records import NOTICE, OWNER, VISITOR
from replica.web.guard import RequestGuard, max_event_bytes, valid_session_id

log = logging.getLogger(__name__)

AnswerStream = Callable[[str, Visitor], Iterator[str]]
History = Callable[[str], list[tuple[str, str]]]  # session -> its recorded (role, text) messages
OwnerWords = Callable[[str], tuple[bool, bool]]  # session -> (anything new to show?, keep checking?)

# System fonts only: the page must not depend on Google Fonts or any other outside asset.
THEME = gr.themes.Soft(
    font=[gr.themes.Font("system-ui"), gr.themes.Font("-apple-system"), gr.themes.Font("Segoe UI"), "sans-serif"],
    font_mono=[gr.themes.Font("ui-monospace"), gr.themes.Font("Menlo"), "monospace"],
)
PAGE_DIR = Path(__file__).resolve().parent / "assets"
CSS = (PAGE_DIR / "page.css").read_text(encoding="utf-8")
PAGE_JS = (PAGE_DIR / "page.js").read_text(encoding="utf-8")


def page_head(askers: tuple[str, ...]) -> str:
    """The page's script, told which sites' frames may ask a ``?q=`` question at once (``askers``)."""
    allowed = json.dumps(list(askers)).replace("</", "<\\/")
    return f"<script>\nwindow.REPLICA_ASKERS = {allowed};\n{PAGE_JS}\n</script>"


PLACEHOLDER = "Ask me something…"
CHECK_SECONDS = 4  # how often an open page asks for the owner's words: one light request, outside the queue
# Gradio keeps a little state per browser session (the config of every component, the last message
# typed). Bounded: at most this many sessions, the least recently active dropped first (an active page
# checks every few seconds); a dropped session loses nothing, since the page is rebuilt from the record.
SESSION_CAPACITY = 500
STATE_SECONDS = 600  # the typed message is kept this long at most (it is needed for one reply)


@dataclass(frozen=True)
class PageText:
    """The words on the page: title, one-line description, the replica's opening line, example questions."""

    title: str
    description: str
    greeting: str
    examples: list[str]
    avatar: str | None = None  # the owner's face beside the replica's messages: a file path or a URL
    owner_name: str = ""


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


class Bubbles:
    """How recorded messages look on the page: whose words each bubble holds is always visible.

    The replica's words are plain bubbles beside the owner's face; the owner's own words carry their
    name and "in person"; notices (a handoff, a resume) are styled as notes, not as anyone's words.
    The greeting stays the first bubble once the visitor has written.
    """

    def __init__(self, page: PageText):
        self.page = page

    def render(self, messages: list[tuple[str, str]]) -> list[dict[str, str]]:
        """The chatbot's value for these (role, text) messages, the greeting first."""
        if not messages:
            return []
        # A blank message sent by mistake shows no empty bubble (its reply says it looked empty).
        shown = [self.bubble(role, text) for role, text in messages if role != VISITOR or text.strip()]
        return [{"role": "assistant", "content": self.page.greeting}] + shown

    def bubble(self, role: str, text: str) -> dict[str, str]:
        if role == VISITOR:
            return {"role": "user", "content": text}
        if role == OWNER:
            name = html.escape(wording.OWNER_LABEL.format(owner=self.page.owner_name or "The owner"))
            label = f'<span class="replica-owner-label">{name}</span>'
            return {"role": "assistant", "content": f'<div class="replica-owner">{label}\n\n{text}</div>'}
        if role == NOTICE:
            return {"role": "assistant", "content": f'<div class="replica-notice">{html.escape(text)}</div>'}
        return {"role": "assistant", "content": text}


def _without_stub_files(define: Callable[[], type]) -> type:
    """Define a Gradio component subclass without Gradio writing a ``.pyi`` stub beside this module
    (its metaclass does so for every component class; our checkout, or a read-only deploy, is no
    place for it)."""
    from gradio import component_meta

    write_stub = component_meta.create_or_modify_pyi
    component_meta.create_or_modify_pyi = lambda *args, **kwargs: None
    try:
        return define()
    finally:
        component_meta.create_or_modify_pyi = write_stub


def _chatbot_class() -> type:
    class ReplicaChatbot(gr.Chatbot):
        """Gradio's Chatbot (``is_template``: the page draws it as one), with its API schema made once.

        Gradio builds the component anew for every update a session receives, and asks each new one
        for its schema, which pydantic generates afresh: most of the cost of the page's check. The
        schema is the same for every instance, so it is kept for the class."""

        is_template = True
        _schema: dict | None = None

        def api_info(self) -> dict:
            if ReplicaChatbot._schema is None:
                ReplicaChatbot._schema = super().api_info()
            return ReplicaChatbot._schema

    return ReplicaChatbot


ReplicaChatbot = _without_stub_files(_chatbot_class)


class ReplicaChat(gr.ChatInterface):
    """Gradio's ChatInterface with events of our own, none of which takes the history from the browser.

    Kept from ChatInterface: the chatbot, the text box with its send and stop buttons, the example chips,
    the stop wiring and the ``/chat`` endpoint (its name and shape, for ``gradio_client``). Not wired at
    all: retry, undo, edit, clear, saved conversations and flagging, which the page does not offer.
    """

    def __init__(
        self,
        answer: AnswerStream,
        history: History,
        bubbles: Bubbles,
        max_message_chars: int,
        trusted_proxy_hops: int,
        **options: Any,
    ):
        self._answer = answer
        self._history = history
        self._bubbles = bubbles
        self._max_message_chars = max_message_chars
        self._trusted_proxy_hops = trusted_proxy_hops
        super().__init__(self._api_reply, **options)
        self.saved_input.time_to_live = STATE_SECONDS

    def _render_footer(self) -> None:
        """No hidden Examples component (the chips live in the chatbot) and no additional inputs."""

    def _setup_events(self) -> None:
        hidden = {"api_visibility": "undocumented", "show_progress": "hidden"}
        reply = {"concurrency_id": "reply", "concurrency_limit": "default", "show_progress": "hidden"}
        typed = self.textbox.submit(
            self._take_message, [self.textbox], [self.textbox, self.saved_input], queue=False, **hidden
        )
        typed_reply = typed.then(self._show_message, [self.saved_input], [self.chatbot], queue=False, **hidden).then(
            self._stream, [self.saved_input], [self.chatbot], api_visibility="undocumented", **reply
        )
        typed_reply.then(self._enable_box, None, [self.textbox], queue=False, **hidden)
        cancellable = [typed_reply]
        if self.examples:
            picked = self.chatbot.example_select(
                self._take_example, None, [self.chatbot, self.saved_input], queue=False, **hidden
            )
            example_reply = picked.then(self._disable_box, None, [self.textbox], queue=False, **hidden).then(
                self._stream, [self.saved_input], [self.chatbot], api_visibility="undocumented", **reply
            )
            example_reply.then(self._enable_box, None, [self.textbox], queue=False, **hidden)
            cancellable.append(example_reply)
        # The /chat endpoint: the message in, the reply out (gradio_client's predict(msg, api_name="/chat")).
        self.fake_api_btn.click(
            self._api_reply,
            [self.textbox],
            [self.api_response],
            api_name=self.api_name,
            api_visibility="public",
            postprocess=False,
            **{k: v for k, v in reply.items() if k != "show_progress"},
        )
        self._setup_stop_events(event_triggers=[], events_to_cancel=cancellable, after_success=typed)

    # --- the steps --------------------------------------------------------------------------------

    def _take_message(self, message: Any) -> tuple[gr.Textbox, str]:
        """Empty the box and keep the message for the reply, cut just past the longest accepted (so a
        longer one is still refused as too long, and a huge one costs no memory)."""
        text = message if isinstance(message, str) else ""
        box = gr.Textbox("", interactive=False, placeholder=PLACEHOLDER)  # Gradio would blank the placeholder
        return box, text[: self._max_message_chars + 1]

    def _take_example(self, selected: gr.SelectData, request: gr.Request) -> tuple[list, str]:
        """The example chip the visitor clicked, looked up by its position (the browser's copy is not used)."""
        examples = [str(example[0] if isinstance(example, list) else example) for example in self.examples or []]
        index = selected.index if isinstance(selected.index, int) else -1
        message = examples[index] if 0 <= index < len(examples) else ""
        return self._page(request, message), message

    def _show_message(self, message: str | None, request: gr.Request) -> list:
        """The page with the visitor's new message at the end, before the reply starts."""
        return self._page(request, message or "")

    def _stream(self, message: str | None, request: gr.Request) -> Iterator[list]:
        """The page as the reply grows."""
        message = message or ""
        shown = self._page(request, message)
        for words in self._replies(message, request):
            yield shown + [self._bubbles.bubble("replica", words)]

    def _api_reply(self, message: Any, request: gr.Request) -> Iterator[str]:
        yield from self._replies(message if isinstance(message, str) else "", request)

    def _replies(self, message: str, request: gr.Request) -> Iterator[str]:
        visitor = Visitor(session_id(request), client_address(request, self._trusted_proxy_hops))
        try:
            yield from self._answer(message, visitor)
        except Exception:  # the visitor gets a sentence; the traceback stays in the log
            log.exception("Unexpected error while answering a visitor")
            yield wording.UNEXPECTED

    def _page(self, request: gr.Request, new_message: str = "") -> list:
        """The recorded conversation as bubbles, plus ``new_message`` (not recorded yet)."""
        recorded = recorded_messages(self._history, session_id(request))
        extra = [(VISITOR, new_message)] if new_message else []
        return self._bubbles.render(recorded + extra)

    @staticmethod
    def _enable_box() -> gr.Textbox:
        return gr.Textbox(interactive=True, placeholder=PLACEHOLDER)

    @staticmethod
    def _disable_box() -> gr.Textbox:
        return gr.Textbox(interactive=False, placeholder=PLACEHOLDER)


def recorded_messages(history: History, session: str) -> list[tuple[str, str]]:
    """The session's recorded messages; none when the record cannot be read (the page still works)."""
    try:
        return history(session)
    except Exception as error:
        log.error("Could not read the conversation for the page (%s)", type(error).__name__)
        return []


def build_demo(
    answer: AnswerStream,
    page: PageText,
    concurrency: int,
    max_queue: int,
    history: History,
    owner_words: OwnerWords,
    trusted_proxy_hops: int = default("trusted_proxy_hops"),
    max_message_chars: int = default("max_message_chars"),
    mcp_tool: Callable[..., str] | None = None,
) -> gr.Blocks:
    """Build the chat page; ``answer(message, visitor)`` yields each reply as it grows.

    The queue works on at most ``concurrency`` answers at once; up to ``max_queue`` more visitors wait
    in line rather than being turned away. ``history(session)`` gives the session's recorded messages;
    ``owner_words(session)`` says whether the owner's words (or a notice) arrived since the last check,
    and whether the page should keep checking.
    """
    bubbles = Bubbles(page)
    with gr.Blocks(title=page.title, fill_height=True, delete_cache=(600, 600)) as demo:  # temp files: swept
        chat_page = ReplicaChat(
            answer,
            history,
            bubbles,
            max_message_chars,
            trusted_proxy_hops,
            # The greeting is the empty chat's placeholder (styled as the first bubble), so the example
            # questions show beside it; once the visitor writes, it is the first bubble of the page.
            chatbot=ReplicaChatbot(
                placeholder=page.greeting,
                show_label=False,
                layout="bubble",
                buttons=["copy"],
                avatar_images=(None, page.avatar),
                group_consecutive_messages=False,  # each message its own bubble: who speaks stays clear
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
                max_length=max_message_chars,
            ),
            title=page.title,
            description=page.description,
            examples=page.examples or None,
            run_examples_on_click=True,
            api_name="chat",
            flagging_mode="never",
            fill_height=True,
        )
        _check_for_owner_words(demo, chat_page, history, owner_words, bubbles)
        if mcp_tool:
            gr.api(mcp_tool, api_name=mcp_tool.__name__)
    # api_open=False: no REST route may run the chat outside the queue and its concurrency limit.
    demo.queue(default_concurrency_limit=concurrency, max_size=max_queue, api_open=False)
    return demo


def _check_for_owner_words(
    demo: gr.Blocks, chat_page: ReplicaChat, history: History, owner_words: OwnerWords, bubbles: Bubbles
) -> None:
    """When the page loads and every few seconds after, show what the owner sent in person. Outside the
    queue (never behind a model call, never in a model slot); the timer stops after 30 minutes without
    activity (unless the owner has the conversation) and starts again when the visitor writes."""
    timer = gr.Timer(CHECK_SECONDS)

    def check(request: gr.Request):
        session = session_id(request)
        try:
            news, keep_checking = owner_words(session)
        except Exception as error:  # a check that fails is tried again at the next tick
            log.error("Could not check for the owner's words (%s)", type(error).__name__)
            return gr.skip(), gr.skip()
        # The timer is running (it called us, or the page just loaded): it is only ever touched to stop
        # it, since updating a component costs Gradio far more than the check itself.
        timer_update = gr.skip() if keep_checking else gr.Timer(active=False)
        if not news:
            return gr.skip(), timer_update
        return bubbles.render(recorded_messages(history, session)), gr.skip()

    hidden = {"queue": False, "show_progress": "hidden", "api_visibility": "undocumented"}
    gr.on([demo.load, timer.tick], check, None, [chat_page.chatbot, timer], **hidden)
    chat_page.textbox.submit(lambda: gr.Timer(active=True), None, timer, **hidden)


def trust_no_proxy_in_uvicorn() -> None:
    """Make the server Gradio starts (uvicorn) take no proxy's word for the client's address.

    Uvicorn replaces the TCP peer with the last ``X-Forwarded-For`` entry when the request comes from
    ``FORWARDED_ALLOW_IPS`` (127.0.0.1 unless set), so behind a proxy on the same machine that passes the
    header through, a client could name its own address. The visitor's address is read from that
    header only as ``TRUSTED_PROXY_HOPS`` says (:func:`client_address`), so uvicorn is told to trust none.
    """
    os.environ["FORWARDED_ALLOW_IPS"] = ""  # whatever it was: not a setting of this app (docs/security.md)


def serve(
    demo: gr.Blocks,
    middleware: list | None = None,
    mcp: bool = False,
    block: bool = True,
    trusted_proxy_hops: int = default("trusted_proxy_hops"),
    max_message_chars: int = default("max_message_chars"),
    closed_events: frozenset[int] = frozenset(),
    closed_names: frozenset[str] = frozenset(),
    embed_origins: tuple[str, ...] = (),
    **launch_options: Any,
) -> None:
    """Launch ``demo`` with the page's theme and styles (Gradio takes them at launch), behind the
    :class:`RequestGuard` (no uploads, bounded bodies, well-formed session ids) and any ``middleware``
    given (the Telegram webhook); then, with ``block``, serve until interrupted. The guard refuses the
    events in ``closed_events`` (by id) and ``closed_names`` (by API name) on every route. Only the sites
    in ``embed_origins`` may frame the page, and ask a ``?q=`` question from a frame (any site may frame
    it when none is named; a ``?q=`` then waits in a framed page for the visitor's send).

    With ``mcp``, the MCP server offers exactly one tool, the ``ask_…`` one: the launch builds the tool
    table from every public endpoint, and it is trimmed at once, before serving goes on (the page's
    public ``/chat`` is no MCP tool).
    """
    trust_no_proxy_in_uvicorn()
    guard = Middleware(
        RequestGuard,
        max_event_bytes=max_event_bytes(max_message_chars),
        trusted_proxy_hops=trusted_proxy_hops,
        closed_events=closed_events,
        closed_names=closed_names,
        frame_ancestors=" ".join(("'self'", *embed_origins)) if embed_origins else "*",
    )
    demo.launch(
        theme=THEME,
        css=CSS,
        head=page_head(embed_origins),
        footer_links=[],
        max_file_size="1mb",
        state_session_capacity=SESSION_CAPACITY,
        app_kwargs={"middleware": [guard, *(middleware or [])]},
        mcp_server=mcp,
        prevent_thread_lock=True,
        **launch_options,
    )
    if mcp and demo.mcp_server_obj:
        tools = demo.mcp_server_obj.tool_to_endpoint
        demo.mcp_server_obj.tool_to_endpoint = {
            name: endpoint for name, endpoint in tools.items() if endpoint.lstrip("/").startswith("ask_")
        }
    if block:
        demo.block_thread()
