"""Alerts to the owner: what they say (``alerts``), how they travel (``telegram``, ``background``)."""

from replica.notify.alerts import Alert, Notifier

__all__ = ["Alert", "Notifier"]
