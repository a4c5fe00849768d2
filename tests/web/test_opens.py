"""Page opens counted without tracking anyone (replica/web/opens.py): each client's first open of the UTC
day counts, under the referring site or the link's utm_source as a closed list names them
(replica/stats/sources.py). A flood from one address is one open; made-up sources and sites are "other"
and never push a real one out of the owner's caption. On both backends, and in ``python app.py``."""

from __future__ import annotations

import csv
import io
import logging
import tracemalloc
from concurrent.futures import ThreadPoolExecutor
from datetime import date, datetime, timezone

import pytest
import requests

from replica.stats.caption import caption
from replica.stats.period import period
from replica.stats.sources import OTHER, SourceList
from replica.web.opens import CLIENTS_PER_DAY, DailyClients, OpenCounter, client_group, referring_host, utm_source
from tests.fixtures.clock import HandClock
from tests.fixtures.environment import wait_until
from tests.fixtures.processes import run_app_process, served_app

OWN = "grace.hf.space"
DAY = 1_764_460_800.0  # 2025-11-30 00:00 UTC
SOURCES = SourceList(own=("meetup-berlin",), own_hosts=("grace.example",))


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
        ("utm_source=QR-Card&utm_medium=print", "QR-Card"),  # the list reads it in any case
        ("utm_source=news%20letter", "news letter"),
        ("utm_source=Linked+In", "Linked In"),
        ("utm_source=r%C3%A9sum%C3%A9", "résumé"),
        ("utm_source=%20qr%20", "qr"),
        ("utm_medium=print", ""),
        ("utm_source=" + "x" * 300, "x" * 100),
        ("utm_source=a&utm_source=b", "a"),
        ("", ""),
    ],
)
def test_the_source_is_the_first_utm_source_as_sent_for_the_list_to_name(query, source):
    assert utm_source(query) == source


def scope(referer: str = "", query: str = "", client: str = "198.51.100.7", forwarded: str = "") -> dict:
    headers = [(b"host", OWN.encode())] + ([(b"referer", referer.encode())] if referer else [])
    headers += [(b"x-forwarded-for", forwarded.encode())] if forwarded else []
    return {
        "type": "http",
        "method": "GET",
        "path": "/",
        "headers": headers,
        "query_string": query.encode(),
        "client": (client, 50_000),
    }


def from_line(text: str) -> dict[str, int]:
    """The caption's "From:" line as {name: opens}."""
    [line] = [line for line in text.splitlines() if line.startswith("From: ")]
    return {name: int(n) for name, n in (part.rsplit(" ", 1) for part in line.removeprefix("From: ").split(", "))}


def test_600_opens_in_3_seconds_and_48_made_up_sources_count_as_one_and_never_push_real_ones_out(store):
    clock = HandClock(DAY + 36_000)
    counter = OpenCounter(store, trusted_proxy_hops=0, clock=clock, sources=SOURCES)
    # One address asks 600 times in 3 seconds, with 48 made-up sources and sites.
    for n in range(600):
        clock.now += 0.005
        counter.count(scope(f"https://made-up-{n % 48}.example/", f"utm_source=made-up-{n % 48}", "203.0.113.66"))
    # Then real visitors, each once, as they type and as their apps send it.
    real = [
        ("https://www.linkedin.com/feed/update/urn:li:activity:1", ""),
        ("https://lnkd.in/eXaMpLe", ""),
        ("android-app://com.linkedin.android/", ""),
        ("https://www.linkedin.com/", "utm_source=made-up-9"),  # a made-up tag on a real site: the site
        ("", "utm_source=QR%20Code"),
        ("", "utm_source=qr"),
        ("https://l.instagram.com/", "utm_source=QR"),  # a tagged link: the tag names it
        ("", "utm_source=Meetup-Berlin"),  # the owner's own
        ("", "utm_source=meetup_berlin%20"),
        ("https://grace.example/", ""),  # the widget on the owner's site
        (f"https://{OWN}/", ""),  # a reload: no site
    ]
    for n, (referer, query) in enumerate(real):
        counter.count(scope(referer, query, client=f"2001:db8:{n}::1" if n % 2 else f"198.51.100.{n}"))
    # And 48 more addresses, each with a made-up source or site.
    for n in range(48):
        made_up = {"query": f"utm_source=made-up-{n}"} if n % 2 else {"referer": f"https://made-up-{n}.example/"}
        counter.count(scope(client=f"192.0.2.{n + 1}", **made_up))

    rows = store.figures.opens("2025-11-30", "2025-11-30")
    assert sum(row.opens for row in rows) == 1 + len(real) + 48  # the flood is one open
    assert not [row for row in rows if "made-up" in row.host + row.source]
    text = caption(period(store, date(2025, 11, 30), 7, SOURCES), 1000)
    assert "Page opens: 60 (0)" in text
    assert from_line(text) == {OTHER: 49, "linkedin.com": 4, "qr": 3, "meetup-berlin": 2}  # the four most
    assert "made-up" not in text
    everyone = dict(period(store, date(2025, 11, 30), 1, SOURCES).sources)
    assert everyone == {OTHER: 49, "linkedin.com": 4, "qr": 3, "meetup-berlin": 2, "grace.example": 1, "(none)": 1}


def test_rows_kept_before_the_list_reach_the_caption_without_their_made_up_names(store):
    store.figures.count_open("2025-11-30", "buy-pills.example", "")
    store.figures.count_open("2025-11-30", "", "made-up-1")
    store.figures.count_open("2025-11-30", "lnkd.in", "made-up-2")
    store.figures.count_open("2025-11-30", "", "qr")
    text = caption(period(store, date(2025, 11, 30), 7, SOURCES), 1000)
    assert from_line(text) == {OTHER: 2, "linkedin.com": 1, "qr": 1}
    assert "made-up" not in text and "pills" not in text


def test_a_client_counts_once_a_day_however_it_comes_back_and_is_forgotten_the_next_day(store):
    clock = HandClock(DAY + 60)
    behind_proxy = OpenCounter(store, trusted_proxy_hops=1, clock=clock)
    behind_proxy.count(scope("https://www.linkedin.com/", forwarded="203.0.113.5"))
    behind_proxy.count(scope(query="utm_source=qr", forwarded="10.9.9.9, 203.0.113.5"))  # a forged hop left of ours
    behind_proxy.count(scope(forwarded="::ffff:203.0.113.5"))  # the same address, IPv4-mapped
    behind_proxy.count(scope(forwarded="2001:db8:aa:bb::1"))
    behind_proxy.count(scope(forwarded="2001:db8:aa:bb:ffff::2"))  # the same /64
    behind_proxy.count(scope(forwarded="2001:db8:aa:cc::1"))  # another /64: another client
    assert sum(row.opens for row in store.figures.opens("2025-11-30", "2025-11-30")) == 3
    kept = repr(vars(behind_proxy.clients))
    assert "203.0.113.5" not in kept and "2001:db8" not in kept  # hashes, never an address

    clock.now += 86_400  # the next UTC day: every client counts again, yesterday's are gone
    behind_proxy.count(scope("https://www.linkedin.com/", forwarded="203.0.113.5"))
    assert len(behind_proxy.clients) == 1
    assert [(r.host, r.opens) for r in store.figures.opens("2025-12-01", "2025-12-01")] == [("linkedin.com", 1)]


def test_the_address_is_the_one_our_proxies_recorded_as_the_app_reads_it():
    assert client_group(scope(client="127.0.0.1", forwarded="203.0.113.5"), 0) == "127.0.0.1"  # no proxy trusted
    assert client_group(scope(client="127.0.0.1", forwarded="1.2.3.4, 203.0.113.5"), 1) == "203.0.113.5"
    assert client_group(scope(client="127.0.0.1"), 1) == "127.0.0.1"  # fewer hops than trusted: the peer
    assert client_group(scope(client="2001:db8:1:2:3:4:5:6"), 0) == "2001:db8:1:2::/64"


def test_a_days_clients_are_bounded_and_a_full_day_says_so_once(caplog):
    clients = DailyClients(limit=3)
    with caplog.at_level(logging.WARNING, logger="replica.web.opens"):
        assert [clients.first_today(f"192.0.2.{n}", "2025-11-30") for n in range(6)] == [True] * 3 + [False] * 3
    assert len([r for r in caplog.records if "no more are counted today" in r.getMessage()]) == 1
    assert clients.first_today("192.0.2.5", "2025-12-01") and len(clients) == 1


def test_a_full_day_of_clients_is_held_in_a_few_megabytes():
    clients = DailyClients()
    tracemalloc.start()
    try:
        for n in range(CLIENTS_PER_DAY + 1000):
            clients.first_today(f"2001:db8:{n // 65536:x}:{n % 65536:x}::/64", "2025-11-30")
        held = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    assert len(clients) == CLIENTS_PER_DAY and held < 12 * 1024 * 1024


def test_a_database_error_while_counting_is_logged_and_the_page_still_served(store, caplog):
    store.close()  # every write now fails
    counter = OpenCounter(store, trusted_proxy_hops=0, clock=HandClock(DAY))
    with caplog.at_level(logging.ERROR, logger="replica.web.opens"):
        counter.count(scope("https://www.linkedin.com/"))
    assert any("Could not count a page open" in r.getMessage() for r in caplog.records)


def test_python_app_py_counts_a_flood_once_and_names_only_real_sources_in_stats(tmp_path, fake_telegram):
    """As users run it: behind one trusted proxy, one address asks 240 times with 48 made-up sources,
    real visitors come from LinkedIn, a QR code and the owner's own meetup link; ``/stats`` in the
    owner's chat and ``python app.py export stats`` count what a person would."""
    data = str(tmp_path / "data")
    env = {**fake_telegram.env, "DATA_DIR": data, "TRUSTED_PROXY_HOPS": "1", "UTM_SOURCES": "Meetup-Berlin"}
    day = datetime.now(timezone.utc).date()
    with served_app(tmp_path / "app.log", **env) as (url, _):  # its own first look: 127.0.0.1, no source
        flood = [
            {"headers": {"X-Forwarded-For": f"10.0.0.{n % 200}, 203.0.113.66", "Referer": f"https://fake-{n % 48}.example/"},
             "params": {"utm_source": f"made-up-{n % 48}"}}
            for n in range(240)
        ]  # fmt: skip
        linkedin = ["https://www.linkedin.com/feed/", "https://lnkd.in/eXaMpLe", "https://www.linkedin.com/"]
        real = [
            *({"headers": {"X-Forwarded-For": f"198.51.100.{n}", "Referer": referer}} for n, referer in enumerate(linkedin)),
            {"headers": {"X-Forwarded-For": "198.51.100.3", "Referer": "android-app://com.linkedin.android/"}},
            *({"headers": {"X-Forwarded-For": f"2001:db8:{n}::7"}, "params": {"utm_source": tag}} for n, tag in enumerate(["QR Code", "qr", "QR"])),
            {"headers": {"X-Forwarded-For": "198.51.100.20"}, "params": {"utm_source": "meetup-berlin "}},
            {"headers": {"X-Forwarded-For": "198.51.100.21"}, "params": {"utm_source": "Meetup_Berlin"}},
        ]  # fmt: skip
        with ThreadPoolExecutor(4) as pool:  # as fast as the machine lets four clients ask
            opened = list(pool.map(lambda request: requests.get(url, timeout=30, **request), flood + real))
        assert all(page.status_code == 200 and "set-cookie" not in page.headers for page in opened)
        fake_telegram.push("/stats 1")
        assert wait_until(lambda: fake_telegram.photos(), timeout=60)
    if datetime.now(timezone.utc).date() != day:
        pytest.skip("the UTC day changed while the test ran: each client counted on both days")
    text = fake_telegram.photos()[0].text
    assert "Page opens: 11 (0)" in text  # the app's own look, the flood once, nine visitors
    named = list(from_line(text).items())
    assert named[:3] == [("linkedin.com", 4), ("qr", 3), ("meetup-berlin", 2)]
    assert named[3] in (("(none)", 1), (OTHER, 1))  # the app's own look, the flood: one each
    assert "made-up" not in text and "fake-" not in text
    exported = run_app_process("export", "stats", "--days", "1", DATA_DIR=data).stdout
    [today] = list(csv.DictReader(io.StringIO(exported)))
    assert today["page_opens"] == "11"
