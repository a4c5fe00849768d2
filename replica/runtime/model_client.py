"""The model's client, built in one place from the model's settings: the app's, ``doctor``'s and ``eval``'s.

What it is built from: the key (``OPENAI_API_KEY``; for an ``OPENAI_BASE_URL`` without one, the
placeholder a local server takes), the base URL, and the client's patience: a timeout for each request
and the SDK's own retries, the :class:`~replica.runtime.timings.Timings` defaults unless the caller waits
otherwise (``doctor`` waits ``DOCTOR_TIMEOUT_SECONDS`` and asks once), so a check probes the client the
app talks through.
"""

from __future__ import annotations

import openai

from replica.runtime.timings import Timings
from replica.settings import ModelSettings


def model_client(
    model: ModelSettings, timeout: float = Timings.model_timeout, max_retries: int = Timings.model_max_retries
) -> openai.OpenAI:
    """The OpenAI SDK's client for ``model``'s endpoint and key, waiting up to ``timeout`` seconds for a
    request and trying a failed one ``max_retries`` times more. For a configured model only: with neither
    a key nor a base URL there is nothing to call (the SDK would read its own environment instead)."""
    if not model.model_configured:
        raise ValueError("no model to call: neither OPENAI_API_KEY nor OPENAI_BASE_URL is set")
    return openai.OpenAI(
        api_key=model.model_api_key, base_url=model.openai_base_url, timeout=timeout, max_retries=max_retries
    )
