"""Every conversation recorded: the visitor's messages and the replies, with their tools, model calls
and reply time; the client address only as a salted hash; deleted after the retention period.

Recording never stands in the visitor's way: a database error is logged and the chat goes on.

A visitor is known by their address's group (:func:`address_group`): an IPv4 address whole, an IPv6
address by its /64 prefix, which one household or one server is given whole, so a visitor who walks
through the addresses of their /64 is still one visitor to every cap and count kept per address.
"""

from __future__ import annotations

import hashlib
import ipaddress
import logging
import secrets
from dataclasses import dataclass
from pathlib import Path

from replica.runtime.clock import REAL_CLOCK, Clock
from replica.storage import Store
from replica.storage.database import storage_errors
from replica.storage.figures import ReplyFigure, utc_day
from replica.storage.records import NOTICE, OWNER, REPLICA, VISITOR, Answered, Role

log = logging.getLogger(__name__)

SALT_FILE = "address-salt"  # where earlier versions kept the salt
SALT_KEY = "address_salt"
IPV6_GROUP_PREFIX = 64  # the prefix length one subscriber or one server is handed (RFC 6177)
__all__ = ["NOTICE", "OWNER", "REPLICA", "VISITOR", "Conversation", "Recorder", "address_group", "address_salt"]


def address_group(address: str) -> str:
    """The group a client address is counted in: an IPv4 address itself ("203.0.113.7"), an IPv6
    address its /64 ("2001:db8:1:2::/64"), an IPv4-mapped IPv6 address its IPv4 one ("::ffff:1.2.3.4" is
    "1.2.3.4"); anything that is no address ("unknown") as it is."""
    text = address.strip().removeprefix("[").removesuffix("]").split("%", 1)[0]  # "[…]" and a zone id off
    try:
        ip = ipaddress.ip_address(text)
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    if isinstance(ip, ipaddress.IPv4Address):
        return str(ip)
    return str(ipaddress.IPv6Network((ip, IPV6_GROUP_PREFIX), strict=False))


def in_person(owner: str) -> str:
    """What marks the owner's own words in the history the model reads ("[Jordan Avery, in person] ")."""
    return f"[{owner}, in person] "


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
    return store.state.shared(SALT_KEY, candidate or secrets.token_hex(32))


class Recorder:
    """Records conversations in ``store``; ``owner_name`` marks the owner's own words in the history."""

    def __init__(self, store: Store, salt: str, owner_name: str, clock: Clock = REAL_CLOCK):
        self.store = store
        self.owner_name = owner_name
        self._salt = salt
        self._clock = clock

    def address_hash(self, address: str) -> str:
        """The client address's group (:func:`address_group`), salted and hashed: the same visitor is
        recognisable, their address is not. The conversations, the shared limits and the alert caps per
        address all key on it."""
        return hashlib.sha256(f"{self._salt}:{address_group(address)}".encode()).hexdigest()[:24]

    def begin(self, session: str, address: str) -> Conversation | None:
        """The conversation of ``session`` (started now if new); ``None`` if the database fails."""
        now = self._clock.time()
        try:
            row = self.store.conversations.begin(session, self.address_hash(address), now)
        except storage_errors() as error:
            log.error("Could not record the conversation (%s); answering without it", type(error).__name__)
            return None
        paused = row.paused_until is not None and row.paused_until > now
        return Conversation(row.id, session, paused)

    def record(
        self,
        conversation_id: int,
        role: Role,
        text: str,
        tools: tuple[str, ...] = (),
        model_calls: int = 0,
        reply_ms: int | None = None,
        shown: bool = True,
        facts: tuple[str, ...] = (),
    ) -> int | None:
        """Store one message (with ``facts``: what its tools did, one line each); visitor and owner messages
        count as activity. Returns its id (``None`` on a database error, which is logged)."""
        try:
            return self.store.conversations.add_message(
                conversation_id,
                role,
                text,
                self._clock.time(),
                tools,
                model_calls,
                reply_ms,
                shown,
                activity=role in (VISITOR, OWNER),
                facts=facts,
            )
        except storage_errors() as error:
            log.error("Could not record a %s message (%s)", role, type(error).__name__)
            return None

    def count(
        self, conversation_id: int, opened: bool, answered: Answered, model_calls: int, tokens: int, reply_ms: int
    ) -> None:
        """Keep a reply's figures for the owner's charts (no words, no address); a database error is logged."""
        now = self._clock.time()
        figure = ReplyFigure(
            now, utc_day(now).isoformat(), conversation_id, opened, answered, model_calls, tokens, reply_ms
        )
        try:
            self.store.figures.add_reply(figure)
        except storage_errors() as error:
            log.error("Could not count a reply for the owner's charts (%s)", type(error).__name__)

    def history(self, conversation_id: int) -> list[dict[str, str]]:
        """The conversation so far as Chat Completions messages; the owner's words are marked as theirs.
        Empty (and logged) when the database cannot be read."""
        try:
            rows = self.store.conversations.messages(conversation_id, leave_out_role=NOTICE)
        except storage_errors() as error:
            log.error("Could not read the conversation (%s); answering without its history", type(error).__name__)
            return []
        own = in_person(self.owner_name)
        return [
            {
                "role": "user" if row.role == VISITOR else "assistant",
                "content": own * (row.role == OWNER) + row.text,
            }
            for row in rows
        ]

    def facts(self, conversation_id: int) -> list[str]:
        """What the replica's tools did in the conversation so far, oldest first; empty (and logged) when
        the database cannot be read."""
        try:
            return self.store.conversations.facts(conversation_id)
        except storage_errors() as error:
            log.error("Could not read the conversation's facts (%s)", type(error).__name__)
            return []

    def delete_older_than(self, days: int) -> int:
        """Delete conversations with no activity in ``days`` days (and what only they needed); return how many."""
        deleted = self.store.conversations.delete_idle_since(self._clock.time() - days * 86400)
        if deleted:
            log.info("Deleted %d conversation(s) older than %d days", deleted, days)
        return deleted
