"""The outbox: alerts queued with the record they are about, each with a delivery per channel.

A lead or question beyond its visitor's alert cap is stored without an alert, and kept count of
(``capped_alerts``): the log says so at most once a minute, ``/status`` counts them, and the next alert
raised from the same address tells of them (the count is stored, so it holds across restarts and
instances).
"""

from __future__ import annotations

import logging
from typing import Mapping

from replica.logs import EveryMinute
from replica.runtime.clock import REAL_CLOCK, Clock
from replica.settings import BY_FIELD
from replica.storage.database import Database, Transaction, the_row
from replica.storage.deliveries import Deliveries
from replica.storage.records import AlertKind, CapReason, OutboxEntry, Recorded
from replica.storage.rows import AlertCount, KeptCount, typed
from replica.storage.state import set_in

log = logging.getLogger(__name__)

ADDRESS_WINDOW_SECONDS = 3600.0  # the caps also hold per client address over this window: fresh sessions skip none
# The setting that caps each kind: named wherever a visitor's cap is explained (the log, /status).
CAP_SETTINGS = {
    AlertKind.LEAD: BY_FIELD["lead_alerts_per_visitor"].env,
    AlertKind.QUESTION: BY_FIELD["question_alerts_per_visitor"].env,
}
KEPT_LINE = (
    "Kept %%d %s(s) without an alert (logged at most once a minute): a visitor reached %s, %d alert(s) per "
    "browser session and per address within an hour. They are stored; /status counts them, and the next "
    "alert from that address says how many. To try the app from one address, raise %s."
)


class Outbox:
    """The alerts raised, shared by every instance on the database.

    ``alert_caps`` maps an alert kind (a lead, a question) to how many alerts one visitor session may
    raise, and one client address (its salted hash) within an hour, however many sessions it opens;
    records beyond the cap are stored but not alerted, and counted (``capped_alerts``). An outbox row is
    the alert and what it is about; how it travels to each channel is its deliveries'
    (:mod:`replica.storage.deliveries`), queued with it.
    """

    def __init__(
        self,
        db: Database,
        deliveries: Deliveries,
        alert_caps: Mapping[AlertKind, int] | None = None,
        clock: Clock = REAL_CLOCK,  # stamps when alerts are raised
    ):
        self.db = db
        self._deliveries = deliveries
        self._clock = clock
        self.alert_caps: Mapping[AlertKind, int] = alert_caps or {}
        # A flood from one address beyond its cap costs a log line a minute, counting what was kept.
        self._kept_lines = {
            kind: EveryMinute(log, KEPT_LINE % (kind, CAP_SETTINGS[kind], cap, CAP_SETTINGS[kind]), clock=clock)
            for kind, cap in self.alert_caps.items()
            if kind in CAP_SETTINGS
        }

    def queue_in(
        self, tx: Transaction, entry: OutboxEntry, lead_id: int | None = None, question_id: int | None = None
    ) -> Recorded:
        """Queue ``entry`` inside ``tx`` (the transaction that stores its record), unless the visitor has
        reached the cap for its kind, in this session or from this address within the hour: then the
        record is counted as kept without an alert. An alert queued from an address takes over the count
        of those kept from it that no alert has told of yet (its sender says how many)."""
        reason = self._capped(tx, entry)
        if reason:
            tx.execute(
                "INSERT INTO capped_alerts (kind, reason, session, address, lead_id, question_id, created_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                (entry.kind, reason, entry.session, entry.address, lead_id, question_id, self._clock.time()),
            )
            return Recorded.CAPPED
        row = the_row(
            tx.execute(
                "INSERT INTO outbox (kind, session, address, alert, lead_id, question_id, conversation_id, created_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
                (
                    entry.kind,
                    entry.session,
                    entry.address,
                    entry.payload,
                    lead_id,
                    question_id,
                    entry.conversation,
                    self._clock.time(),
                ),
            )
        )
        if entry.address:  # a visitor with no known address has no "same address" to tell of
            tx.execute(
                "UPDATE capped_alerts SET told_in = ? WHERE address = ? AND told_in IS NULL",
                (row["id"], entry.address),
            )
        self._deliveries.queue_in(tx, row["id"])
        return Recorded.ALERTED

    def _capped(self, tx: Transaction, entry: OutboxEntry) -> CapReason | None:
        cap = self.alert_caps.get(entry.kind)
        if cap is None:
            return None
        in_session = the_row(
            tx.execute("SELECT COUNT(*) AS n FROM outbox WHERE session = ? AND kind = ?", (entry.session, entry.kind))
        )["n"]
        if in_session >= cap:
            return CapReason.SESSION
        if not entry.address:
            return None
        from_address = the_row(
            tx.execute(
                "SELECT COUNT(*) AS n FROM outbox WHERE address = ? AND kind = ? AND created_at > ?",
                (entry.address, entry.kind, self._clock.time() - ADDRESS_WINDOW_SECONDS),
            )
        )["n"]
        return CapReason.ADDRESS if from_address >= cap else None

    def stored(self, kind: AlertKind, recorded: Recorded) -> Recorded:
        """Once a record is stored: one kept without an alert is logged (a line a minute at most, counting
        them). Returns ``recorded``."""
        if recorded is Recorded.CAPPED and kind in self._kept_lines:
            self._kept_lines[kind]()
        return recorded

    def raised_within(self, seconds: float) -> list[AlertCount]:
        """How many lead and question alerts were raised in the last ``seconds``, by kind."""
        rows = self.db.read(
            "SELECT kind, COUNT(*) AS alerts FROM outbox WHERE kind IN (?, ?) AND created_at >= ? GROUP BY kind"
            " ORDER BY kind",
            (AlertKind.LEAD, AlertKind.QUESTION, self._clock.time() - seconds),
        )
        return [typed(AlertCount, row) for row in rows]

    def kept_within(self, seconds: float) -> list[KeptCount]:
        """The leads and questions kept without an alert in the last ``seconds``, by kind and reason."""
        rows = self.db.read(
            "SELECT kind, reason, COUNT(*) AS records, COUNT(told_in) AS told, "
            "COUNT(DISTINCT CASE WHEN address = '' THEN session ELSE address END) AS visitors "
            "FROM capped_alerts WHERE created_at >= ? GROUP BY kind, reason ORDER BY kind, reason",
            (self._clock.time() - seconds,),
        )
        return [typed(KeptCount, row) for row in rows]

    def queue(self, entry: OutboxEntry, once: tuple[str, str] | None = None) -> Recorded | None:
        """Queue an alert that is about no lead or question (a forwarded message, the digest).

        With ``once=(key, value)``, only if the state ``key`` does not hold ``value`` yet; it is set in the
        same transaction, so the alert is queued once even across restarts. Returns ``None`` if it was.
        """

        def steps(tx: Transaction) -> Recorded | None:
            if once:
                row = tx.execute_locked("SELECT value FROM state WHERE key = ?", (once[0],)).fetchone()
                if row and row["value"] == once[1]:
                    return None
                set_in(tx, *once)
            return self.queue_in(tx, entry)

        return self.db.write(steps)
