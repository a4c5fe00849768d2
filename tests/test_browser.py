"""The page in a real browser: Debian's Chromium driven by Playwright, against the app and the fake model.

Where Chromium or Playwright is missing the tests skip with how to install them; with ``CI=true`` that is
a failure instead. No browser is ever downloaded by the tests.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from tests.fakes.openai_server import say

CHROMIUM = Path("/usr/bin/chromium")
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking"]
ANSWER = "I design data pipelines and warehouses, mostly with Airflow, dbt and BigQuery, for small teams."


def missing(what: str) -> None:
    message = f"{what} is missing: install it with `apt-get install -y chromium` and `pip install playwright`"
    if os.environ.get("CI") == "true":
        pytest.fail(message)
    pytest.skip(message)


@pytest.fixture
def browser():
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        missing("The playwright package")
    if not CHROMIUM.exists():
        missing("Debian's Chromium (/usr/bin/chromium)")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=FLAGS)
        yield browser
        browser.close()


@pytest.mark.parametrize("width, height", [(1280, 800), (390, 844)], ids=["desktop", "phone"])
def test_a_typed_message_gets_its_streamed_reply_on_the_page(browser, app_url, fake_openai, tmp_path, width, height):
    fake_openai.default = say(ANSWER, pieces=10, piece_delay=0.25)
    page = browser.new_page(viewport={"width": width, "height": height})
    outside = []
    page.on("request", lambda r: outside.append(r.url) if not r.url.startswith((app_url, "data:", "blob:")) else None)
    page.goto(app_url)

    page.get_by_text("Ada Lovelace — AI replica").first.wait_for()
    assert "Ada Lovelace" in page.title()
    page.get_by_text("Are you available for new projects?").first.wait_for()  # examples from prompts/examples.txt
    assert page.get_by_placeholder("Ask me something…").count() == 1
    box = page.locator("textarea").first
    box.fill("What do you do?")
    box.press("Enter")

    page.get_by_text("I design data pipelines", exact=False).first.wait_for(timeout=10_000)
    assert page.get_by_text(ANSWER).count() == 0  # a partial reply is on the page before the whole one
    page.get_by_text(ANSWER).first.wait_for(timeout=10_000)
    page.screenshot(path=str(tmp_path / f"chat-{width}.png"), full_page=True)

    assert fake_openai.requests[0]["messages"][-1]["content"] == "What do you do?"

    fake_openai.default = say("Yes, from next month.")
    box.fill("Are you available?")
    box.press("Enter")
    page.get_by_text("Yes, from next month.").first.wait_for(timeout=10_000)
    history = [(m["role"], m["content"]) for m in fake_openai.requests[1]["messages"][1:]]
    assert history == [("user", "What do you do?"), ("assistant", ANSWER), ("user", "Are you available?")]
    assert page.evaluate("document.documentElement.scrollWidth") <= width  # no sideways scrolling
    assert outside == []  # nothing fetched from outside: the page works offline


def test_the_owners_words_appear_in_an_open_page_without_the_visitor_typing(
    browser, start_app, settings, fake_openai, fake_telegram, tmp_path
):
    app = start_app(settings)
    fake_openai.default = say("Hello! Ada will be glad you asked.")
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.goto(app.demo.local_url)
    box = page.locator("textarea").first
    box.fill("Can I talk to Ada herself?")
    box.press("Enter")
    page.get_by_text("Ada will be glad you asked.").first.wait_for(timeout=10_000)

    fake_telegram.push("/say 1 Hi, this is Ada: happy to talk!")
    started = time.monotonic()
    page.get_by_text("happy to talk!").first.wait_for(timeout=8_000)
    assert time.monotonic() - started < 6  # the page checks every 4 s
    assert page.get_by_text("Ada Lovelace (in person):").count() >= 1
    page.screenshot(path=str(tmp_path / "takeover.png"), full_page=True)
    deadline = time.monotonic() + 10
    while not any("Delivered to conversation #1" in t for t in fake_telegram.sent_texts()) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert any("Delivered to conversation #1" in t for t in fake_telegram.sent_texts()), fake_telegram.sent_texts()

    fake_openai.default = say("Noted.")
    box.fill("Thanks!")
    box.press("Enter")
    page.get_by_text("Noted.").first.wait_for(timeout=10_000)
    history = [(m["role"], m["content"]) for m in fake_openai.requests[-1]["messages"][1:]]
    assert ("assistant", "[Ada Lovelace, in person] Hi, this is Ada: happy to talk!") in history
    assert page.get_by_text("happy to talk!").count() >= 1  # still on the page after the next reply
