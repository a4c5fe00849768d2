"""The system prompt of each message: the persona, the owner's knowledge within the budget, and the
answers the owner taught, read fresh each time (and the last ones read while the database is down)."""

from __future__ import annotations

from replica.alerts import Alert
from replica.knowledge.files import Document
from replica.knowledge.index import KnowledgeIndex
from replica.knowledge.persona import SystemPrompt
from replica.knowledge.prompts import render_prompt
from replica.storage.records import AlertKind

PROFILE = Document("profile.md", "# Ada Lovelace\n\nI write programs for the Analytical Engine. Project ORBIT-417.")


def taught(store, question: str, answer: str) -> None:
    """The owner answers a visitor's question from Telegram."""
    alert = Alert(AlertKind.QUESTION, "Unanswered question", (("Question", question),), "s1")
    store.questions.record(question, alert.entry())
    question_id = next(q.id for q in store.questions.in_status() if q.question == question)
    store.answers.learn(question_id, answer)


def test_the_prompt_names_the_owner_and_carries_the_knowledge(store):
    prompt = SystemPrompt("Ada Lovelace", KnowledgeIndex.from_documents([PROFILE]), store)("What do you build?")
    assert "Ada Lovelace" in prompt and "ORBIT-417" in prompt
    assert "earlier questions" not in prompt  # nothing taught yet: no empty section


def test_an_answer_taught_counts_from_the_next_message_on(store):
    prompt = SystemPrompt("Ada Lovelace", KnowledgeIndex.from_documents([PROFILE]), store)
    assert "Cambridge" not in prompt("Where did you study?")
    taught(store, "Where did you study?", "At home, tutored by Augustus De Morgan in Cambridge.")
    assert "Q: Where did you study?\nA: At home, tutored by Augustus De Morgan in Cambridge." in prompt("Where?")


def test_while_the_database_cannot_be_read_the_answers_read_last_are_used(store):
    prompt = SystemPrompt("Ada Lovelace", KnowledgeIndex.from_documents([PROFILE]), store)
    taught(store, "Where did you study?", "Tutored by De Morgan.")
    assert "Tutored by De Morgan." in prompt("Where?")
    store.close()
    assert "Tutored by De Morgan." in prompt("Where?")


def test_without_knowledge_the_persona_is_told_so_and_a_booking_page_is_offered_last(store):
    prompt = SystemPrompt("Ada", KnowledgeIndex.from_documents([]), store, booking_url="https://cal.example/ada")
    text = prompt("Can we talk?")
    assert render_prompt("no_knowledge.md").strip() in text
    assert text.rstrip().endswith(render_prompt("booking.md", booking_url="https://cal.example/ada").rstrip())


def test_the_taught_answers_take_at_most_half_the_budget(store):
    for n in range(30):
        taught(store, f"Question number {n}?", "An answer of some length, " * 4)
    big = Document("notes.md", "\n\n".join(f"## Part {n}\n\n" + "Engine notes. " * 40 for n in range(20)))
    prompt = SystemPrompt("Ada", KnowledgeIndex.from_documents([big]), store, budget_chars=4000)("Engine?")
    assert "Question number 0?" in prompt and "Question number 29?" not in prompt
    assert "Engine notes." in prompt
