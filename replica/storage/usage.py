"""Usage counted for the limits shared by every instance: events per key in a window, and calls per day."""

from __future__ import annotations

from replica.runtime.clock import REAL_CLOCK, Clock
from replica.storage.database import Database, Transaction, the_row


class Usage:
    """Sliding-window counts per key (a salted address hash), and a per-day count of model calls."""

    def __init__(self, db: Database, clock: Clock = REAL_CLOCK):
        self.db = db
        self._clock = clock

    def take(self, key: str, limit: int, window: float) -> bool:
        """Count one event for ``key`` if fewer than ``limit`` happened in the last ``window`` seconds
        (across every instance on this database); False, and nothing counted, when the limit is reached."""

        def steps(tx: Transaction) -> bool:
            now = self._clock.time()
            tx.execute("DELETE FROM usage_events WHERE key = ? AND at <= ?", (key, now - window))
            used = the_row(tx.execute("SELECT COUNT(*) AS n FROM usage_events WHERE key = ?", (key,)))["n"]
            if used >= limit:
                return False
            tx.execute("INSERT INTO usage_events (key, at) VALUES (?, ?)", (key, now))
            return True

        return self.db.write(steps)

    def take_daily(self, day: str, limit: int) -> bool:
        """Use one of ``day``'s ``limit`` units, shared by every instance; False when none is left."""
        return self.db.write(
            lambda tx: (
                tx.execute(
                    "INSERT INTO daily_calls (day, used) VALUES (?, 1) ON CONFLICT (day) DO UPDATE "
                    "SET used = daily_calls.used + 1 WHERE daily_calls.used < ? RETURNING used",
                    (day, limit),
                ).fetchone()
                is not None
                and limit > 0
            )
        )

    def sweep(self, window: float, today: str) -> int:
        """Delete usage counts older than ``window`` seconds, and daily counts of days before ``today``
        (run on a clock, so nothing is kept longer than its limit needs); return how many rows went."""

        def steps(tx: Transaction) -> int:
            events = tx.execute("DELETE FROM usage_events WHERE at <= ?", (self._clock.time() - window,)).rowcount
            return events + tx.execute("DELETE FROM daily_calls WHERE day < ?", (today,)).rowcount

        return self.db.write(steps)

    def keys(self) -> list[str]:
        """The keys counted now (salted hashes, never an address)."""
        return [row["key"] for row in self.db.read("SELECT DISTINCT key FROM usage_events ORDER BY key")]
