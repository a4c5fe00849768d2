"""What bounds each reply: the part of the settings (``replica.settings``) the chat package reads, made
once in :mod:`replica.wiring`, as openai-agents' ``RunConfig`` is."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ReplyConfig:
    """The bounds and switches of every reply; each field is the setting of the same name, upper-cased."""

    max_message_chars: int  # longer messages are refused without a model call
    reply_deadline_seconds: float  # one message in all: model calls, retries, tools, streaming
    max_turns: int  # model calls per message
    max_reply_tokens: int  # per model call
    history_budget_chars: int  # of earlier conversation sent to the model
    queue_concurrency: int  # model lanes: replies the model writes at once
    queue_max_size: int  # visitors that may wait for a lane at once
    queue_wait_seconds: float  # the longest a visitor waits for a lane
    check_replies: bool
    email_check_deliverability: bool
