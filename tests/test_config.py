"""Configuration: one object, environment over .env, secrets hidden, every variable documented."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from replica.logs import RedactingFormatter
from replica.settings import ConfigError, load_settings
from tests.conftest import CONFIG_NAMES, ROOT


def test_defaults_with_nothing_configured(tmp_path):
    settings = load_settings({}, tmp_path / "missing.env")
    assert settings.openai_model == "gpt-4o-mini"
    assert settings.telegram_api_base == "https://api.telegram.org"
    assert (settings.max_turns, settings.queue_concurrency) == (2, 3)
    assert settings.knowledge_dir == Path("knowledge") and settings.data_dir == Path("data")
    assert not settings.model_configured and not settings.telegram_configured


def test_environment_wins_over_dotenv(tmp_path):
    env_file = tmp_path / ".env"
    env_file.write_text("OPENAI_MODEL=from-dotenv\nOWNER_NAME=Dot Env\nMAX_TURNS=4\n")
    settings = load_settings({"OPENAI_MODEL": "from-environment"}, env_file)
    assert settings.openai_model == "from-environment"
    assert settings.owner_name == "Dot Env" and settings.max_turns == 4


def test_secrets_never_appear_in_repr(tmp_path):
    settings = load_settings({"OPENAI_API_KEY": "sk-very-secret", "TELEGRAM_BOT_TOKEN": "1:tok-secret"}, None)
    assert "sk-very-secret" not in repr(settings) and "tok-secret" not in repr(settings)
    assert settings.model_configured


def test_a_bad_number_names_the_variable():
    with pytest.raises(ConfigError, match="MAX_TURNS"):
        load_settings({"MAX_TURNS": "two"}, None)


def test_env_example_lists_every_variable_with_a_comment():
    example = (ROOT / ".env.example").read_text()
    names = re.findall(r"^#?\s*([A-Z_]+)=", example, flags=re.M)
    assert set(CONFIG_NAMES) <= set(names)
    used = set(re.findall(r'"([A-Z][A-Z_]+)"', (ROOT / "replica" / "settings.py").read_text()))
    assert used <= set(names), f"undocumented: {used - set(names)}"
    for line_no, line in enumerate(example.splitlines()):
        if re.match(r"^#?\s*[A-Z_]+=", line):
            assert example.splitlines()[line_no - 1].startswith("# "), f"{line} has no comment above it"


def test_log_lines_never_show_secrets():
    import logging

    formatter = RedactingFormatter(["sk-abcdef123", "777:token-xyz"])
    record = logging.LogRecord(
        "x", logging.ERROR, __file__, 1, "key %s url /bot%s/send", ("sk-abcdef123", "777:token-xyz"), None
    )
    line = formatter.format(record)
    assert "sk-abcdef123" not in line and "token-xyz" not in line and line.count("<redacted>") == 2
