"""A reply while it is made (replica/chat/draft.py): the visitor reads the words, then the apology, then
the app's sentences in the order the steps added them, and no sentence the reply already says twice."""

from __future__ import annotations

from replica.chat.draft import Draft
from replica.chat.run import Run
from replica.cli.evaluate import RecordingNotifier
from replica.tools import ToolContext


def draft(**fields) -> Draft:
    context = ToolContext(session_id="s-1", store=None, notifier=RecordingNotifier())
    return Draft("Can we talk?", context, Run(), **fields)


def test_the_visitor_reads_the_words_the_apology_and_the_notes_in_that_order():
    reply = draft(words="I build engines.", apology="Sorry, I was cut off.")
    reply.add_note("Ada will see your message.")
    reply.add_note("You can book a call.")
    assert reply.text.index("I build engines.") < reply.text.index("Sorry, I was cut off.")
    assert reply.text.index("Sorry") < reply.text.index("Ada will see") < reply.text.index("You can book")


def test_a_note_the_reply_already_says_is_not_added_again():
    reply = draft(words="Thanks! Ada will see your message.")
    reply.add_note("Ada will see your message.")
    reply.add_note("Ada will see your message.")
    assert reply.notes == {} and reply.text.count("Ada will see your message.") == 1


def test_a_reply_with_no_words_is_its_notes_alone():
    reply = draft()
    assert reply.text == ""
    reply.add_note("Ada will see your message.")
    assert reply.text == "Ada will see your message."
