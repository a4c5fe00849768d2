"""The reply check as users run it: ``python app.py`` with the example knowledge, a model that invents a
phone number and claims to have saved an address it never got, and the owner's Telegram."""

from __future__ import annotations

import pytest

from replica import wording
from replica.chat.reply import Visitor
from tests.fakes.openai_server import say
from tests.fixtures.clients import app_client
from tests.fixtures.environment import API_KEY
from tests.fixtures.processes import run_app, served_app

INVENTED = "My phone number is +351 912 345 678, call me any time."


def environment(tmp_path, fake_openai, fake_telegram, **more):
    return {
        "OPENAI_API_KEY": API_KEY,
        "OPENAI_BASE_URL": fake_openai.base_url,
        "OPENAI_MODEL": "fake-model",
        "TELEGRAM_BOT_TOKEN": fake_telegram.token,
        "TELEGRAM_CHAT_ID": str(fake_telegram.chat_id),
        "TELEGRAM_API_BASE": fake_telegram.url,
        "DATA_DIR": str(tmp_path / "data"),
        **more,
    }


def test_an_invented_number_and_a_false_claim_never_reach_the_visitor_and_the_owner_gets_the_question(
    tmp_path, fake_openai, fake_telegram
):
    with served_app(tmp_path / "app.log", **environment(tmp_path, fake_openai, fake_telegram)) as (url, _):
        client = app_client(url)
        fake_openai.script(say("Sure! " + INVENTED, pieces=8))
        invented = client.predict("What's your phone number?", api_name="/chat")
        fake_openai.script(say("Yes, I have recorded your email address."))
        claimed = client.predict("Did you save my email?", api_name="/chat")
        fake_openai.script(say("I'm Jordan Avery, a freelance data engineer based in Lisbon, Portugal."))
        grounded = client.predict("Who are you?", api_name="/chat")
        [alert] = fake_telegram.wait_for(1)
    assert "912" not in invented and wording.NOT_IN_NOTES in invented and wording.QUESTION_KEPT in invented
    assert "Unanswered question" in alert.text and "What's your phone number?" in alert.text
    assert claimed == wording.NO_ADDRESS_YET
    assert grounded == "I'm Jordan Avery, a freelance data engineer based in Lisbon, Portugal."
    log = (tmp_path / "app.log").read_text()
    assert "withheld a sentence holding what the sources do not (phone number)" in log and "912" not in log


@pytest.mark.parametrize("setting", ["false"])
def test_with_check_replies_off_the_model_is_read_as_it_wrote_and_doctor_says_so(
    tmp_path, fake_openai, fake_telegram, setting
):
    env = environment(tmp_path, fake_openai, fake_telegram, CHECK_REPLIES=setting)
    fake_openai.default = say(INVENTED)
    with served_app(tmp_path / "app.log", **env) as (url, _):
        assert app_client(url).predict("What's your phone number?", api_name="/chat") == INVENTED
    doctor = run_app("doctor", **env)
    assert "! replies: CHECK_REPLIES is off" in doctor.stdout


def test_through_the_sdk_an_invented_number_never_streams_and_the_question_reaches_the_owner_once(
    fake_openai, make_replica, notifier
):
    replica = make_replica(check_replies=True)
    replica.reply("Hello", Visitor("s1"))  # a server's first reply is held whole, until it shows its kind
    fake_openai.script(say("Sure, Ada here. " + INVENTED, pieces=20))
    seen = list(replica.stream_reply("What's your phone number?", Visitor("s1")))
    assert any(shown == "Sure, Ada here. My phone number is " for shown in seen)  # streamed up to the number
    assert not any("912" in shown or "+" in shown for shown in seen)
    assert seen[-1] == f"Sure, Ada here. My phone number is… {wording.NOT_IN_NOTES}\n\n{wording.QUESTION_KEPT}"
    questions = [alert for alert in notifier.alerts if alert.kind == "question"]
    assert [dict(alert.fields)["Question"] for alert in questions] == ["What's your phone number?"]


def test_a_turn_that_is_nothing_but_debris_is_no_words_and_the_model_is_asked_again(fake_openai, make_replica):
    fake_openai.script(say("###\n```\n<s>"), say("I build analytical engines."))
    assert make_replica().reply("What do you do?", Visitor("s1")) == "I build analytical engines."
    assert fake_openai.calls == 2 and fake_openai.requests[1]["tool_choice"] == "none"
