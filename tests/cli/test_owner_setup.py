"""From clone to phone ping: ``telegram-setup`` and ``doctor``, run as an owner runs them (subprocesses in
their own folder), against the fake Telegram and the fake model; a relay base URL; an unreachable
Telegram noticed by the running app; the outbox exported."""

from __future__ import annotations

import csv
import io
import logging
import re
import threading
from dataclasses import replace

import pytest

from replica.alerts import Alert
from replica.alerts.sender import AlertSender
from replica.alerts.telegram_channel import TelegramChannel
from replica.storage.store import Store
from replica.telegram.client import TelegramClient
from tests.fakes.openai_server import call, fail, say
from tests.fakes.telegram_server import FakeTelegram
from tests.fixtures.clients import app_client
from tests.fixtures.environment import API_KEY, ROOT, wait_until
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


# --- doctor ----------------------------------------------------------------------------------------


@pytest.fixture
def owner_folder(tmp_path, knowledge_dir):
    chips = "".join(f"\n{q}\nAn answer.\n" for q in (ROOT / "prompts" / "examples.txt").read_text().splitlines()[1:])
    (knowledge_dir / "faq.txt").write_text("Do you sign NDAs?\nYes, before any detailed discussion.\n" + chips)
    return tmp_path


def doctor(folder, fake_openai, fake_telegram, *args, process=False, **overrides):
    if (
        getattr(fake_openai.default, "content", None) == "Hello from the fake model."
    ):  # a model that calls the probe's tool
        fake_openai.default = call(("note_city", {"city": "Lisbon"}))
    env = {
        "OPENAI_API_KEY": API_KEY,
        "OPENAI_BASE_URL": fake_openai.base_url,
        "OPENAI_MODEL": "fake-model",
        "TELEGRAM_BOT_TOKEN": fake_telegram.token,
        "TELEGRAM_CHAT_ID": fake_telegram.chat_id,
        "TELEGRAM_API_BASE": fake_telegram.url,
        "OWNER_NAME": "Ada Lovelace",
        "KNOWLEDGE_DIR": str(folder / "knowledge"),
        "DATA_DIR": str(folder / "data"),
        **overrides,
    }
    done = (run_app_process if process else run_app)("doctor", *args, cwd=folder, **env)
    no_secrets(done)
    return done, done.stdout.splitlines()


def test_doctor_with_everything_right_prints_only_ticks(owner_folder, fake_openai, fake_telegram):
    done, lines = doctor(owner_folder, fake_openai, fake_telegram, process=True)  # as users run it
    assert done.returncode == 0, done.stdout
    assert lines and all(line.startswith("✓ ") for line in lines), done.stdout
    text = done.stdout
    assert "offers fake-model" in text and "@replica_test_bot" in text and "chat 4242 reachable" in text
    assert "no webhook set" in text and "no alerts waiting" in text and "is writable" in text
    assert "2 file(s)" in text and "sent whole" in text and "templates in prompts/ render" in text
    assert "'Ada Lovelace'" in text
    assert "✓ knowledge: 5 approved answer(s) to give without a model (5 in FAQ files, 0 learned from Telegram)" in text
    assert "✓ knowledge: each of the page's 4 example questions has an approved answer" in text
    assert fake_telegram.chat_actions and fake_telegram.delivered == []  # a chat action, not a message


@pytest.mark.parametrize(
    "reply, expected, code",
    [
        (call(("note_city", {"city": "Lisbon"})), "✓ model: fake-model calls tools natively (probe cost: 1 request", 0),
        (
            say('<tool_call>{"name": "note_city", "arguments": {"city": "Lisbon"}}</tool_call>'),
            "! model: fake-model calls tools as text (<tool_call> tag); Replica parses it (probe cost",
            0,
        ),
        (say("Lisbon is lovely in spring."), "✗ model: fake-model did not call a tool it was asked to call", 1),
        (fail(400), "✗ model: refused a request with tools, and without them (BadRequestError)", 1),
        (fail(500), "✗ model: refused a request with tools (HTTP 500)", 1),
        (
            lambda body: (
                fail(400) if "tools" in body else say('{"name": "note_city", "arguments": {"city": "Lisbon"}}')
            ),
            "! model: the server refuses tools (HTTP 400), so they are described in the prompt; fake-model calls "
            "tools as text (JSON object); Replica parses it (probe cost: 2 request(s)",
            0,
        ),
    ],
    ids=["native", "as text", "no call", "tools refused", "server error", "tools refused, described"],
)
def test_doctor_probes_tool_calling_in_one_short_request(
    owner_folder, fake_openai, fake_telegram, reply, expected, code
):
    fake_openai.default = reply
    done, lines = doctor(owner_folder, fake_openai, fake_telegram)
    [line] = [line for line in lines if expected in line]
    assert done.returncode == code, done.stdout
    [probe] = [r for r in fake_openai.requests if r.get("tools")]
    assert probe["max_tokens"] <= 100 and probe["tools"][0]["function"]["name"] == "note_city"
    assert all(r["max_tokens"] <= 100 for r in fake_openai.requests)
    if code:
        assert "--jinja" in line and "docs/models.md" in line
    else:
        assert "2 tokens, max_tokens 80)" in line  # what it cost, as the provider counted it


def test_doctor_ping_sends_a_real_test_message(owner_folder, fake_openai, fake_telegram):
    done, _ = doctor(owner_folder, fake_openai, fake_telegram, "--ping")
    assert done.returncode == 0 and "test message was sent" in done.stdout
    assert len(fake_telegram.delivered) == 1


def test_doctor_uses_a_one_token_completion_where_there_is_no_model_list(owner_folder, fake_openai, fake_telegram):
    fake_openai.models = None
    done, _ = doctor(owner_folder, fake_openai, fake_telegram)
    assert done.returncode == 0 and "answered a one-token completion" in done.stdout
    assert [r["max_tokens"] for r in fake_openai.requests] == [1, 80]  # then the tool-calling probe


@pytest.mark.parametrize(
    "case, overrides, expected",
    [
        ("key refused", {}, "refused the key (401) — fix: check OPENAI_API_KEY"),
        ("unknown model", {"OPENAI_MODEL": "gpt-unknown"}, "does not offer 'gpt-unknown' — fix: set OPENAI_MODEL"),
        ("model unreachable", {"OPENAI_BASE_URL": "http://127.0.0.1:9/v1"}, "cannot be reached (APIConnectionError)"),
        ("token refused", {"TELEGRAM_BOT_TOKEN": "999:WRONG-token"}, "✗ telegram: Telegram refused the token (401)"),
        (
            "telegram unreachable",
            {"TELEGRAM_API_BASE": "http://127.0.0.1:9"},
            "block Telegram: set TELEGRAM_API_BASE to a relay (docs/relay.md)",
        ),
        ("unknown chat", {"TELEGRAM_CHAT_ID": "777"}, "✗ telegram: chat 777 cannot be written to"),
        (
            "no chat",
            {"TELEGRAM_CHAT_ID": ""},
            "✗ telegram: TELEGRAM_CHAT_ID is not set — fix: python app.py telegram-setup (docs/telegram.md)",
        ),
        ("webhook set", {}, "✗ telegram: a webhook is set"),
        (
            "group without its owner",
            {"TELEGRAM_CHAT_ID": "-1001234"},
            "TELEGRAM_OWNER_ID is not set: no one there can use the bot's buttons or commands — fix: set TELEGRAM_OWNER_ID",
        ),
        ("storage", {"DATA_DIR": "/sys"}, "✗ storage: DATA_DIR /sys is not writable"),
    ],
)
def test_doctor_names_each_failure_with_its_fix_and_exits_1(
    owner_folder, fake_openai, fake_telegram, case, overrides, expected
):
    if case == "key refused":
        fake_openai.api_key = "sk-the-right-one"
    if case == "unknown model":
        fake_openai.answers_any_model = False  # as OpenAI does
    if case == "webhook set":
        fake_telegram.webhook_url = "https://example.org/hook"
    if case == "group without its owner":
        fake_telegram.chat_id = "-1001234"
    done, lines = doctor(owner_folder, fake_openai, fake_telegram, **overrides)
    assert done.returncode == 1
    assert any(expected in line for line in lines), done.stdout
    assert all(line[:2] in ("✓ ", "! ", "✗ ") for line in lines)


def test_doctor_with_no_configuration_at_all_warns_and_exits_0_and_leaves_the_folder_empty(tmp_path):
    done = run_app_process("doctor", cwd=tmp_path, unset=("DATA_DIR",))  # as a new user runs it: nothing set
    assert list(tmp_path.iterdir()) == []  # read-only: no data/ made, no database left behind
    lines = [line for line in done.stdout.splitlines() if line.strip()]
    assert done.returncode == 0, done.stdout
    assert not any(line.startswith("✗") for line in lines)
    assert "! model: OPENAI_API_KEY is not set: the replica answers from your written answers only" in done.stdout
    assert any(line.startswith("! telegram: TELEGRAM_BOT_TOKEN is not set") for line in lines)


def test_doctor_warns_of_a_model_the_server_does_not_list_but_answers_to_and_still_probes(
    owner_folder, fake_openai, fake_telegram
):
    fake_openai.models = ["/models/qwen2.5-7b-instruct-q4_k_m.gguf"]  # llama-server lists the file it serves
    done, lines = doctor(owner_folder, fake_openai, fake_telegram, OPENAI_MODEL="my-model")
    assert done.returncode == 0, done.stdout
    assert any(line.startswith("! model:") and "does not list 'my-model' but answers to it" in line for line in lines)
    assert any("calls tools" in line or "did not call" in line for line in lines if " model: " in line)
    assert [r["max_tokens"] for r in fake_openai.requests] == [1, 80]  # the name tried, then the probe


def test_doctor_warns_about_what_works_but_needs_a_look(owner_folder, fake_openai, fake_telegram):
    (owner_folder / "knowledge" / "faq.txt").unlink()
    (owner_folder / "knowledge" / "broken.pdf").write_bytes(b"%PDF-1.4 not really")
    (owner_folder / "knowledge" / "big.md").write_text("Project notes. " * 3000)
    store = Store(owner_folder / "data" / "replica.sqlite3")
    store.leads.record("a@example.org", "", "", Alert("lead", "New lead", (("Email", "a@example.org"),), "s1").entry())
    store.close()
    done, lines = doctor(
        owner_folder, fake_openai, fake_telegram, OWNER_NAME="", KNOWLEDGE_BUDGET_CHARS="24000"
    )  # a Space's own disk is a failure, not a warning (tests/test_hosting.py)
    warnings = [line for line in lines if line.startswith("! ")]
    assert done.returncode == 0, done.stdout  # warnings only
    assert any("cannot read" in w and "broken.pdf" in w for w in warnings)
    assert any("1 alert(s) pending in the outbox for Telegram, the oldest" in w for w in warnings)
    assert any("OWNER_NAME is not set" in w for w in warnings)
    assert any("most relevant parts are retrieved" in line for line in lines)
    assert any("no approved answers to give without a model" in w and "add a faq.md" in w for w in warnings)
    unmet = [w for w in warnings if "without a model, the example question" in w and "has no approved answer" in w]
    assert len(unmet) == 4 and "'What kind of work do you do?'" in unmet[0]  # each chip of the page, named


# --- the running app and a relay -------------------------------------------------------------------


def test_an_unreachable_telegram_is_said_once_and_its_recovery_too(store, fake_telegram, caplog):
    client = TelegramClient("http://127.0.0.1:9", fake_telegram.token, fake_telegram.chat_id, timeout=(0.5, 1))
    store.leads.record("a@example.org", "", "", Alert("lead", "New lead", (("Email", "a@example.org"),), "s1").entry())
    sender = AlertSender(
        store, TelegramChannel(client), min_interval=0.05, base_delay=0.05, max_delay=0.2, unreachable_warning_after=1
    )
    with caplog.at_level(logging.WARNING):
        sender.start()
        try:
            assert wait_until(lambda: "has been unreachable" in caplog.text)
            tries = lambda: store.deliveries.rows()[0].attempts  # noqa: E731
            tried = tries()
            assert wait_until(lambda: tries() >= tried + 2)  # more failures: still said once
            client.api_base = fake_telegram.url  # the relay is set up, or the block lifted
            assert len(fake_telegram.wait_for(1)) == 1
            assert wait_until(lambda: "Telegram is reachable again" in caplog.text)
        finally:
            sender.close()
    assert caplog.text.count("Telegram has been unreachable") == 1
    assert "relay" in caplog.text and "python app.py doctor" in caplog.text
    assert caplog.text.count("Telegram is reachable again") == 1


def test_export_alerts_lists_the_outbox(start_app, settings, fake_openai, fake_telegram):
    fake_telegram.fail_next(500, times=100)
    app = start_app(settings)
    fake_openai.script(call(("inform_unknown", {"question": "Opera?"})), say("I'll ask."))
    app_client(app.demo.local_url).predict("Opera?", api_name="/chat")
    assert wait_until(lambda: len(fake_telegram.attempts) >= 1)  # tried, and refused
    done = run_app("export", "alerts", DATA_DIR=str(settings.data_dir))
    [row] = list(csv.DictReader(io.StringIO(done.stdout)))
    assert list(row) == ["kind", "created_at", "channel", "status", "attempts", "last_error", "sent_at"]
    assert (
        row["kind"] == "question"
        and row["channel"] == "Telegram"
        and row["status"] == "pending"
        and int(row["attempts"]) >= 1
    )
    assert row["last_error"] == "Internal Server Error" and row["sent_at"] == ""


@pytest.fixture
def relay():
    """Telegram behind a relay with a path, as https://relay.example.org/telegram."""
    server = FakeTelegram(prefix="/telegram")
    yield server
    server.close()


def test_alerts_and_replies_travel_through_a_relay_with_a_path(relay, start_app, settings, fake_openai):
    app = start_app(replace(settings, telegram_api_base=relay.base))
    assert relay.base.endswith("/telegram")
    fake_openai.script(call(("inform_unknown", {"question": "Opera?"})), say("I'll ask."))
    app_client(app.demo.local_url).predict("Opera?", api_name="/chat")
    [alert] = relay.wait_for(1)
    assert alert.text.startswith("Unanswered question #1")
    relay.push("Tosca.", reply_to=alert.message_id)
    assert len(relay.wait_for(2)) == 2 and "Learned answer #1" in relay.sent_texts()[-1]
    assert relay.polls  # getUpdates went through the relay too


def sample_doctor_lines() -> list[str]:
    """The doctor output docs/telegram.md shows."""
    text = (ROOT / "docs" / "telegram.md").read_text()
    block = text.split("$ python app.py doctor\n", 1)[1].split("```", 1)[0]
    return [line for line in block.splitlines() if line.strip()]


def as_pattern(line: str) -> str:
    """A doctor line with what differs between machines made general: addresses, numbers, times, names."""
    line = re.sub(r"https?://\S+?/v1", "<url>", line)
    for name in (
        "gpt-4o-mini",
        "fake-model",
        "@jordan_replica_bot",
        "@replica_test_bot",
        "'Jordan Avery'",
        "'Ada Lovelace'",
    ):
        line = line.replace(name, "<name>")
    line = re.sub(r"(\S*/)?(knowledge|data)\b", r"\2", line)
    line = re.sub(r"\d[\d,.]*( ?(s|h|min|d)\b)?", "<n>", line)
    return line.replace("…", "<any>")


def test_the_sample_doctor_output_in_the_docs_is_the_real_one(owner_folder, fake_openai, fake_telegram):
    profile = owner_folder / "knowledge" / "profile.md"
    links = "".join(f"{kind}: https://{kind}.example\n" for kind in ("website", "linkedin", "github", "booking"))
    profile.write_text(links.replace("booking:", "email: ada@ada.example\nbooking:") + profile.read_text())
    store = Store(owner_folder / "data" / "replica.sqlite3")
    for n in range(2):  # the sample shows two alerts waiting
        alert = Alert("lead", "New lead", (("Email", f"a{n}@example.org"),), f"s{n}")
        store.leads.record(f"a{n}@example.org", "", "", alert.entry())
    store.close()
    done, lines = doctor(owner_folder, fake_openai, fake_telegram)
    real = [as_pattern(line) for line in lines]
    for sample in sample_doctor_lines():
        pattern = re.escape(as_pattern(sample)).replace(re.escape("<any>"), ".*")
        assert any(re.fullmatch(pattern, line) for line in real), f"not printed: {sample}\n" + "\n".join(lines)
    assert len(sample_doctor_lines()) == len(lines), "\n".join(lines)
