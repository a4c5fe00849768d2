"""The owner's inbox: every conversation recorded, and the owner stepping into one from Telegram.

- **Record.** Each visitor message and each reply (or refusal) is stored with its time, the tools
  called, the number of model calls and the reply time. The client address is kept only as a salted
  hash (the salt is kept in the database). Conversations older than the retention period are deleted.
- **Takeover.** The owner's words (``/say``) are stored in the conversation, shown by the visitor's page
  at its next check, and part of the history the model sees afterwards.
- **Handoff.** A paused conversation is the owner's: the replica does not answer there, and the
  visitor's messages are forwarded to Telegram at once. It resumes on ``/resume``, or by itself after
  ``handoff_seconds`` without a word from the owner.

Recording never stands in the visitor's way: a database error is logged and the chat goes on.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import secrets
import threading
import time
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Iterator

from replica.alerts import Alert, Notifier
from replica.storage.store import Store

log = logging.getLogger(__name__)

VISITOR, REPLICA, OWNER, NOTICE = "visitor", "replica", "owner", "notice"
HANDOFF_SECONDS = 30 * 60
IDLE_SECONDS = 30 * 60  # the page stops checking for the owner's words after this long without activity
PAGE_OPEN_SECONDS = 15  # a page that checked this recently is open
SALT_FILE = "address-salt"  # where earlier versions kept the salt
SALT_KEY = "address_salt"
HANDED_OVER = "{owner} is answering you in person now, and gets your messages directly. Their replies will appear here."
PASSED_ON = "Passed on to {owner}."


@dataclass(frozen=True)
class Conversation:
    """One visitor session's conversation: its number, and whether the owner has it."""

    id: int
    session: str
    paused: bool = False


def address_salt(store: Store, data_dir: Path) -> str:
    """The salt for address hashes: made once and kept in the database (readable by the owner only),
    so every instance on one database hashes an address alike. A salt an older version kept in
    ``DATA_DIR`` is taken over, so earlier hashes still match."""
    legacy = data_dir / SALT_FILE
    candidate = legacy.read_text(encoding="utf-8").strip() if legacy.is_file() else ""
    return store.shared_value(SALT_KEY, candidate or secrets.token_hex(32))


class Inbox:
    """Conversations in ``store``; ``notifier`` is woken when a visitor's message is forwarded."""

    def __init__(
        self,
        store: Store,
        salt: str,
        owner_name: str,
        notifier: Notifier,
        handoff_seconds: float = HANDOFF_SECONDS,
        clock=time.time,
    ):
        self.store = store
        self.owner_name = owner_name
        self._salt = salt
        self._notifier = notifier
        self._handoff_seconds = handoff_seconds
        self._clock = clock
        self._lock = threading.Lock()
        self._busy: set[str] = set()  # sessions with a reply under way: their page is not updated meanwhile
        self._seen: dict[str, float] = {}  # session -> when its page last checked

    # --- recording --------------------------------------------------------------------------------

    def address_hash(self, address: str) -> str:
        """The client address, salted and hashed: the same visitor is recognisable, their address is not."""
        return hashlib.sha256(f"{self._salt}:{address}".encode()).hexdigest()[:24]

    def begin(self, session: str, address: str) -> Conversation | None:
        """The conversation of ``session`` (started now if new); ``None`` if the database fails."""
        now = self._clock()

        def steps(db: Any) -> Any:
            db.execute(
                "INSERT INTO conversations (session, address_hash, started_at, last_at) VALUES (?, ?, ?, ?) "
                "ON CONFLICT DO NOTHING",
                (session, self.address_hash(address), now, now),
            )
            return db.execute("SELECT id, paused_until FROM conversations WHERE session = ?", (session,)).fetchone()

        try:
            row = self.store.write(steps)
        except Exception as error:
            log.error("Could not record the conversation (%s); answering without it", type(error).__name__)
            return None
        paused = row["paused_until"] is not None and row["paused_until"] > now
        return Conversation(row["id"], session, paused)

    def record(
        self,
        conversation_id: int,
        role: str,
        text: str,
        tools: tuple[str, ...] = (),
        model_calls: int = 0,
        reply_ms: int | None = None,
        shown: bool = True,
    ) -> int | None:
        """Store one message; visitor and owner messages count as activity. Returns its id (``None`` on a
        database error, which is logged)."""
        now = self._clock()

        def steps(db: Any) -> int:
            row = db.execute(
                "INSERT INTO messages (conversation_id, role, text, at, tools, model_calls, reply_ms, shown) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
                (conversation_id, role, text, now, ",".join(tools), model_calls, reply_ms, int(shown)),
            ).fetchone()
            if role in (VISITOR, OWNER):
                db.execute("UPDATE conversations SET last_at = ? WHERE id = ?", (now, conversation_id))
            return row["id"]

        try:
            return self.store.write(steps)
        except Exception as error:
            log.error("Could not record a %s message (%s)", role, type(error).__name__)
            return None

    def history(self, conversation_id: int) -> list[dict[str, str]]:
        """The conversation so far as Chat Completions messages; the owner's words are marked as theirs.
        Empty (and logged) when the database cannot be read."""
        try:
            rows = self.store.read(
                "SELECT role, text FROM messages WHERE conversation_id = ? AND role != ? ORDER BY id",
                (conversation_id, NOTICE),
            )
        except Exception as error:
            log.error("Could not read the conversation (%s); answering without its history", type(error).__name__)
            return []
        own = f"[{self.owner_name}, in person] "
        return [
            {
                "role": "user" if row["role"] == VISITOR else "assistant",
                "content": own * (row["role"] == OWNER) + row["text"],
            }
            for row in rows
        ]

    # --- the visitor's page ---------------------------------------------------------------------------

    @contextlib.contextmanager
    def replying(self, session: str) -> Iterator[None]:
        """While a reply streams, the page is left alone (an update would be overwritten by the stream)."""
        with self._lock:
            self._busy.add(session)
        try:
            yield
        finally:
            with self._lock:
                self._busy.discard(session)

    def page_messages(self, session: str) -> list[tuple[str, str]]:
        """Every recorded message of ``session``'s conversation, oldest first, as (role, text): what its
        page shows."""
        rows = self.store.read(
            "SELECT m.role, m.text FROM conversations c JOIN messages m ON m.conversation_id = c.id "
            "WHERE c.session = ? ORDER BY m.id",
            (session,),
        )
        return [(row["role"], row["text"]) for row in rows]

    def for_page(self, session: str) -> tuple[bool, bool]:
        """Whether the owner's words or a notice arrived for ``session``'s page since it last checked (now
        marked shown), and whether the page should keep checking: while there was activity in the last
        30 minutes, and for as long as the owner has the conversation (so the notice that the replica is
        back reaches it)."""
        now = self._clock()
        with self._lock:
            self._seen[session] = now
            for stale in [s for s, at in self._seen.items() if now - at > PAGE_OPEN_SECONDS * 4]:
                del self._seen[stale]
            if session in self._busy:
                return False, True
        rows = self.store.read("SELECT id, last_at, paused_until FROM conversations WHERE session = ?", (session,))
        if not rows:
            return False, True  # no conversation yet: the page goes on checking until the visitor writes
        conversation = rows[0]
        pending = [
            row["id"]
            for row in self.store.read(
                "SELECT id FROM messages WHERE conversation_id = ? AND shown = 0", (conversation["id"],)
            )
        ]
        if pending:
            self.store.write(
                lambda db: db.execute(
                    f"UPDATE messages SET shown = 1 WHERE id IN ({','.join('?' * len(pending))})", pending
                )
            )
        news = bool(pending)
        paused = conversation["paused_until"] is not None
        if paused and conversation["paused_until"] > now and self._tell_handoff(conversation["id"]):
            self.record(conversation["id"], NOTICE, HANDED_OVER.format(owner=self.owner_name))
            news = True
        return news, paused or now - conversation["last_at"] < IDLE_SECONDS

    def _tell_handoff(self, conversation_id: int) -> bool:
        """True for the one caller that gets to tell the visitor of the handoff (the page or the reply)."""
        return self.store.write(
            lambda db: (
                db.execute(
                    "UPDATE conversations SET handoff_told = 1 WHERE id = ? AND handoff_told = 0", (conversation_id,)
                ).rowcount
                > 0
            )
        )

    def page_open(self, conversation_id: int) -> bool:
        """True when the conversation's page checked for messages in the last few seconds."""
        row = self.conversation(conversation_id)
        with self._lock:
            seen = self._seen.get(row["session"]) if row else None
        return seen is not None and self._clock() - seen <= PAGE_OPEN_SECONDS

    def was_shown(self, message_id: int) -> bool:
        """True once the visitor's page has shown the message."""
        rows = self.store.read("SELECT shown FROM messages WHERE id = ?", (message_id,))
        return bool(rows and rows[0]["shown"])

    # --- the owner in the conversation ----------------------------------------------------------------

    def conversation(self, conversation_id: int) -> Any:
        """One conversation's row, or ``None``."""
        rows = self.store.read(
            "SELECT id, session, started_at, last_at, paused_until FROM conversations WHERE id = ?", (conversation_id,)
        )
        return rows[0] if rows else None

    def say(self, conversation_id: int, text: str) -> int | None:
        """Put the owner's words into the conversation (shown at the page's next check); keeps a handoff alive."""
        if self.conversation(conversation_id) is None:
            return None
        message_id = self.record(conversation_id, OWNER, text, shown=False)
        self.store.write(
            lambda db: db.execute(
                "UPDATE conversations SET paused_until = ? WHERE id = ? AND paused_until IS NOT NULL",
                (self._clock() + self._handoff_seconds, conversation_id),
            )
        )
        return message_id

    def pause(self, conversation_id: int) -> bool:
        """Hand the conversation to the owner; False if there is no such conversation."""
        until = self._clock() + self._handoff_seconds
        return self.store.write(
            lambda db: (
                db.execute(
                    "UPDATE conversations SET paused_until = ?, handoff_told = 0 WHERE id = ?", (until, conversation_id)
                ).rowcount
                > 0
            )
        )

    def resume(self, conversation_id: int, by_itself: bool = False) -> bool:
        """Give the conversation back to the replica and tell the visitor; False if it was not paused."""
        resumed = self.store.write(
            lambda db: (
                db.execute(
                    "UPDATE conversations SET paused_until = NULL WHERE id = ? AND paused_until IS NOT NULL",
                    (conversation_id,),
                ).rowcount
                > 0
            )
        )
        if resumed:
            why = f"{self.owner_name} has stepped away" if by_itself else f"{self.owner_name} handed back to me"
            self.record(
                conversation_id, NOTICE, f"{why}; I'm answering again, as {self.owner_name}'s replica.", shown=False
            )
        return resumed

    def resume_expired(self) -> list[int]:
        """Resume every handoff whose owner has been silent for ``handoff_seconds``; return their numbers."""
        rows = self.store.read(
            "SELECT id FROM conversations WHERE paused_until IS NOT NULL AND paused_until <= ?", (self._clock(),)
        )
        return [row["id"] for row in rows if self.resume(row["id"], by_itself=True)]

    def pass_to_owner(self, conversation: Conversation, message: str) -> str:
        """In a handed-over conversation: forward the visitor's message to the owner; return what the
        visitor is told (that the owner answers in person, the first time; a short receipt after)."""
        alert = Alert(
            kind="visitor",
            title=f"Message in conversation #{conversation.id}",
            fields=(("Visitor", message),),
            session_id=conversation.session,
            hint="Reply to this message to answer them in person, or /resume to hand back to the replica.",
            quoted=("Visitor",),
            conversation=conversation.id,
        )
        self.store.queue_alert(alert)
        self._notifier.notify(alert)
        told_now = self._tell_handoff(conversation.id)
        return (HANDED_OVER if told_now else PASSED_ON).format(owner=self.owner_name)

    # --- reading and keeping ----------------------------------------------------------------------

    def recent(self, limit: int = 10) -> list[Any]:
        """The latest conversations, newest first, with their first visitor message, size, lead and question."""
        return self.store.read(
            "SELECT c.id, c.started_at, c.paused_until, "
            "(SELECT text FROM messages WHERE conversation_id = c.id AND role = 'visitor' ORDER BY id LIMIT 1) AS first, "
            "(SELECT COUNT(*) FROM messages WHERE conversation_id = c.id) AS size, "
            "EXISTS (SELECT 1 FROM leads WHERE session = c.session) AS lead, "
            "EXISTS (SELECT 1 FROM questions WHERE session = c.session) AS question "
            "FROM conversations c ORDER BY c.last_at DESC, c.id DESC LIMIT ?",
            (limit,),
        )

    def transcript(self, conversation_id: int) -> list[Any]:
        """Every message of the conversation, oldest first."""
        return _messages(self.store, conversation_id)

    def delete_older_than(self, days: int) -> int:
        """Delete conversations with no activity in ``days`` days, with their messages, their transcript
        links, and the delivered copies of their forwarded messages; also any other delivered alert that
        is not about a lead or question (forwarded messages, digests) older than that. Leads and questions
        are records the owner keeps. Returns how many conversations went."""
        cutoff = self._clock() - days * 86400
        cutoff_iso = datetime.fromtimestamp(cutoff, timezone.utc).isoformat(timespec="seconds")
        old = "SELECT id FROM conversations WHERE last_at < ?"

        def steps(db: Any) -> int:
            db.execute(f"DELETE FROM messages WHERE conversation_id IN ({old})", (cutoff,))
            db.execute(f"DELETE FROM telegram_links WHERE conversation_id IN ({old})", (cutoff,))
            db.execute(
                f"DELETE FROM outbox WHERE status != 'pending' AND kind NOT IN ('lead', 'question') "
                f"AND (conversation_id IN ({old}) OR created_at < ?)",
                (cutoff, cutoff_iso),
            )
            return db.execute("DELETE FROM conversations WHERE last_at < ?", (cutoff,)).rowcount

        deleted = self.store.write(steps)
        if deleted:
            log.info("Deleted %d conversation(s) older than %d days", deleted, days)
        return deleted


def _messages(store: Store, conversation_id: int) -> list[Any]:
    return store.read(
        "SELECT role, text, at, tools, model_calls, reply_ms FROM messages WHERE conversation_id = ? ORDER BY id",
        (conversation_id,),
    )


def conversation_records(store: Store) -> Iterator[dict[str, Any]]:
    """Every conversation with its messages, oldest first (for ``export conversations``)."""
    for row in store.read("SELECT id, started_at, last_at, address_hash FROM conversations ORDER BY id"):
        messages = _messages(store, row["id"])
        yield {
            "conversation": row["id"],
            "started_at": _iso(row["started_at"]),
            "last_at": _iso(row["last_at"]),
            "address_hash": row["address_hash"],
            "messages": [
                {
                    "at": _iso(m["at"]),
                    "role": m["role"],
                    "text": m["text"],
                    "tools": [t for t in m["tools"].split(",") if t],
                    "model_calls": m["model_calls"],
                    "reply_ms": m["reply_ms"],
                }
                for m in messages
            ],
        }


def _iso(epoch: float) -> str:
    return datetime.fromtimestamp(epoch, timezone.utc).isoformat(timespec="seconds")
