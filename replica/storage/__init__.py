"""Storage: the one database (SQLite or PostgreSQL), its named migrations, and one repository per concern.

Every SQL statement of the app lives in this package; the rest of the app calls repository methods.
"""

from replica.storage.deliveries import PendingDelivery
from replica.storage.records import OutboxEntry, Recorded
from replica.storage.store import Store, StoreError

__all__ = ["OutboxEntry", "PendingDelivery", "Recorded", "Store", "StoreError"]
