"""``python app.py doctor``: checks every setting against the real services, one line per check.

Each line starts with ✓ (fine), ! (works, but worth a look) or ✗ (broken), and a problem line says how
to fix it. The command exits 1 when anything required is broken. No key or token is ever printed: the
lines name settings and hosts, never their secret values, and provider errors are reported by class
and status only.
"""

from __future__ import annotations

import socket
from dataclasses import dataclass
from datetime import datetime
from enum import Enum
from typing import Callable, Iterator, TextIO, TypeVar, cast
from urllib.parse import urlparse

import openai
from openai.types.chat import (
    ChatCompletionFunctionToolParam,
    ChatCompletionMessageFunctionToolCall,
    ChatCompletionMessageParam,
)

from replica.alerts.apprise_channel import AppriseChannel, parse_channels
from replica.chat.openai_model import with_tools_described
from replica.chat.reply_check.claims import ClaimPatterns
from replica.chat.tool_text import read_tool_text
from replica.contacts.mail import MailService
from replica.contacts.mailer import code_mail
from replica.knowledge.approved import ApprovedAnswers
from replica.knowledge.faq_files import Approved, approved_entries
from replica.knowledge.files import read_documents, render_knowledge
from replica.knowledge.identity import owner_name
from replica.knowledge.links import filled_in, owner_links, profile_lines
from replica.knowledge.meaning import load_meaning
from replica.knowledge.prompts import PromptError, read_lines, render_prompt
from replica.languages import KNOWN
from replica.logs import shown_url
from replica.owner_bot.owner import Owner
from replica.runtime.clock import REAL_CLOCK, Clock
from replica.runtime.model_client import model_client
from replica.settings import DEFAULT_OWNER_NAME, PLACEHOLDER_NOTE, Settings
from replica.storage.deliveries import TELEGRAM, ChannelSummary
from replica.storage.store import NoDatabase, Store, StoreError, check_writable
from replica.storage.volumes import KEEP_RECORDS, records_at_risk, sqlite_journal, volume_of
from replica.telegram.client import BLOCKED_HINT, TelegramClient, TelegramError

# The docs pages that hold the fixes doctor names more than once.
ALERT_DOCS = "docs/alerts.md#other-alert-channels"
REPLY_CHECK_DOCS = "docs/models.md#what-the-replica-never-says"
TIMEOUT_DOCS = "docs/models.md#find-out-doctor-and-eval"
APPROVED_DOCS = "docs/knowledge.md#without-a-model-your-approved-answers"

T = TypeVar("T")  # what a read of the database gives (_read_store)


class Status(Enum):
    """How a check came out; its value is the symbol its line starts with."""

    OK = "✓"  # fine
    WARN = "!"  # works, but worth a look
    FAIL = "✗"  # broken


@dataclass(frozen=True)
class Check:
    """One finding, and its ``fix``: what to do about a problem."""

    status: Status
    area: str
    text: str
    fix: str = ""

    def line(self) -> str:
        """The finding as the one line the owner reads."""
        fix = f" — fix: {self.fix}" if self.fix and self.status is not Status.OK else ""
        return f"{self.status.value} {self.area}: {self.text}{fix}"


def ok(area: str, text: str) -> Check:
    return Check(Status.OK, area, text)


def warn(area: str, text: str, fix: str = "") -> Check:
    return Check(Status.WARN, area, text, fix)


def fail(area: str, text: str, fix: str) -> Check:
    return Check(Status.FAIL, area, text, fix)


def run_doctor(
    settings: Settings, out: TextIO, ping: bool = False, voice: Callable[[Settings], Iterator[Check]] | None = None
) -> int:
    """Print every check to ``out`` as it completes; return 1 when a required one failed, else 0. ``voice``
    scores the model's replies once it is reachable (``eval``'s short version, from the command line)."""
    failed = False
    for checks in (
        check_model(settings, voice),
        check_telegram(settings, ping),
        check_alert_channels(settings, ping),
        check_contacts(settings, ping),
        check_storage(settings),
        check_knowledge(settings),
        check_page(settings),
    ):
        for check in checks:
            out.write(check.line() + "\n")
            out.flush()
            failed = failed or check.status is Status.FAIL
    return 1 if failed else 0


def check_model(settings: Settings, voice: Callable[[Settings], Iterator[Check]] | None = None) -> Iterator[Check]:
    """The key, the endpoint, and the configured model there (and with ``voice``, its replies)."""
    if not settings.model.model_configured:  # a supported way to run: nothing configured is broken
        yield warn(
            "model",
            "OPENAI_API_KEY is not set: the replica answers from your written answers only",
            "put your key in .env, or in the Space's secrets; or set OPENAI_BASE_URL to a local server (docs/models.md)",
        )
        return
    yield ok("model", PLACEHOLDER_NOTE if settings.model.placeholder_key else "OPENAI_API_KEY is set")
    wait = settings.model.doctor_timeout_seconds
    client = model_client(settings.model, timeout=wait, max_retries=0)  # the app's client, with doctor's patience
    reached = list(_check_endpoint(client, settings))
    yield from reached
    if any(check.status is Status.FAIL for check in reached):
        return
    yield check_tool_calling(client, settings.model.openai_model, wait)
    if voice:  # whatever the probe said: the replica serves a model that cannot call tools too
        yield from voice(settings)


def _check_endpoint(client: openai.OpenAI, settings: Settings, clock: Clock = REAL_CLOCK) -> Iterator[Check]:
    """Whether the endpoint answers, and offers the configured model (or answers to its name)."""
    endpoint = shown_url(settings.model.openai_base_url or "https://api.openai.com/v1")
    model = settings.model.openai_model
    started = clock.monotonic()
    try:
        try:
            offered = [m.id for m in client.models.list()]
        except (openai.NotFoundError, openai.PermissionDeniedError, openai.UnprocessableEntityError):
            offered = None  # a provider without a model list: one token tells as much
            client.chat.completions.create(model=model, messages=[{"role": "user", "content": "ping"}], max_tokens=1)
    except openai.AuthenticationError:
        refused = "the placeholder key" if settings.model.placeholder_key else "the key"
        yield fail("model", f"{endpoint} refused {refused} (401)", "check OPENAI_API_KEY (docs/models.md)")
        return
    except openai.NotFoundError:
        yield fail("model", f"{endpoint} has no model {model!r}", "set OPENAI_MODEL to a model the provider offers")
        return
    except openai.APITimeoutError:  # (an APIConnectionError too, but the server is there: it is slow)
        yield timed_out(f"{endpoint} gave", settings.model.doctor_timeout_seconds, Status.FAIL)
        return
    except openai.APIConnectionError as exc:
        yield fail(
            "model",
            f"{endpoint} cannot be reached ({type(exc).__name__})",
            "check OPENAI_BASE_URL and the network (docs/models.md)",
        )
        return
    except openai.APIStatusError as exc:
        yield fail(
            "model",
            f"{endpoint} answered HTTP {exc.status_code}",
            "check OPENAI_BASE_URL and OPENAI_MODEL (docs/models.md)",
        )
        return
    seconds = clock.monotonic() - started
    if offered is None:
        yield ok("model", f"{endpoint} answered a one-token completion with {model} ({seconds:.2f} s)")
    elif model in offered:
        yield ok("model", f"{endpoint} answers, and offers {model} ({seconds:.2f} s)")
    else:
        yield _answers_to(client, endpoint, model, offered, settings.model.doctor_timeout_seconds)


def _answers_to(client: openai.OpenAI, endpoint: str, model: str, offered: list[str], wait: float) -> Check:
    """A model the endpoint does not list: whether it answers to the name all the same."""
    some = ", ".join(sorted(offered)[:8]) or "none"
    try:  # llama.cpp's server lists its model by file path and answers to any name
        client.chat.completions.create(model=model, messages=[{"role": "user", "content": "ping"}], max_tokens=1)
    except openai.APITimeoutError:
        return timed_out(f"{endpoint} does not list {model!r}, and gave", wait, Status.FAIL)
    except openai.OpenAIError:
        return fail("model", f"{endpoint} does not offer {model!r}", f"set OPENAI_MODEL to one it offers: {some}")
    return warn(
        "model",
        f"{endpoint} does not list {model!r} but answers to it (it lists: {some})",
        "nothing, if that server serves one model whatever the name (llama.cpp does); else set OPENAI_MODEL",
    )


def timed_out(what: str, wait: float, status: Status) -> Check:
    """A request that got no answer within ``wait`` seconds, named as what it is: a slow server (or one still
    loading its model), never a setting or a skill the model lacks. ``what`` says whose answer ("the
    tool-calling probe got")."""
    return Check(
        status,
        "model",
        f"{what} no answer within {wait:g} s (APITimeoutError): the server is slow, or still loading the model",
        f"run doctor again once it has loaded, or let doctor wait longer with DOCTOR_TIMEOUT_SECONDS "
        f"(now {wait:g}; {TIMEOUT_DOCS})",
    )


PROBE_TOOL: ChatCompletionFunctionToolParam = {
    "type": "function",
    "function": {
        "name": "note_city",
        "description": "Note the city the user names.",
        "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
    },
}
PROBE_MESSAGES: list[ChatCompletionMessageParam] = [
    {
        "role": "system",
        "content": "You note cities with the note_city tool. Always call it when the user names a city.",
    },
    {"role": "user", "content": "Please note the city Lisbon."},
]
PROBE_TOKENS = 80
TOOL_ADVICE = (
    "use a model that calls tools, or turn on the server's tool calling "
    "(llama.cpp: --jinja; vLLM: --enable-auto-tool-choice with a --tool-call-parser; Ollama: a model tagged for tools); "
    "see docs/models.md#turning-native-tool-calls-on"
)


def check_tool_calling(client: openai.OpenAI, model: str, wait: float) -> Check:
    """One short request with a tool the model must call: natively (✓), as text Replica reads (!), or not
    (✗). A server that refuses tools is asked again as the app would: the tool described in the prompt.
    No answer within ``wait`` seconds (the client's timeout) says nothing of tool calling: it is named as a
    slow server (!), and the voice scripts that follow show what visitors get from it."""
    refused = False
    probe = "the tool-calling probe got"
    try:
        response = client.chat.completions.create(
            model=model, messages=PROBE_MESSAGES, tools=[PROBE_TOOL], tool_choice="auto", max_tokens=PROBE_TOKENS
        )
    except openai.APITimeoutError:
        return timed_out(probe, wait, Status.WARN)
    except openai.BadRequestError:
        refused = True
        try:
            # The probe's messages as they were, the tool described in the system one: chat messages still.
            described = cast("list[ChatCompletionMessageParam]", with_tools_described(PROBE_MESSAGES, [PROBE_TOOL]))
            response = client.chat.completions.create(model=model, messages=described, max_tokens=PROBE_TOKENS)
        except openai.APITimeoutError:
            return timed_out(f"the server refuses tools (HTTP 400); asked without them, {probe}", wait, Status.WARN)
        except openai.APIError as exc:
            return fail("model", f"refused a request with tools, and without them ({type(exc).__name__})", TOOL_ADVICE)
    except openai.APIStatusError as exc:
        return fail("model", f"refused a request with tools (HTTP {exc.status_code})", TOOL_ADVICE)
    except openai.APIError as exc:
        return fail("model", f"tool-calling probe failed ({type(exc).__name__})", TOOL_ADVICE)
    usage = response.usage
    tokens = f", {usage.total_tokens} tokens" if usage and usage.total_tokens else ""
    cost = f"(probe cost: {1 + refused} request(s){tokens}, max_tokens {PROBE_TOKENS})"
    message = response.choices[0].message if response.choices else None
    calls = (message.tool_calls or []) if message else []
    if any(isinstance(c, ChatCompletionMessageFunctionToolCall) and c.function.name == "note_city" for c in calls):
        return ok("model", f"{model} calls tools natively {cost}")
    read = read_tool_text(message.content or "" if message else "", ["note_city"], {"note_city": {"city"}})
    refusal = "the server refuses tools (HTTP 400), so they are described in the prompt; " * refused
    if read.calls:
        return warn(
            "model", f"{refusal}{model} calls tools as text ({read.form}); Replica parses it {cost}", TOOL_ADVICE
        )
    return fail("model", f"{refusal}{model} did not call a tool it was asked to call {cost}", TOOL_ADVICE)


def check_telegram(settings: Settings, ping: bool) -> Iterator[Check]:
    """The token, the webhook, the owner's chat, and what waits in the outbox."""
    if not settings.telegram.telegram_bot_token:
        where = "the ALERT_URLS channels only" if settings.alerts.alert_urls else "the log only"
        yield warn(
            "telegram",
            f"TELEGRAM_BOT_TOKEN is not set: alerts go to {where}, and you have no inbox to reply from",
            "python app.py telegram-setup (docs/telegram.md)",
        )
    else:
        yield from _check_bot(settings, settings.telegram.telegram_bot_token, ping)
    yield from _check_outbox(settings)


def _check_bot(settings: Settings, token: str, ping: bool) -> Iterator[Check]:
    host = urlparse(settings.telegram.telegram_api_base).netloc or settings.telegram.telegram_api_base
    client = TelegramClient(settings.telegram.telegram_api_base, token, settings.telegram.telegram_chat_id or "")
    client.timeout = (5.0, 15.0)
    try:
        me = client.get_me()
    except TelegramError as error:
        if error.is_network:
            yield fail("telegram", f"cannot reach {host} ({error.description})", BLOCKED_HINT)
        else:
            yield fail(
                "telegram",
                f"Telegram refused the token ({error.status})",
                "check TELEGRAM_BOT_TOKEN; @BotFather shows it again with /token",
            )
        return
    yield ok("telegram", f"token valid: the bot is @{me.get('username', '?')}")
    try:
        webhook = client.webhook_url()
    except TelegramError as error:
        yield warn("telegram", f"could not read the webhook setting ({error.description})")
    else:
        if settings.telegram.telegram_webhook_url:
            if webhook == settings.telegram.telegram_webhook_url:
                yield ok("telegram", "the webhook is set to TELEGRAM_WEBHOOK_URL")
            else:
                yield warn(
                    "telegram",
                    "the bot's webhook is not TELEGRAM_WEBHOOK_URL yet",
                    "start the app: it registers the webhook at start",
                )
        elif webhook:
            yield fail(
                "telegram",
                "a webhook is set, so this app's polling gets no updates",
                "python app.py telegram-setup --delete-webhook (docs/telegram.md)",
            )
        else:
            yield ok("telegram", "no webhook set: the app can poll for your replies")
    if not settings.telegram.telegram_chat_id:
        yield fail("telegram", "TELEGRAM_CHAT_ID is not set", "python app.py telegram-setup (docs/telegram.md)")
        return
    try:
        if ping:
            client.send_message("Replica doctor: test message. Alerts will arrive in this chat.", parse_mode=None)
        else:
            client.send_chat_action()
    except TelegramError as error:
        yield fail(
            "telegram",
            f"chat {settings.telegram.telegram_chat_id} cannot be written to ({error.description})",
            "send your bot a message, then run python app.py telegram-setup (docs/telegram.md)",
        )
        return
    what = "a test message was sent there" if ping else "the bot may write there"
    yield ok("telegram", f"chat {settings.telegram.telegram_chat_id} reachable: {what}")
    if not Owner(settings.telegram.telegram_chat_id, settings.telegram.telegram_owner_id).known:
        yield fail(
            "telegram",
            "the chat is a group and TELEGRAM_OWNER_ID is not set: no one there can use the bot's buttons or commands",
            "set TELEGRAM_OWNER_ID to your Telegram user id, or run python app.py telegram-setup (docs/security.md)",
        )


def _read_store(settings: Settings, read: Callable[[Store], T], nothing: T) -> T | None:
    """``read`` of the database as it is: ``nothing`` when there is none yet, or it holds no table yet;
    ``None`` when it cannot be read as things are (the storage check says why; an older schema migrates at
    the next start)."""
    try:
        store = _open_store(settings)
    except NoDatabase:
        return nothing
    except StoreError:
        return None
    try:
        if store.empty:
            return nothing
        return None if store.pending else read(store)
    finally:
        store.close()


def _waiting(settings: Settings) -> dict[str, ChannelSummary] | None:
    """What waits for each channel; ``None`` when that cannot be read as things are."""
    none_yet: dict[str, ChannelSummary] = {}
    return _read_store(settings, lambda store: store.deliveries.summary(), none_yet)


def _check_outbox(settings: Settings) -> Iterator[Check]:
    waiting = _waiting(settings)
    if waiting is None:
        return
    telegram = waiting.get(TELEGRAM, ChannelSummary())
    if telegram.pending:
        age = _age(telegram.oldest_pending)
        when = "reachable" if settings.telegram.telegram_configured else "configured"
        yield warn(
            "telegram",
            f"{telegram.pending} alert(s) pending in the outbox for Telegram, the oldest {age} old",
            f"they go out once Telegram is {when}; python app.py export alerts lists them",
        )
    else:
        yield ok("telegram", "no alerts waiting in the outbox")
    yield from _failures("telegram", "Telegram", telegram)


def _failures(section: str, label: str, summary: ChannelSummary) -> Iterator[Check]:
    if summary.failed:
        yield warn(
            section,
            f"{label} gave up on {summary.failed} alert(s); the last: {summary.last_failure}",
            "the leads and questions are kept: python app.py export alerts lists them, export leads shows each",
        )


DRY_CHECKED = {"json", "jsons", "form", "forms", "xml", "xmls", "ntfy", "ntfys", "gotify", "gotifys"}


def check_alert_channels(settings: Settings, ping: bool) -> Iterator[Check]:
    """Each ``ALERT_URLS`` channel: read by Apprise, its server reachable where that can be checked without
    sending (or, with ``--ping``, a test sent), and what waits for it. URLs are named by place, never shown."""
    channels, problems = parse_channels(settings.alerts.alert_urls)
    for problem in problems:
        yield fail("alerts", problem, f"write it as Apprise documents it for the service ({ALERT_DOCS})")
    for channel in channels:
        if ping:
            failure = channel.send_text("Replica doctor", "Replica doctor: test message. Alerts will arrive here.")
            yield (
                fail("alerts", f"{channel.label}: the test failed ({failure})", f"check the URL ({ALERT_DOCS})")
                if failure
                else ok("alerts", f"{channel.label}: a test message was sent")
            )
            continue
        host, port = getattr(channel.plugin, "host", None), getattr(channel.plugin, "port", None)
        if channel.url.split("://", 1)[0].lower() not in DRY_CHECKED or not host:
            yield ok("alerts", f"{channel.label}: read by Apprise (doctor --ping sends a test)")
            continue
        port = port or (443 if getattr(channel.plugin, "secure", False) else 80)
        try:
            socket.create_connection((host, port), timeout=5).close()
        except OSError as error:
            yield fail(
                "alerts",
                f"{channel.label}: its server cannot be reached ({type(error).__name__})",
                f"check the URL and the network ({ALERT_DOCS})",
            )
            continue
        yield ok("alerts", f"{channel.label}: read by Apprise, its server reachable")
    if channels:
        yield from _check_deliveries(settings, channels)


CONTACTS_DOCS = "docs/contacts.md"


def check_contacts(settings: Settings, ping: bool) -> Iterator[Check]:
    """Verified contacts, when ``VERIFY_EMAIL_URL`` is set: the URL read by Apprise (with ``--ping``, a test
    mailed to ``OWNER_EMAIL``), and the code mails waiting. The URL is never shown."""
    url = settings.contacts.verify_email_url
    if not url:
        return
    service = MailService(url)
    if service.problem:
        yield fail("contacts", service.problem, f"write it as Apprise documents the service ({CONTACTS_DOCS})")
        return
    mode = settings.contacts.lead_verification
    if ping and settings.owner.owner_email:
        problem = service.send(settings.owner.owner_email, *code_mail(owner_name(settings), "000000 (doctor's test)"))
        yield (
            fail("contacts", f"{service.label}: the test mail failed ({problem})", f"check the URL ({CONTACTS_DOCS})")
            if problem
            else ok("contacts", f"{service.label}: a test code mail was sent to OWNER_EMAIL (leads: {mode})")
        )
    elif ping:
        yield warn(
            "contacts", f"{service.label}: no test mail sent", "set OWNER_EMAIL to have doctor --ping mail you one"
        )
    else:
        yield ok(
            "contacts", f"{service.label}: read by Apprise; leads: {mode} (doctor --ping mails OWNER_EMAIL a test)"
        )
    waiting = _read_store(settings, lambda store: store.codes.waiting(), 0)
    if waiting:
        yield warn(
            "contacts",
            f"{waiting} code mail(s) waiting for {service.label}",
            "they go out once the service takes them; the leads are kept meanwhile",
        )


def _check_deliveries(settings: Settings, channels: list[AppriseChannel]) -> Iterator[Check]:
    waiting = _waiting(settings) or {}
    for channel in channels:
        summary = waiting.get(channel.key, ChannelSummary())
        if summary.pending:
            yield warn(
                "alerts",
                f"{summary.pending} alert(s) waiting for {channel.label}",
                "they go out once it takes them; python app.py export alerts lists them",
            )
        yield from _failures("alerts", channel.label, summary)


def _age(created_at: str | None, clock: Clock = REAL_CLOCK) -> str:
    if not created_at:
        return "?"
    seconds = (clock.utc_now() - datetime.fromisoformat(created_at)).total_seconds()
    for unit, size in (("d", 86400), ("h", 3600), ("min", 60)):
        if seconds >= size:
            return f"{seconds / size:.0f} {unit}"
    return f"{seconds:.0f} s"


def check_storage(settings: Settings) -> Iterator[Check]:
    """``DATA_DIR`` is writable, the database opens (and what the next start would migrate), and on
    Spaces the records survive a restart. Read-only: nothing is created, migrated or left behind."""
    try:
        check_writable(settings.storage.data_dir, create=False)
    except StoreError as error:
        yield fail("storage", str(error).split(";")[0], "set DATA_DIR to a folder the app may create and write")
        return
    made = "" if settings.storage.data_dir.exists() else " (the app makes it at its first start)"
    yield ok("storage", f"DATA_DIR {settings.storage.data_dir} is writable{made}")
    try:
        store = _open_store(settings)
    except NoDatabase:
        store = None
    except StoreError as error:
        fix = (
            "check DATABASE_URL: host, port, user, password (docs/postgres.md)"
            if settings.storage.database_url
            else "move that file aside"
        )
        yield fail("storage", str(error).split(";")[0], fix)
        return
    if store:
        if store.empty:
            yield ok("storage", "new database: the tables are made at first start")
        elif store.pending:
            names = ", ".join(f"{m.number} ({m.name})" for m in store.pending)
            yield warn(
                "storage",
                f"the database is {len(store.pending)} migration(s) behind: {names}",
                "nothing to do: the next start applies them",
            )
        store.close()
    if settings.storage.database_url:
        yield ok("storage", "records are kept in PostgreSQL (DATABASE_URL answers)")
        return
    at_risk = records_at_risk(settings.serving.space_id, settings.storage.database_url, settings.storage.data_dir)
    if at_risk:
        yield fail("storage", at_risk, KEEP_RECORDS)
        return
    volume = volume_of(settings.storage.data_dir)
    journal = sqlite_journal(settings.storage.data_dir, settings.storage.sqlite_journal)
    where = f"on the volume mounted at {volume}" if volume else "on this machine's disk"
    yield ok("storage", f"records are kept in SQLite {where} (journal: {journal})")


def _open_store(settings: Settings) -> Store:
    """The store, opened to look: nothing created or migrated (raises :class:`NoDatabase` when there is
    none yet)."""
    return Store(
        settings.storage.database_path,
        database_url=settings.storage.database_url,
        journal=settings.storage.sqlite_journal,
        read_only=True,
    )


def check_knowledge(settings: Settings) -> Iterator[Check]:
    """The knowledge files, how much of them goes to the model, and the prompt templates."""
    folder = settings.owner.knowledge_dir
    if not folder.is_dir():
        yield warn(
            "knowledge",
            f"KNOWLEDGE_DIR {folder} does not exist: the replica knows nothing",
            "add your files (docs/knowledge.md)",
        )
    else:
        documents, unreadable = read_documents(folder)
        for path, reason in unreadable:
            yield warn("knowledge", f"cannot read {path} ({reason[:120]})", "replace or remove that file")
        total = len(render_knowledge(documents))
        how = (
            "sent whole with every message"
            if total <= settings.owner.knowledge_budget_chars
            else f"larger than KNOWLEDGE_BUDGET_CHARS ({settings.owner.knowledge_budget_chars:,}): the most relevant "
            "parts are retrieved for each message"
        )
        if documents:
            yield ok("knowledge", f"{len(documents)} file(s) in {folder}, {total:,} characters, {how}")
        else:
            yield warn(
                "knowledge",
                f"no readable .md, .txt or .pdf files in {folder}",
                "add your CV, bio or FAQ (docs/knowledge.md)",
            )
        every = approved_entries(folder, tuple(KNOWN))  # read once, for the checks below
        entries = [entry for entry in every if entry.language in settings.owner.languages]
        learned = _learned_answers(settings)
        yield check_approved_answers(entries, learned)
        yield from check_languages(every, settings.owner.languages)
        yield from check_examples(entries, learned, settings.owner.languages)
        yield check_meaning(settings)
    try:
        for name in ("system.md", "page.md", "page_no_model.md", "greeting.md", "facts.md", "tool_results.md"):
            render_prompt(name, owner_name=settings.owner.owner_name, knowledge="(knowledge)", facts="-", results="-")
        render_prompt("privacy.md", owner_name=settings.owner.owner_name, retention_days="1")
        render_prompt("booking.md", booking_url="https://example.com")
    except (PromptError, OSError) as error:
        yield fail("prompts", str(error), "fix the template in prompts/ (docs/knowledge.md)")
        return
    yield ok("prompts", "the templates in prompts/ render")
    yield from check_replies(settings)


def check_meaning(settings: Settings) -> Check:
    """The meaning model: loaded (it finds what to ask "Did you mean…?" about in any language), or why not."""
    loaded = load_meaning(settings.owner.meaning_model)
    if loaded.meaning is not None:
        return ok(
            "knowledge",
            f"meaning model: {loaded.why}; without a model, close questions are asked about in any language",
        )
    if settings.owner.meaning_model == "off":
        return ok("knowledge", "meaning model off (MEANING_MODEL=off): close questions are found by the rules alone")
    return warn(
        "knowledge",
        f"no meaning model: {loaded.why}; close questions are found by the rules alone, in the message's own language",
        "pip install -r requirements-meaning.txt on an x86-64 CPU with AVX2, or ARM (docs/knowledge.md)",
    )


def check_replies(settings: Settings) -> Iterator[Check]:
    """Whether replies are checked before visitors read them, and whether the claim patterns load."""
    if not settings.reply.check_replies:
        yield warn(
            "replies",
            "CHECK_REPLIES is off: replies reach visitors unchecked (a model may invent a phone number, or say it saved an address it never got)",
            f"set CHECK_REPLIES=true ({REPLY_CHECK_DOCS})",
        )
        return
    try:
        ClaimPatterns.load()
    except (ValueError, OSError) as error:
        yield fail("replies", str(error), f"fix prompts/claims.md ({REPLY_CHECK_DOCS})")
        return
    yield ok("replies", "each reply is checked before a visitor reads it (CHECK_REPLIES; prompts/claims.md)")


def _learned_answers(settings: Settings) -> list:
    """The active answers learned from Telegram; none when there is no database yet, or it cannot be read."""
    if not (settings.storage.database_url or settings.storage.database_path.exists()):
        return []
    try:
        store = _open_store(settings)
        try:
            return [] if store.pending else store.answers.all(active_only=True)
        finally:
            store.close()
    except StoreError:
        return []  # the storage check names the problem


def check_approved_answers(entries: list[Approved], learned: list) -> Check:
    """How many answers the replica may quote without a model: FAQ entries, marked sections (both in
    ``entries``) and answers ``learned`` from Telegram."""
    faq = sum(entry.source == "faq" for entry in entries)
    marked = len(entries) - faq
    in_sections = f"{marked} in marked sections, " if marked else ""
    counts = f"{faq} in FAQ files, {in_sections}{len(learned)} learned from Telegram"
    if not entries and not learned:
        return warn(
            "knowledge",
            "no approved answers to give without a model (0 in FAQ files, 0 learned from Telegram)",
            f"add a faq.md to KNOWLEDGE_DIR: a question line, then its answer ({APPROVED_DOCS})",
        )
    return ok("knowledge", f"{len(entries) + len(learned)} approved answer(s) to give without a model ({counts})")


def check_languages(entries: list[Approved], languages: tuple[str, ...]) -> Iterator[Check]:
    """Whether every approved answer is in a language of ``LANGUAGES`` (one in another is never quoted)."""
    left = sorted({entry.language for entry in entries} - set(languages))
    for code in left:
        count = sum(entry.language == code for entry in entries)
        yield warn(
            "knowledge",
            f"{count} approved answer(s) are in {code}, which LANGUAGES ({','.join(languages)}) leaves out: "
            "they are never quoted without a model",
            f"set LANGUAGES={','.join((*languages, *left))} ({APPROVED_DOCS})",
        )


def check_examples(entries: list[Approved], learned: list, languages: tuple[str, ...] = ("en",)) -> Iterator[Check]:
    """Whether each example question on the page has an approved answer among ``entries`` and the
    ``learned`` ones (without a model, a chip a visitor taps would otherwise get "I don't have one for
    that")."""
    answers = ApprovedAnswers(entries, lambda: learned, languages)
    examples = read_lines("examples.txt")[:4]
    unmet = [example for example in examples if answers.match(example) is None]
    for example in unmet:
        yield warn(
            "knowledge",
            f"without a model, the example question {example!r} has no approved answer",
            "add it to a faq.md in KNOWLEDGE_DIR with its answer, mark a profile section approved for it "
            f"({APPROVED_DOCS}), or change prompts/examples.txt",
        )
    if examples and not unmet:
        yield ok("knowledge", f"each of the page's {len(examples)} example questions has an approved answer")


def check_page(settings: Settings) -> Iterator[Check]:
    """The name on the page, and the links row (a profile line that is not an address is named)."""
    if settings.owner.owner_name == DEFAULT_OWNER_NAME:
        yield warn("page", f"OWNER_NAME is not set: the page calls you {owner_name(settings)!r}", "set OWNER_NAME")
    else:
        yield ok("page", f"OWNER_NAME is {settings.owner.owner_name!r}")
    lines = profile_lines(settings.owner.knowledge_dir)
    for line in lines:
        if line.problem:
            yield warn(
                "page",
                f"{line.place}: {line.problem}; left out of the links row",
                "write it as https://… (docs/page.md)",
            )
    links = [kind for kind, _ in owner_links(filled_in(settings, lines))]
    if links:
        yield ok(
            "page", f"links row: {', '.join(links)}" + (" (booking offered after a lead)" if "booking" in links else "")
        )
