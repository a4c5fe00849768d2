"""A visitor's message through the Replica (replica/chat/reply.py): the promise holds with any model
(tool calls written as text are run and never shown, the model is shown what its tools did, each message
leaves one log line), replies stream, and limits refuse; through the real SDK and the HTTP fake, and as
a gradio_client visitor."""

from __future__ import annotations

import json
import logging
import re
import time
from concurrent.futures import ThreadPoolExecutor
from types import SimpleNamespace

import pytest

from replica import wording
from replica.chat.limits import UsageLimits
from replica.chat.reply import Visitor
from replica.chat.tool_text import ToolTextFilter
from replica.storage.records import NOTICE, OWNER, REPLICA, VISITOR
from replica.web.page import client_address
from tests.fakes.openai_server import call, fail, say
from tests.fixtures.environment import wait_until


def stream_visitor(client, message):
    """Submit ``message`` and return [(seconds since submit, partial reply)] for each new partial."""
    started = time.monotonic()
    job = client.submit(message, api_name="/chat")
    seen = []
    for partial in job:
        if not seen or partial != seen[-1][1]:
            seen.append((time.monotonic() - started, partial))
    final = job.result()
    if final != seen[-1][1]:
        seen.append((time.monotonic() - started, final))
    return seen


def test_a_streamed_answer_shows_growing_partials_the_first_long_before_the_last(visitor, fake_openai):
    text = "I have spent ten years building data pipelines for logistics, retail and fintech clients."
    fake_openai.default = say(text, pieces=10, piece_delay=0.3)  # 10 pieces over 3 s
    seen = stream_visitor(visitor(), "Tell me about your work")
    partials = [reply for _, reply in seen]
    assert len(partials) >= 3 and seen[-1][0] - seen[0][0] > 1.5  # the first words came long before the last
    assert all(b.startswith(a) and len(b) > len(a) for a, b in zip(partials, partials[1:]))  # each one grows
    assert partials[-1] == text
    assert fake_openai.requests[0]["stream"] is True


def test_tool_rounds_still_alert_with_streaming_on(visitor, fake_openai, fake_telegram):
    fake_openai.script(
        call(
            ("gather_user_details", {"email": "streamer@example.org", "notes": "Streaming works", "name": "Sam"}),
            content="One moment.",
        ),
        say("Thanks Sam, noted!", pieces=4),
    )
    final = stream_visitor(visitor(), "I'm Sam, streamer@example.org")[-1][1]
    assert final.endswith("Thanks Sam, noted!")
    [message] = fake_telegram.wait_for(1)
    assert "streamer@example.org" in message.text and "Streaming works" in message.text
    assert all(r["stream"] for r in fake_openai.requests)


def request(host, forwarded=None):
    headers = {"x-forwarded-for": forwarded} if forwarded else {}
    return SimpleNamespace(client=SimpleNamespace(host=host), headers=headers)


@pytest.mark.parametrize(
    "hops, forwarded, expected",
    [
        (0, "6.6.6.6", "10.0.0.1"),  # no proxy: a client-set header is ignored
        (1, "6.6.6.6, 203.0.113.7", "203.0.113.7"),  # behind one proxy: the hop it added, not the forged one
        (1, None, "10.0.0.1"),
        (2, "203.0.113.7", "10.0.0.1"),  # fewer entries than trusted proxies: fall back to the peer
    ],
)
def test_client_address_uses_only_the_trusted_proxy_hop(hops, forwarded, expected):
    assert client_address(request("10.0.0.1", forwarded), hops) == expected


QUESTION = {"question": "What is your favourite opera?"}
LEAD = {"email": "jane.doe@example.com", "notes": "Wants to hire Jordan", "name": "Jane"}
LEAD_JSON, QUESTION_JSON = json.dumps(LEAD), json.dumps(QUESTION)

# (form, text the model writes, the tool it means). Every form the issue names, and the lenient ones.
FORMS = [
    ("doubled braces", '{{"name": "gather_user_details", "arguments": %s}}' % LEAD_JSON, "gather_user_details"),
    ("tools tag, flat", '<tools>{"name": "gather_user_details", %s</tools>' % LEAD_JSON[1:], "gather_user_details"),
    (
        "tool_call tag",
        '<tool_call>\n{"name": "inform_unknown", "arguments": %s}\n</tool_call>' % QUESTION_JSON,
        "inform_unknown",
    ),
    ("Mistral list", '[TOOL_CALLS][{"name": "inform_unknown", "arguments": %s}]' % QUESTION_JSON, "inform_unknown"),
    ("Mistral ARGS", "[TOOL_CALLS]inform_unknown[ARGS]%s" % QUESTION_JSON, "inform_unknown"),
    ("function tag", "<function=inform_unknown>%s</function>" % QUESTION_JSON, "inform_unknown"),
    ("python_tag", '<|python_tag|>{"name": "inform_unknown", "parameters": %s}' % QUESTION_JSON, "inform_unknown"),
    (
        "code fence",
        '```json\n{"name": "gather_user_details", "arguments": %s}\n```' % LEAD_JSON,  # the whole reply
        "gather_user_details",
    ),
    ("functions line", "functions.inform_unknown: %s" % QUESTION_JSON, "inform_unknown"),
    ("name(arguments)", 'inform_unknown(question="What is your favourite opera?")', "inform_unknown"),
    (
        "trailing prose",
        '{"name": "inform_unknown", "arguments": %s} I have passed it on!' % QUESTION_JSON,
        "inform_unknown",
    ),
    (
        "broken JSON",
        '{"name": "gather_user_details", "arguments": {"email": "jane.doe@example.com", "notes": "hire',
        "gather_user_details",
    ),
    ("bare arguments", "<tools>%s</tools>" % LEAD_JSON, "gather_user_details"),
]
UNREADABLE = [
    ("empty tools tag", "<tools></tools>", "<tools> tag"),
    ("bare functions line", "functions.inform_unknown:", "functions.name line"),
    (
        "a tool never offered",
        '<tool_call>{"name": "send_email", "arguments": {"to": "x"}}</tool_call>',
        "<tool_call> tag",
    ),
]
SYNTAX = re.compile(r"gather_user_details|inform_unknown|<tool|TOOL_CALLS|python_tag|functions\.|[{}]|```")


def streamed(replica, message, session="s1"):
    """Every value the visitor's page is sent, in order."""
    return list(replica.stream_reply(message, Visitor(session)))


@pytest.mark.parametrize("pieces", [1, 7], ids=["one piece", "streamed"])
@pytest.mark.parametrize("form, text, tool", FORMS, ids=[f[0] for f in FORMS])
def test_a_tool_call_written_as_text_runs_like_a_native_one_and_is_never_shown(
    form, text, tool, pieces, fake_openai, make_replica, store, notifier
):
    fake_openai.script(say(text, pieces=pieces), say("Thank you, that is noted."))
    lead = tool == "gather_user_details"
    message = "I'm Jane, jane.doe@example.com, and I'd like to hire you." if lead else "What is your favourite opera?"
    shown = streamed(make_replica(), message)
    assert all(not SYNTAX.search(value) for value in shown), shown
    assert shown[-1].endswith("Thank you, that is noted.")
    [alert] = notifier.alerts
    assert alert.kind == ("lead" if lead else "question")
    if lead:
        assert [lead.email for lead in store.leads.all()] == ["jane.doe@example.com"]
    else:
        assert [q.question for q in store.questions.all()] == ["What is your favourite opera?"]
    # The second call gets the model's own words back and the result as a note from the app.
    second = fake_openai.requests[1]["messages"]
    assert second[-2] == {"role": "assistant", "content": text}
    assert second[-1]["role"] == "user" and "not from the visitor" in second[-1]["content"]
    assert f"- {tool}: ok" in second[-1]["content"]


@pytest.mark.parametrize("pieces", [1, 5], ids=["one piece", "streamed"])
@pytest.mark.parametrize("form, text, named", UNREADABLE, ids=[u[0] for u in UNREADABLE])
def test_tool_syntax_that_cannot_be_read_is_never_shown_and_is_named_in_a_warning(
    form, text, named, pieces, fake_openai, make_replica, store, caplog
):
    fake_openai.script(say(text, pieces=pieces), say(text, pieces=pieces))
    with caplog.at_level(logging.WARNING):
        shown = streamed(make_replica(), "Can you help me?")
    assert all(not SYNTAX.search(value) for value in shown), shown
    assert shown[-1].startswith("Sorry, I couldn't put an answer together")
    assert f"tool-call syntax ({named})" in caplog.text
    assert store.questions.all() == [] and store.leads.all() == []


def test_a_tool_call_written_as_text_keeps_the_same_budget_and_dedupe(fake_openai, make_replica, store, notifier):
    textual = '<tool_call>{"name": "inform_unknown", "arguments": %s}</tool_call>' % QUESTION_JSON
    fake_openai.default = say(textual)  # a model that only ever writes the call
    answer = make_replica().reply("What is your favourite opera?", Visitor("s1"))
    assert fake_openai.calls == 2  # MAX_TURNS: the second call's tool is run, then no third call
    assert len(store.questions.all()) == 1 and len(notifier.alerts) == 1  # the same call runs once
    assert answer == "I don't have an answer to that yet, so I've passed your question on; you'll get a proper answer."


def test_prose_streams_without_waiting_more_than_about_thirty_characters():
    prose = (
        "I work in information security, and my main functions are threat modelling and reviews. "
        "In 2019 I led [a team] of five; I love {curly} jokes, `inline code` and informal chats. "
        "Gathering user needs is half the job; being informed is the other half.\n\nThanks!"
    )
    hold = ToolTextFilter(["gather_user_details", "inform_unknown"])
    for end in range(1, len(prose) + 1):
        visible = hold.visible(prose[:end])
        assert prose.startswith(visible) and end - len(visible) <= 30, (end, visible[-20:])
    assert hold.visible(prose) == prose


def test_prose_reaches_the_visitor_in_many_steps_through_the_http_fake(fake_openai, make_replica):
    prose = (
        "I build analytical engines, and I have done so for many years in London and abroad. "
        "Most of the work is careful arithmetic, checked twice, and written up for the people who use it. "
        "The rest is talking with them about what the numbers should answer in the first place. "
    )
    replica = make_replica()
    replica.reply("Hello", Visitor("s0"))  # a server's first reply is held whole, until it shows its kind
    fake_openai.script(say(prose, pieces=40))
    shown = streamed(replica, "What do you do?")
    assert len(shown) >= 30 and shown[-1] == prose.strip()


def test_a_fenced_block_that_is_no_tool_call_is_shown_whole(fake_openai, make_replica):
    text = 'Here is my config:\n```json\n{"editor": "vim", "tabs": 4}\n```'
    fake_openai.script(say(text, pieces=6))
    assert streamed(make_replica(), "What editor?")[-1] == text


# A valid email is never lost.


# The model knows what happened.


def answers_from_the_facts(body):
    """A fake model that answers "did you pass it on?" from what the system prompt's records show."""
    system = body["messages"][0]["content"]
    records = system.split("## What the records of this conversation show", 1)[1]
    return say(
        "Yes, it was passed on."
        if re.search(r"question \(.*\) recorded and passed on", records)
        else "No, nothing was passed on."
    )


def test_the_model_is_told_truthfully_that_nothing_was_passed_on(fake_openai, make_replica):
    replica = make_replica()
    fake_openai.script(say("Good question! I'll look into it."))  # no tool call: nothing recorded
    replica.reply("What is your favourite opera?", Visitor("s1"))
    fake_openai.default = answers_from_the_facts
    assert replica.reply("Did you notify the owner about my question?", Visitor("s1")) == "No, nothing was passed on."


def test_the_model_is_told_what_its_tools_did_on_later_messages(fake_openai, make_replica):
    replica = make_replica()
    fake_openai.script(
        call(("inform_unknown", QUESTION)),
        say("I've passed it on."),
        call(("gather_user_details", {"email": "jane@@example", "notes": "hire"})),
        say("That address looks wrong."),
    )
    replica.reply("What is your favourite opera?", Visitor("s1"))
    replica.reply("Mail me at jane@@example", Visitor("s1"))
    fake_openai.default = answers_from_the_facts
    assert replica.reply("Did you pass my question on?", Visitor("s1")) == "Yes, it was passed on."
    system, *rest = fake_openai.requests[-1]["messages"]
    assert (
        "- question ('What is your favourite opera?') recorded and passed on to the owner, who was alerted"
        in system["content"]
    )
    assert "- the email address 'jane@@example' was refused as invalid; nothing was recorded" in system["content"]
    assert all("records" not in m["content"] for m in rest)  # never in the visitor's (or the replica's) words


# One log line per visitor message.


def test_each_message_leaves_one_info_line_with_what_it_took(fake_openai, make_replica, caplog):
    textual = "<tool_call>%s</tool_call>" % json.dumps({"name": "inform_unknown", "arguments": QUESTION})
    fake_openai.script(say(textual), say("I've passed it on."))
    secret = "my private story " * 40  # visitor text stays out of the line
    replica = make_replica()
    with caplog.at_level(logging.INFO, logger="replica"):
        replica.reply(f"What is your favourite opera? {secret}", Visitor("s1"))
    lines = [r.getMessage() for r in caplog.records if r.levelno == logging.INFO and r.name.startswith("replica")]
    assert len(lines) == 1, lines
    assert re.fullmatch(
        r"Conversation #\d+: 2 model call\(s\); tools: inform_unknown: question saved; "
        r"tool calls written as text: 1; \d+ ms; ended: words",
        lines[0],
    )


@pytest.mark.parametrize(
    "reply, ended",
    [(say("Hello " * 5, finish="length"), "cut"), (say(""), "no words"), (say("Hi!", cut=True), "cut")],
    ids=["length", "empty", "dropped stream"],
)
def test_the_log_line_says_why_the_reply_ended(reply, ended, fake_openai, make_replica, caplog):
    fake_openai.default = reply
    with caplog.at_level(logging.INFO, logger="replica.chat.reply"):
        make_replica().reply("Hello", Visitor("s1"))
    assert f"ended: {ended}" in caplog.text


def test_a_server_that_refuses_tools_is_asked_without_them_and_the_calls_are_read_from_text(
    fake_openai, make_replica, store
):
    def server(body):
        if "tools" in body:
            return fail(400)  # as llama.cpp without --jinja, or a model Ollama has no tool template for
        if "not from the visitor" in body["messages"][-1]["content"]:
            return say("I've passed your question on.")
        return say('<tool_call>{"name": "inform_unknown", "arguments": %s}</tool_call>' % QUESTION_JSON)

    fake_openai.default = server
    replica = make_replica()
    assert replica.reply("What is your favourite opera?", Visitor("s1")) == "I've passed your question on."
    assert [q.question for q in store.questions.all()] == ["What is your favourite opera?"]
    refused, asked, answered = fake_openai.requests[:3]
    assert "tools" in refused and "tools" not in asked and "tool_choice" not in asked
    assert (
        "## Tools" in asked["messages"][0]["content"] and '"name": "inform_unknown"' in asked["messages"][0]["content"]
    )
    replica.reply("And your favourite composer?", Visitor("s2"))
    assert all("tools" not in request for request in fake_openai.requests[3:])  # remembered: no refusal again


@pytest.mark.parametrize("pieces", [1, 9], ids=["one piece", "streamed"])
def test_a_reasoning_models_thinking_never_reaches_the_visitor(pieces, fake_openai, make_replica):
    thinking = "<think>The visitor asks what I do. The profile says analytical engines.</think>\n"
    fake_openai.script(say(thinking + "I build analytical engines.", pieces=pieces))
    shown = streamed(make_replica(), "What do you do?")
    assert shown[-1] == "I build analytical engines."
    assert not any("think" in value or "profile says" in value or "<" in value for value in shown), shown


ANSWER = "I build analytical engines."
MARKUP = [
    ("thinking tag", "<thinking>The visitor asks what I do.</thinking>\n" + ANSWER),
    ("upper case", "<THINK>The visitor asks what I do.</THINK>" + ANSWER),
    (
        "harmony",
        "<|channel|>analysis<|message|>The visitor asks what I do.<|end|><|start|>assistant"
        "<|channel|>final<|message|>" + ANSWER + "<|return|>",
    ),
    ("ChatML turn", ANSWER + "<|im_end|>\n<|im_start|>user\nAnd what do you earn?<|im_end|>"),
    ("Gemma turn", ANSWER + "<end_of_turn>\n<start_of_turn>user\nReally?"),
    ("Llama 3 turn", ANSWER + "<|eot_id|><|start_header_id|>user<|end_header_id|>\n\nHi"),
    ("leading ChatML", "<|im_start|>assistant\n" + ANSWER),
]
LEAKS = re.compile(r"<|\||visitor asks|what do you earn|Really|Hi$")


@pytest.mark.parametrize("pieces", [1, 9], ids=["one piece", "streamed"])
@pytest.mark.parametrize("form, text", MARKUP, ids=[m[0] for m in MARKUP])
def test_thinking_in_every_spelling_and_template_tokens_never_reach_the_visitor(
    form, text, pieces, fake_openai, make_replica
):
    fake_openai.script(say(text, pieces=pieces))
    shown = streamed(make_replica(), "What do you do?")
    assert shown[-1] == ANSWER
    assert not any(LEAKS.search(value) for value in shown), shown


def test_a_servers_first_reply_is_held_whole_then_replies_stream(fake_openai, make_replica):
    replica = make_replica()
    fake_openai.script(say("Thinking about what they do, from the profile, I would say.</think>" + ANSWER, pieces=8))
    first = streamed(replica, "What do you do?")
    assert first[-1] == ANSWER and not any("profile" in value for value in first), first  # never the thinking
    fake_openai.script(say(ANSWER + " For many years, in London.", pieces=8))
    later = streamed(replica, "Since when?")  # this server closes blocks it never opened: held until the tag
    assert later[-1] == ANSWER + " For many years, in London."
    plain = make_replica(openai_model="another-model")  # another server: what was learned of the first is not its
    fake_openai.script(say(ANSWER, pieces=8))
    assert set(streamed(plain, "Hello")) == {ANSWER}  # a first reply is held whole until its end: no tag
    fake_openai.script(say(ANSWER + " For many years, in London.", pieces=8))
    assert len(streamed(plain, "Since when?")) > 3  # and replies stream from then on


def test_a_stray_closing_tag_ends_the_thinking_and_later_replies_start_inside_it(fake_openai, make_replica):
    """DeepSeek-R1 and QwQ templates open the thinking block in the prompt: the reply is thinking, then
    </think>, then the answer. Once seen, every later reply is held until its closing tag."""
    replica = make_replica()
    fake_openai.script(say("Okay, the visitor asks what I do.</think>\n\n" + ANSWER, pieces=5))
    first = streamed(replica, "What do you do?")  # before the app knows: held, as it begins as thinking does
    assert first[-1] == ANSWER and not any("visitor asks" in value for value in first), first
    fake_openai.script(say("They ask where I live. The profile says London.</think>I live in London.", pieces=9))
    shown = streamed(replica, "Where do you live?")
    assert shown[-1] == "I live in London." and not any("profile" in value for value in shown), shown
    history = fake_openai.requests[-1]["messages"]
    assert {"role": "assistant", "content": ANSWER} in history  # the thinking never goes back either


@pytest.mark.parametrize(
    "text",
    [
        '<TOOL_CALL>{"name": "inform_unknown", "arguments": {"question": "Salary?"}}</TOOL_CALL>',
        "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>inform_unknown\n```json\n"
        '{"question": "Salary?"}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>',
    ],
    ids=["upper-case tag", "DeepSeek markers"],
)
def test_foreign_tool_markers_run_and_are_never_shown(text, fake_openai, make_replica, store):
    fake_openai.script(say(text, pieces=6), say("Passed on."))
    shown = streamed(make_replica(), "What do you earn?")
    assert shown[-1] == "Passed on." and not any(SYNTAX.search(v) or "｜" in v for v in shown), shown
    assert [q.question for q in store.questions.all()] == ["Salary?"]


def test_the_facts_say_when_an_alert_was_capped_or_a_lead_repeated(fake_openai, make_replica, store):
    fake_openai.default = say("Noted.")
    replica = make_replica()
    for n in range(4):  # the store's cap is 3 lead alerts a visitor
        replica.reply(f"Write to me at jane{n}@example.com", Visitor("s1"))
    replica.reply("Again: jane0@example.com", Visitor("s1"))
    system = fake_openai.requests[-1]["messages"][0]["content"]
    assert "- lead (jane2@example.com) recorded and passed on to the owner, who was alerted" in system
    assert "- lead (jane3@example.com) recorded for the owner, but not alerted (this visitor's alert limit" in system
    facts = store.conversations.facts(1)
    assert facts[-1] == "lead (jane0@example.com) was already recorded and passed on earlier; not again"


def test_a_tool_call_after_a_block_that_is_no_tool_call_is_still_read(fake_openai, make_replica, store):
    text = 'My editor setup:\n```json\n{"editor": "vim"}\n```\nI will pass that on.\n<tool_call>%s</tool_call>' % (
        json.dumps({"name": "inform_unknown", "arguments": QUESTION})
    )
    fake_openai.script(say(text, pieces=5), say("Done."))
    shown = streamed(make_replica(), "What is your favourite opera?")
    assert [q.question for q in store.questions.all()] == ["What is your favourite opera?"]
    assert shown[-1].startswith('My editor setup:\n```json\n{"editor": "vim"}\n```\nI will pass that on.')
    assert not any("tool_call" in value or "inform_unknown" in value for value in shown)


def test_a_visitor_cannot_pass_their_words_for_the_apps_note(fake_openai, make_replica):
    from replica.knowledge.prompts import render_prompt

    note = render_prompt("tool_results.md", results="- gather_user_details: ok")
    fake_openai.default = say("Noted.")
    replica = make_replica()
    replica.reply(note, Visitor("s1"))
    replica.reply("And again: " + note.upper(), Visitor("s1"))
    for request in fake_openai.requests:
        for message in request["messages"][1:]:
            assert "from the replica app, not" not in message["content"].lower(), message
    assert "as the visitor typed it" in fake_openai.requests[-1]["messages"][-1]["content"]


def test_messages_over_the_hourly_limit_are_not_kept_whole_the_conversation_notes_one_and_the_log_counts_them(
    fake_openai, make_replica, store, caplog
):
    fake_openai.default = say("Hello!")
    replica = make_replica(limits=UsageLimits.build(1, 100, 100))
    flood = [f"Spam number {n}, with my phone 555-0199" for n in range(5)]
    with caplog.at_level(logging.INFO, logger="replica"):
        assert replica.reply("First question", Visitor("s1")) == "Hello!"
        assert [replica.reply(text, Visitor("s1")) for text in flood] == [wording.TOO_MANY_MESSAGES] * 5
    [conversation] = store.conversations.recent(10)
    kept = [(message.role, message.text) for message in store.conversations.messages(conversation.id)]
    assert kept == [(VISITOR, "First question"), (REPLICA, "Hello!"), (NOTICE, wording.LIMITED_NOTE)]  # one note
    assert fake_openai.calls == 1
    refused = [r.getMessage() for r in caplog.records if "Hourly message limits" in r.getMessage()]
    assert refused == ["Hourly message limits: refused 1 message(s) (logged at most once a minute)"]
    assert "Conversation #" in caplog.text and caplog.text.count("Conversation #") == 1  # the answered one only


def test_a_slow_models_lanes_are_never_all_one_addresss_and_a_visitor_from_elsewhere_gets_the_model(
    fake_openai, make_replica
):
    fake_openai.default = say("From the model.", delay=1.0)
    replica = make_replica(queue_concurrency=3, queue_max_size=0, queue_wait_seconds=0.1)
    assert (
        replica.reply("Hi", Visitor("earlier", "198.51.100.1")) == "From the model."
    )  # visitors come from elsewhere too
    with ThreadPoolExecutor(max_workers=3) as pool:
        office = [pool.submit(replica.reply, "Hi", Visitor(f"office-{n}", "203.0.113.7")) for n in range(3)]
        assert wait_until(lambda: fake_openai.in_flight == 2)  # two lanes; the third message is answered at once
        assert replica.reply("Hello?", Visitor("elsewhere", "198.51.100.1")) == "From the model."
        answers = [future.result(timeout=30) for future in office]
    assert answers.count("From the model.") == 2 and fake_openai.max_in_flight == 3 and fake_openai.calls == 4


def test_an_open_page_hears_of_the_owners_words_only_once_the_reply_it_shows_is_recorded(
    fake_openai, make_replica, store, monkeypatch
):
    # The owner writes while the reply is still being finished. The page redraws itself from the record
    # when it hears of their words, so it must not hear of them before the reply is in the record: the
    # reply would vanish from the page.
    fake_openai.default = say("Hello! Ada will be glad you asked.")
    replica = make_replica()
    recorder, page = replica.inbox.recorder, replica.inbox.page
    record, checks_as_recorded = recorder.record, []

    def recording(conversation_id, role, text, *args, **kwargs):
        if role == REPLICA:
            checks_as_recorded.append(page.for_page("s1"))  # the page checks just as the reply is recorded
        return record(conversation_id, role, text, *args, **kwargs)

    monkeypatch.setattr(recorder, "record", recording)
    owner_wrote = False
    for _ in replica.stream_reply("Can I talk to Ada herself?", Visitor("s1")):
        if not owner_wrote:
            record(store.conversations.of_session("s1").id, OWNER, "Hi, this is Ada: happy to talk!", shown=False)
            owner_wrote = True
    assert checks_as_recorded == [(False, True)]  # not yet: the reply is being recorded
    assert page.for_page("s1") == (True, True)  # the next check hears of them, and the record holds both
    assert [role for role, _ in page.page_messages("s1")] == [VISITOR, OWNER, REPLICA]
