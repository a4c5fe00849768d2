"""Page opens, counted without tracking anyone: a number per UTC day, referring host and ``utm_source``.

Each ``GET /`` of the page (the page's own load, also inside the widget's panel) adds one to its day's
count. Nothing about the visitor is kept: no cookie is set, no address, no full referring URL (only
its host: "linkedin.com"), no user agent. A reload or a link inside the page itself counts with no
host. The values a visitor controls are cut to a short, plain form, and a day keeps at most 50
distinct (host, source) pairs (:data:`replica.storage.figures.SOURCES_PER_DAY`), so nobody can fill
the table with made-up ones.
"""

from __future__ import annotations

import logging
import re
import time
from typing import Callable
from urllib.parse import parse_qs, urlsplit

from replica.storage import Store
from replica.storage.database import storage_errors
from replica.storage.figures import utc_day
from replica.web.preview import page_url

log = logging.getLogger(__name__)
PLAIN_HOST = re.compile(r"[a-z0-9.-]{1,100}")
PLAIN_SOURCE = re.compile(r"[a-z0-9._-]{1,40}")


def referring_host(referer: str, own_host: str) -> str:
    """The host a visitor came from ("linkedin.com"), ``""`` for none, the page's own, or no plain host."""
    try:
        host = (urlsplit(referer.strip()).hostname or "").lower().removeprefix("www.")
    except ValueError:
        return ""
    own = own_host.lower().split(":")[0].removeprefix("www.")
    return host if PLAIN_HOST.fullmatch(host) and host != own else ""


def utm_source(query_string: str) -> str:
    """The page address's ``utm_source`` ("linkedin", "qr"), lower-case, ``""`` for none or no plain one."""
    values = parse_qs(query_string, max_num_fields=20).get("utm_source", [""])
    source = values[0].strip().lower()[:40]
    return source if PLAIN_SOURCE.fullmatch(source) else ""


class OpenCounter:
    """Counts each page open in ``store``; a database error is logged and the page is served all the same."""

    def __init__(self, store: Store, trusted_proxy_hops: int, clock: Callable[[], float] = time.time):
        self._store = store
        self._hops = trusted_proxy_hops
        self._clock = clock

    def count(self, scope: dict) -> None:
        """Count the open of the page ``scope`` asked for (an ASGI ``GET /``)."""
        headers = {key.decode("latin-1").lower(): value.decode("latin-1") for key, value in scope.get("headers", [])}
        own = urlsplit(page_url(scope, None, self._hops)).netloc
        host = referring_host(headers.get("referer", ""), own)
        source = utm_source(scope.get("query_string", b"").decode("latin-1"))
        day = utc_day(self._clock()).isoformat()
        try:
            self._store.figures.count_open(day, host, source)
        except storage_errors() as error:
            log.error("Could not count a page open (%s)", type(error).__name__)
