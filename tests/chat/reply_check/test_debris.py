"""What a small model leaves that is no one's words (replica/chat/reply_check/debris.py): template tokens, lines of
markup alone, a code fence nothing closes, and a sentence said three times or more; the words around
them stay as written."""

from __future__ import annotations

import pytest

from replica.chat.reply_check.debris import without_debris


@pytest.mark.parametrize(
    "written, read",
    [
        ("<s>[INST] I build engines. <|eot_id|>", "I build engines."),
        ("###\nI build engines.\n---\n\n\n\nIn London.", "I build engines.\n\nIn London."),
        ("I build engines.\n```python", "I build engines."),
        ("Hi. Hi. Hi. Hi. I build engines.", "Hi. I build engines."),
    ],
)
def test_debris_is_taken_out_and_the_words_stay(written, read):
    assert without_debris(written) == read


@pytest.mark.parametrize(
    "words",
    [
        "Call it:\n```\nrun()\n```",  # a fence that closes is a code sample
        "Yes. Yes, really. I work in London. Yes.",  # said twice, or nearly alike, is words
        "- Lead engineer at Babbage & Co\n- Writer",  # list marks with words after them
        "Ranked #1 in 2024.",
    ],
)
def test_words_that_only_look_like_debris_are_left_whole(words):
    assert without_debris(words) == words


def test_a_reply_of_nothing_but_debris_is_no_words():
    assert without_debris("<s>\n###\n***\n```") == ""
