"""A period's figures, per UTC day and in total: what ``/stats``, the weekly picture and ``export stats``
all show, counted once here from the store's rows (:class:`replica.storage.figures.Figures`).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from datetime import date, timedelta

from replica.stats.sources import KNOWN, SourceList
from replica.storage import Store
from replica.storage.figures import ANSWERED, APPROVED, MODEL, PASSED_ON, AskedQuestion, day_start, utc_day
from replica.storage.records import Answered, QuestionStatus

MAX_DAYS = 366  # the longest period /stats and export stats draw or count (the figures are kept 400 days)
KEPT_DAYS = 400  # how long reply figures and page opens are kept
NO_SOURCE = "(none)"  # opens with no referring host or utm_source


@dataclass
class Day:
    """One day's figures: the columns of ``export stats``, and what the picture draws for the day."""

    day: date
    page_opens: int = 0
    conversations: int = 0  # begun that day
    leads: int = 0
    confirmed_leads: int = 0
    questions: int = 0  # passed on (each visitor who asked)
    questions_answered: int = 0  # of those, answered by the owner since
    visitor_messages: int = 0
    answered: Counter[Answered] = field(default_factory=Counter)  # how each visitor message was answered
    model_calls: int = 0
    tokens: int = 0

    def row(self) -> dict[str, object]:
        """The day as ``export stats`` writes it."""
        return {
            "day": self.day.isoformat(),
            "page_opens": self.page_opens,
            "conversations": self.conversations,
            "leads": self.leads,
            "confirmed_leads": self.confirmed_leads,
            "questions": self.questions,
            "questions_answered": self.questions_answered,
            "visitor_messages": self.visitor_messages,
            **{f"answered_{how}": self.answered[how] for how in ANSWERED},
            "model_calls": self.model_calls,
            "tokens": self.tokens,
        }


COLUMNS = list(Day(date(2000, 1, 1)).row())


@dataclass(frozen=True)
class Totals:
    """A period's figures added up, with what only a whole period has (the median reply, the busiest
    day's model calls)."""

    days: int
    page_opens: int
    conversations: int
    leads: int
    confirmed_leads: int
    questions: int
    questions_answered: int
    visitor_messages: int
    answered: dict[Answered, int]
    model_calls: int
    tokens: int
    busiest_day_calls: int
    median_reply_ms: int | None

    @property
    def approved_share(self) -> float | None:
        """Of the visitor messages that asked something (answered by the model, by an approved or taught
        answer, or passed on), the share an approved or taught answer answered; ``None`` for none."""
        asked = sum(self.answered[how] for how in (MODEL, APPROVED, PASSED_ON))
        return self.answered[APPROVED] / asked if asked else None


@dataclass(frozen=True)
class OpenQuestion:
    """An open question of the period with how many visitors asked it then (repeats folded into it)."""

    id: int
    question: str
    count: int


@dataclass(frozen=True)
class Period:
    """The days from ``first`` to ``last`` (UTC, both counted), each day's figures, and where the page's
    visitors came from."""

    first: date
    last: date
    days: list[Day]
    totals: Totals
    before: Totals  # the same number of days just before
    sources: list[tuple[str, int]]  # (a source's or site's name on the list, "other" or NO_SOURCE; opens)
    open_questions: list[OpenQuestion]  # the most asked first

    @property
    def empty(self) -> bool:
        """True when nobody opened the page or wrote in the period."""
        return not (self.totals.page_opens or self.totals.visitor_messages or self.totals.leads)


def period(store: Store, last: date, days: int, sources: SourceList = KNOWN) -> Period:
    """The figures of the ``days`` days that end with ``last`` (UTC), and of as many days before them;
    where visitors came from is named from ``sources`` (the closed list, with the owner's own)."""
    days = max(1, min(days, MAX_DAYS))
    first = last - timedelta(days=days - 1)
    current = _days(store, first, days, sources)
    earlier = _days(store, first - timedelta(days=days), days, sources)
    return Period(first, last, current.days, current.totals, earlier.totals, current.sources, current.open_questions)


@dataclass(frozen=True)
class _Counted:
    """What one stretch of days holds (a period, or the one before it)."""

    days: list[Day]
    totals: Totals
    sources: list[tuple[str, int]]
    open_questions: list[OpenQuestion]


def _days(store: Store, first: date, count: int, named: SourceList) -> _Counted:
    start = day_start(first)
    end = start + count * 86400
    last = (first + timedelta(days=count - 1)).isoformat()
    by_day = {first + timedelta(days=n): Day(first + timedelta(days=n)) for n in range(count)}
    for sums in store.figures.by_day(first.isoformat(), last):
        day = by_day[date.fromisoformat(sums.day)]
        day.conversations += sums.opened
        day.visitor_messages += sums.replies
        day.answered[sums.answered] += sums.replies
        day.model_calls += sums.model_calls
        day.tokens += sums.tokens
    for created_at, confirmed in store.figures.leads(start, end):
        day = by_day[utc_day(created_at)]
        day.leads += 1
        day.confirmed_leads += confirmed
    asked = store.figures.asked(start, end)
    for ask in asked:
        day = by_day[utc_day(ask.at)]
        day.questions += 1
        day.questions_answered += ask.status is QuestionStatus.ANSWERED
    sources: Counter[str] = Counter()
    for opens in store.figures.opens(first.isoformat(), last):
        by_day[date.fromisoformat(opens.day)].page_opens += opens.opens
        # Read through the list, so a row kept before it (a name a visitor made up) reads as "other".
        sources[named.name(opens.host, opens.source) or NO_SOURCE] += opens.opens
    days = list(by_day.values())
    totals = _totals(days, store.figures.median_reply_ms(first.isoformat(), last))
    return _Counted(days, totals, sources.most_common(), _open_questions(asked))


def _totals(days: list[Day], median_reply_ms: int | None) -> Totals:
    answered: Counter[Answered] = Counter()
    for day in days:
        answered.update(day.answered)
    return Totals(
        days=len(days),
        page_opens=sum(d.page_opens for d in days),
        conversations=sum(d.conversations for d in days),
        leads=sum(d.leads for d in days),
        confirmed_leads=sum(d.confirmed_leads for d in days),
        questions=sum(d.questions for d in days),
        questions_answered=sum(d.questions_answered for d in days),
        visitor_messages=sum(d.visitor_messages for d in days),
        answered={how: answered[how] for how in ANSWERED},
        model_calls=sum(d.model_calls for d in days),
        tokens=sum(d.tokens for d in days),
        busiest_day_calls=max((d.model_calls for d in days), default=0),
        median_reply_ms=median_reply_ms,
    )


def _open_questions(asked: list[AskedQuestion]) -> list[OpenQuestion]:
    """The period's questions still open, each once with how many visitors asked it in the period
    (those the store folded into one question, as repeats are, count under it), the most asked first."""
    counts = Counter(ask.question_id for ask in asked if ask.status is QuestionStatus.OPEN)
    wording = {ask.question_id: ask.question for ask in asked}
    return [
        OpenQuestion(number, wording[number], n) for number, n in sorted(counts.items(), key=lambda i: (-i[1], i[0]))
    ]
