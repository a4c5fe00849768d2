"""Conversations and their messages, as stored: what the page shows, what the model is given, what the owner reads."""

from __future__ import annotations

from replica.storage.database import Database, Transaction, the_row
from replica.storage.records import VISITOR, AlertKind, Role
from replica.storage.rows import (
    ConversationInfo,
    ConversationListing,
    ConversationStart,
    ConversationState,
    MessageRecord,
    MessageText,
    typed,
)


class ConversationRecords:
    """One conversation per visitor session, each with its messages, handoff state and activity time."""

    def __init__(self, db: Database):
        self.db = db

    def begin(self, session: str, address_hash: str, now: float) -> ConversationStart:
        """The conversation of ``session`` (started now if new)."""

        def steps(tx: Transaction) -> ConversationStart:
            tx.execute(
                "INSERT INTO conversations (session, address_hash, started_at, last_at) VALUES (?, ?, ?, ?) "
                "ON CONFLICT DO NOTHING",
                (session, address_hash, now, now),
            )
            row = the_row(tx.execute("SELECT id, paused_until FROM conversations WHERE session = ?", (session,)))
            return typed(ConversationStart, row)

        return self.db.write(steps)

    def add_message(
        self,
        conversation_id: int,
        role: Role,
        text: str,
        at: float,
        tools: tuple[str, ...] = (),
        model_calls: int = 0,
        reply_ms: int | None = None,
        shown: bool = True,
        activity: bool = False,
        facts: tuple[str, ...] = (),
    ) -> int:
        """Store one message; with ``activity``, it also moves the conversation's last activity time.
        ``facts`` are what the reply's tools did, one line each."""

        tools_text, facts_text = ",".join(tools), "\n".join(facts)

        def steps(tx: Transaction) -> int:
            row = the_row(
                tx.execute(
                    "INSERT INTO messages (conversation_id, role, text, at, tools, model_calls, reply_ms, shown, facts) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
                    (conversation_id, role, text, at, tools_text, model_calls, reply_ms, int(shown), facts_text),
                )
            )
            if activity:
                tx.execute("UPDATE conversations SET last_at = ? WHERE id = ?", (at, conversation_id))
            return row["id"]

        return self.db.write(steps)

    def messages(self, conversation_id: int, leave_out_role: str = "") -> list[MessageRecord]:
        """The conversation's messages, oldest first."""
        rows = self.db.read(
            "SELECT role, text, at, tools, model_calls, reply_ms FROM messages WHERE conversation_id = ? AND role != ? "
            "ORDER BY id",
            (conversation_id, leave_out_role),
        )
        return [typed(MessageRecord, row) for row in rows]

    def facts(self, conversation_id: int) -> list[str]:
        """What the tools did in the conversation so far, oldest first, one line each."""
        rows = self.db.read(
            "SELECT facts FROM messages WHERE conversation_id = ? AND facts != '' ORDER BY id", (conversation_id,)
        )
        return [fact for row in rows for fact in row["facts"].split("\n")]

    def messages_of_session(self, session: str) -> list[MessageText]:
        """The messages of ``session``'s conversation, oldest first."""
        rows = self.db.read(
            "SELECT m.role, m.text FROM conversations c JOIN messages m ON m.conversation_id = c.id "
            "WHERE c.session = ? ORDER BY m.id",
            (session,),
        )
        return [typed(MessageText, row) for row in rows]

    def of_session(self, session: str) -> ConversationState | None:
        """``session``'s conversation; ``None`` before its first message."""
        rows = self.db.read("SELECT id, last_at, paused_until FROM conversations WHERE session = ?", (session,))
        return typed(ConversationState, rows[0]) if rows else None

    def get(self, conversation_id: int) -> ConversationInfo | None:
        """One conversation by number."""
        rows = self.db.read(
            "SELECT id, session, started_at, last_at, paused_until, kept_by_browser FROM conversations WHERE id = ?",
            (conversation_id,),
        )
        return typed(ConversationInfo, rows[0], kept_by_browser=bool(rows[0]["kept_by_browser"])) if rows else None

    def mark_kept_by_browser(self, session: str) -> bool:
        """Mark ``session``'s conversation as one its visitor's browser keeps (it can open it again);
        False when there is no such conversation. Marked once: later calls only read."""
        rows = self.db.read("SELECT kept_by_browser FROM conversations WHERE session = ?", (session,))
        if rows and not rows[0]["kept_by_browser"]:
            self.db.write(
                lambda tx: tx.execute("UPDATE conversations SET kept_by_browser = 1 WHERE session = ?", (session,))
            )
        return bool(rows)

    def take_unshown(self, conversation_id: int) -> int:
        """Mark the messages the visitor's page has not shown yet as shown; return how many there were."""

        def steps(tx: Transaction) -> int:
            return tx.execute(
                "UPDATE messages SET shown = 1 WHERE conversation_id = ? AND shown = 0", (conversation_id,)
            ).rowcount

        return self.db.write(steps)

    def was_shown(self, message_id: int) -> bool:
        """True once the visitor's page has shown the message."""
        rows = self.db.read("SELECT shown FROM messages WHERE id = ?", (message_id,))
        return bool(rows and rows[0]["shown"])

    def claim_handoff_notice(self, conversation_id: int) -> bool:
        """True for the one caller that gets to tell the visitor of the handoff (the page or the reply)."""
        return self.db.write(
            lambda tx: (
                tx.execute(
                    "UPDATE conversations SET handoff_told = 1 WHERE id = ? AND handoff_told = 0", (conversation_id,)
                ).rowcount
                > 0
            )
        )

    def pause(self, conversation_id: int, until: float) -> bool:
        """The owner has the conversation until ``until``; False if there is no such conversation."""
        return self.db.write(
            lambda tx: (
                tx.execute(
                    "UPDATE conversations SET paused_until = ?, handoff_told = 0 WHERE id = ?", (until, conversation_id)
                ).rowcount
                > 0
            )
        )

    def extend_pause(self, conversation_id: int, until: float) -> None:
        """Keep a handoff going until ``until`` (nothing changes when the conversation is not paused)."""
        self.db.write(
            lambda tx: tx.execute(
                "UPDATE conversations SET paused_until = ? WHERE id = ? AND paused_until IS NOT NULL",
                (until, conversation_id),
            )
        )

    def resume(self, conversation_id: int) -> bool:
        """Give the conversation back to the replica; False if it was not paused."""
        return self.db.write(
            lambda tx: (
                tx.execute(
                    "UPDATE conversations SET paused_until = NULL WHERE id = ? AND paused_until IS NOT NULL",
                    (conversation_id,),
                ).rowcount
                > 0
            )
        )

    def paused_until_before(self, now: float) -> list[int]:
        """The conversations whose handoff ran out before ``now``."""
        rows = self.db.read("SELECT id FROM conversations WHERE paused_until IS NOT NULL AND paused_until <= ?", (now,))
        return [row["id"] for row in rows]

    def recent(self, limit: int) -> list[ConversationListing]:
        """The latest conversations, newest first, with their first visitor message, size, lead and question."""
        rows = self.db.read(
            "SELECT c.id, c.started_at, c.paused_until, "
            "(SELECT text FROM messages WHERE conversation_id = c.id AND role = ? ORDER BY id LIMIT 1) AS first, "
            "(SELECT COUNT(*) FROM messages WHERE conversation_id = c.id) AS size, "
            "EXISTS (SELECT 1 FROM leads WHERE session = c.session) AS lead, "
            "EXISTS (SELECT 1 FROM askers WHERE session = c.session) AS question "
            "FROM conversations c ORDER BY c.last_at DESC, c.id DESC LIMIT ?",
            (VISITOR, limit),
        )
        return [typed(ConversationListing, row, lead=bool(row["lead"]), question=bool(row["question"])) for row in rows]

    def delete_idle_since(self, cutoff: float) -> int:
        """Delete conversations with no activity since ``cutoff``, with their messages, their transcript
        links, and the delivered copies of their forwarded messages; also any other delivered alert that
        is not about a lead or question (forwarded messages, digests) older than that. Leads and questions
        are records the owner keeps. Returns how many conversations went."""
        old = "SELECT id FROM conversations WHERE last_at < ?"

        def steps(tx: Transaction) -> int:
            tx.execute(f"DELETE FROM messages WHERE conversation_id IN ({old})", (cutoff,))
            tx.execute(f"DELETE FROM telegram_links WHERE conversation_id IN ({old})", (cutoff,))
            # Delivered copies only: an alert still waiting for Telegram or another channel stays.
            doomed = (
                "SELECT id FROM outbox WHERE kind NOT IN (?, ?) "
                f"AND (conversation_id IN ({old}) OR created_at < ?) AND NOT EXISTS "
                "(SELECT 1 FROM deliveries d WHERE d.alert_id = outbox.id AND d.status = 'pending')"
            )
            kept = (AlertKind.LEAD, AlertKind.QUESTION)  # the records' own alerts go with the records
            tx.execute(f"DELETE FROM deliveries WHERE alert_id IN ({doomed})", (*kept, cutoff, cutoff))
            tx.execute(f"DELETE FROM outbox WHERE id IN ({doomed})", (*kept, cutoff, cutoff))
            return tx.execute("DELETE FROM conversations WHERE last_at < ?", (cutoff,)).rowcount

        return self.db.write(steps)
