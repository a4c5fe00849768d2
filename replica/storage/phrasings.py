"""Examples of the owner's approved answers, taught by use: a visitor's phrasing they confirmed as meaning an
approved question ("Did you mean…?", then yes), and the owner's "not this": a question they answered
otherwise though an approved question came close. The replica without a model reads them when it looks
for what to quote or ask about (:mod:`replica.knowledge.approved`)."""

from __future__ import annotations

from dataclasses import dataclass

from replica.runtime.clock import REAL_CLOCK, Clock
from replica.storage.database import Database, Transaction

KEPT = 1_000  # the newest phrasings visitors confirmed that are kept (the owner's are all kept)
PHRASING_CHARS = 500


@dataclass(frozen=True)
class Phrasing:
    """``phrasing`` means the approved ``question`` (``meant``), or, taught by the owner, does not."""

    phrasing: str
    question: str
    meant: bool


class Phrasings:
    """The examples, shared by every instance on the database."""

    def __init__(self, db: Database, clock: Clock = REAL_CLOCK, kept: int = KEPT):
        self.db = db
        self._clock = clock
        self.kept = kept

    def keep(self, phrasing: str, question: str, meant: bool) -> None:
        """Keep ``phrasing`` as an example of (``meant``) or against the approved ``question``; the owner's
        "not this" takes the place of a visitor's yes to the same, never the other way round."""
        text = phrasing.strip()[:PHRASING_CHARS]
        if not text:
            return

        def steps(tx: Transaction) -> None:
            tx.execute(
                "INSERT INTO phrasings (phrasing, question, meant, created_at) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (phrasing, question) DO UPDATE SET meant = excluded.meant, created_at = excluded.created_at "
                "WHERE phrasings.meant = 1",
                (text, question, int(meant), self._clock.time()),
            )
            tx.execute(
                "DELETE FROM phrasings WHERE meant = 1 AND id NOT IN "
                "(SELECT id FROM phrasings WHERE meant = 1 ORDER BY id DESC LIMIT ?)",
                (self.kept,),
            )

        self.db.write(steps)

    def all(self) -> list[Phrasing]:
        """Every example, oldest first."""
        rows = self.db.read("SELECT phrasing, question, meant FROM phrasings ORDER BY id")
        return [Phrasing(row["phrasing"], row["question"], bool(row["meant"])) for row in rows]
