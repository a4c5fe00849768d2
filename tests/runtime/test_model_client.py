"""The model's one client (replica/runtime/model_client.py): built from the model's settings (the key,
or the placeholder a local server takes; the base URL; the timings' patience, or a caller's own), the one
construction in the app, whose requests reach the model server with that key."""

from __future__ import annotations

import ast

import openai
import pytest

from replica.runtime.model_client import model_client
from replica.runtime.timings import Timings
from replica.settings import PLACEHOLDER_API_KEY, ModelSettings
from tests.fixtures.environment import API_KEY, ROOT


def test_the_client_takes_the_key_the_address_and_the_timings_patience():
    client = model_client(ModelSettings(openai_api_key=API_KEY, openai_base_url="http://127.0.0.1:9/v1"))
    assert (client.api_key, str(client.base_url)) == (API_KEY, "http://127.0.0.1:9/v1/")
    assert (client.timeout, client.max_retries) == (Timings.model_timeout, Timings.model_max_retries)
    waits_longer = model_client(ModelSettings(openai_api_key=API_KEY), timeout=120.0, max_retries=0)
    assert (waits_longer.timeout, waits_longer.max_retries) == (120.0, 0)
    assert str(waits_longer.base_url).startswith("https://api.openai.com/")


def test_a_local_server_without_a_key_is_called_with_the_placeholder(fake_openai):
    client = model_client(ModelSettings(openai_base_url=fake_openai.base_url), timeout=5, max_retries=0)
    client.chat.completions.create(model="fake-model", messages=[{"role": "user", "content": "ping"}], max_tokens=1)
    assert fake_openai.auth_headers == [f"Bearer {PLACEHOLDER_API_KEY}"]


def test_no_client_is_made_for_no_model():
    """Without a key or an address the SDK would read its own environment: there is nothing to call."""
    with pytest.raises(ValueError, match="neither OPENAI_API_KEY nor OPENAI_BASE_URL"):
        model_client(ModelSettings())


def test_no_other_module_makes_a_model_client():
    """The app, doctor and eval (and the tests' replicas) talk to the model through this one client; no
    other module of the app builds an ``openai.OpenAI`` of its own. (The bench's floors do: a bare call
    of the SDK is what they measure the app against.)"""
    builders = []
    for path in (ROOT / "replica").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "OpenAI":
                builders.append(path.relative_to(ROOT).as_posix())
    assert builders == ["replica/runtime/model_client.py"]
    assert isinstance(model_client(ModelSettings(openai_api_key=API_KEY)), openai.OpenAI)
