"""Where the model's own words end, on tables written by someone who never saw the code
(``tests/chat/tables/owner_voice.py``): a reply that stops inside a call it began goes back to its last
whole sentence; a next turn it writes itself in plain labels is cut where it begins; code is left alone."""

from __future__ import annotations

import pytest

from replica.chat.endings import TurnLabels, whole_sentences
from tests.chat.tables.owner_voice import BROKEN_ENDINGS, FABRICATED_TURNS


@pytest.mark.parametrize("name, reply, shown", BROKEN_ENDINGS, ids=[e[0] for e in BROKEN_ENDINGS])
def test_a_reply_that_stops_inside_a_call_goes_back_to_its_last_whole_sentence(name, reply, shown):
    words, dropped = whole_sentences(reply)
    assert words == shown and dropped == (shown != reply)


@pytest.mark.parametrize("name, reply, shown", FABRICATED_TURNS, ids=[e[0] for e in FABRICATED_TURNS])
def test_a_next_turn_the_model_writes_itself_is_cut_where_it_begins(name, reply, shown):
    words, cut = TurnLabels(("Jordan Avery", "Jordan")).before_next_turn(reply)
    assert words == shown and cut == (shown != reply)


def test_a_reply_that_opens_with_its_own_label_keeps_its_words():
    labels = TurnLabels(("Jordan Avery", "Jordan"))
    assert labels.without_own_label("Assistant: I'm based in Lisbon.") == "I'm based in Lisbon."
    assert labels.without_own_label("Jordan: Hi!") == "Hi!"
    assert labels.without_own_label("User: hi") == "User: hi"  # not its own: cut, not kept


def test_while_streaming_a_line_that_may_become_a_label_is_held_back():
    labels = TurnLabels(("Jordan",))
    assert labels.before_next_turn("I'm in Lisbon.\nUs", final=False) == ("I'm in Lisbon.", False)
    assert labels.before_next_turn("I'm in Lisbon.\nUsers of my", final=False) == ("I'm in Lisbon.\nUsers of my", False)
    assert labels.before_next_turn("I'm in Lisbon.\nUser: hi", final=False) == ("I'm in Lisbon.", True)
