"""Page opens counted without tracking anyone (replica/web/opens.py): the referring site's host and the
link's utm_source, read from what visitors' browsers send, in plain and short form; at most 50 pairs a
day, on both backends."""

from __future__ import annotations

import pytest

from replica.storage.figures import MORE, SOURCES_PER_DAY
from replica.web.opens import OpenCounter, referring_host, utm_source

OWN = "grace.hf.space"


@pytest.mark.parametrize(
    "referer, host",
    [
        ("https://www.linkedin.com/feed/update/urn:li:activity:7", "linkedin.com"),  # the host alone, no path
        ("https://www.linkedin.com/", "linkedin.com"),
        ("https://lnkd.in/eXaMpLe", "lnkd.in"),
        ("android-app://com.linkedin.android/", "com.linkedin.android"),
        ("https://GRACE.example/about?ref=1#top", "grace.example"),
        ("https://grace.hf.space/?__theme=dark", ""),  # the page itself: a reload
        ("https://www.grace.hf.space/", ""),
        ("", ""),
        ("not a url", ""),
        ("https://[::1", ""),  # unreadable
        ("https://xn--bcher-kva.example/", "xn--bcher-kva.example"),
        ("https://bücher.example/", ""),  # not plain: not kept
        ("https://" + "a" * 120 + ".example/", ""),
        ("javascript:alert(1)", ""),
    ],
)
def test_the_referring_site_is_its_host_alone_or_nothing(referer, host):
    assert referring_host(referer, OWN + ":443") == host


@pytest.mark.parametrize(
    "query, source",
    [
        ("utm_source=linkedin", "linkedin"),
        ("utm_source=QR-Card&utm_medium=print", "qr-card"),
        ("utm_medium=print", ""),
        ("utm_source=%3Cscript%3E", ""),
        ("utm_source=" + "x" * 60, "x" * 40),
        ("utm_source=news%20letter", ""),
        ("utm_source=a&utm_source=b", "a"),
        ("", ""),
    ],
)
def test_the_source_is_utm_source_plain_and_short_or_nothing(query, source):
    assert utm_source(query) == source


def scope(referer: str = "", query: str = "") -> dict:
    headers = [(b"host", OWN.encode())] + ([(b"referer", referer.encode())] if referer else [])
    return {"type": "http", "method": "GET", "path": "/", "headers": headers, "query_string": query.encode()}


def test_opens_are_counted_by_day_host_and_source_and_made_up_sources_cannot_grow_the_table(store):
    counter = OpenCounter(store, trusted_proxy_hops=0, clock=lambda: 1_764_460_800.0)  # 2025-11-30
    counter.count(scope("https://www.linkedin.com/feed/"))
    counter.count(scope("https://linkedin.com/in/grace"))
    counter.count(scope(query="utm_source=qr"))
    counter.count(scope())
    for n in range(3 * SOURCES_PER_DAY):  # someone makes up a source for each open
        counter.count(scope(query=f"utm_source=made-up-{n}"))
    rows = store.figures.opens("2025-11-30", "2025-11-30")
    assert len(rows) == SOURCES_PER_DAY + 1  # the pairs a day keeps, and "other" for the rest
    counts = {(r.host, r.source): r.opens for r in rows}
    assert counts[("linkedin.com", "")] == 2 and counts[("", "qr")] == 1 and counts[("", "")] == 1
    assert counts[(MORE, MORE)] == 3 * SOURCES_PER_DAY - (SOURCES_PER_DAY - 3)
    assert sum(counts.values()) == 4 + 3 * SOURCES_PER_DAY
