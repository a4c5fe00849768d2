"""From clone to phone ping: ``telegram-setup`` (replica/cli/telegram_setup.py), run as an owner runs it
(in its own folder), against the fake Telegram: the chat found, ``.env`` written, a test message sent;
each failure one line."""

from __future__ import annotations

import threading

import pytest

from tests.fakes.telegram_server import FakeTelegram
from tests.fixtures.environment import API_KEY
from tests.fixtures.processes import run_app, run_app_process

SECRETS = (API_KEY, "AAFakeTokenForTests")


def no_secrets(done):
    assert not any(secret in done.stdout + done.stderr for secret in SECRETS)


def setup_cmd(tmp_path, fake_telegram, *args, push_after=None, unset=(), process=False, **env):
    """``python app.py telegram-setup`` in the owner's folder (in-process; with ``process``, as a
    subprocess); the owner's message arrives after ``push_after`` s."""
    if push_after is not None:
        threading.Timer(push_after, fake_telegram.push, args=("hello bot",)).start()
    config = {"TELEGRAM_BOT_TOKEN": fake_telegram.token, "TELEGRAM_API_BASE": fake_telegram.url, **env}
    for name in unset:
        config.pop(name, None)
    run = run_app_process if process else run_app
    done = run("telegram-setup", *args, cwd=tmp_path, unset=unset, **config)
    no_secrets(done)
    return done


def test_setup_finds_the_chat_writes_env_and_sends_a_test_message(tmp_path, fake_telegram):
    env_file = tmp_path / ".env"
    env_file.write_text(
        f"OWNER_NAME=Ada Lovelace\nTELEGRAM_BOT_TOKEN={fake_telegram.token}\n# keep me\nTELEGRAM_CHAT_ID=999\n"
    )
    done = setup_cmd(
        tmp_path, fake_telegram, "--write", push_after=1.5, unset=("TELEGRAM_BOT_TOKEN",), process=True
    )  # the token only in .env; python app.py telegram-setup as users run it
    assert done.returncode == 0, done.stdout + done.stderr
    assert "@replica_test_bot" in done.stdout and "waiting… 2:" in done.stdout
    assert "TELEGRAM_CHAT_ID=4242" in done.stdout
    assert env_file.read_text().splitlines() == [
        "OWNER_NAME=Ada Lovelace",
        f"TELEGRAM_BOT_TOKEN={fake_telegram.token}",
        "# keep me",
        "TELEGRAM_CHAT_ID=4242",
    ]
    [message] = fake_telegram.delivered
    assert message.text.startswith("Replica is connected") and message.payload["chat_id"] == "4242"


def test_setup_creates_env_when_there_is_none(tmp_path, fake_telegram):
    fake_telegram.push("hi")  # sent before the command ran: found at once
    done = setup_cmd(tmp_path, fake_telegram, "--write")
    assert done.returncode == 0 and (tmp_path / ".env").read_text().strip() == "TELEGRAM_CHAT_ID=4242"


def test_setup_in_a_group_also_writes_the_senders_user_id_as_the_owner(tmp_path):
    group = FakeTelegram(chat_id="-1001234567")
    try:
        group.push("/start@replica_test_bot", sender="4242")  # the owner, in the group the bot was added to
        done = setup_cmd(tmp_path, group, "--write")
        assert done.returncode == 0, done.stdout
        assert "TELEGRAM_CHAT_ID=-1001234567" in done.stdout and "TELEGRAM_OWNER_ID=4242" in done.stdout
        env = (tmp_path / ".env").read_text().splitlines()
        assert env == ["TELEGRAM_CHAT_ID=-1001234567", "TELEGRAM_OWNER_ID=4242"]
        assert [message.payload["chat_id"] for message in group.delivered] == ["-1001234567"]  # the test message
    finally:
        group.close()


@pytest.mark.parametrize(
    "case, expected",
    [
        ("no token", "TELEGRAM_BOT_TOKEN is not set"),
        ("token refused", "Telegram refused the token (401)"),
        ("webhook set", "A webhook is set for this bot"),
        ("no message", "No message arrived"),
        ("unreachable", "Hugging Face Spaces among them, block Telegram"),
    ],
)
def test_setup_failures_are_one_line_and_exit_code_1(tmp_path, fake_telegram, case, expected):
    env = {"no token": {"TELEGRAM_BOT_TOKEN": ""}, "token refused": {"TELEGRAM_BOT_TOKEN": "999:WRONG-token"}}
    env["unreachable"] = {"TELEGRAM_API_BASE": "http://127.0.0.1:9"}
    if case == "webhook set":
        fake_telegram.webhook_url = "https://example.org/hook"
    done = setup_cmd(tmp_path, fake_telegram, "--wait", "2", **env.get(case, {}))
    assert done.returncode == 1
    [failure] = [line for line in done.stdout.splitlines() if line.startswith("✗")]
    assert expected in failure and "WRONG-token" not in done.stdout
    if case == "webhook set":
        assert "--delete-webhook" in failure
    if case == "unreachable":
        assert "relay" in failure
    assert fake_telegram.delivered == []


def test_setup_can_delete_a_webhook_first(tmp_path, fake_telegram):
    fake_telegram.webhook_url = "https://example.org/hook"
    fake_telegram.push("hi")
    done = setup_cmd(tmp_path, fake_telegram, "--delete-webhook")
    assert done.returncode == 0 and "Deleted the bot's webhook" in done.stdout and fake_telegram.webhook_url == ""
