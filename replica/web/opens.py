"""Page opens, counted without tracking anyone: a number per UTC day, under where the visitor came from.

Each ``GET /`` of the page (the page's own load, also inside the widget's panel) adds one to its day's
count, once per client a day: a reload, a second tab or a script asking 600 times in 3 seconds is one
open. The client is its address group (an IPv6 /64 is one), read as the rest of the app reads it (the
hop our own proxies added, ``TRUSTED_PROXY_HOPS``), and remembered in memory only, as a hash keyed with
a secret made for the day, forgotten when the UTC day changes, at most :data:`CLIENTS_PER_DAY` of them.

Where the visitor came from is named from a closed list (:mod:`replica.stats.sources`): the link's
``utm_source`` and the referring site's host (never the address of the page, no cookie, no user agent)
are counted under a well-known or the owner's own name, or as "other", never under a name a visitor
made up. A reload or a link inside the page itself counts with no site.
"""

from __future__ import annotations

import hashlib
import logging
import re
import secrets
import threading
from urllib.parse import parse_qs, urlsplit

from replica.inbox.recorder import address_group
from replica.runtime.clock import REAL_CLOCK, Clock
from replica.stats.sources import KNOWN, SourceList
from replica.storage import Store
from replica.storage.database import storage_errors
from replica.storage.figures import utc_day
from replica.web.guard import Scope, trusted_hop
from replica.web.preview import page_url

log = logging.getLogger(__name__)
PLAIN_HOST = re.compile(r"[a-z0-9.-]{1,100}")
# Clients remembered a day: past them, opens are not counted until the day changes, so a flood from many
# addresses costs at most a few MB (8-byte hashes in a set) and adds at most this many to a day's count.
CLIENTS_PER_DAY = 100_000


def referring_host(referer: str, own_host: str) -> str:
    """The host a visitor came from ("linkedin.com"), ``""`` for none, the page's own, or no plain host."""
    try:
        host = (urlsplit(referer.strip()).hostname or "").lower().removeprefix("www.")
    except ValueError:
        return ""
    own = own_host.lower().split(":")[0].removeprefix("www.")
    return host if PLAIN_HOST.fullmatch(host) and host != own else ""


def utm_source(query_string: str) -> str:
    """The page address's first ``utm_source`` as sent ("LinkedIn", "qr code"), stripped and cut to 100
    characters, ``""`` for none: :class:`replica.stats.sources.SourceList` names it."""
    values = parse_qs(query_string, max_num_fields=20).get("utm_source", [""])
    return values[0].strip()[:100]


def client_group(scope: Scope, trusted_proxy_hops: int) -> str:
    """The address group of the client that asked (an IPv6 /64 is one), read as the guard reads a
    caller's address: the hop our own proxies recorded in ``X-Forwarded-For``, else the direct peer."""
    direct = (scope.get("client") or ("unknown", 0))[0]
    forwarded = b",".join(value for name, value in scope.get("headers") or [] if name == b"x-forwarded-for")
    return address_group(trusted_hop(forwarded.decode("latin-1"), trusted_proxy_hops) or direct)


class DailyClients:
    """The clients that opened the page on one UTC day, as 8-byte hashes keyed with a secret made for that
    day (never written anywhere, so no hash can be matched to an address, or across days): each client's
    first open of a day counts, and the day's hashes are dropped when the next one begins."""

    def __init__(self, limit: int = CLIENTS_PER_DAY):
        self._limit = limit
        self._lock = threading.Lock()  # opens are counted on the server's worker threads
        self._day = ""
        self._key = b""
        self._seen: set[int] = set()
        self._full_told = False

    def first_today(self, group: str, day: str) -> bool:
        """Whether ``group``'s open on ``day`` (ISO) is its first that day, and so counts; False past
        the day's limit of clients too."""
        with self._lock:
            if day != self._day:
                self._day, self._key, self._seen, self._full_told = day, secrets.token_bytes(32), set(), False
            digest = hashlib.blake2b(group.encode("utf-8", "replace"), key=self._key, digest_size=8).digest()
            hashed = int.from_bytes(digest, "big")
            if hashed in self._seen:
                return False
            if len(self._seen) >= self._limit:
                if not self._full_told:  # once a day: a flood must not flood the log too
                    self._full_told = True
                    log.warning("Page opens: %d clients counted today (UTC); no more are counted today", self._limit)
                return False
            self._seen.add(hashed)
            return True

    def __len__(self) -> int:
        return len(self._seen)


class OpenCounter:
    """Counts each client's first page open of the day in ``store``, under a name from ``sources``; a
    database error is logged and the page is served all the same."""

    def __init__(
        self,
        store: Store,
        trusted_proxy_hops: int,
        clock: Clock = REAL_CLOCK,
        sources: SourceList = KNOWN,
        clients: DailyClients | None = None,
    ):
        self._store = store
        self._hops = trusted_proxy_hops
        self._clock = clock
        self._sources = sources
        self.clients = clients or DailyClients()

    def count(self, scope: Scope) -> None:
        """Count the open of the page ``scope`` asked for (an ASGI ``GET /``), if it is its client's first today."""
        day = utc_day(self._clock.time()).isoformat()
        if not self.clients.first_today(client_group(scope, self._hops), day):
            return
        headers = {key.decode("latin-1").lower(): value.decode("latin-1") for key, value in scope.get("headers", [])}
        own = urlsplit(page_url(scope, None, self._hops)).netloc
        host = referring_host(headers.get("referer", ""), own)
        source = utm_source(scope.get("query_string", b"").decode("latin-1"))
        try:
            self._store.figures.count_open(day, *self._sources.counted(host, source))
        except storage_errors() as error:
            log.error("Could not count a page open (%s)", type(error).__name__)
