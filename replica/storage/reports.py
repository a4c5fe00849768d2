"""What exports and the daily digest read across conversations: whole records, and a day's figures."""

from __future__ import annotations

from typing import Iterator

from replica.storage.conversation_records import ConversationRecords
from replica.storage.database import Database
from replica.storage.records import VISITOR, iso
from replica.storage.rows import DayStats, typed


class Reports:
    """Read-only views over the conversations, for ``export conversations`` and the digest."""

    def __init__(self, db: Database, conversations: ConversationRecords):
        self.db = db
        self._conversations = conversations

    def records(self) -> Iterator[dict]:
        """Every conversation with its messages, oldest first, times in ISO 8601 (for ``export conversations``)."""
        for row in self.db.read("SELECT id, started_at, last_at, address_hash FROM conversations ORDER BY id"):
            yield {
                "conversation": row["id"],
                "started_at": iso(row["started_at"]),
                "last_at": iso(row["last_at"]),
                "address_hash": row["address_hash"],
                "messages": [
                    {
                        "at": iso(m.at),
                        "role": m.role,
                        "text": m.text,
                        "tools": [t for t in m.tools.split(",") if t],
                        "model_calls": m.model_calls,
                        "reply_ms": m.reply_ms,
                    }
                    for m in self._conversations.messages(row["id"])
                ],
            }

    def day_stats(self, start: float, end: float) -> DayStats:
        """For the digest: conversations with messages, visitor messages and model calls from ``start`` to
        before ``end``."""
        [row] = self.db.read(
            "SELECT COUNT(DISTINCT conversation_id) AS conversations, "
            "SUM(CASE WHEN role = ? THEN 1 ELSE 0 END) AS messages, COALESCE(SUM(model_calls), 0) AS model_calls "
            "FROM messages WHERE at >= ? AND at < ?",
            (VISITOR, start, end),
        )
        return typed(DayStats, row, messages=row["messages"] or 0)

    def texts_between(self, start: float, end: float, role: str) -> list[str]:
        """The words of every ``role`` message from ``start`` to before ``end``."""
        rows = self.db.read("SELECT text FROM messages WHERE role = ? AND at >= ? AND at < ?", (role, start, end))
        return [row["text"] for row in rows]
