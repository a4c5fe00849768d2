"""The period's picture: a PNG for a phone, drawn headless with matplotlib's Agg backend.

1080 × 1350 pixels (the 4:5 a phone shows whole), large type, in the owner's colour, and readable
without colour: every series has a label, and the ways a message was answered differ in hatching as
well as in hue. matplotlib itself is imported while the app starts (:func:`load_in_background`), its
drawing parts at the first picture (about a second, once); its figures are made without pyplot, so no
global state is shared between threads, and one lock keeps two pictures from being drawn at once all
the same (matplotlib's own caches are not thread-safe).
"""

from __future__ import annotations

import importlib
import io
import os
import threading
from datetime import date
from typing import Any

from replica.stats.caption import counted_days, percent, seconds, thousands, was
from replica.stats.period import Period
from replica.storage.figures import APPROVED, MODEL, OTHER, OWNER, PASSED_ON

WIDTH, HEIGHT, DPI = 1080, 1350, 100
INK, MUTED, GRID = "#1f2328", "#57606a", "#d0d7de"
ANSWER_STYLES = (  # (how, label, share of the owner's colour, hatch): hatching tells them apart in grey
    (MODEL, "the model", 1.0, ""),
    (APPROVED, "an approved answer", 0.7, "//"),
    (PASSED_ON, "passed on to you", 0.45, "xx"),
    (OWNER, "you, in person", 0.3, ".."),
    (OTHER, "other (greeting, limit)", 0.12, "--"),
)


def load_in_background() -> None:
    """Have matplotlib headless and imported before a visitor's first message. Gradio, once matplotlib
    is installed, imports it and asks its backend around every event; unset, the backend is resolved by
    importing pyplot (1.3 s on this machine, in the first visitor's reply). ``MPLBACKEND=agg`` (unless
    the environment says otherwise) makes that a lookup, and the import runs on a thread of its own
    while the app starts."""
    os.environ.setdefault("MPLBACKEND", "agg")
    threading.Thread(
        target=importlib.import_module, args=("matplotlib",), name="import-matplotlib", daemon=True
    ).start()


BARS_UP_TO = 14  # days drawn as separate bars; longer periods as stepped areas
_lock = threading.Lock()


def png(figures: Period, owner: str, colour: str) -> bytes:
    """The picture of ``figures`` for ``owner``'s phone, in ``colour`` (a hex colour), as PNG bytes."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    with _lock:
        figure = Figure(figsize=(WIDTH / DPI, HEIGHT / DPI), dpi=DPI, facecolor="white")
        FigureCanvasAgg(figure)
        figure.text(0.04, 0.975, f"{owner}'s replica", fontsize=26, weight="bold", color=INK, va="top")
        figure.text(0.04, 0.935, _span(figures), fontsize=20, color=MUTED, va="top")
        if figures.empty:
            _nothing(figure, figures)
        else:
            grid = figure.add_gridspec(4, 1, height_ratios=[1.3, 3.2, 2.6, 2.3], hspace=0.5)
            grid.update(left=0.1, right=0.96, top=0.87, bottom=0.04)
            _funnel(figure.add_subplot(grid[0]), figures, colour)
            _answers(figure.add_subplot(grid[1]), figures, colour)
            _visitors(figure.add_subplot(grid[2]), figures, colour)
            _totals(figure.add_subplot(grid[3]), figures)
        out = io.BytesIO()
        # The fastest zlib level: a third of the encoding time, for a file a seventh larger (200 KB).
        figure.savefig(out, format="png", dpi=DPI, facecolor="white", pil_kwargs={"compress_level": 1})
        return out.getvalue()


def _span(figures: Period) -> str:
    days = len(figures.days)
    if days == 1:
        return f"{_date(figures.last)}"
    return f"{days} days, {_date(figures.first)} to {_date(figures.last)}"


def _date(day: date) -> str:
    return f"{day.day} {day:%b %Y}"


def _tint(colour: str, share: float) -> tuple[float, float, float]:
    """``colour`` mixed with white: ``share`` 1 is the colour itself."""
    from matplotlib.colors import to_rgb

    return tuple(1 - share * (1 - c) for c in to_rgb(colour))  # type: ignore[return-value]


def _nothing(figure: Any, figures: Period) -> None:
    figure.text(
        0.5,
        0.55,
        f"Nobody opened the page or wrote\nin these {counted_days(len(figures.days))}."
        if len(figures.days) > 1
        else "Nobody opened the page or wrote\non this day.",
        fontsize=34,
        ha="center",
        va="center",
        color=INK,
    )
    figure.text(
        0.5,
        0.4,
        "The picture fills in as visitors come:\nshare the page's link, or put the widget on your site.",
        fontsize=22,
        ha="center",
        va="center",
        color=MUTED,
    )


def _funnel(ax: Any, figures: Period, colour: str) -> None:
    """Page opens → conversations → leads, each bar labelled with its number and the period before's."""
    now, before = figures.totals, figures.before
    steps = [
        ("Page opens", now.page_opens, before.page_opens),
        ("Conversations", now.conversations, before.conversations),
        ("Leads", now.leads, before.leads),
    ]
    widest = max(1, *(n for _, n, _ in steps))
    for row, (label, n, earlier) in enumerate(steps):
        y = len(steps) - 1 - row
        ax.barh(y, n, color=_tint(colour, 1.0 - 0.3 * row), height=0.7)
        confirmed = f", {now.confirmed_leads} confirmed" if label == "Leads" and now.confirmed_leads else ""
        words = f"{label}: {thousands(n)}{confirmed}  ({was(earlier)})"
        ax.text(n + widest * 0.015, y, words, va="center", fontsize=18, color=INK)
    ax.set_xlim(0, widest / 0.45)  # the longest bar leaves room for its words
    ax.set_ylim(-0.5, len(steps) - 0.5)
    ax.set_xticks([])
    ax.set_yticks([])
    ax.set_title("Where visitors went", loc="left", fontsize=20, color=INK, weight="bold")
    for side in ("top", "right", "bottom"):
        ax.spines[side].set_visible(False)
    ax.spines["left"].set_color(MUTED)


def _answers(ax: Any, figures: Period, colour: str) -> None:
    """Per day, the visitor messages, stacked by how each was answered."""
    bottom, keys = [0] * len(figures.days), []
    for how, label, share, hatch in ANSWER_STYLES:
        heights = [day.answered[how] for day in figures.days]
        top = [b + h for b, h in zip(bottom, heights)]
        style = {"facecolor": _tint(colour, share), "hatch": hatch, "edgecolor": INK if hatch else _tint(colour, share)}
        keys.append(_columns(ax, figures, top, bottom, label=f"{label}: {thousands(sum(heights))}", **style))
        bottom = top
    ax.set_title("Visitor messages, by who answered", loc="left", fontsize=20, color=INK, weight="bold")
    ax.legend(handles=keys, fontsize=15, loc="upper left", frameon=False, ncols=2)
    ax.set_ylim(0, max(1, *bottom) * 1.55)  # room for the legend above the bars
    _days_axis(ax, figures)


def _columns(ax: Any, figures: Period, top: list[int], bottom: list[int], **style: Any) -> Any:
    """A column a day from ``bottom`` to ``top``: bars for a fortnight or less, one stepped area for longer
    periods (a patch for each of ninety days takes matplotlib a second; one area, a few milliseconds).
    The area is added as an artist: the axes' limits are set by the caller, so matplotlib need not
    measure its outline."""
    if len(figures.days) <= BARS_UP_TO:
        heights = [t - b for t, b in zip(top, bottom)]
        ax.bar(range(len(top)), heights, bottom=bottom, width=0.8, linewidth=0.6, **style)
    else:
        _area(ax, top, bottom, **style)
    return _key(**style)


def _key(**style: Any) -> Any:
    """What the legend shows for a series of columns."""
    from matplotlib.patches import Patch

    return Patch(**style)


def _area(ax: Any, top: list[int], bottom: list[int], **style: Any) -> None:
    from matplotlib.patches import Polygon

    upper = [(x + dx, y) for x, y in enumerate(top) for dx in (-0.5, 0.5)]
    lower = [(x + dx, y) for x, y in reversed(list(enumerate(bottom))) for dx in (0.5, -0.5)]
    ax.add_artist(Polygon(upper + lower, closed=True, linewidth=0, **style))


def _visitors(ax: Any, figures: Period, colour: str) -> None:
    """Per day, the conversations begun (columns); the leads, and of them those confirmed by their code;
    the questions passed on, and of them those answered since (lines, each its own marker and dash)."""
    xs = list(range(len(figures.days)))
    conversations = [d.conversations for d in figures.days]
    key = _columns(ax, figures, conversations, [0] * len(xs), facecolor=_tint(colour, 0.35), label="conversations")
    size = 9 if len(xs) <= BARS_UP_TO else 0
    lines = [
        ("leads", [d.leads for d in figures.days], "o", "-", INK, "full"),
        ("confirmed", [d.confirmed_leads for d in figures.days], "o", ":", INK, "none"),
        ("questions passed on", [d.questions for d in figures.days], "s", "--", MUTED, "full"),
        ("answered since", [d.questions_answered for d in figures.days], "s", ":", MUTED, "none"),
    ]
    for label, values, marker, dash, ink, fill in lines:
        if label == "confirmed" and not any(values):
            continue  # no confirmed contacts (or verified contacts off): no line that only says so
        ax.plot(xs, values, marker=marker, ls=dash, lw=2.5, color=ink, fillstyle=fill, markersize=size, label=label)
    top = max(1, *conversations, *(v for _, values, *_ in lines for v in values))
    ax.set_ylim(0, top * 1.6)
    ax.set_title("Conversations, leads and questions", loc="left", fontsize=20, color=INK, weight="bold")
    ax.legend(handles=[key, *ax.get_lines()], fontsize=15, loc="upper left", frameon=False, ncols=3)
    _days_axis(ax, figures)


def _days_axis(ax: Any, figures: Period) -> None:
    from matplotlib.ticker import MaxNLocator

    count = len(figures.days)
    step = 1 if count <= 10 else max(1, round(count / 7))
    ticks = list(range(count - 1, -1, -step))[::-1]
    if count <= 10:
        labels = [f"{figures.days[i].day:%a}\n{figures.days[i].day.day}" for i in ticks]
    else:
        labels = [f"{figures.days[i].day.day} {figures.days[i].day:%b}" for i in ticks]
    ax.set_xticks(ticks, labels, fontsize=15, color=INK)
    ax.yaxis.set_major_locator(MaxNLocator(nbins=4, integer=True))
    ax.tick_params(axis="y", labelsize=15, colors=INK)
    ax.set_xlim(-0.6, count - 0.4)
    ax.grid(axis="y", color=GRID, linewidth=0.8)
    ax.set_axisbelow(True)
    for side in ("top", "right"):
        ax.spines[side].set_visible(False)


def _totals(ax: Any, figures: Period) -> None:
    """The period's totals beside the period before's, as a small table in large type."""
    now, before = figures.totals, figures.before
    rows = [
        ("Questions passed on", f"{now.questions}, {now.questions_answered} answered", str(before.questions)),
        ("Answered by your approved answers", percent(now.approved_share), percent(before.approved_share)),
        (
            "Model calls (busiest day)",
            f"{thousands(now.model_calls)} ({now.busiest_day_calls})",
            thousands(before.model_calls),
        ),
        ("Tokens", thousands(now.tokens), thousands(before.tokens)),
        ("Median reply", seconds(now.median_reply_ms), seconds(before.median_reply_ms)),
    ]
    ax.axis("off")
    ax.set_title(
        f"Totals (in brackets: the {len(figures.days)} days before)", loc="left", fontsize=20, color=INK, weight="bold"
    )
    for row, (label, value, earlier) in enumerate(rows):
        y = 1 - (row + 0.5) / len(rows)
        ax.text(0.0, y, label, fontsize=18, color=INK, va="center", transform=ax.transAxes)
        ax.text(0.66, y, value, fontsize=18, color=INK, va="center", weight="bold", transform=ax.transAxes)
        ax.text(1.0, y, f"({earlier})", fontsize=18, color=MUTED, va="center", ha="right", transform=ax.transAxes)
