"""All configuration, read once into one typed object.

Precedence: the process environment first, then a ``.env`` file (python-dotenv), then defaults.
A value in ``.env`` never overrides the environment.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Mapping

from dotenv import dotenv_values

log = logging.getLogger(__name__)

DEFAULT_MODEL = "gpt-4o-mini"
DEFAULT_TELEGRAM_API_BASE = "https://api.telegram.org"
DEFAULT_OWNER_NAME = "the owner"


class ConfigError(ValueError):
    """A configuration value is present but unusable; the message names the variable."""


@dataclass(frozen=True)
class Settings:
    """Everything the app reads from its environment. Secrets are kept out of ``repr``."""

    openai_api_key: str | None = field(default=None, repr=False)
    openai_base_url: str | None = None
    openai_model: str = DEFAULT_MODEL
    telegram_bot_token: str | None = field(default=None, repr=False)
    telegram_chat_id: str | None = None
    telegram_api_base: str = DEFAULT_TELEGRAM_API_BASE
    owner_name: str = DEFAULT_OWNER_NAME
    knowledge_dir: Path = Path("knowledge")
    data_dir: Path = Path("data")
    max_turns: int = 2
    reply_deadline_seconds: float = 45.0
    max_reply_tokens: int = 600
    queue_concurrency: int = 3
    queue_max_size: int = 64
    max_message_chars: int = 4000
    history_budget_chars: int = 16000
    knowledge_budget_chars: int = 24000
    visitor_messages_per_hour: int = 30
    address_messages_per_hour: int = 120
    daily_model_calls: int = 1000
    trusted_proxy_hops: int = 0
    email_check_deliverability: bool = False
    lead_alerts_per_visitor: int = 3
    question_alerts_per_visitor: int = 3
    alert_min_interval_seconds: float = 1.0  # Telegram allows about one message a second per chat
    alert_retry_base_seconds: float = 1.0
    telegram_poll_seconds: int = 25  # getUpdates long-poll length
    model_timeout_seconds: float = 60.0
    model_max_retries: int = 2
    telegram_webhook_url: str | None = None  # webhook mode for the owner's bot; None: polling
    telegram_webhook_secret: str | None = field(default=None, repr=False)
    database_url: str | None = field(default=None, repr=False)  # PostgreSQL; None: SQLite in DATA_DIR
    mcp_enabled: bool = False  # serve the replica as one MCP tool beside the page
    owner_avatar: str | None = None  # a path or URL; None: avatar.* in KNOWLEDGE_DIR, else initials
    conversation_retention_days: int = 90
    digest_hour_utc: int | None = None
    telegram_unreachable_warning_seconds: float = 300.0  # warn once Telegram has been unreachable this long
    server_name: str | None = None
    server_port: int | None = None
    space_id: str | None = None  # set by Hugging Face Spaces

    @property
    def database_path(self) -> Path:
        """The SQLite file of leads, questions and the alert outbox."""
        return self.data_dir / "replica.sqlite3"

    @property
    def model_configured(self) -> bool:
        """True when there is an API key to call the model with."""
        return bool(self.openai_api_key)

    @property
    def on_spaces(self) -> bool:
        """True when running on Hugging Face Spaces."""
        return bool(self.space_id)

    @property
    def telegram_configured(self) -> bool:
        """True when both the bot token and the owner's chat id are set."""
        return bool(self.telegram_bot_token and self.telegram_chat_id)


def database_url(value: str | None) -> str | None:
    """``DATABASE_URL``, which must be a PostgreSQL address when set."""
    if value and not value.startswith(("postgresql://", "postgres://")):
        raise ConfigError("DATABASE_URL must start with postgresql:// (leave it empty for SQLite in DATA_DIR)")
    return value


def webhook_url(value: str | None) -> str | None:
    """``TELEGRAM_WEBHOOK_URL``: an http(s) address with a path, served by this app."""
    if value and not re.fullmatch(r"https?://[^/\s]+/\S*", value):
        raise ConfigError(
            "TELEGRAM_WEBHOOK_URL must be an https:// address such as https://you.hf.space/telegram/webhook"
        )
    return value


def webhook_secret(value: str | None) -> str | None:
    """``TELEGRAM_WEBHOOK_SECRET``: 1-256 letters, digits, ``_`` or ``-``, as Telegram allows."""
    if value and not re.fullmatch(r"[A-Za-z0-9_-]{1,256}", value):
        raise ConfigError("TELEGRAM_WEBHOOK_SECRET may hold only letters, digits, _ and -, at most 256 of them")
    return value


def load_settings(environ: Mapping[str, str], dotenv_path: str | Path | None = ".env") -> Settings:
    """Build :class:`Settings` from ``environ`` and, beneath it, the ``.env`` file at ``dotenv_path``."""
    values: dict[str, str] = {}
    if dotenv_path is not None and Path(dotenv_path).is_file():
        values.update({k: v for k, v in dotenv_values(dotenv_path).items() if v is not None})
    values.update(environ)  # the environment wins

    def text(name: str) -> str | None:
        value = values.get(name, "").strip()
        return value or None

    def number(name: str, default: int, minimum: int = 1) -> int:
        raw = text(name)
        if raw is None:
            return default
        try:
            parsed = int(raw)
        except ValueError:
            raise ConfigError(f"{name} must be a whole number, got {raw!r}") from None
        if parsed < minimum:
            raise ConfigError(f"{name} must be at least {minimum}, got {parsed}")
        return parsed

    def seconds(name: str, default: float) -> float:
        raw = text(name)
        if raw is None:
            return default
        try:
            parsed = float(raw)
        except ValueError:
            raise ConfigError(f"{name} must be a number of seconds, got {raw!r}") from None
        if not 1 <= parsed <= 3600:
            raise ConfigError(f"{name} must be between 1 and 3600 seconds, got {raw}")
        return parsed

    def hour(name: str) -> int | None:
        if text(name) is None:
            return None
        parsed = number(name, 0, minimum=0)
        if parsed > 23:
            raise ConfigError(f"{name} must be an hour from 0 to 23, got {parsed}")
        return parsed

    def flag(name: str) -> bool:
        return (text(name) or "").lower() in {"1", "true", "yes", "on"}

    return Settings(
        openai_api_key=text("OPENAI_API_KEY"),
        openai_base_url=text("OPENAI_BASE_URL"),
        openai_model=text("OPENAI_MODEL") or DEFAULT_MODEL,
        telegram_bot_token=text("TELEGRAM_BOT_TOKEN"),
        telegram_chat_id=text("TELEGRAM_CHAT_ID"),
        telegram_api_base=(text("TELEGRAM_API_BASE") or DEFAULT_TELEGRAM_API_BASE).rstrip("/"),
        owner_name=text("OWNER_NAME") or DEFAULT_OWNER_NAME,
        knowledge_dir=Path(text("KNOWLEDGE_DIR") or "knowledge"),
        data_dir=Path(text("DATA_DIR") or "data"),
        max_turns=number("MAX_TURNS", 2),
        reply_deadline_seconds=seconds("REPLY_DEADLINE_SECONDS", 45.0),
        max_reply_tokens=number("MAX_REPLY_TOKENS", 600),
        queue_concurrency=number("QUEUE_CONCURRENCY", 3),
        queue_max_size=number("QUEUE_MAX_SIZE", 64),
        max_message_chars=number("MAX_MESSAGE_CHARS", 4000),
        history_budget_chars=number("HISTORY_BUDGET_CHARS", 16000),
        knowledge_budget_chars=number("KNOWLEDGE_BUDGET_CHARS", 24000),
        visitor_messages_per_hour=number("VISITOR_MESSAGES_PER_HOUR", 30),
        address_messages_per_hour=number("ADDRESS_MESSAGES_PER_HOUR", 120),
        daily_model_calls=number("DAILY_MODEL_CALLS", 1000),
        # Hugging Face Spaces (which sets SPACE_ID) puts one proxy in front of the app.
        trusted_proxy_hops=number("TRUSTED_PROXY_HOPS", 1 if text("SPACE_ID") else 0, minimum=0),
        email_check_deliverability=flag("EMAIL_CHECK_DELIVERABILITY"),
        lead_alerts_per_visitor=number("LEAD_ALERTS_PER_VISITOR", 3, minimum=0),
        question_alerts_per_visitor=number("QUESTION_ALERTS_PER_VISITOR", 3, minimum=0),
        server_name=text("GRADIO_SERVER_NAME"),
        server_port=number("GRADIO_SERVER_PORT", 0, minimum=0) or None,
        space_id=text("SPACE_ID"),
        telegram_webhook_url=webhook_url(text("TELEGRAM_WEBHOOK_URL")),
        telegram_webhook_secret=webhook_secret(text("TELEGRAM_WEBHOOK_SECRET")),
        database_url=database_url(text("DATABASE_URL")),
        owner_avatar=text("OWNER_AVATAR"),
        mcp_enabled=flag("MCP_ENABLED"),
        conversation_retention_days=number("CONVERSATION_RETENTION_DAYS", 90),
        digest_hour_utc=hour("DIGEST_HOUR_UTC"),
    )
