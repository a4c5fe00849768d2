"""What was learned of a model server, kept in the store so that a restart does not forget it.

Whether a server's chat template opens a thinking block in the prompt is learned from its first reply
with words; until then that reply is held whole, since anything in it might turn out to be thinking. A
Space sleeps and wakes often: kept per base URL and model (as a hash, never the address itself, which may
carry credentials), the first visitor after a restart sees words stream like the rest.
"""

from __future__ import annotations

import hashlib
import logging

from replica.storage.database import storage_errors
from replica.storage.state import State

log = logging.getLogger(__name__)


class ServerMemory:
    """The template's thinking block, as learned of one server and model, in ``state``."""

    def __init__(self, state: State, base_url: str, model: str):
        self.state = state
        self.key = "opens-thinking:" + hashlib.sha256(f"{base_url}|{model}".encode()).hexdigest()[:24]

    def recall(self) -> bool | None:
        """What was learned before (``None``: nothing yet, or the store cannot be read now)."""
        try:
            value = self.state.get(self.key)
        except storage_errors() as error:
            log.warning("Could not read what was learned of the model server (%s)", type(error).__name__)
            return None
        return None if value is None else value == "yes"

    def keep(self, opens_thinking: bool) -> None:
        """Keep what the first reply with words showed; a store that fails costs only the next start's first reply."""
        try:
            self.state.set(self.key, "yes" if opens_thinking else "no")
        except storage_errors() as error:
            log.warning("Could not keep what was learned of the model server (%s)", type(error).__name__)
