"""The reply check: nothing specific invented, no claim the records do not back, no debris, and a
question the reply could not answer passed on; words streamed as they come, and nothing withheld ever
on screen. The tables are written from the example knowledge (``knowledge/``). As users run it, with
``python app.py``: ``test_checker_as_users_run_it.py``."""

from __future__ import annotations

import logging

import pytest

from replica import wording
from replica.chat.reply import Visitor
from replica.chat.reply_check.checker import Records, ReplyChecker
from replica.chat.reply_check.specifics import specifics
from replica.storage.records import AlertKind
from tests.fakes.openai_server import say
from tests.fixtures.environment import ROOT

KNOWLEDGE = "\n\n".join(p.read_text() for p in sorted((ROOT / "knowledge").iterdir()))
OWNER = "Jordan Avery"
VISITOR = "Hi, I'm Dana Reyes from Acme Talent (dana.reyes@acme-talent.com). What do you do?"


@pytest.fixture(scope="module")
def checker():
    return ReplyChecker(KNOWLEDGE, OWNER)


def checked(checker, reply, message=VISITOR, records=Records(), pieces=None):
    """The reply as the visitor sees it stream, then as finished, and whether the question was passed on."""
    check = checker.begin("You are Jordan Avery's AI replica.", [], message)
    seen, step = [], pieces or 3
    for end in range(step, len(reply) + step, step):
        seen.append(check.visible(reply[:end]))
    passed = []
    final = check.finish(reply, records, lambda: passed.append(True) or True)
    # It only ever grows, and nothing shown is taken back.
    assert all(b.startswith(a) for a, b in zip(seen, seen[1:])) and final.startswith(seen[-1].rstrip()), seen
    return final, bool(passed), check.verdict, seen


GROUNDED = {
    "who": "I'm Jordan Avery, a freelance data engineer based in Lisbon, Portugal.",
    "what": "I help small and mid-sized companies build reliable data pipelines and analytics platforms.",
    "since": "I've been freelancing since 2021.",
    "employer": "From 2017 to 2021 I was a senior data engineer at Mareva Logistics.",
    "first employer": "Before that, from 2014 to 2017, I was a software engineer at Quinta Labs.",
    "team": "At Mareva Logistics I led a team of four and built the company's first event pipeline on Kafka.",
    "project": "On project TIDE-22 I moved a logistics company's nightly reports from 6 hours to 25 minutes.",
    "tools": "I work with Python, SQL, Apache Airflow, dbt and Kafka.",
    "warehouses": "I set up cloud data warehouses such as BigQuery and Snowflake.",
    "degree": "I have an MSc in Computer Science from the University of Lisbon, 2014.",
    "NDA": "Yes, I sign NDAs before any detailed discussion of a client's data.",
    "time zone": "I'm on Western European Time (Lisbon), and I overlap comfortably with US East Coast mornings.",
    "availability": "I'm available for new projects from next month, remote or on-site in Lisbon.",
    "languages": "I speak English, Portuguese and Spanish.",
    "startups": "Yes, I often help early-stage startups set up a warehouse and a handful of reliable pipelines.",
    "how to start": "The best way to start is to leave your email here with a line about your project.",
    "visitor's name": "Thanks, Dana! Nice to meet you.",
    "visitor's address": "Sure, I can write to you at dana.reyes@acme-talent.com once we've talked.",
    "visitor's company": "For Acme Talent, I'd suggest a short call first.",
    "rescue": "I review and rescue existing data platforms that have become slow, expensive or unreliable.",
    "sectors": "My clients are in retail, logistics and fintech.",
    "pipelines": "I build batch and streaming data pipelines, and the dashboards on top of the warehouses.",
    "Kafka": "Happy to talk about your Kafka setup.",
    "PostgreSQL": "I've worked with PostgreSQL since my time at Quinta Labs.",
    "home": "Lisbon is home, but I work remotely too.",
    "event pipeline": "My first event pipeline was built on Kafka at Mareva Logistics.",
    "four": "I led a team of four engineers.",
    "reports": "The nightly reports went from 6 hours to 25 minutes.",
    "short NDA": "Yes, I sign NDAs.",
    "country": "I'm based in Portugal.",
    "asks back": "Tell me more about your project, Dana.",
    "fit": "That sounds like a good fit for Airflow and dbt.",
    "BigQuery": "I'd be glad to help with BigQuery.",
    "studies": "I studied Computer Science at the University of Lisbon.",
    "plain": "Good question! I usually start with a review of the existing platform.",
    "since 2014": "I've been building software since 2014, in Python and PostgreSQL.",
    "offer": "If you leave your email address, I'll get back to you.",
    "asks to pass on": "Would you like me to pass your question on?",
    "denies": "I haven't saved your email yet, so feel free to leave it here.",
    "history": "My work history: Mareva Logistics, then Quinta Labs before it, and freelance since 2021.",
    "list": "What I do:\n- Data pipelines (Python, SQL)\n- Warehouses (BigQuery, Snowflake)\n- Rescues",
    "heading": "### Experience\nSenior data engineer at Mareva Logistics, 2017–2021.",
    "code": "Here is a dbt model:\n```sql\nselect id, 42 as answer from orders where total > 1000\n```\nThat's all.",
}


@pytest.mark.parametrize("reply", GROUNDED.values(), ids=GROUNDED.keys())
def test_a_grounded_reply_passes_unchanged_and_passes_nothing_on(checker, reply):
    final, passed, verdict, _ = checked(checker, reply)
    assert (final, passed, verdict.withheld, verdict.claims) == (reply, False, [], [])


UNGROUNDED = {  # each: the reply, and what gives it away
    "phone": ("You can call me on +351 912 345 678.", "phone number"),
    "phone without a plus": ("Call me at 912 345 678 any time.", "phone number"),
    "street address": ("My office is at 123 Main St, Lisbon.", "street address"),
    "street, the other way": ("I live at 45 Rua Augusta, close to the river.", "number"),
    "email": ("Write to me at jordan@averydata.dev.", "email address"),
    "URL": ("My portfolio is at https://jordanavery.dev/work.", "URL"),
    "domain": ("See averydata.io for case studies.", "URL"),
    "LinkedIn": ("Find me on linkedin.com/in/jordanavery.", "URL"),
    "day rate": ("My day rate is €650.", "amount of money"),
    "hourly rate": ("I charge $120 an hour.", "amount of money"),
    "project price": ("A project usually costs around 5,000 euros.", "amount of money"),
    "percentage": ("I cut costs by 40% for one client.", "percentage"),
    "percent in words": ("I'm booked at 80 percent capacity.", "percentage"),
    "year": ("I started freelancing in 2012.", "date"),
    "date": ("I'm free on March 14 for a call.", "date"),
    "employer": ("I worked at Google for three years.", "name"),
    "employer and year": ("In 2019 I joined Spotify as a data engineer.", "date"),
    "mentor": ("I was trained by Martin Kleppmann.", "name"),
    "university": ("I studied at Stanford University.", "name"),
    "client": ("One of my clients is Zalando.", "name"),
    "certificate": ("I'm a certified AWS Solutions Architect.", "name"),
    "count": ("I've built over 50 pipelines.", "number"),
    "team size": ("My team at Mareva Logistics had 12 engineers.", "number"),
    "chess opening": ("My favourite opening is the Sicilian Defense.", "name"),
}


@pytest.mark.parametrize("reply, kind", UNGROUNDED.values(), ids=UNGROUNDED.keys())
def test_an_invented_specific_never_reaches_the_screen_and_the_question_is_passed_on(checker, reply, kind, caplog):
    with caplog.at_level(logging.WARNING, logger="replica.chat.reply_check.checker"):
        final, passed, verdict, seen = checked(checker, reply)
    assert wording.NOT_IN_NOTES in final and passed and kind in verdict.withheld
    invented = [s.text for s in specifics(reply) if not checker.knowledge.holds(s)]
    assert invented and not any(text in shown for text in invented for shown in seen + [final]), (invented, seen)
    assert reply not in caplog.text and kind in caplog.text  # the log names the kind, never the text


FALSE_CLAIMS = {  # the reply, the records, what the visitor reads instead (None: the claim made true)
    "email saved, none given": ("I've saved your email address.", Records(), wording.NO_ADDRESS_YET),
    "email recorded, none given": ("Yes, I have recorded your email.", Records(), wording.NO_ADDRESS_YET),
    "details passed on": ("Your details have been passed on to Jordan.", Records(), wording.NO_ADDRESS_YET),
    "question passed on, none on record": ("I've passed your question on to Jordan.", Records(), None),
    "follow-up promised": ("Jordan will get back to you shortly.", Records(), None),
    "declines": ("I'm sorry, I don't have any information about that.", Records(), None),
    "cannot answer": ("I can't answer that one.", Records(), None),
    "not sure": ("I'm not sure about that.", Records(), None),
}


@pytest.mark.parametrize("reply, records, instead", FALSE_CLAIMS.values(), ids=FALSE_CLAIMS.keys())
def test_a_claim_the_records_do_not_back_is_replaced_or_made_true(checker, reply, records, instead):
    final, passed, _, _ = checked(checker, reply, message="What's your favourite chess opening?", records=records)
    if instead:
        assert instead in final and reply not in final and not passed
    else:  # the visitor's question is passed on, so what the reply says is so
        assert passed and reply in final


@pytest.mark.parametrize(
    "reply, records",
    [
        ("I've saved your email address.", Records(lead=True)),
        ("I've passed your question on to Jordan.", Records(question=True)),
        ("Jordan will get back to you shortly.", Records(lead=True)),
        ("I don't have any information about that.", Records(question=True, asked_now=True)),
    ],
    ids=["lead on record", "question on record", "follow-up after a lead", "declined, already passed on"],
)
def test_a_claim_the_records_back_is_shown_as_written(checker, reply, records):
    final, passed, verdict, _ = checked(checker, reply, records=records)
    assert (final, passed, verdict.claims) == (reply, False, [])


def test_a_greeting_is_never_passed_on_to_make_a_claim_true(checker):
    final, passed, _, _ = checked(checker, "I've passed it on to the owner.", message="Hello!")
    assert (final, passed) == (wording.NOTHING_PASSED_ON, False)


def test_asking_whether_it_was_passed_on_is_answered_with_the_records_not_passed_on(checker):
    final, passed, _, _ = checked(checker, "Yes, I've passed your question on.", message="Did you pass my question on?")
    assert (final, passed) == (wording.NOTHING_PASSED_ON, False)


@pytest.mark.parametrize(
    "reply, expected",
    [
        ("###\nI'm based in Lisbon.", "I'm based in Lisbon."),
        ("I'm based in Lisbon.\n```", "I'm based in Lisbon."),
        ("I'm based in Lisbon.<s> I speak English.", "I'm based in Lisbon. I speak English."),
        ("I can help. I can help. I can help. I can help.", "I can help."),
        ("I can help. I can help. Tell me more.", "I can help. I can help. Tell me more."),  # twice is allowed
    ],
    ids=["a heading mark alone", "a lone fence", "a template token", "a sentence four times", "twice"],
)
def test_debris_never_reaches_the_visitor(checker, reply, expected):
    final, _, _, seen = checked(checker, reply, pieces=2)
    assert final == expected
    assert not any("###" in s or "```" in s or "<s>" in s for s in seen)


def test_words_stream_until_a_specific_begins_and_a_grounded_one_lets_them_go_on(checker):
    reply = "I'm on Western European Time, and I overlap comfortably with US East Coast mornings."
    _, _, _, seen = checked(checker, reply, pieces=1)
    assert seen[5] == "I'm "  # the first words stream at once
    # Held at the name until it is whole and found, then on at once, before the sentence ends.
    assert any(s.startswith("I'm on Western European Time, and") and not s.endswith(".") for s in seen)


def test_the_words_before_a_withheld_specific_stay_and_the_truth_follows_them(checker):
    final, _, _, seen = checked(checker, "Sure. My phone number is +351 912 345 678.", pieces=1)
    assert "Sure. My phone number is " in seen and not any("351" in s for s in seen)
    assert final.startswith(f"Sure. My phone number is… {wording.NOT_IN_NOTES}")
    assert final.endswith(wording.QUESTION_KEPT)


def test_the_apps_own_sentences_are_never_checked(checker):
    reply = f"{wording.QUESTION_PASSED_ON}\n\n{wording.LEAD_NOTED}"
    final, passed, verdict, _ = checked(checker, reply)
    assert (final, passed, verdict.claims) == (reply, False, [])


INVENTED = "My phone number is +351 912 345 678, call me any time."


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
    questions = [alert for alert in notifier.alerts if alert.kind == AlertKind.QUESTION]
    assert [dict(alert.fields)["Question"] for alert in questions] == ["What's your phone number?"]


def test_a_turn_that_is_nothing_but_debris_is_no_words_and_the_model_is_asked_again(fake_openai, make_replica):
    fake_openai.script(say("###\n```\n<s>"), say("I build analytical engines."))
    assert make_replica().reply("What do you do?", Visitor("s1")) == "I build analytical engines."
    assert fake_openai.calls == 2 and fake_openai.requests[1]["tool_choice"] == "none"


# In the owner's voice (issue 40): the machinery's words, promises and what nothing backs never reach the visitor.


def test_framework_talk_never_shows_while_streaming_and_the_owners_words_around_it_stay(checker):
    reply = "I'm based in Lisbon. The visitor has not provided an email address. I work remotely too."
    final, passed, verdict, seen = checked(checker, reply, message="Where are you based?", pieces=1)
    assert final == "I'm based in Lisbon. I work remotely too." and not passed
    assert not any("visitor" in shown for shown in seen) and verdict.voice == ["framework talk"]


def test_a_heading_naming_the_system_prompt_is_dropped(checker):
    reply = "### System Prompt\nI'm a freelance data engineer in Lisbon."
    final, _, _, seen = checked(checker, reply, message="What do you do?", pieces=1)
    assert final == "I'm a freelance data engineer in Lisbon." and not any("System" in s for s in seen)


@pytest.mark.parametrize("lead", [False, True], ids=["no address", "address left"])
def test_a_promise_is_replaced_by_what_is_true(checker, lead):
    reply = "I'm available from next month. I'll let you know when I'm free for a call."
    final, _, verdict, seen = checked(checker, reply, message="When can we talk?", records=Records(lead=lead))
    truth = (wording.OWNER_WILL_SEE if lead else wording.LEAVE_AN_ADDRESS).format(owner=OWNER)
    assert final.startswith(f"I'm available from next month. {truth}") and "let you know" not in final
    assert not any("let you" in shown for shown in seen) and verdict.voice == ["promise"]


def test_a_promise_in_the_owners_own_words_is_theirs_to_keep(checker):
    reply = "Leave your email here with a line about your project and I'll get back to you personally."
    assert checked(checker, reply, message="How can I reach you?")[0] == reply  # the FAQ's own words


def test_a_bare_answer_to_what_the_notes_never_mention_never_shows(checker):
    final, passed, verdict, seen = checked(
        checker,
        "No, I do not have experience with Rust in production.",
        message="Do you have experience with Rust in production?",
        pieces=1,
    )
    assert final.startswith(wording.NOT_IN_NOTES) and passed and set(seen) == {""}


# Issue 53: the voice's last leaks. A prompt's own voice and "as an AI" in disguise never reach the visitor;
# "I'll let Jordan know you said hi" is true by the time the visitor reads it, or not said.


def test_a_reply_that_opens_with_its_instructions_shows_only_the_answer(checker):
    reply = "## Instructions\nYou are a helpful assistant.\nI build batch and streaming data pipelines."
    final, passed, verdict, seen = checked(checker, reply, message="What do you do?", pieces=1)
    assert final == "I build batch and streaming data pipelines." and not passed
    assert not any("Instructions" in shown or "assistant" in shown for shown in seen)
    assert verdict.voice == ["framework talk", "framework talk"]


def test_as_an_ai_in_disguise_never_shows_and_the_owners_as_a_does(checker):
    reply = "As a data engineer, I don't have personal preferences or emotions. I work with Python, SQL and dbt."
    final, _, verdict, seen = checked(checker, reply, message="Which tools do you like?", pieces=1)
    assert final == "I work with Python, SQL and dbt." and verdict.voice == ["framework talk"]
    assert not any("As a" in shown or "emotions" in shown for shown in seen)  # held from its first word
    owner = "As a data engineer, I build batch and streaming data pipelines. You are welcome to leave your email here."
    final, passed, verdict, _ = checked(checker, owner, message="What do you do?", pieces=1)
    assert (final, passed, verdict.changed) == (owner, False, False)


TELLS_JORDAN = "Sure! I'll let Jordan know you said hi."


@pytest.mark.parametrize(
    "message, reply",
    [
        ("tell Jordan I said hi", TELLS_JORDAN),
        ("Say hi to Jordan for me!", "Will do, I've passed your greeting on to Jordan."),
        ("dile a Jordan que le mando saludos", "Claro, le diré a Jordan que lo saludaste."),
    ],
)
def test_saying_the_owner_was_told_is_made_true_by_passing_the_message_on(checker, message, reply):
    final, passed, verdict, _ = checked(checker, reply, message=message)
    assert (final, passed, verdict.claims) == (reply, True, ["told the owner"])


def test_a_question_passed_on_earlier_does_not_make_it_true_that_the_owner_was_told_this(checker):
    _, passed, _, _ = checked(checker, TELLS_JORDAN, message="tell Jordan I said hi", records=Records(question=True))
    assert passed
    thanks = checked(
        checker, "You're welcome! I've let Jordan know.", message="Thanks!", records=Records(question=True)
    )
    assert thanks[:2] == ("You're welcome! I've let Jordan know.", False)  # what the earlier one passed on


def test_a_lead_kept_for_this_message_makes_it_true_that_the_owner_was_told(checker):
    reply = "Thanks Dana, I'll pass that on to Jordan."  # to a message that asks something, and left an address
    assert checked(checker, reply, records=Records(lead=True, lead_now=True))[:2] == (reply, False)
    # A lead from an earlier message does not make a new "tell Jordan I said hi" passed on.
    assert checked(checker, TELLS_JORDAN, message="tell Jordan I said hi", records=Records(lead=True))[1]


def test_a_claim_of_telling_the_owner_is_dropped_when_nothing_can_be_passed_on(checker):
    # A greeting is never passed on: the visitor is told nothing has been.
    final, passed, _, _ = checked(checker, "Hi! I'll let Jordan know you stopped by.", message="Hi!")
    assert (final, passed) == (f"Hi! {wording.NOTHING_PASSED_ON}", False)
    # Passing it on failed (the alert caps, the store): the visitor reads that it was not passed on.
    check = checker.begin("You are Jordan Avery's AI replica.", [], "tell Jordan I said hi")
    final = check.finish(TELLS_JORDAN, Records(), lambda: False)
    assert final == f"Sure! {wording.NOT_PASSED_ON}" and "let Jordan know" not in final
