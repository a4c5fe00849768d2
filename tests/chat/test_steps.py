"""The steps after the answer (replica/chat/steps.py): one list, run alike whatever wrote the words, in
order, a failing step passed over, and only the lead net for a reply the visitor stopped."""

from __future__ import annotations

import logging

from replica import wording
from replica.chat.draft import Draft, Note
from replica.chat.reply import Visitor
from replica.chat.run import Did, Run
from replica.chat.steps import Steps
from replica.cli.evaluate import RecordingNotifier
from replica.tools import ToolContext
from tests.fakes.openai_server import fail, say
from tests.fixtures.replicas import replica_around


class Seen:
    """A step of a fork's own: it notes each reply it sees (what the visitor was to read, and the tools
    run), and adds a sentence."""

    when_stopped = False

    def __init__(self, sentence: str = "A step of my own was here."):
        self.sentence = sentence
        self.drafts: list[tuple[str, str, list[str]]] = []

    def __call__(self, draft: Draft) -> None:
        self.drafts.append((draft.message, draft.text, [o.value for o in draft.run.outcomes]))
        draft.add_note(self.sentence)


class Broken:
    when_stopped = True

    def __call__(self, draft: Draft) -> None:
        raise RuntimeError("a bug in a step")


def with_steps(replica, *extra):
    replica.steps = Steps([*replica.steps.steps, *extra])
    return replica


def test_a_new_step_is_one_more_entry_and_sees_every_reply_however_its_words_were_written(fake_model, store, notifier):
    seen = Seen()
    with_model = with_steps(replica_around(fake_model, store, notifier), seen)
    without = with_steps(replica_around(None, store, notifier), seen)
    fake_model.script(say("I build engines."), fail(500))

    assert with_model.reply("What do you do?", Visitor("a")) == f"I build engines.\n\n{seen.sentence}"
    failed = with_model.reply("Write to b@example.org", Visitor("b"))  # the model fails: no model's words
    assert failed == f"{wording.MODEL_FAILED} {wording.LEAD_KEPT}\n\n{seen.sentence}"
    no_model = without.reply("Anything?", Visitor("c"))
    assert no_model.endswith(seen.sentence) and no_model.startswith(
        wording.NO_WRITTEN_ANSWER.format(owner="Ada Lovelace")
    )

    messages = [message for message, _, _ in seen.drafts]
    assert messages == ["What do you do?", "Write to b@example.org", "Anything?"]
    assert seen.drafts[1][2] == ["lead saved"]  # it runs after the built-in steps: the lead is kept by then


def test_a_step_that_fails_is_passed_over_and_the_reply_stands(fake_model, store, notifier, caplog):
    replica = with_steps(replica_around(fake_model, store, notifier), Broken(), Seen("After the broken one."))
    fake_model.script(say("Hello there."))
    with caplog.at_level(logging.ERROR):
        assert replica.reply("Hi", Visitor("s")) == "Hello there.\n\nAfter the broken one."
    assert "The step Broken failed after an answer" in caplog.text and "RuntimeError" in caplog.text


def test_a_reply_the_visitor_stops_runs_only_the_steps_that_hold_for_it(fake_model, store, notifier):
    seen = Seen()
    replica = with_steps(replica_around(fake_model, store, notifier, check_replies=True), seen)
    names = "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda sigma".split()
    words = " ".join(f"I like the {name} engine." for name in names) + " I don't know about NDAs, sorry."
    fake_model.script(say(words, pieces=len(names) + 1, piece_delay=0.2))
    stream = replica.stream_reply("Do you sign NDAs? Write to me at stop@example.org", Visitor("s"))
    assert "alpha" in next(stream)
    stream.close()  # the visitor pressed stop
    assert [lead.email for lead in store.leads.all()] == ["stop@example.org"]  # the lead net still ran
    assert store.questions.all() == [] and seen.drafts == []  # the reply check and the rest did not


def test_the_apps_sentences_after_the_words_come_once_in_the_order_the_steps_add_them(store, notifier):
    replica = replica_around(None, store, notifier, owner_booking="https://cal.example/ada")
    reply = replica.reply("Here is my address: book@example.org", Visitor("s"))
    assert reply.count(wording.BOOK_A_TIME.format(link="https://cal.example/ada")) == 1
    assert reply.index(wording.LEAD_ONLY) < reply.index("https://cal.example/ada")


def test_the_address_kept_is_told_by_the_steps_in_the_visitors_language_whatever_wrote_the_words(
    fake_model, store, notifier
):
    """One way for both: the lead net's sentence comes from the steps, in the message's language, after a
    model's words as after a reply made without a model (the reply without one no longer writes it)."""
    german = "Arbeiten Sie auch am Wochenende? Schreiben Sie mir: ada@example.com"
    told = wording.in_language(wording.LEAD_NOTED, "de")
    with_model = replica_around(fake_model, store, notifier)
    fake_model.script(say("Ja, manchmal."))
    assert with_model.reply(german, Visitor("a")) == f"Ja, manchmal.\n\n{told}"
    without = replica_around(None, store, notifier).reply(german.replace("ada@", "bob@"), Visitor("b"))
    assert without.endswith(f"\n\n{told}") and told != wording.LEAD_NOTED
    assert without.count(told) == 1


def test_each_step_records_what_it_did_in_the_run_and_a_sentence_is_taken_back_by_its_kind(fake_model, store, notifier):
    replica = replica_around(fake_model, store, notifier, check_replies=True)
    runs = []
    replica.watch = lambda visitor, run: runs.append(run)
    fake_model.script(say("Thanks!"))
    replica.reply("Write to me at ada@example.org", Visitor("a"))
    assert runs[0].steps_did == [Did.NOTED_LEAD, Did.CHECKED]  # the lead net, then the reply check
    draft = Draft("x", ToolContext(session_id="s-1", store=None, notifier=RecordingNotifier()), Run())
    draft.add_note("Any words at all.", Note.LEAD)
    assert draft.add_note("Other words, the same kind.", Note.LEAD) is False  # one sentence of a kind
    draft.drop_note(Note.LEAD)  # as the code offer does with LEAD_VERIFICATION=required: by kind, not text
    assert draft.notes == {} and draft.add_note("Now it may.", Note.LEAD)
