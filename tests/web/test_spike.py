"""A spike as users meet it: ``python app.py`` and a crowd arriving at once, each visitor from an address
of their own (a proxy's ``X-Forwarded-For``, the app trusting one proxy), each leaving an address.
Nobody is turned away, every address is kept and reaches the owner, and the server stays bounded.
The lanes themselves: tests/chat/test_lanes.py; the replies, in process: tests/chat/test_spike.py."""

from __future__ import annotations

import csv
import io
import re
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from bench.queue_visitor import QueueVisitor
from bench.spike import address_of, crowd
from replica import wording
from tests.fakes.openai_server import say
from tests.fixtures.clients import app_client
from tests.fixtures.environment import wait_until
from tests.fixtures.processes import rss_kb, run_app, served_app, sockets

pytestmark = pytest.mark.measure  # a measure: its own line of the README (docs/testing.md)

OWNER = "Jordan Avery"
MODEL_WORDS = "I'm Jordan Avery, a freelance data engineer based in Lisbon, Portugal."  # from the example's files
SPIKE = wording.SPIKE.format(owner=OWNER)
FOLDED = re.compile(r"^(\d+) new leads")


def message_of(n: int) -> str:
    return f"Hi! Are you available for new projects? I'm visitor {n}, reach me at visitor{n}@example.org"


def app_env(tmp_path: Path, fake_openai, **extra: str) -> dict[str, str]:
    """``python app.py`` with the model at the fake, behind one trusted proxy, its data in ``tmp_path``."""
    return {
        "OPENAI_API_KEY": "sk-test",
        "OPENAI_BASE_URL": fake_openai.base_url,
        "OPENAI_MODEL": "fake-model",
        "OWNER_NAME": OWNER,
        "TRUSTED_PROXY_HOPS": "1",
        "DATA_DIR": str(tmp_path / "data"),
        **extra,
    }


def leads_announced(telegram) -> int:
    """Leads the owner was told of on Telegram: one per lead alert, N per fold of N."""
    told = 0
    for message in telegram.delivered:
        folded = FOLDED.match(message.text)
        told += int(folded.group(1)) if folded else message.text.startswith("New lead")
    return told


def test_crowds_past_the_line_get_words_every_address_is_kept_and_told_and_the_server_stays_bounded(
    tmp_path, fake_openai, fake_telegram
):
    """One ``python app.py`` (two model lanes, one place to wait, 1 s of waiting) meets 40 visitors at once
    through ``gradio_client``, then 500 at once speaking Gradio's protocol, then a flood from one address."""
    fake_openai.default = say(MODEL_WORDS, delay=0.5)
    log_file = tmp_path / "app.log"
    env = app_env(tmp_path, fake_openai, ADDRESS_MESSAGES_PER_HOUR="3", **fake_telegram.env)
    env.update(QUEUE_CONCURRENCY="2", QUEUE_MAX_SIZE="1", QUEUE_WAIT_SECONDS="1")
    with served_app(log_file, **env) as (url, process):
        with ThreadPoolExecutor(max_workers=40) as pool:
            clients = list(pool.map(lambda n: app_client(url, headers={"X-Forwarded-For": address_of(n)}), range(40)))
            replies = list(pool.map(lambda n: clients[n].predict(message_of(n), api_name="/chat"), range(40)))
        before_rss, before_sockets = rss_kb(process.pid), sockets(process.pid)
        spike = crowd(url, 500, lambda n: message_of(n).replace("visitor", "guest"))
        assert len(spike.answered) == 500, spike.failures
        assert rss_kb(process.pid) - before_rss < 100_000  # kB: under 100 MB more for 500 visitors
        assert wait_until(lambda: sockets(process.pid) <= before_sockets + 10)  # the crowd's connections closed
        # A flood from one address is refused in words, as ever: 3 messages an hour, then the sentence.
        flood = [QueueVisitor(url, headers={"X-Forwarded-For": "10.99.0.1"}).send(f"Hello {n}")[0] for n in range(5)]
        assert flood[3:] == [wording.TOO_MANY_MESSAGES] * 2 and wording.TOO_MANY_MESSAGES not in flood[:3]
        assert wait_until(lambda: leads_announced(fake_telegram) == 540, timeout=120)  # folded, each counted
    for answers in (replies, [visit.output for visit in spike.answered]):
        by_model = [reply for reply in answers if MODEL_WORDS in reply]
        at_once = [reply for reply in answers if reply.startswith(SPIKE)]
        assert len(by_model) + len(at_once) == len(answers)  # every visitor got words; none was turned away
        assert by_model and at_once  # the lanes were used, and the crowd past them was answered without them
        for reply in at_once:
            assert "Yes, from next month, remote or on-site in Lisbon." in reply and wording.LEAD_NOTED in reply
    assert fake_openai.max_in_flight <= 2  # never more model calls at once than lanes
    leads = {lead["email"] for lead in csv.DictReader(io.StringIO(run_app("export", "leads", **env).stdout))}
    assert {f"{who}{n}@example.org" for who, count in (("visitor", 40), ("guest", 500)) for n in range(count)} == leads
    log = log_file.read_text()
    assert len(log.encode()) < 50_000 and "Queue is full" not in log and "Traceback" not in log
