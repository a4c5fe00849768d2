"""Fixtures: fake model and Telegram servers on 127.0.0.1, a clean environment, and the running app."""

from __future__ import annotations

import contextlib
import io
import logging
import os
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

import openai
import pytest
import requests

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from replica.chat.reply import Visitor  # noqa: E402
from replica.cli.evaluate import RecordingNotifier  # noqa: E402  (the one eval uses)
from replica.settings import SETTINGS, Settings  # noqa: E402
from replica.storage.deliveries import TELEGRAM  # noqa: E402
from replica.storage.store import Store  # noqa: E402
from tests.fakes.databases import drop_database  # noqa: E402
from tests.fakes.openai_server import FakeOpenAI  # noqa: E402
from tests.fakes.telegram_server import FakeTelegram  # noqa: E402

CONFIG_NAMES = [setting.env for setting in SETTINGS]  # noqa: E305
API_KEY = "sk-test-SECRET-key-0123456789"
PROFILE = """# Ada Lovelace

I am a software engineer in London. I work on analytical engines and write about computing.

## Experience
- 2019-2024: Lead engineer at Babbage & Co, project ORBIT-417 (a difference-engine scheduler).
"""


def bare_env(unset: tuple[str, ...] = (), **extra: str) -> dict[str, str]:
    """An environment for ``python app.py`` subprocesses: the app's settings empty (``DATA_DIR`` a new
    temporary folder), plus ``extra``.

    Empty rather than absent, because the environment wins over a developer's ``.env`` in the repository:
    a test must never pick up a real key or token from it. Names in ``unset`` are left out altogether
    (for a test that runs in its own folder with its own ``.env``).
    """
    env = {k: v for k, v in os.environ.items() if k not in CONFIG_NAMES}
    env.update({name: "" for name in CONFIG_NAMES if not name.startswith("GRADIO_") and name not in unset})
    if "DATA_DIR" not in unset:  # never the checkout's own data/: a folder of the test's
        env["DATA_DIR"] = tempfile.mkdtemp(prefix="replica-test-data-")
    env.update(extra)
    return env


def run_app_process(
    *args: str, cwd: Path = ROOT, unset: tuple[str, ...] = (), **extra_env: str
) -> subprocess.CompletedProcess:
    """Run ``python app.py *args`` as a subprocess, as users do, in ``cwd`` with a bare environment;
    capture its output. Each command has at least one test that runs it so."""
    return subprocess.run(
        [sys.executable, str(ROOT / "app.py"), *args],
        cwd=cwd,
        env=bare_env(unset, **extra_env),
        capture_output=True,
        text=True,
        timeout=120,
    )


def run_app(*args: str, cwd: Path = ROOT, unset: tuple[str, ...] = (), **extra_env: str) -> subprocess.CompletedProcess:
    """What ``python app.py *args`` does, run in this process: ``main(args)`` with a bare environment, in
    ``cwd``, its output captured (seconds faster than a subprocess). Logging and the streams are put back
    afterwards."""
    from replica.cli.main import main

    saved = dict(os.environ), os.getcwd(), sys.stdout, sys.stderr, logging.root.handlers[:], logging.root.level
    out, err = io.StringIO(), io.StringIO()
    env = bare_env(unset, **extra_env)  # made from the real environment, before it is cleared
    os.environ.clear()
    os.environ.update(env)
    os.chdir(cwd)
    sys.stdout, sys.stderr = out, err
    try:
        code = main(list(args))
    except SystemExit as exit_:
        code = exit_.code if isinstance(exit_.code, int) else int(exit_.code is not None)
    finally:
        os.environ.clear()
        os.environ.update(saved[0])
        os.chdir(saved[1])
        sys.stdout, sys.stderr = saved[2], saved[3]
        logging.root.handlers[:] = saved[4]
        logging.root.setLevel(saved[5])
    return subprocess.CompletedProcess(["app.py", *args], code, out.getvalue(), err.getvalue())


def telegram_pending(store) -> int:
    """How many alerts wait for Telegram in ``store``."""
    summary = store.deliveries.summary().get(TELEGRAM)
    return summary.pending if summary else 0


def wait_until(predicate, timeout: float = 10.0) -> bool:
    """Poll ``predicate`` until it is true (True) or ``timeout`` seconds pass (False)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.02)
    return False


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def served_app(
    log_file: Path,
    port_variable: str = "GRADIO_SERVER_PORT",
    host: str = "127.0.0.1",
    python: str = sys.executable,
    **extra_env: str,
):
    """Run ``python app.py`` (bare environment plus ``extra_env``) until the page answers; yield
    ``(url, process)``; stop it afterwards. Its log goes to ``log_file``.

    The port is given in ``port_variable``: ``GRADIO_SERVER_PORT`` (with ``GRADIO_SERVER_NAME=127.0.0.1``)
    or, as Render and Railway do, ``PORT`` alone; the page is reached at ``host``. ``python`` is the
    interpreter to run it with (a virtualenv of the test's own)."""
    port = free_port()
    listen = {"GRADIO_SERVER_PORT": str(port), "GRADIO_SERVER_NAME": "127.0.0.1"}
    env = bare_env(**(listen if port_variable == "GRADIO_SERVER_PORT" else {port_variable: str(port)}), **extra_env)
    env["GRADIO_ANALYTICS_ENABLED"] = "False"
    with open(log_file, "w") as log:
        process = subprocess.Popen([python, "app.py"], cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    try:
        url = f"http://{host}:{port}/"
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if process.poll() is not None:
                break
            try:
                if requests.get(url, timeout=2).status_code == 200:
                    break
            except requests.ConnectionError:
                time.sleep(0.3)
        else:
            raise AssertionError(f"app did not start:\n{log_file.read_text()}")
        if process.poll() is not None:
            raise AssertionError(f"app exited ({process.returncode}):\n{log_file.read_text()}")
        yield url, process
    finally:
        process.terminate()
        process.wait(timeout=20)


@pytest.fixture(autouse=True)
def clean_env(monkeypatch, tmp_path):
    """No real key, token or .env can leak into a test; Gradio stays offline."""
    for name in CONFIG_NAMES:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("GRADIO_ANALYTICS_ENABLED", "False")
    monkeypatch.setenv("NO_PROXY", "127.0.0.1,localhost")
    monkeypatch.chdir(tmp_path)


@pytest.fixture(scope="module")
def module_fakes():
    """The fake model and Telegram servers, one pair per test module (reset before each test)."""
    model, telegram = FakeOpenAI(), FakeTelegram()
    yield model, telegram
    model.close()
    telegram.close()


@pytest.fixture
def fake_openai(module_fakes):
    server = module_fakes[0]
    server.reset()
    return server


SHARED_APP = {"shared_app", "app_url", "visitor", "app"}  # the fixtures that give a test the module's app


@pytest.fixture
def fake_telegram(request, module_fakes):
    """The Telegram stand-in: the module's app's own (reset) for a test of that app; for any other test,
    a new one, so that the module app's bot, polling all along, never takes another test's updates."""
    if SHARED_APP & set(request.fixturenames):
        server = module_fakes[1]
        server.reset()
        yield server
        return
    server = FakeTelegram()
    yield server
    server.close()


POSTGRES_ENV = "REPLICA_TEST_DATABASE_URL"


@contextlib.contextmanager
def fresh_postgres_database():
    """A new, empty PostgreSQL database for one test (dropped afterwards); yields its URL.

    The server is the one ``REPLICA_TEST_DATABASE_URL`` names (its user may create databases). Without
    it the test is skipped, with how to run it; under ``CI=true`` that is a failure instead.
    """
    admin_url = os.environ.get(POSTGRES_ENV)
    if not admin_url:
        message = (
            f"PostgreSQL tests need {POSTGRES_ENV}=postgresql://user:password@127.0.0.1:5432/db "
            "(a user that may create databases); .ci/run starts one"
        )
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    import psycopg

    name = f"replica_t_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(admin_url, autocommit=True) as admin:
        admin.execute(f"CREATE DATABASE {name}")
    try:
        yield admin_url.rsplit("/", 1)[0] + "/" + name
    finally:
        drop_database(admin_url, name)


# The modules whose tests are store behaviour run on both backends; elsewhere (the loop, the page, the
# HTTP guard) the store is a collaborator, and SQLite is enough.
BOTH_BACKENDS = {
    "test_alert_channels",
    "test_store",
    "test_telegram",
    "test_supervision",
    "test_inbox",
    "test_alert_safety",
    "test_postgres",
}


def pytest_generate_tests(metafunc):
    """Give ``database_url`` (and so ``store``) both backends in the store modules, SQLite elsewhere."""
    if "database_url" in metafunc.fixturenames:
        module = metafunc.module.__name__.rsplit(".", 1)[-1]
        backends = ["sqlite", "postgres"] if module in BOTH_BACKENDS else ["sqlite"]
        metafunc.parametrize("database_url", backends, indirect=True)


@pytest.fixture
def database_url(request):
    """The backend of one store test: ``None`` (SQLite in the test's folder), or a fresh PostgreSQL database."""
    if request.param == "sqlite":
        yield None
    else:
        with fresh_postgres_database() as url:
            yield url


@pytest.fixture
def store(tmp_path, database_url):
    """A real store, SQLite or PostgreSQL, with the default caps of 3."""
    db = Store(tmp_path / "unit" / "replica.sqlite3", alert_caps={"lead": 3, "question": 3}, database_url=database_url)
    yield db
    db.close()


def conversations_of(store, owner_name: str = "Ada", notifier=None, **options):
    """The conversations (recorder, page channel, handoff) over ``store``, as the app builds them."""
    from replica.conversations import Conversations

    return Conversations.build(store, "salt", owner_name, notifier or RecordingNotifier(), **options)


@pytest.fixture
def notifier():
    return RecordingNotifier()


def replica_around(model, store, notifier, **options):
    """A Replica (recording its conversations) around ``model``; ``limits`` and any settings (``max_turns``,
    ``reply_deadline_seconds``, …) may be given."""
    from replica.wiring import build_replica

    limits = options.pop("limits", None)
    options.setdefault("knowledge_dir", ROOT / "tests" / "no-knowledge")
    return build_replica(
        Settings(owner_name="Ada Lovelace", **options),
        model=model,
        system_prompt=lambda query: "SYSTEM PROMPT",
        store=store,
        notifier=notifier,
        conversations=conversations_of(store, "Ada Lovelace", notifier),
        limits=limits,
    )


@pytest.fixture
def make_replica(fake_openai, store, notifier):
    """Build a Replica around the real SDK pointed at the fake model server; options override its defaults."""
    from replica.chat.openai_model import OpenAIChatModel

    def make(**options):
        client = openai.OpenAI(
            api_key=API_KEY,
            base_url=fake_openai.base_url,
            max_retries=options.pop("max_retries", 1),
            timeout=options.pop("timeout", 5),
        )
        return replica_around(OpenAIChatModel(client, "fake-model"), store, notifier, **options)

    return make


@pytest.fixture
def fake_model():
    """The in-process chat model, for the loop's unit tests."""
    from tests.fakes.chat_model import ScriptedModel

    return ScriptedModel()


@pytest.fixture
def make_loop_replica(fake_model, store, notifier):
    """Build a Replica around the in-process chat model; options override its defaults."""
    return lambda **options: replica_around(fake_model, store, notifier, **options)


def write_knowledge(folder: Path) -> Path:
    folder.mkdir(parents=True)
    (folder / "profile.md").write_text(PROFILE, encoding="utf-8")
    return folder


@pytest.fixture
def knowledge_dir(tmp_path) -> Path:
    return write_knowledge(tmp_path / "knowledge")


def settings_for(fake_openai, fake_telegram, folder: Path) -> Settings:
    """Settings pointing at the fakes (the real SDK and requests talk to 127.0.0.1 only), with the
    knowledge and data in ``folder``."""
    return Settings(
        openai_api_key=API_KEY,
        openai_base_url=fake_openai.base_url,
        openai_model="fake-model",
        telegram_bot_token=fake_telegram.token,
        telegram_chat_id=fake_telegram.chat_id,
        telegram_api_base=fake_telegram.url,
        owner_name="Ada Lovelace",
        knowledge_dir=folder / "knowledge",
        data_dir=folder / "data",
    )


@pytest.fixture
def settings(fake_openai, fake_telegram, knowledge_dir, tmp_path) -> Settings:
    """Settings pointing at the fakes, for a test that starts an app of its own."""
    return settings_for(fake_openai, fake_telegram, tmp_path)


def fast_timings():
    """The timings tests run the app with: Telegram's pace and polling quick, the model's patience short."""
    from replica.wiring import Timings

    return Timings(
        alert_min_interval=0.05, alert_retry_base=0.1, telegram_poll_seconds=0.2, model_timeout=5, model_max_retries=1
    )


@pytest.fixture
def start_app(fake_openai, fake_telegram):  # the fakes outlive the apps, which are closed first
    """Start the real app (``create_app``) on a free port; yields a function returning the running App."""
    from replica.wiring import create_app

    started = []

    def start(settings: Settings, port: int | None = None):
        app = create_app(settings, fast_timings())
        app.serve(block=False, server_name="127.0.0.1", server_port=port, quiet=True)
        started.append(app)
        return app

    yield start
    for app in started:
        app.close()


@pytest.fixture(scope="module")
def module_app(module_fakes, tmp_path_factory):
    """One app for the module (``create_app`` and the page, served), with the default settings."""
    from replica.wiring import create_app

    folder = tmp_path_factory.mktemp("module-app")
    write_knowledge(folder / "knowledge")
    app = create_app(settings_for(*module_fakes, folder), fast_timings())
    app.serve(block=False, server_name="127.0.0.1", quiet=True)
    # Its first reply, which a server gives whole until it has shown whether it writes thinking blocks
    # (replica/chat/markup.py): the module's tests meet the app as visitors do after that.
    app.replica.reply("Hello", Visitor("warm-up", "127.0.0.9"))
    yield app
    app.close()


@pytest.fixture
def shared_app(module_app, fake_openai, fake_telegram):
    """The module's app, as new: what the last test left in the outbox delivered, every record wiped
    (so numbers start at 1 again), the usage limits and the fakes fresh."""
    from replica.chat.limits import UsageLimits

    wait_until(lambda: telegram_pending(module_app.store) == 0, timeout=5)
    module_app.store.clear_records()  # the migrations' own tables and the small state (the bot's offset) are kept
    settings = module_app.settings
    module_app.replica.limits = UsageLimits.build(
        settings.visitor_messages_per_hour, settings.address_messages_per_hour, settings.daily_model_calls
    )
    fake_openai.reset()
    fake_telegram.reset()
    return module_app


@pytest.fixture
def app_url(shared_app) -> str:
    return shared_app.demo.local_url


@pytest.fixture
def visitor(app_url):
    """A new visitor: a gradio_client session of its own."""
    from gradio_client import Client

    return lambda: Client(app_url, verbose=False)
