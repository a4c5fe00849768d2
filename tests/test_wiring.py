"""The wiring (replica/wiring.py), part by part and without a server: each builder hands on exactly what
the settings say (the frame origins, the alert caps, the reply's bounds), and says in the log what is
missing (no model, no Telegram) while the app still gets a part that works."""

from __future__ import annotations

import logging

from replica.alerts import Alert
from replica.alerts.sender import LogNotifier
from replica.chat.openai_model import OpenAIChatModel
from replica.runtime.timings import Timings
from replica.settings import Settings
from replica.storage import Recorded
from replica.storage.records import AlertKind
from replica.wiring import embed_origins, make_model, make_notifier, open_store


def test_frames_are_allowed_to_the_origins_named_and_on_a_space_to_huggingface_too():
    assert embed_origins(Settings()) == ()  # none named: any site may frame the page
    named = Settings.of(embed_origins=("https://ada.example",))
    assert embed_origins(named) == ("https://ada.example",)
    on_a_space = named.updated(space_id="ada/replica")
    assert embed_origins(on_a_space) == ("https://ada.example", "https://huggingface.co")


def test_the_store_applies_the_alert_caps_the_settings_give(tmp_path):
    store = open_store(Settings.of(data_dir=tmp_path, lead_alerts_per_visitor=1))
    try:
        fates = [
            store.leads.record(email, "", "", Alert(AlertKind.LEAD, "L", (("Email", email),), "s1").entry())
            for email in ("a@example.org", "b@example.org")
        ]
    finally:
        store.close()
    assert fates == [Recorded.ALERTED, Recorded.CAPPED] and (tmp_path / "replica.sqlite3").is_file()


def test_without_a_key_there_is_no_model_and_the_log_says_how_to_connect_one(caplog):
    with caplog.at_level(logging.WARNING, logger="replica.wiring"):
        assert make_model(Settings().model, Timings()) is None
    assert "OPENAI_API_KEY is not set" in caplog.text and "OPENAI_BASE_URL" in caplog.text


def test_a_local_server_needs_no_key():
    model = make_model(Settings.of(openai_base_url="http://127.0.0.1:8080/v1", openai_model="qwen").model, Timings())
    assert isinstance(model, OpenAIChatModel)


def test_without_telegram_or_another_channel_alerts_go_to_the_log(tmp_path, caplog):
    settings = Settings.of(data_dir=tmp_path)
    store = open_store(settings)
    try:
        with caplog.at_level(logging.WARNING, logger="replica.wiring"):
            assert isinstance(make_notifier(settings, store, Timings()), LogNotifier)
    finally:
        store.close()
    assert "alerts will be written to the log only" in caplog.text


def test_a_reply_is_bounded_by_exactly_the_settings_given(make_replica):
    replica = make_replica(
        max_turns=3,
        reply_deadline_seconds=12,
        max_reply_tokens=321,
        max_message_chars=900,
        queue_concurrency=5,
        queue_max_size=7,
        queue_wait_seconds=2.5,
    )
    answer = replica.answer
    assert answer.settings is replica.settings  # one group, handed down whole: no copy to drift
    assert (replica.settings.reply_deadline_seconds, replica.settings.max_message_chars) == (12, 900)
    assert answer.loop is not None and (answer.loop.max_turns, answer.loop.max_tokens) == (3, 321)
    assert (answer.lanes.count, answer.lanes.max_waiting, answer.lanes.wait_seconds) == (5, 7, 2.5)
