"""Alerts to the owner: what they say (``alert``), how they look (``render``), how they travel (``sender``)."""

from replica.alerts.alert import Alert, Notifier

__all__ = ["Alert", "Notifier"]
