"""Storage: the one database (SQLite or PostgreSQL), its named migrations, and one repository per concern.

Every SQL statement of the app lives in this package; the rest of the app calls repository methods.
"""

from replica.storage.database import DatabaseUnavailable
from replica.storage.records import OutboxEntry, PendingAlert, Recorded
from replica.storage.store import Store, StoreError

__all__ = ["DatabaseUnavailable", "OutboxEntry", "PendingAlert", "Recorded", "Store", "StoreError"]
