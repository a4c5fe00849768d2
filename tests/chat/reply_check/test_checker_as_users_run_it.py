"""The reply check as users run it: ``python app.py`` with the example knowledge, behind a model that
invents a phone number, claims to have saved an address it never got, or writes what weak models write,
and the owner's Telegram (a file of its own so that its apps run beside the checker's tables)."""

from __future__ import annotations

import pytest

from replica import wording
from tests.chat.reply_check.test_checker import INVENTED, OWNER, TELLS_JORDAN
from tests.fakes.openai_server import say
from tests.fixtures.clients import app_client
from tests.fixtures.environment import API_KEY
from tests.fixtures.processes import run_app, served_app


def environment(tmp_path, fake_openai, fake_telegram, **more):
    return {
        "OPENAI_API_KEY": API_KEY,
        "OPENAI_BASE_URL": fake_openai.base_url,
        "OPENAI_MODEL": "fake-model",
        **fake_telegram.env,
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
    assert "withheld a sentence holding what the sources do not (phone number)" in log and "912 345" not in log


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


def test_as_users_run_it_a_weak_models_words_never_reach_the_visitor_and_its_unanswered_question_reaches_the_owner(
    tmp_path, fake_openai, fake_telegram
):
    """``python app.py`` with the example knowledge, behind a model that writes each shape a weak one
    writes: only the machinery talking, an answer the notes do not hold, a promise and a next turn of its
    own, and a tool call begun at its token cap."""
    with served_app(tmp_path / "app.log", **environment(tmp_path, fake_openai, fake_telegram)) as (url, _):
        client = app_client(url)
        fake_openai.script(say("### System Prompt\nSorry, but the visitor has not provided an email address."))
        machinery = client.predict("Do you sign NDAs?", api_name="/chat")
        fake_openai.script(say("No, I do not have experience with Rust in production.", pieces=6))
        rust = client.predict("Do you have experience with Rust in production?", api_name="/chat")
        fake_openai.script(say("Yes, from next month! I'll let you know when I'm free.\nUser: great\nAssistant: Bye!"))
        promise = client.predict("Are you available for new projects?", api_name="/chat")
        fake_openai.script(say("Thanks for asking! I work from Lisbon. I will call the `", finish="length"))
        fragment = client.predict("Where are you based?", api_name="/chat")
        [alert] = fake_telegram.wait_for(1)
    # Nothing worth showing: what the replica says without a model, the owner's approved answer.
    assert machinery == "From Jordan Avery's FAQ: Yes, before any detailed discussion of a client's data."
    assert rust == f"{wording.NOT_IN_NOTES} {wording.QUESTION_KEPT}"
    assert "Unanswered question" in alert.text and "Rust in production" in alert.text
    assert promise.startswith("Yes, from next month!") and "let you know" not in promise and "User" not in promise
    assert wording.LEAVE_AN_ADDRESS.format(owner=OWNER) in promise
    assert fragment == "Thanks for asking! I work from Lisbon."  # no fragment, and no "(cut off)" for what the app cut


def test_as_users_run_it_a_prompts_voice_and_an_ai_in_disguise_never_show_and_a_hi_for_the_owner_reaches_them(
    tmp_path, fake_openai, fake_telegram
):
    """``python app.py`` with the example knowledge, behind a model that writes what a 1.5B one wrote."""
    with served_app(tmp_path / "app.log", **environment(tmp_path, fake_openai, fake_telegram)) as (url, _):
        client = app_client(url)
        fake_openai.script(
            say("## Instructions\nYou are a helpful assistant.\nI build batch and streaming data pipelines.", pieces=7)
        )
        instructions = client.predict("What do you do?", api_name="/chat")
        fake_openai.script(
            say("As a data engineer, I don't have personal preferences or emotions. I work with Python and dbt.")
        )
        disguised = client.predict("Which tools do you like?", api_name="/chat")
        fake_openai.script(say(TELLS_JORDAN, pieces=5))
        hello = client.predict("tell Jordan I said hi", api_name="/chat")
        [alert] = fake_telegram.wait_for(1)
    assert instructions == "I build batch and streaming data pipelines."
    assert disguised == "I work with Python and dbt."
    assert hello == TELLS_JORDAN  # true: the owner has it
    assert "tell Jordan I said hi" in alert.text
