"""A digest's picture, drawn for the channel that sends it: never the reason a digest is not sent."""

from __future__ import annotations

import logging
from typing import Callable

from replica.alerts.alert import Alert
from replica.stats.report import Drawn

log = logging.getLogger(__name__)

# Draws the picture of the days an alert names (the last day, ISO, and how many).
Pictures = Callable[[tuple[str, int]], Drawn]


def drawn_for(alert: Alert, pictures: Pictures | None) -> Drawn | None:
    """The picture ``alert`` asks for, drawn; ``None`` when it asks for none, the channel draws none, or
    drawing failed (logged: the digest then goes in words alone)."""
    if not alert.picture or pictures is None:
        return None
    try:
        return pictures(alert.picture)
    except Exception as error:  # a bug in the drawing must not hold the digest back
        log.error("Could not draw the digest's picture (%s); sending it in words", type(error).__name__, exc_info=True)
        return None
