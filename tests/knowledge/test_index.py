"""Knowledge at any size: whole when small, retrieved within the budget when large, cached by content."""

from __future__ import annotations

import json
import logging
import random

import pytest

from replica.alerts import Alert
from replica.knowledge.files import Document
from replica.knowledge.index import CHUNK_CHARS, KnowledgeIndex, split_document, tokenize
from replica.storage.records import AlertKind
from tests.fakes.corpus import make_projects, write_projects
from tests.fixtures.clients import app_client
from tests.knowledge.test_files import minimal_pdf


@pytest.fixture(scope="module")
def big_folder(tmp_path_factory):
    """2 MB of knowledge: 6,000 projects with unique codes, in nested .md and .txt files."""
    folder = tmp_path_factory.mktemp("big") / "knowledge"
    projects = make_projects(6000)
    size = write_projects(folder, projects)
    assert size >= 2_000_000
    return folder, projects


def test_small_knowledge_reaches_the_model_whole_md_txt_and_pdf(start_app, settings, fake_openai, tmp_path):
    folder = tmp_path / "small"
    (folder / "deep" / "er").mkdir(parents=True)
    (folder / "about.md").write_text("# About\nMarkdown fact: I led ORBIT-417.")
    (folder / "deep" / "cv.txt").write_text("Text fact: Acme Corp, 2021.")
    (folder / "deep" / "er" / "paper.pdf").write_bytes(minimal_pdf("PDF fact: Zebra-99 paper"))
    url = start_app(settings.updated(knowledge_dir=folder)).demo.local_url
    app_client(url).predict("Hi", api_name="/chat")
    system = fake_openai.requests[0]["messages"][0]["content"]
    assert "ORBIT-417" in system and "Acme Corp, 2021" in system and "Zebra-99 paper" in system


def test_two_megabytes_stay_within_budget_and_the_asked_project_is_found(start_app, settings, fake_openai, big_folder):
    folder, projects = big_folder
    url = start_app(settings.updated(knowledge_dir=folder, visitor_messages_per_hour=100)).demo.local_url
    client = app_client(url)
    asked = random.Random(42).sample(projects, 20)
    for project in asked:
        client.predict(f"What was project {project.code} about?", api_name="/chat")
    found = sum(p.signature in r["messages"][0]["content"] for p, r in zip(asked, fake_openai.requests))
    assert found >= 18, found
    sizes = [len(json.dumps(r, ensure_ascii=False)) for r in fake_openai.requests]
    assert max(sizes) < 60_000, max(sizes)


def test_exact_names_and_codes_are_found_in_a_large_folder(tmp_path):
    folder = tmp_path / "k"
    write_projects(folder, make_projects(1500))
    (folder / "clients.md").write_text("# Clients\n\nAcme: we rebuilt their billing warehouse in 2022.\n")
    index = KnowledgeIndex.load(folder, tmp_path / "cache")
    assert "rebuilt their billing warehouse" in index.select("Did you ever work for Acme?", 6000)
    assert len(index.select("Did you ever work for Acme?", 6000)) <= 6000


def test_learned_answers_are_knowledge_when_retrieval_is_on(start_app, settings, fake_openai, big_folder):
    folder, _ = big_folder
    app = start_app(settings.updated(knowledge_dir=folder))
    app.store.questions.record(
        "Favourite opera?",
        Alert(AlertKind.QUESTION, "Unanswered question", (("Question", "Favourite opera?"),), "s").entry(),
    )
    app.store.answers.learn(app.store.questions.in_status()[0].id, "Tosca.")
    app_client(app.demo.local_url).predict("What opera do you like?", api_name="/chat")
    assert "Q: Favourite opera?\nA: Tosca." in fake_openai.requests[0]["messages"][0]["content"]


def test_the_index_is_cached_by_content_and_rebuilt_on_change(tmp_path, caplog):
    folder = tmp_path / "k"
    write_projects(folder, make_projects(300))
    with caplog.at_level(logging.INFO):
        KnowledgeIndex.load(folder, tmp_path / "cache")
        assert "built and cached" in caplog.text
        caplog.clear()
        KnowledgeIndex.load(folder, tmp_path / "cache")
        assert "loaded from cache" in caplog.text
        caplog.clear()
        (folder / "new.md").write_text("# New\n\nProject NOVA-1 is brand new.")
        index = KnowledgeIndex.load(folder, tmp_path / "cache")
        assert "built and cached" in caplog.text
    assert "NOVA-1 is brand new" in index.select("Tell me about NOVA-1", 3000)
    assert len(list((tmp_path / "cache").iterdir())) == 1  # the stale cache was removed


def test_a_damaged_cache_is_rebuilt(tmp_path):
    folder = tmp_path / "k"
    write_projects(folder, make_projects(50))
    KnowledgeIndex.load(folder, tmp_path / "cache")
    [entry] = (tmp_path / "cache").iterdir()
    (entry / "chunks.json").write_text("{not json")
    assert len(KnowledgeIndex.load(folder, tmp_path / "cache").chunks) == 50


def test_documents_split_on_headings_and_paragraphs():
    long_paragraph = " ".join(f"Sentence number {n} about pipelines." for n in range(200))
    text = f"# Intro\n\nHello there.\n\nSecond paragraph.\n\n## Work\n\n{long_paragraph}\n\n## Empty\n"
    chunks = split_document(Document("cv.md", text))
    assert chunks[0].heading == "Intro" and "Hello there.\n\nSecond paragraph." == chunks[0].text
    work = [c for c in chunks if c.heading == "Work"]
    assert len(work) > 1 and all(len(c.text) <= CHUNK_CHARS for c in work)
    assert " ".join(c.text for c in work) == long_paragraph
    assert chunks[0].render().startswith("[cv.md › Intro]")


def test_codes_are_tokens_whole_and_in_parts():
    assert tokenize("Project ORBIT-417, for Acme.") == ["project", "orbit-417", "orbit", "417", "for", "acme"]
