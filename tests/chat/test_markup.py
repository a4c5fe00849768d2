"""What a model writes that is not for the visitor never reaches them: reasoning before any closing tag
that closes nothing, wherever it stands and however it is spelled, in the finished reply and in every
value streamed on the way (replica/chat/markup.py)."""

from __future__ import annotations

import pytest

from replica.chat.markup import has_stray_closing, readings, without_markup

REASONING = "SECRET"  # every table entry's reasoning carries this word; the answer never does
ORDERS = [
    ("pairs, then a stray closing", "<thinking>SECRET A</thinking><THINK>SECRET B</THINK>SECRET C</think>Hello."),
    ("a pair, then a stray closing", "<think>SECRET A</think>SECRET C</think>Hello."),
    ("a stray closing first", "SECRET A</think>Hello."),
    ("two stray closings", "SECRET A</think>SECRET B</think>Hello."),
    ("a stray closing, then a pair", "SECRET A</think>Hello.<think>SECRET B</think>"),
    ("mixed names", "<think>SECRET A</thinking>SECRET B</THINKING>Hello."),
    ("nested", "<think>SECRET A<think>SECRET B</think>SECRET C</think>Hello."),
    ("mixed case", "<ThInK>SECRET A</tHiNk>SECRET B</Think>Hello."),
    ("unclosed at the end", "Hello.<thinking>SECRET A"),
    ("a pair around the answer's middle", "Hello.<think>SECRET</think>"),
    ("a stray closing with space", "SECRET A</think>\n\n  Hello."),
    ("a stray closing after a turn's lead", "<|im_start|>assistant\nSECRET A</think>Hello."),
]


@pytest.mark.parametrize("opened", [None, True, False], ids=["server not known", "opens a block", "opens none"])
@pytest.mark.parametrize("form, text", ORDERS, ids=[o[0] for o in ORDERS])
def test_reasoning_before_any_unmatched_closing_tag_never_reaches_the_visitor(form, text, opened):
    assert without_markup(text, opened, final=True).strip() == "Hello."
    if opened is None:  # a server's first reply: no value streamed on the way shows reasoning either
        streamed = [without_markup(text[:end], opened) for end in range(len(text) + 1)]
        assert not [value for value in streamed if REASONING in value], form


@pytest.mark.parametrize("opened", [True, False], ids=["opens a block", "opens none"])
def test_a_known_servers_answer_after_its_block_streams(opened):
    text = ("SECRET" if opened else "<think>SECRET") + "</think>Hello, I build analytical engines."
    streamed = {without_markup(text[:end], opened) for end in range(len(text) + 1)}
    assert "Hello, I build" in streamed and not [value for value in streamed if REASONING in value]


def test_a_reply_that_closes_a_block_it_never_opened_tells_the_server_opens_one():
    assert has_stray_closing("<thinking>A</thinking><THINK>B</THINK>C</think>Hello")
    assert has_stray_closing("A</think>Hello")
    assert not has_stray_closing("<think>A</think>Hello")
    assert not has_stray_closing("Hello")


def test_a_message_reads_as_a_model_that_repeats_it_would_leave_it():
    found = readings("gather_user_<think>x</think>de\u200btails ｅｍａｉｌ")
    assert "gather_user_details email" in found  # the pair and the invisible character gone, letters folded
    assert "gather_user_xdetails email" in found  # the tags alone gone
