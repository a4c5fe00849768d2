"""What a channel is to the alert sender: a key, a label, and two ways to send; and how a send fails.

Telegram (:mod:`replica.alerts.telegram_channel`) and every Apprise URL
(:mod:`replica.alerts.apprise_channel`) are channels; :class:`replica.alerts.sender.AlertSender`
delivers to any of them the same way.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from replica.alerts.alert import Alert


class ChannelError(Exception):
    """A send that did not go through, in words that hold no secret.

    ``final``: the service refused it for good (a bad token, an unknown chat): trying again cannot help.
    ``retry_after``: the service's own wait (Telegram's 429), never to be shortened. ``unreachable``: the
    service was not reached at all (the network, a blocked host)."""

    def __init__(self, reason: str, final: bool = False, retry_after: float | None = None, unreachable: bool = False):
        super().__init__(reason)
        self.reason = reason
        self.final = final
        self.retry_after = retry_after
        self.unreachable = unreachable


class Channel(Protocol):
    """Where alerts go. ``key`` names it in the database (no secret in it), ``label`` in logs, ``doctor``
    and exports; ``unreachable_hint`` says what to do when it cannot be reached."""

    @property
    def key(self) -> str: ...

    @property
    def label(self) -> str: ...

    @property
    def unreachable_hint(self) -> str: ...

    def send(self, alert: Alert) -> int | None:
        """Send one alert; the id the service gave the message, if it gives one. Raises :class:`ChannelError`."""
        ...

    def send_fold(self, alerts: list[tuple[int | None, Alert]]) -> None:
        """Send several alerts of one kind as one message. Raises :class:`ChannelError`."""
        ...


@runtime_checkable
class Editing(Protocol):
    """A channel that can also replace a message it sent (Telegram): a lead's alert then says its address
    was confirmed, instead of a follow-up."""

    def edit(self, message_id: int, alert: Alert) -> None:
        """Replace the message ``message_id`` with ``alert``. Raises :class:`ChannelError`."""
        ...
