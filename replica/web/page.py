"""The visitor's page: a chat built from Gradio's public parts around a streaming answer function.

Knows nothing of the model or Telegram; it turns a Gradio request into a :class:`Visitor` and shows
whatever the answer function yields.

No event of the page takes the chat history from the browser: the recorded conversation is the truth,
and each update the page receives is rebuilt on the server from it (``history(session)``). So a
client can neither make the server keep a history it invents, nor grow the memory of a session beyond
what the conversation itself holds. The only client values events take are the typed message (cut to
the longest message accepted), which example was clicked, and, when the page loads, the key the
browser kept to its conversation (honoured only with the app's own signature: ``returning``).
"""

from __future__ import annotations

import html
import json
import logging
import os
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any, Callable, Iterator, Literal, Protocol, Sequence, get_type_hints

import gradio as gr
from starlette.middleware import Middleware

from replica import wording
from replica.chat.did_you_mean import asked_question
from replica.chat.reply import Visitor
from replica.runtime.clock import REAL_CLOCK, Clock
from replica.settings import default
from replica.storage.database import storage_errors
from replica.storage.records import NOTICE, OWNER, REPLICA, VISITOR
from replica.web.connections import ConnectionWatch
from replica.web.guard import RequestGuard, max_event_bytes, trusted_hop
from replica.web.line import LINE_BOUND, Line
from replica.web.line_guard import COUNTED_HEADER, TICKET_HEADER, Admit, LineGuard
from replica.web.links_row import links_row
from replica.web.refusals import Refusals
from replica.web.returning import STORAGE_KEY, ReturningPages, session_id
from replica.web.site import SiteFiles, SiteRoutes

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
HEAD_CSS = (PAGE_DIR / "head.css").read_text(encoding="utf-8")


def page_head(askers: tuple[str, ...], max_message_chars: int, face: str = "") -> str:
    """The page's script, told which sites' frames may ask a ``?q=`` question at once (``askers``) and
    the longest question a ``?q=`` link may ask; and the owner's ``face`` (a path the app serves, or a
    URL) for the greeting's avatar, drawn by the page's styles before the chat has a message."""
    allowed = json.dumps(list(askers)).replace("</", "<\\/")
    style = f":root {{ --replica-face: url({json.dumps(face.lstrip('/'))}); }}" if face else ""
    return (
        f"<style>{style.replace('</', '')}\n{HEAD_CSS}</style>\n"
        f"<script>\nwindow.REPLICA_ASKERS = {allowed};\nwindow.REPLICA_MAX_QUESTION = {int(max_message_chars)};\n"
        f"{PAGE_JS}\n</script>"
    )


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
    links: tuple[tuple[str, str], ...] = ()  # the owner's links row: (kind, address), in order
    privacy: str = ""  # the line under the box (HTML): how long conversations are kept, and the privacy link


def client_address(request: gr.Request | None, trusted_proxy_hops: int) -> str:
    """The visitor's address: the hop our own proxies added to ``X-Forwarded-For``, never a client-set value.

    Each trusted proxy appends the address it saw, so with N trusted proxies the Nth entry from the right
    is the one the outermost of them recorded; anything left of it may be forged by the client.
    """
    if request is None:
        return "unknown"
    direct = request.client.host if request.client else "unknown"
    return trusted_hop(request.headers.get("x-forwarded-for", ""), trusted_proxy_hops) or direct


def from_the_door(request: gr.Request | None, name: bytes) -> str:
    """The header ``name`` the line's door gave the message as it joined (:mod:`replica.web.line_guard`,
    which removes any a client sent), or ""."""
    headers = getattr(request, "headers", None) if request is not None else None
    return (headers.get(name.decode()) or "") if headers else ""


class Bubbles:
    """How recorded messages look on the page: whose words each bubble holds is always visible.

    The replica's words are plain bubbles beside the owner's face; the owner's own words carry their
    name and "in person"; notices (a handoff, a resume) are styled as notes, not as anyone's words.
    The greeting stays the first bubble once the visitor has written.
    """

    def __init__(self, page: PageText):
        self.page = page

    def render(self, messages: list[tuple[str, str]]) -> list[dict[str, Any]]:
        """The chatbot's value for these (role, text) messages, the greeting first; the last, when it asks
        "Did you mean…?", with the question as a chip."""
        if not messages:
            return []
        # A blank message sent by mistake shows no empty bubble (its reply says it looked empty).
        shown = [self.bubble(role, text) for role, text in messages if role != VISITOR or text.strip()]
        greeting = f'<div class="replica-greeting">\n\n{self.page.greeting}\n\n</div>'  # marked: no copy button
        if messages[-1][0] == REPLICA:
            shown[-1] = with_chip(shown[-1])
        return [{"role": "assistant", "content": greeting}] + shown

    def bubble(self, role: str, text: str) -> dict[str, Any]:
        if role == VISITOR:
            return {"role": "user", "content": text}
        if role == OWNER:
            name = html.escape(wording.OWNER_LABEL.format(owner=self.page.owner_name or "The owner"))
            label = f'<span class="replica-owner-label">{name}</span>'
            return {"role": "assistant", "content": f'<div class="replica-owner">{label}\n\n{text}</div>'}
        if role == NOTICE:
            return {"role": "assistant", "content": f'<div class="replica-notice">{html.escape(text)}</div>'}
        return {"role": "assistant", "content": text}


class ChatPage:
    """The page's steps: what each event of the chat does, none of which takes the history from the browser.

    The page offers a chat (the text box with its send and stop buttons, the example chips) and the
    ``/chat`` endpoint for ``gradio_client``; no retry, undo, edit, clear, saved conversations or
    flagging. Built from Gradio's public parts (``gr.Blocks``, ``gr.Chatbot``, ``gr.Textbox``,
    ``gr.State``, ``gr.api``), so a Gradio upgrade that keeps its API keeps the page.
    """

    def __init__(
        self,
        answer: AnswerStream,
        history: History,
        bubbles: Bubbles,
        max_message_chars: int,
        trusted_proxy_hops: int,
        session_of: Callable[[gr.Request | None], str] = session_id,
        line: Line | None = None,
    ):
        self.answer = answer
        self.line = line  # told when each reply is written
        self.history = history
        self.bubbles = bubbles
        self.max_message_chars = max_message_chars
        self.trusted_proxy_hops = trusted_proxy_hops
        self.session_of = session_of  # the conversation the page shows: its own, or one opened again

    def take_message(self, message: Any) -> tuple[gr.Textbox, str]:
        """Empty the box (its stop button shown) and keep the message for the reply, cut just past the
        longest accepted (so a longer one is still refused as too long, and a huge one costs no memory)."""
        text = message if isinstance(message, str) else ""
        return busy_box(value=""), text[: self.max_message_chars + 1]

    def take_example(self, selected: gr.SelectData, request: gr.Request) -> tuple[list, str, gr.Textbox]:
        """The example chip the visitor clicked, looked up by its position (the browser's copy is not used)."""
        examples = self.bubbles.page.examples
        index = selected.index if isinstance(selected.index, int) else -1
        message = examples[index] if 0 <= index < len(examples) else ""
        return self.page(request, message), message, busy_box()

    def take_option(self, selected: gr.SelectData, request: gr.Request) -> tuple[list, str, gr.Textbox]:
        """The question the replica asked about ("Did you mean…?") as the visitor's message, its chip tapped:
        read from the recorded conversation (the browser's copy is not used); none when nothing is asked."""
        recorded = recorded_messages(self.history, self.session_of(request))
        asked = asked_question(recorded[-1][1]) if recorded and recorded[-1][0] == REPLICA else None
        message = asked[0] if asked else ""
        return self.page(request, message), message, busy_box()

    def reopened(self, request: gr.Request) -> tuple[gr.Textbox, list]:
        """The box open again and the conversation as recorded: after a message the line's door refused."""
        return ready_box(), self.page(request)

    def show_message(self, message: str | None, request: gr.Request) -> list:
        """The page with the visitor's new message at the end, before the reply starts."""
        return self.page(request, message or "")

    def stream(self, message: str | None, request: gr.Request) -> Iterator[list]:
        """The page as the reply grows."""
        message = message or ""
        shown = self.page(request, message)
        for words in self.replies(message, request):
            yield shown + [with_chip(self.bubbles.bubble(REPLICA, words))]

    def api_reply(self, message: str, request: gr.Request) -> Iterator[str]:
        """The ``/chat`` endpoint: one message in, the reply out as it grows."""
        yield from self.replies(message if isinstance(message, str) else "", request)

    def replies(self, message: str, request: gr.Request) -> Iterator[str]:
        counted = from_the_door(request, COUNTED_HEADER) == "1"
        visitor = Visitor(self.session_of(request), client_address(request, self.trusted_proxy_hops), counted=counted)
        try:
            yield from self.answer(message, visitor)
        except Exception:  # the visitor gets a sentence; the traceback stays in the log
            log.exception("Unexpected error while answering a visitor")
            yield wording.UNEXPECTED
        finally:  # the session may send its next message (its stream still carries this one)
            ticket = from_the_door(request, TICKET_HEADER)
            if self.line is not None and ticket.isdigit():
                self.line.replied(int(ticket))

    def page(self, request: gr.Request, new_message: str = "") -> list:
        """The recorded conversation as bubbles, plus ``new_message`` (not recorded yet)."""
        recorded = recorded_messages(self.history, self.session_of(request))
        extra: list[tuple[str, str]] = [(VISITOR, new_message)] if new_message else []
        return self.bubbles.render(recorded + extra)


# Gradio reads an event function's type hints at every call (to find its gr.Request); this module's
# are strings until read, so they are read once here, and a crowd's messages do not pay for it each.
for _event in (
    ChatPage.take_message,
    ChatPage.take_example,
    ChatPage.take_option,
    ChatPage.reopened,
    ChatPage.stream,
    ChatPage.api_reply,
):
    _event.__annotations__ = get_type_hints(_event)


def with_chip(bubble: dict[str, Any]) -> dict[str, Any]:
    """``bubble`` with the question it asks about ("Did you mean…?") as a chip to tap, when it asks one."""
    asked = asked_question(bubble["content"])
    return {**bubble, "options": [{"value": asked[0], "label": asked[0]}]} if asked else bubble


def busy_box(**value: Any) -> gr.Textbox:
    """The text box while a reply is written: locked, its stop button in place of send."""
    return gr.Textbox(**value, interactive=False, submit_btn=False, stop_btn=True, placeholder=PLACEHOLDER)


def ready_box() -> gr.Textbox:
    """The text box between replies: open, with its send button."""
    return gr.Textbox(interactive=True, submit_btn=True, stop_btn=False, placeholder=PLACEHOLDER)


def recorded_messages(history: History, session: str) -> list[tuple[str, str]]:
    """The session's recorded messages; none when the record cannot be read (the page still works)."""
    try:
        return history(session)
    except storage_errors() as error:
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
    returning: ReturningPages | None = None,
    line: Line | None = None,
    clock: Clock = REAL_CLOCK,
) -> gr.Blocks:
    """Build the chat page; ``answer(message, visitor)`` yields each reply as it grows.

    The model writes at most ``concurrency`` answers at once (its lanes, :mod:`replica.chat.lanes`); up
    to ``max_queue`` more visitors wait briefly for one, and the rest are answered at once without a
    model: Gradio's queue runs that many replies side by side and turns nobody away. ``history(session)`` gives the session's recorded messages;
    ``owner_words(session)`` says whether the owner's words (or a notice) arrived since the last check,
    and whether the page should keep checking (its arrivals told apart on ``clock``). With ``returning``, a
    returning visitor's browser opens their conversation again."""
    bubbles = Bubbles(page)
    session_of = returning.session_of if returning else session_id
    chat = ChatPage(answer, history, bubbles, max_message_chars, trusted_proxy_hops, session_of, line)
    with gr.Blocks(title=page.title, fill_height=True, delete_cache=(600, 600)) as demo:  # temp files: swept
        with gr.Column(scale=1):
            gr.Markdown(f"<h1>{html.escape(page.title)}</h1>", elem_id="replica-title")
            if page.description:
                gr.Markdown(page.description, elem_id="replica-description")
            if page.links:
                gr.HTML(links_row(list(page.links), page.owner_name), elem_id="replica-links-row", padding=False)
            # The greeting is the empty chat's placeholder (styled as the first bubble), so the example
            # questions show beside it; once the visitor writes, it is the first bubble of the page.
            chatbot = gr.Chatbot(
                placeholder=page.greeting,
                examples=[{"text": example} for example in page.examples] or None,
                show_label=False,
                layout="bubble",
                buttons=["copy"],
                avatar_images=(None, page.avatar),
                group_consecutive_messages=False,  # each message its own bubble: who speaks stays clear
                elem_id="replica-chat",
                scale=1,
                height=None,
            )
            with gr.Group(), gr.Row():
                textbox = gr.Textbox(
                    placeholder=PLACEHOLDER,
                    submit_btn=True,
                    stop_btn=False,  # shown in place of send while a reply is written
                    show_label=False,
                    elem_id="replica-input",
                    autofocus=True,
                    max_length=max_message_chars,
                )
            if page.privacy:
                gr.HTML(page.privacy, elem_id="replica-privacy", padding=False)
        saved_input = gr.State(time_to_live=STATE_SECONDS)  # the message, from the box to its reply
        kept = _keep_the_conversation(demo, chatbot, chat, returning) if returning else None
        # Every reply, from the page or /chat, runs in one group of workers.
        workers = reply_workers(concurrency, max_queue)
        _wire_chat(chat, chatbot, textbox, saved_input, workers, examples=bool(page.examples), kept=kept)
        _chat_endpoint(chat, page.owner_name or page.title, workers, documented=mcp_tool is None)
        _check_for_owner_words(demo, chatbot, textbox, chat, owner_words, clock)
        if mcp_tool:
            gr.api(mcp_tool, api_name=mcp_tool.__name__)
    # api_open=False: no REST route may run the chat outside the queue and its concurrency limit. Estimates
    # every 5 s, not at each reply's start: the page shows none, and each costs everyone in line a message.
    demo.queue(default_concurrency_limit=concurrency, max_size=LINE_BOUND, api_open=False, status_update_rate=5)
    return demo


REPLY_QUEUE = "reply"  # the concurrency group every reply runs in, the page's and /chat's
NO_LANE_WORKERS = 8  # replies made without a model at once, beside the lanes and those waiting for one
THREADS_BESIDE = 40  # Gradio's own thread count, for everything but the replies


def reply_workers(lanes: int, waiting: int) -> int:
    """Replies Gradio runs at once (each on a thread of its own): one per model lane, one per visitor
    allowed to wait for a lane, and a few more answered at once without a model."""
    return lanes + waiting + NO_LANE_WORKERS


Parts = gr.Component | Sequence[gr.Component] | None  # an event's inputs or outputs


class Listener(Protocol):
    """An event of the page to run a function on, as Gradio's event methods take it (``textbox.submit``,
    ``chatbot.example_select``, a step's ``.then``), with the options the page gives its events."""

    def __call__(
        self,
        fn: Callable[..., Any] | None,
        inputs: Parts,
        outputs: Parts,
        *,
        queue: bool | None = ...,
        show_progress: Literal["full", "minimal", "hidden"] = ...,
        concurrency_limit: int | None | Literal["default"] = ...,
        concurrency_id: str | None = ...,
        api_visibility: Literal["public", "private", "undocumented"] = ...,
    ) -> gr.events.Dependency: ...


def quick(event: Listener, fn: Callable[..., Any], inputs: Parts, outputs: Parts) -> gr.events.Dependency:
    """``fn`` run on ``event`` outside the queue (never behind a reply), with no progress shown and no
    place in the API docs."""
    return event(fn, inputs, outputs, queue=False, show_progress="hidden", api_visibility="undocumented")


def in_reply_workers(
    event: Listener, fn: Callable[..., Any], inputs: Parts, outputs: Parts, workers: int
) -> gr.events.Dependency:
    """``fn`` run on ``event`` in the queue's reply workers (``workers`` of them, shared with ``/chat``),
    with no progress shown and no place in the API docs."""
    return event(
        fn,
        inputs,
        outputs,
        concurrency_id=REPLY_QUEUE,
        concurrency_limit=workers,
        show_progress="hidden",
        api_visibility="undocumented",
    )


def _chat_endpoint(chat: ChatPage, owner: str, workers: int, documented: bool) -> None:
    """The ``/chat`` endpoint: the message in, the reply out (gradio_client's ``predict(msg,
    api_name="/chat")``), in the reply workers. Undocumented when the MCP server runs: it offers every
    documented endpoint as a tool, and its one tool is the ask_… one."""
    gr.api(
        chat.api_reply,
        api_name="chat",
        api_description=f"Ask {owner}'s replica a question; the reply streams as it is written. One client "
        "(one session) is one conversation.",
        api_visibility="public" if documented else "undocumented",
        concurrency_id=REPLY_QUEUE,
        concurrency_limit=workers,
    )


def _wire_chat(
    chat: ChatPage,
    chatbot: gr.Chatbot,
    textbox: gr.Textbox,
    saved_input: gr.State,
    workers: int,
    examples: bool,
    kept: tuple[gr.BrowserState, Callable] | None,
) -> None:
    """A typed message, or a clicked example, is shown at once, answered in the queue, and the box opens
    again (and, with ``kept``, the browser is given the key to its conversation in the same step); the
    stop button cancels the reply. Only the reply itself runs in the queue's reply workers (``workers``
    of them)."""
    after, after_outputs = (kept[1], [textbox, kept[0]]) if kept else (ready_box, [textbox])
    typed = quick(textbox.submit, chat.take_message, [textbox], [textbox, saved_input])
    shown = quick(typed.then, chat.show_message, [saved_input], [chatbot])
    typed_reply = in_reply_workers(shown.then, chat.stream, [saved_input], [chatbot], workers)
    quick(typed_reply.then, after, None, after_outputs)
    replies: list[dict[str, Any]] = [typed_reply]  # the events the stop button cancels, as Gradio takes them
    if examples:
        picked = quick(chatbot.example_select, chat.take_example, None, [chatbot, saved_input, textbox])
        example_reply = in_reply_workers(picked.then, chat.stream, [saved_input], [chatbot], workers)
        quick(example_reply.then, after, None, after_outputs)
        replies.append(example_reply)
    tapped = quick(chatbot.option_select, chat.take_option, None, [chatbot, saved_input, textbox])
    option_reply = in_reply_workers(tapped.then, chat.stream, [saved_input], [chatbot], workers)
    quick(option_reply.then, after, None, after_outputs)
    replies.append(option_reply)
    textbox.stop(None, None, None, cancels=replies, api_visibility="undocumented")
    # A message the line's door refused (the hourly limit, a busy network: replica.web.line_guard) ends its
    # event as a refused input, before the step that opens the box again: the page's script presses this
    # hidden button, which opens the box and shows the conversation as recorded (the refused message gone).
    reopen = gr.Button("Open the box again", visible="hidden", elem_id="replica-reopen")
    quick(reopen.click, chat.reopened, None, [textbox, chatbot])


def _keep_the_conversation(
    demo: gr.Blocks, chatbot: gr.Chatbot, chat: ChatPage, returning: ReturningPages
) -> tuple[gr.BrowserState, Callable]:
    """What the browser keeps, and the step after each reply that gives it the key to its conversation
    (the box opened in the same step, so no event more per message); when the page loads with a key,
    the conversation is shown again and the page speaks for it (the owner's answers that came
    meanwhile included: they are recorded in it)."""
    kept = gr.BrowserState(None, storage_key=STORAGE_KEY, secret=returning.browser_secret)

    def ready_and_keep(request: gr.Request):
        key = returning.key(request)
        return ready_box(), key if key else gr.skip()

    def open_again(key: Any, request: gr.Request):
        return chat.page(request) if returning.open_again(key, request) else gr.skip()

    quick(demo.load, open_again, [kept], [chatbot])
    return kept, ready_and_keep


def _check_for_owner_words(
    demo: gr.Blocks,
    chatbot: gr.Chatbot,
    textbox: gr.Textbox,
    chat: ChatPage,
    owner_words: OwnerWords,
    clock: Clock = REAL_CLOCK,
) -> None:
    """When the page loads and every few seconds after, show what the owner sent in person. Outside the
    queue (never behind a model call, never in a model slot); the timer stops after 30 minutes without
    activity (unless the owner has the conversation) and starts again when the visitor writes."""
    timer = gr.Timer(CHECK_SECONDS)
    # When the owner's words arrive, ``check`` changes this number, and its change redraws the chat. The
    # check itself never touches the chatbot: Gradio builds a component anew (and its schema) for every
    # update of it, even a ``gr.skip()``, which would be most of the cost of a check. (A gr.State's
    # change is not reported for an event outside the queue, so a number kept in the page, unseen.)
    arrived = gr.Number(0, visible="hidden", interactive=False, label="The owner's words arrived", precision=0)

    def check(request: gr.Request):
        session = chat.session_of(request)
        try:
            news, keep_checking = owner_words(session)
        except Exception as error:  # a check that fails is tried again at the next tick
            log.error("Could not check for the owner's words (%s)", type(error).__name__)
            return gr.skip(), gr.skip()
        # The timer is running (it called us, or the page just loaded): it is only ever touched to stop it.
        timer_update = gr.skip() if keep_checking else gr.Timer(active=False)
        return (int(clock.monotonic() * 1000) if news else gr.skip()), timer_update

    def redraw(request: gr.Request) -> list:
        return chat.page(request)

    quick(partial(gr.on, [demo.load, timer.tick]), check, None, [arrived, timer])
    quick(arrived.change, redraw, None, [chatbot])
    quick(textbox.submit, lambda: gr.Timer(active=True), None, timer)


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
    site: SiteFiles | None = None,
    watch: ConnectionWatch | None = None,
    threads: int = THREADS_BESIDE,
    line: Line | None = None,
    admit: Admit | None = None,
    **launch_options: Any,
) -> None:
    """Launch ``demo`` with the page's theme and styles (Gradio takes them at launch), behind the
        :class:`RequestGuard` (no uploads, bounded bodies, well-formed session ids) and any ``middleware``
        given (the Telegram webhook); then, with ``block``, serve until interrupted. The guard refuses the
        events in ``closed_events`` (by id) and ``closed_names`` (by API name) on every route. Only the sites
        in ``embed_origins`` may frame the page, and ask a ``?q=`` question from a frame (any site may frame
        it when none is named; a ``?q=`` then waits in a framed page for the visitor's send). ``site``: the
        app's own files (face, widget, privacy page) and the owner's link preview on ``/``. ``watch`` closes
    slow clients' connections (:mod:`replica.web.connections`); requests refused or failed are answered in a
    line and counted (:mod:`replica.web.refusals`).

        With ``mcp``, the MCP server offers exactly one tool, the ``ask_…`` one: Gradio makes a tool of each
        documented endpoint, and :func:`build_demo` leaves ``/chat`` undocumented when there is an MCP tool.
    """
    trust_no_proxy_in_uvicorn()
    guard = Middleware(
        RequestGuard,
        max_event_bytes=max_event_bytes(max_message_chars),
        trusted_proxy_hops=trusted_proxy_hops,
        closed_events=closed_events,
        closed_names=closed_names,
        frame_ancestors=" ".join(("'self'", *embed_origins)) if embed_origins else "*",
        # Only events with a function to run: one that runs in the browser alone fails in Gradio's queue,
        # a traceback in the log for each request that names it.
        open_names=frozenset(fn.api_name for fn in demo.fns.values() if fn.fn and isinstance(fn.api_name, str)),
        open_events=frozenset(n for n, fn in demo.fns.items() if fn.fn),
    )
    own = [Middleware(SiteRoutes, site=site)] if site else []
    if line is not None:  # the line's door, behind the guard: bodies bounded, sessions well formed
        replies = {n: fn for n, fn in demo.fns.items() if fn.concurrency_id == REPLY_QUEUE}
        own.insert(
            0,
            Middleware(
                LineGuard,
                line=line,
                replies=frozenset(replies),
                reply_names=frozenset(fn.api_name for fn in replies.values() if isinstance(fn.api_name, str)),
                admit=admit,
                trusted_proxy_hops=trusted_proxy_hops,
            ),
        )
    demo.launch(
        theme=THEME,
        css=CSS,
        head=page_head(embed_origins, max_message_chars, site.preview.image if site else ""),
        footer_links=[],
        max_file_size="1mb",
        state_session_capacity=SESSION_CAPACITY,
        app_kwargs={"middleware": [Middleware(Refusals), guard, *own, *(middleware or [])]},
        mcp_server=mcp,
        prevent_thread_lock=True,
        max_threads=threads,
        **launch_options,
    )
    if watch and demo.server:
        watch.start(demo.server)
    if block:
        demo.block_thread()
