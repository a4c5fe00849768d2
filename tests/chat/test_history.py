"""The history the model is sent (replica/chat/history.py): the conversation as recorded, the most
recent turns within the budget."""

from __future__ import annotations

from replica.chat.history import history_messages
from replica.chat.reply import Visitor


def test_history_sent_to_the_model_keeps_the_most_recent_turns_within_budget():
    history = [{"role": "user" if n % 2 == 0 else "assistant", "content": f"{n:02d}" + "x" * 98} for n in range(30)]
    kept = history_messages(history, budget_chars=1000)
    assert len(kept) == 10 and kept[-1]["content"].startswith("29") and kept[0]["content"].startswith("20")


def test_a_long_conversation_never_sends_more_than_the_budget(make_replica, fake_openai):
    replica = make_replica(history_budget_chars=16000)
    recorder = replica.inbox.recorder
    conversation = recorder.begin("s1", "203.0.113.9")
    for _ in range(20):  # a long conversation, as recorded
        recorder.record(conversation.id, "visitor", "y" * 3000)
        recorder.record(conversation.id, "replica", "z" * 3000)
    replica.reply("Latest question", Visitor("s1"))
    sent = fake_openai.requests[0]["messages"]
    assert sum(len(m["content"]) for m in sent[1:-1]) <= 16000 and sent[-1]["content"] == "Latest question"
