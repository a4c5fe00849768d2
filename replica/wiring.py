"""The assembly of the app: every part built from the settings and handed its collaborators.

Nothing here decides behaviour; it only says which part talks to which. ``app.py`` (the entry point
Spaces runs) and the tests build the app through :func:`create_app`.
"""

from __future__ import annotations

import logging
import secrets
from dataclasses import dataclass, field, replace
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Callable
from urllib.parse import urlparse

from replica.alerts import Notifier
from replica.alerts.apprise_channel import parse_channels
from replica.alerts.channel import Channel
from replica.alerts.pictures import Pictures
from replica.alerts.sender import AlertSender, LogNotifier, Notifiers
from replica.alerts.telegram_channel import TelegramChannel
from replica.chat.admission import Admission, Blank, ContactCode, OverTheLimits, TakenOver, TooLong
from replica.chat.answer import Answer
from replica.chat.lanes import Lanes
from replica.chat.limits import UsageLimits
from replica.chat.loop import TurnLoop
from replica.chat.model import ChatModel
from replica.chat.reply import Replica, Visitor
from replica.chat.reply_check.checker import ReplyChecker
from replica.chat.run import Run
from replica.chat.server_memory import ServerMemory
from replica.chat.steps import BookingOffer, CheckReply, CodeOffer, LeadNet, SaveFailedNote, Steps
from replica.chat.turns import CleanModel
from replica.chat.without_model import WithoutModel
from replica.contacts import CodeMailer, MailService, Verifier
from replica.contacts.codes import CodeKey
from replica.contacts.verifier import announce_confirmed, announce_unconfirmed
from replica.inbox import Inbox
from replica.inbox.recorder import address_salt
from replica.knowledge.approved import ApprovedAnswers
from replica.knowledge.faq_files import approved_entries
from replica.knowledge.identity import owner_avatar, owner_name
from replica.knowledge.index import KnowledgeIndex
from replica.knowledge.links import owner_links, with_owner_links
from replica.knowledge.meaning import Meanings, OnFirstUse
from replica.knowledge.persona import SystemPrompt
from replica.knowledge.prompts import read_lines, render_prompt
from replica.owner_bot.bot import OwnerBot
from replica.owner_bot.housekeeping import Housekeeper
from replica.owner_bot.webhook import webhook_secret
from replica.runtime.clock import REAL_CLOCK, Clock
from replica.runtime.timings import Timings
from replica.settings import (
    OPENAI_API,
    PLACEHOLDER_NOTE,
    WEEKDAYS,
    LimitSettings,
    ModelSettings,
    ServingSettings,
    Settings,
    TelegramSettings,
)
from replica.stats.picture import load_in_background
from replica.stats.report import Report
from replica.stats.sources import SourceList
from replica.storage.code_mails import CodeCaps
from replica.storage.records import AlertKind
from replica.storage.store import Store
from replica.storage.volumes import KEEP_RECORDS, records_at_risk
from replica.telegram.client import TelegramClient
from replica.text import plain_line
from replica.tools import ToolRegistry, default_registry
from replica.web.line import LINE_BOUND, Line

if TYPE_CHECKING:  # Gradio takes seconds to import: the owner's commands (export, doctor, …) do without it
    import gradio as gr

    from replica.chat.openai_model import OpenAIChatModel
    from replica.web.page import PageText
    from replica.web.site import SiteFiles

log = logging.getLogger(__name__)


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
    closed_events: frozenset[int] = frozenset()  # registered with Gradio, run for no one (ZeroGPU's placeholder)
    closed_names: frozenset[str] = frozenset()
    site: SiteFiles | None = None  # served beside the page: the face, the widget, the privacy page, the preview
    mailer: CodeMailer | None = None  # verified contacts: the code mails
    line: Line | None = None  # the line for a reply, bounded at its door
    admit: Callable[[str, str], str | None] | None = None  # the hourly limits, asked at the line's door
    clock: Clock = REAL_CLOCK  # the one clock every part was built with

    def serve(self, block: bool = True, **launch_options) -> None:
        """Serve the page (behind the HTTP guard, with the webhook and MCP if configured); with ``block``,
        until interrupted."""
        from replica.web.connections import ConnectionWatch
        from replica.web.page import THREADS_BESIDE, reply_workers, serve

        serve(
            self.demo,
            middleware=self.middleware,
            mcp=self.settings.serving.mcp_enabled,
            block=block,
            trusted_proxy_hops=self.settings.limits.trusted_proxy_hops,
            max_message_chars=self.settings.reply.max_message_chars,
            closed_events=self.closed_events,
            closed_names=self.closed_names,
            embed_origins=embed_origins(self.settings),
            site=self.site,
            watch=ConnectionWatch(
                self.settings.limits.client_deadline_seconds,
                None if self.settings.limits.trusted_proxy_hops else self.settings.limits.connections_per_address,
                clock=self.clock,
            ),
            threads=THREADS_BESIDE
            + reply_workers(self.settings.serving.queue_concurrency, self.settings.serving.queue_max_size),
            line=self.line,
            admit=self.admit,
            **launch_options,
        )

    def close(self) -> None:
        """Stop serving, stop the background threads (pending alerts stay stored), close the database."""
        try:
            self.demo.close()
        except RuntimeError:  # Gradio sets an asyncio.Event from this thread; a heartbeat waiting on it may race
            log.debug("Gradio's close raced a heartbeat; closing its server directly")
            if self.demo.server:
                self.demo.server.close()
        self.housekeeper.close()
        if self.mailer:
            self.mailer.close()
        if self.owner_bot:
            self.owner_bot.close()
        close = getattr(self.notifier, "close", None)  # the senders; the log notifier has nothing to stop
        if close:
            close()
        self.store.close()


def make_line(settings: Settings, clock: Clock = REAL_CLOCK) -> Line:
    """The line for a reply, bounded at its door (:mod:`replica.web.line`): a message of a session at a
    time, ``ADDRESS_MESSAGES_AT_ONCE`` of a client address, and a ticket never listened for forgotten once
    any reply would have ended (the wait for a lane and the deadline, twice over)."""
    hold = 2 * (settings.serving.queue_wait_seconds + settings.reply.reply_deadline_seconds) + 30
    return Line(
        settings.limits.address_messages_at_once, LINE_BOUND, hold, settings.limits.connections_per_address, clock=clock
    )


def at_the_door(replica: Replica, session_for: Callable[[str], str]) -> Callable[[str, str], str | None]:
    """What the line's door asks as a reply joins: the replica's hourly limits, counted for the conversation
    the page of that session shows (a join that names no session is counted by its address alone)."""

    def admit(session: str, address: str) -> str | None:
        return replica.admission.at_the_door(session_for(session) if session else secrets.token_hex(8), address)

    return admit


def embed_origins(settings: Settings) -> tuple[str, ...]:
    """The sites that may frame the page: ``EMBED_ORIGINS``, and on a Space, the Space's own page on
    huggingface.co, which shows the app in a frame (only when some are named: else any may frame it)."""
    if not settings.serving.embed_origins:
        return ()
    return (*settings.serving.embed_origins, *(("https://huggingface.co",) if settings.serving.on_spaces else ()))


def open_store(settings: Settings, clock: Clock = REAL_CLOCK) -> Store:
    """The database in ``DATA_DIR``, with the per-visitor alert caps applied, queueing each alert for
    Telegram and for every channel of ``ALERT_URLS``, its records stamped on ``clock``."""
    caps = {
        AlertKind.LEAD: settings.storage.lead_alerts_per_visitor,
        AlertKind.QUESTION: settings.storage.question_alerts_per_visitor,
    }
    keys = tuple(channel.key for channel in parse_channels(settings.alerts.alert_urls)[0])
    return Store(
        settings.storage.database_path,
        alert_caps=caps,
        database_url=settings.storage.database_url,
        alert_channels=keys,
        journal=settings.storage.sqlite_journal,
        code_caps=CodeCaps(mails_per_day=settings.contacts.code_mails_per_day),
        clock=clock,
    )


def make_notifier(settings: Settings, store: Store, timings: Timings, clock: Clock = REAL_CLOCK) -> Notifier:
    """The senders (started), one per channel: Telegram when it is configured, and each channel of
    ``ALERT_URLS``; with none, alerts go to the log (and stay stored, pending for Telegram)."""
    channels: list[Channel]
    parsed, problems = parse_channels(settings.alerts.alert_urls)
    pictures = digest_pictures(settings, store)
    channels = [replace(channel, pictures=pictures) for channel in parsed]
    for problem in problems:
        log.error(
            "%s: it gets no alerts; python app.py doctor checks it (docs/alerts.md#other-alert-channels)", problem
        )
    telegram = telegram_client(settings.telegram)
    if telegram is not None:
        channels.insert(0, TelegramChannel(telegram, pictures))
    elif channels:
        log.warning(
            "Telegram is not configured: alerts go to %s (docs/telegram.md)", ", ".join(c.label for c in channels)
        )
    else:
        log.warning("Telegram is not configured: alerts will be written to the log only (docs/telegram.md)")
        return LogNotifier()
    senders: list[Notifier] = [
        AlertSender(
            store,
            channel,
            settings.alerts.alert_fold_after,
            min_interval=timings.alert_min_interval,
            base_delay=timings.alert_retry_base,
            unreachable_warning_after=timings.unreachable_warning,
            max_attempts=settings.alerts.alert_max_attempts,
            give_up_after=settings.alerts.alert_give_up_hours * 3600.0,
            clock=clock,
        ).start()
        for channel in channels
    ]
    return senders[0] if len(senders) == 1 else Notifiers(senders)


def telegram_client(telegram: TelegramSettings) -> TelegramClient | None:
    """A client for the owner's chat, or ``None`` when Telegram is not configured (no bot token, or no
    chat). One per thread: a requests.Session is not meant to be shared."""
    token, chat = telegram.telegram_bot_token, telegram.telegram_chat_id
    return TelegramClient(telegram.telegram_api_base, token, chat) if token and chat else None


def make_owner_bot(
    settings: Settings,
    store: Store,
    inbox: Inbox,
    timings: Timings,
    mailer: CodeMailer | None = None,
    clock: Clock = REAL_CLOCK,
) -> tuple[OwnerBot | None, list]:
    """With Telegram configured, the owner's bot (started); and, in webhook mode, the middleware that
    receives Telegram's pushes on the page's own server. Its "Answer with your FAQ" button finds the
    approved answer close to a question in the owner's files."""
    client = telegram_client(settings.telegram)
    if client is None:
        return None, []
    bot = OwnerBot(
        store,
        inbox,
        client,
        poll_seconds=timings.telegram_poll_seconds,
        base_delay=timings.telegram_retry_base,
        retention_days=settings.storage.conversation_retention_days,
        owner_id=settings.telegram.telegram_owner_id,
        close=ApprovedAnswers(
            approved_entries(settings.owner.knowledge_dir, settings.owner.languages),
            lambda: [],
            settings.owner.languages,
        ).close,
        mail_answers=mailer.notify if mailer else None,
        owner_name=settings.owner.owner_name,
        report=stats_report(settings),
        clock=clock,
    )
    if not settings.telegram.telegram_webhook_url:
        return bot.start(), []
    secret = webhook_secret(store, settings.telegram.telegram_webhook_secret)
    receiver = bot.receiver(urlparse(settings.telegram.telegram_webhook_url).path, secret)
    return bot.start(webhook=(settings.telegram.telegram_webhook_url, secret)), [receiver]


def stats_report(settings: Settings) -> Report:
    """How the owner's pictures are made: their name, their colour, the day's model-call budget, and the
    names of where visitors came from."""
    return Report(
        settings.owner.owner_name,
        settings.storage.stats_colour,
        settings.limits.daily_model_calls,
        open_sources(settings),
    )


def open_sources(settings: Settings) -> SourceList:
    """The sources and sites page opens are named by: the well-known ones, the owner's ``UTM_SOURCES``,
    and their own sites (their website and booking page, and the sites that embed the page)."""
    links = [address for kind, address in owner_links(settings) if address.startswith(("http://", "https://"))]
    hosts = [urlparse(address).hostname or "" for address in (*links, *settings.serving.embed_origins)]
    return SourceList(settings.storage.utm_sources, hosts)


def digest_pictures(settings: Settings, store: Store) -> Pictures:
    """What draws a digest's picture for the channels: the days it names, from ``store``."""
    report = stats_report(settings)
    return lambda days: report.draw(store, date.fromisoformat(days[0]), days[1])


def make_limits(
    limits: LimitSettings, store: Store, inbox: Inbox, shared: bool, clock: Clock = REAL_CLOCK
) -> UsageLimits:
    """Usage limits: in memory; with ``DATABASE_URL``, the address and daily ones shared by every instance
    (addresses stored only as the recorder's salted hashes)."""
    counts = (limits.visitor_messages_per_hour, limits.address_messages_per_hour, limits.daily_model_calls)
    if not shared:
        return UsageLimits.build(*counts, clock=clock)
    return UsageLimits.shared(store, *counts, address_key=inbox.recorder.address_hash, clock=clock)


def make_model(model: ModelSettings, timings: Timings, clock: Clock = REAL_CLOCK) -> OpenAIChatModel | None:
    """The chat model, or ``None`` when neither an API key nor ``OPENAI_BASE_URL`` is set (the replica then
    says so); with the base URL alone, it is called with a placeholder key."""
    if not model.model_configured:
        log.warning(
            "OPENAI_API_KEY is not set: the replica answers from your written answers only (FAQ files and answers "
            "taught from Telegram); put your key in .env, or set OPENAI_BASE_URL to a local server (docs/models.md)"
        )
        return None
    # Imported here: the openai package is half a second of every start, and a replica without a model
    # never calls it.
    from replica.chat.openai_model import OpenAIChatModel
    from replica.runtime.model_client import model_client

    if model.placeholder_key:
        log.info(PLACEHOLDER_NOTE)
    client = model_client(model, timings.model_timeout, timings.model_max_retries)
    return OpenAIChatModel(client, model.openai_model, clock)


def page_text(settings: Settings) -> PageText:
    """The page's words, from the templates in ``prompts/``, the owner's face and links, and the privacy line."""
    from replica.web.page import PageText
    from replica.web.privacy import privacy_line

    owner = settings.owner.owner_name
    return PageText(
        title=f"{owner} — AI replica",
        description=render_prompt(
            "page.md" if settings.model.model_configured else "page_no_model.md", owner_name=owner
        ).strip(),
        greeting=render_prompt("greeting.md", owner_name=owner).strip(),
        examples=read_lines("examples.txt")[:4],
        avatar=owner_avatar(settings, owner),
        owner_name=owner,
        links=tuple(owner_links(settings)),
        privacy=privacy_line(settings.storage.conversation_retention_days),
    )


def site_files(settings: Settings, page: PageText, store: Store | None = None, clock: Clock = REAL_CLOCK) -> SiteFiles:
    """What the app serves beside the page: the owner's face, the widget script, the privacy page, and
    the link preview put on the page; with ``store``, each open of the page is counted in it."""
    from replica.web.face import owner_face
    from replica.web.opens import OpenCounter
    from replica.web.preview import Preview
    from replica.web.privacy import privacy_html
    from replica.web.site import SiteFiles, widget_script

    face = owner_face(page.avatar or "", page.owner_name)
    image = face.path if face else (page.avatar or "")
    counter = (
        OpenCounter(store, settings.limits.trusted_proxy_hops, clock=clock, sources=open_sources(settings))
        if store
        else None
    )
    privacy = render_prompt(
        "privacy.md", owner_name=page.owner_name, retention_days=str(settings.storage.conversation_retention_days)
    )
    return SiteFiles(
        face=face,
        widget_js=widget_script(page.owner_name, image),
        privacy_html=privacy_html(privacy, f"Privacy · {page.title}"),
        preview=Preview(page.title, plain_line(page.description), image),
        public_url=settings.serving.public_url,
        trusted_proxy_hops=settings.limits.trusted_proxy_hops,
        count_open=counter.count if counter else None,
    )


def without_model(
    owner: str,
    knowledge_dir: Path,
    languages: tuple[str, ...],
    store: Store,
    registry: ToolRegistry,
    meaning: Meanings | None = None,
) -> WithoutModel:
    """Replies without a model, from the FAQ files in ``knowledge_dir`` (those in ``languages``) and the
    answers learned in ``store``; ``meaning``, the optional meaning model, for asking "Did you mean…?"."""
    learned = lambda: store.answers.all(active_only=True)  # noqa: E731
    answers = ApprovedAnswers(approved_entries(knowledge_dir, languages), learned, languages, meaning, store.phrasings)
    greeting = render_prompt("greeting.md", owner_name=owner).strip()
    return WithoutModel(answers, registry, owner, greeting)


def build_replica(
    settings: Settings,
    *,
    model: ChatModel | None,
    system_prompt: Callable[[str], str],
    store: Store,
    notifier: Notifier,
    inbox: Inbox,
    limits: UsageLimits | None = None,
    knowledge: str = "",
    watch: Callable[[Visitor, Run], None] | None = None,
    verifier: Verifier | None = None,
    meaning: Meanings | None = None,
    clock: Clock = REAL_CLOCK,
) -> Replica:
    """The one way a :class:`Replica` is made (the app, ``eval`` and the tests): the default tools, the
    replies without a model from ``settings``' owner and knowledge, the steps after each answer, and the
    usage ``limits``. ``knowledge``: the owner's files whole, which
    replies are checked against; ``verifier``: verified contacts, when a mail service is set; ``meaning``:
    the meaning model, when it is loaded."""
    registry = default_registry(settings.reply.extra_tools)
    reply = settings.reply
    limits = limits or UsageLimits.build(10**9, 10**9, 10**9)  # none given: unbounded (eval, the tests)
    loop = None
    if model is not None:
        names = (
            (settings.owner.owner_name, settings.owner.owner_name.split()[0])
            if settings.owner.owner_name.strip()
            else ()
        )
        memory = ServerMemory(store.state, settings.model.openai_base_url or OPENAI_API, settings.model.openai_model)
        clean = CleanModel(model, names, memory)
        loop = TurnLoop(clean, registry, limits, reply.max_turns, reply.max_reply_tokens)
    owner = settings.owner
    offline = without_model(owner.owner_name, owner.knowledge_dir, owner.languages, store, registry, meaning)
    answer = Answer(
        loop=loop,
        system_prompt=system_prompt,
        facts=inbox.recorder.facts,
        checker=ReplyChecker(knowledge, settings.owner.owner_name),
        without_model=offline,
        settings=reply,
        lanes=model_lanes(settings.serving, clock),
        clock=clock,
    )
    steps = Steps(
        [
            LeadNet(registry, offline.said),
            CheckReply(store, registry, offline),
            SaveFailedNote(offline.said),
            CodeOffer(verifier),
            BookingOffer(settings.owner.owner_booking),
        ]
    )
    admission = Admission(
        [
            OverTheLimits(limits, store, inbox, clock),
            Blank(),
            TooLong(reply.max_message_chars),
            ContactCode(verifier),
            TakenOver(inbox),
        ]
    )
    return Replica(
        answer=answer,
        steps=steps,
        admission=admission,
        store=store,
        notifier=notifier,
        inbox=inbox,
        limits=limits,
        settings=reply,
        watch=watch,
        close_faq=lambda question: close.question if (close := offline.answers.close(question)) else "",
        verifier=verifier,
        clock=clock,
    )


def model_lanes(serving: ServingSettings, clock: Clock = REAL_CLOCK) -> Lanes:
    """The model lanes every reply waits for: how many at once, how many may wait, and for how long."""
    return Lanes(serving.queue_concurrency, serving.queue_max_size, serving.queue_wait_seconds, clock)


def returning_pages(inbox: Inbox):
    """What lets a returning visitor's browser open their conversation again on the page."""
    from replica.web.returning import ReturningPages

    page = inbox.page
    return ReturningPages(page.keep_in_browser, page.come_back, page.browser_secret)


def create_app(
    settings: Settings,
    timings: Timings = Timings(),
    gpu_placeholder: Callable[[], None] | None = None,
    clock: Clock = REAL_CLOCK,
) -> App:
    """Assemble knowledge, prompt, model client, tools, store, notifier and page from ``settings``, on ``clock``.

    ``gpu_placeholder``, the function ``app.py`` decorated with ``@spaces.GPU`` where the ``spaces``
    package is installed, is registered with the page for ZeroGPU's start-up check, and run for no one.
    """
    from replica.web.page import build_demo

    load_in_background()  # matplotlib, before the first visitor's message (Gradio asks for it at every event)
    store = open_store(settings, clock)
    at_risk = records_at_risk(settings.serving.space_id, settings.storage.database_url, settings.storage.data_dir)
    if at_risk:
        log.warning("Storage: %s; to keep them, %s", at_risk, KEEP_RECORDS)
    settings = as_served(settings)  # the page always names a person
    notifier = make_notifier(settings, store, timings, clock)
    salt = address_salt(store, settings.storage.data_dir)
    inbox = Inbox.build(store, salt, settings.owner.owner_name, notifier, clock=clock)
    verifier, mailer = make_contacts(settings, store, salt, notifier, clock)
    replica = assemble_replica(
        settings,
        model=make_model(settings.model, timings, clock),
        store=store,
        notifier=notifier,
        inbox=inbox,
        index_folder=settings.storage.data_dir / "knowledge-index",
        limits=make_limits(settings.limits, store, inbox, bool(settings.storage.database_url), clock),
        verifier=verifier,
        clock=clock,
    )
    housekeeper = make_housekeeper(settings, store, inbox, notifier, clock)
    owner_bot, middleware = make_owner_bot(settings, store, inbox, timings, mailer, clock)
    mcp_tool, mcp_middleware = make_mcp_tool(settings, replica, store) if settings.serving.mcp_enabled else (None, [])
    page = page_text(settings)
    returning, line = returning_pages(inbox), make_line(settings, clock)
    demo = build_demo(
        replica.stream_reply,
        page,
        settings.serving.queue_concurrency,
        settings.serving.queue_max_size,
        history=inbox.page.page_messages,
        owner_words=inbox.page.for_page,
        trusted_proxy_hops=settings.limits.trusted_proxy_hops,
        max_message_chars=settings.reply.max_message_chars,
        mcp_tool=mcp_tool,
        returning=returning,
        line=line,
        clock=clock,
    )
    closed_events: frozenset[int] = frozenset()  # the events and names no request may run (ZeroGPU's placeholder)
    closed_names: frozenset[str] = frozenset()
    if gpu_placeholder is not None:
        from replica.web.zerogpu import PLACEHOLDER_NAME, bind_placeholder

        closed_events, closed_names = (
            frozenset({bind_placeholder(demo, gpu_placeholder)}),
            frozenset({PLACEHOLDER_NAME}),
        )
    return App(
        settings,
        demo,
        replica,
        store,
        notifier,
        inbox,
        housekeeper,
        owner_bot,
        [*middleware, *mcp_middleware],
        closed_events=closed_events,
        closed_names=closed_names,
        site=site_files(settings, page, store, clock),
        mailer=mailer,
        line=line,
        admit=at_the_door(replica, returning.session_for),
        clock=clock,
    )


def make_housekeeper(
    settings: Settings, store: Store, inbox: Inbox, notifier: Notifier, clock: Clock = REAL_CLOCK
) -> Housekeeper:
    """The work on a clock (retention, resumes, the digest and its weekly picture), started."""
    return Housekeeper(
        store,
        inbox.recorder,
        inbox.handoff,
        notifier,
        settings.storage.conversation_retention_days,
        settings.storage.digest_hour_utc,
        settings.limits.daily_model_calls,
        digest_weekday=WEEKDAYS.index(settings.storage.digest_weekday),
        clock=clock,
    ).start()


def make_contacts(
    settings: Settings, store: Store, salt: str, notifier: Notifier, clock: Clock = REAL_CLOCK
) -> tuple[Verifier | None, CodeMailer | None]:
    """Verified contacts, when ``LEAD_VERIFICATION`` is on: the verifier the replica asks, and the mailer
    that sends the codes (started)."""
    contacts = settings.contacts
    if contacts.lead_verification == "off" or not contacts.verify_email_url:
        return None, None
    service = MailService(contacts.verify_email_url)
    if service.problem:
        log.warning("Verified contacts are off: %s (docs/contacts.md)", service.problem)
        return None, None
    key = CodeKey(salt)
    unconfirmed = announce_unconfirmed(store, notifier)  # a held lead whose code cannot come is passed on
    mailer = CodeMailer(
        store.codes, service, key, settings.owner.owner_name, store.answer_mails, given_up=unconfirmed, clock=clock
    )
    mailer.start()
    log.info("Verified contacts: %s; codes are mailed through %s", contacts.lead_verification, service.label)
    confirmed = announce_confirmed(store, notifier)
    verifier = Verifier(
        store.codes, key, contacts.lead_verification, mailer.notify, confirmed, unconfirmed=unconfirmed, clock=clock
    )
    return verifier, mailer


def as_served(settings: Settings) -> Settings:
    """``settings`` as the page serves them: the owner always named, the profile's links filled in."""
    return with_owner_links(settings.updated(owner_name=owner_name(settings)))


def assemble_replica(
    settings: Settings,
    *,
    model: ChatModel | None,
    store: Store,
    notifier: Notifier,
    inbox: Inbox,
    index_folder: Path,
    limits: UsageLimits | None = None,
    watch: Callable[[Visitor, Run], None] | None = None,
    verifier: Verifier | None = None,
    meaning: Meanings | None = None,
    clock: Clock = REAL_CLOCK,
) -> Replica:
    """The replica as visitors meet it, from ``settings`` (as :func:`as_served` gives them): the owner's
    knowledge indexed in ``index_folder``, the persona with the booking paragraph, the same checks. The
    page, ``eval``, ``doctor``, MCP and the tests' fixtures all build it here, so what is scored is what
    is served. The meaning model (``MEANING_MODEL``) is loaded when a message first needs it, unless
    given, its vectors cached beside the index."""
    index = KnowledgeIndex.load(settings.owner.knowledge_dir, index_folder)
    meaning = meaning or OnFirstUse(settings.owner.meaning_model, index_folder / "meaning")
    system_prompt = SystemPrompt(
        settings.owner.owner_name,
        index,
        store,
        settings.owner.knowledge_budget_chars,
        booking_url=settings.owner.owner_booking,
    )
    system_prompt("")  # a template mistake stops the start, not a visitor's message
    return build_replica(
        settings,
        model=model,
        system_prompt=system_prompt,
        store=store,
        notifier=notifier,
        inbox=inbox,
        limits=limits,
        knowledge=index.whole_text,
        watch=watch,
        verifier=verifier,
        meaning=meaning,
        clock=clock,
    )


def evaluation_replica(
    settings: Settings, folder: Path, notifier: Notifier, watch: Callable[[Visitor, Run], None] | None = None
) -> tuple[Replica, Store, str]:
    """The replica as :func:`create_app` serves it (:func:`assemble_replica`), on a new SQLite database in
    ``folder`` and with ``notifier`` instead of Telegram, ``watch`` seeing each message's run: for ``eval``
    and ``doctor``. Returns it with its store and the owner's name."""
    store = Store(folder / "replica.sqlite3")
    settings = as_served(settings)
    inbox = Inbox.build(store, secrets.token_hex(16), settings.owner.owner_name, notifier)
    replica = assemble_replica(
        settings,
        model=make_model(settings.model, Timings()),
        store=store,
        notifier=notifier,
        inbox=inbox,
        index_folder=folder / "knowledge-index",
        watch=watch,
    )
    return replica, store, settings.owner.owner_name


def make_mcp_tool(settings: Settings, replica: Replica, store: Store) -> tuple[Callable[..., str], list]:
    """The one MCP tool, ``ask_<owner>``: each caller a visitor, by its conversation and its real address;
    with the middleware that refuses an over-long question before Gradio's loopback call."""
    from replica.web.mcp import KEY_NAME, ConversationIds, make_ask, question_limit

    ids = ConversationIds(store.state.shared(KEY_NAME, secrets.token_hex(32)))
    ask = make_ask(replica.reply, settings.owner.owner_name, settings.limits.trusted_proxy_hops, ids)
    return ask, [question_limit(ask.__name__, settings.reply.max_message_chars)]
