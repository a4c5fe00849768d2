"""The owner's voice, judged on tables written by someone who never saw the patterns
(``tests/chat/tables/owner_voice.py``), and on issue 53's, written before its patterns
(``tests/chat/tables/last_leaks.py``): the machinery talking is found, a promise the replica cannot
keep is found, and the owner's own sentences, close as they come, are left alone; so are the app's."""

from __future__ import annotations

import pytest

from replica import wording
from replica.chat.reply_check.voice import Voice, VoicePatterns
from tests.chat.tables.last_leaks import DISGUISED_AS_AN_AI, OWNER_VOICE_CLOSE_CALLS, SYSTEM_PROMPT_VOICE
from tests.chat.tables.owner_voice import FRAMEWORK_TALK, NOT_PROMISES, OWNER_VOICE, PROMISES

# Found by no pattern yet; strict, so that a pattern that comes to catch one says so.
MISSED = {
    "json_output_for_tool": "no word of the machinery but 'tool' after 'for the'",
    "label_draft_response": "a label with words after it, 'Draft response to …:'",
    "share_calendar_email": "'I'll share …' is also how a reply introduces what follows",
}


@pytest.fixture(scope="module")
def voice():
    return VoicePatterns.load()


def known(entries):
    return [
        pytest.param(*entry, id=entry[0], marks=[pytest.mark.xfail(reason=MISSED[entry[0]], strict=True)])
        if entry[0] in MISSED
        else pytest.param(*entry, id=entry[0])
        for entry in entries
    ]


@pytest.mark.parametrize("name, sentence", known(FRAMEWORK_TALK))
def test_the_machinery_talking_is_found(voice, name, sentence):
    assert voice.fault(sentence) is Voice.FRAMEWORK


@pytest.mark.parametrize("name, sentence", known(OWNER_VOICE))
def test_the_owners_own_sentences_are_left_alone(voice, name, sentence):
    assert voice.fault(sentence) is None


@pytest.mark.parametrize("name, sentence", known(PROMISES))
def test_a_promise_the_replica_cannot_keep_is_found(voice, name, sentence):
    assert voice.fault(sentence) is Voice.PROMISE and voice.promised(sentence)


@pytest.mark.parametrize("name, sentence", known(NOT_PROMISES))
def test_offers_conditions_and_habits_are_no_promise(voice, name, sentence):
    assert voice.fault(sentence) is None


def test_the_tables_are_large_and_the_misses_few():
    assert (len(FRAMEWORK_TALK), len(OWNER_VOICE), len(PROMISES), len(NOT_PROMISES)) >= (70, 80, 40, 40)
    assert len(MISSED) <= 3


def test_none_of_the_apps_own_sentences_is_flagged(voice):
    sentences = [
        value.replace("{owner}", "Jordan Avery")
        for name, value in vars(wording).items()
        if name.isupper() and isinstance(value, str)
    ]
    assert sentences and [s for s in sentences if voice.fault(s)] == []


def test_a_bad_line_in_the_file_stops_the_start_naming_it(tmp_path):
    (tmp_path / "voice.md").write_text("## framework talk\n(unclosed\n")
    with pytest.raises(ValueError, match=r"voice\.md:2: not a regular expression"):
        VoicePatterns.load(tmp_path)
    (tmp_path / "voice.md").write_text("## tone\nx\n")
    with pytest.raises(ValueError, match="no such heading 'tone'"):
        VoicePatterns.load(tmp_path)


def test_the_owner_can_add_a_language(tmp_path):
    (tmp_path / "voice.md").write_text(
        "## framework talk\n\\bo visitante\\b\n## promise\n\\beu (?:te )?aviso\\b\n## hold from\n"
    )
    voice = VoicePatterns.load(tmp_path)
    assert voice.fault("O visitante não deixou o email.") is Voice.FRAMEWORK
    assert voice.fault("Eu te aviso amanhã.") is Voice.PROMISE


# Issue 53: the voice's last leaks (tests/chat/tables/last_leaks.py, written before the patterns).


@pytest.mark.parametrize("name, sentence", SYSTEM_PROMPT_VOICE, ids=[name for name, _ in SYSTEM_PROMPT_VOICE])
def test_the_voice_of_a_system_prompt_is_framework_talk(voice, name, sentence):
    assert voice.fault(sentence) is Voice.FRAMEWORK


@pytest.mark.parametrize("name, sentence", DISGUISED_AS_AN_AI, ids=[name for name, _ in DISGUISED_AS_AN_AI])
def test_as_an_ai_in_disguise_is_framework_talk(voice, name, sentence):
    assert voice.fault(sentence) is Voice.FRAMEWORK


@pytest.mark.parametrize("name, sentence", OWNER_VOICE_CLOSE_CALLS, ids=[name for name, _ in OWNER_VOICE_CLOSE_CALLS])
def test_the_owners_you_are_your_task_and_as_a_are_left_alone(voice, name, sentence):
    assert voice.fault(sentence) is None


def test_a_system_prompt_sentence_is_held_from_its_first_word_while_it_streams(voice):
    for sentence in ("You are a helpful ", "Your task is to ", "As a data engineer, I don't "):
        assert voice.hold_from(sentence) == 0, sentence
