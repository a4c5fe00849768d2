"""The owner's report of a period: its figures, their picture and their caption, made together."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from replica.stats.caption import caption
from replica.stats.period import Period, period
from replica.stats.picture import png
from replica.stats.sources import KNOWN, SourceList
from replica.storage import Store

PICTURE_NAME = "replica-stats.png"


@dataclass(frozen=True)
class Drawn:
    """A period's figures, drawn (PNG bytes) and in words (the caption)."""

    figures: Period
    png: bytes
    caption: str


@dataclass(frozen=True)
class Report:
    """Whose figures (``owner``), in which ``colour``, against which ``daily_budget`` of model calls, with
    where visitors came from named from ``sources``."""

    owner: str
    colour: str
    daily_budget: int
    sources: SourceList = KNOWN

    def draw(self, store: Store, last: date, days: int) -> Drawn:
        """The ``days`` days that end with ``last`` (UTC), counted, drawn and put in words."""
        figures = period(store, last, days, self.sources)
        return Drawn(figures, png(figures, self.owner, self.colour), caption(figures, self.daily_budget))
