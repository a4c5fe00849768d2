"""The owner's answer comes back to the visitor who asked, end to end: a visitor asks in Chromium, the
owner answers in the Telegram stand-in, and the answer appears in the visitor's page as the owner's
own bubble; with the page open, and with the page closed and opened again in the same browser."""

from __future__ import annotations

from replica.inbox import page_channel
from replica.web import page as page_module
from replica.web.returning import STORAGE_KEY
from tests.fakes.openai_server import call, say
from tests.fixtures.clients import app_client
from tests.fixtures.environment import wait_until
from tests.web.test_browser import browser, chromium, conversation_kept, send  # noqa: F401 (the browser fixtures)

OPERA = "What is your favourite opera?"
ANSWER = "Puccini's Tosca, without a doubt."


def owner_bubbles(page) -> list[str]:
    return page.evaluate(
        """() => Array.from(document.querySelectorAll('#replica-chat .message'))
            .filter(m => m.querySelector('.replica-owner-label')).map(m => m.innerText.trim())"""
    )


def alert_about(fake_telegram, text) -> int:
    """The message id of the one alert that names ``text``."""
    assert wait_until(lambda: any(text in d.text for d in fake_telegram.delivered))
    [alert] = [d for d in fake_telegram.delivered if text in d.text and "Unanswered question" in d.text]
    return alert.message_id


def said(fake_telegram, *parts) -> str:
    """The owner's chat's message holding every one of ``parts`` (waited for)."""
    found = lambda: next((t for t in fake_telegram.sent_texts() if all(p in t for p in parts)), None)  # noqa: E731
    assert wait_until(lambda: found() is not None), fake_telegram.sent_texts()
    return found()


def ask_in_the_page(page, url, fake_openai, question=OPERA):
    fake_openai.script(call(("inform_unknown", {"question": question})), say("I've passed that on to Ada."))
    page.goto(url)
    send(page, question)
    page.get_by_text("I've passed that on to Ada.").first.wait_for(timeout=30_000)


def test_an_open_page_shows_the_answer_and_every_visitor_who_asked_is_accounted_for(
    browser,  # noqa: F811
    start_app,
    settings,
    fake_openai,
    fake_telegram,
    monkeypatch,
):
    monkeypatch.setattr(page_module, "CHECK_SECONDS", 1)  # the page checks every 4 s; here, every second
    url = start_app(settings).demo.local_url
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    ask_in_the_page(page, url, fake_openai)
    alert = alert_about(fake_telegram, OPERA)

    # A second visitor, by the API (no browser to keep the conversation), leaves an email and asks the same.
    other = app_client(url)
    fake_openai.script(
        call(("gather_user_details", {"email": "grace@example.org", "notes": "Recruiter"})), say("Thanks!")
    )
    other.predict("I'm grace@example.org", api_name="/chat")
    fake_openai.script(call(("inform_unknown", {"question": "whats ur favorite opera"})), say("Passed on."))
    other.predict("whats ur favorite opera", api_name="/chat")
    fake_telegram.push("/unanswered")
    assert "asked by 2 visitors" in said(fake_telegram, "Open questions")
    assert sum("Unanswered question" in d.text for d in fake_telegram.delivered) == 1  # one alert for both

    fake_telegram.push(ANSWER, reply_to=alert)
    page.get_by_text(ANSWER).first.wait_for(timeout=30_000)  # without the visitor typing
    [bubble] = owner_bubbles(page)
    assert bubble.startswith("Ada Lovelace · in person") and f"You asked: “{OPERA}”" in bubble and ANSWER in bubble
    confirmation = said(fake_telegram, "Learned answer #1")
    assert "Asked by 2 visitors" in confirmation and "#1: their page is open" in confirmation
    assert "#2: this visitor cannot see your answer" in confirmation and "grace@example.org" in confirmation
    said(fake_telegram, "Delivered to conversation #1")
    # The API visitor's conversation holds it too: the replica takes it into account if they write again.
    fake_openai.script(say("Noted."))
    other.predict("Thanks", api_name="/chat")
    history = [m["content"] for m in fake_openai.requests[-1]["messages"]]
    assert any(ANSWER in str(text) and "in person" in str(text) for text in history)


def test_a_closed_page_shows_the_answer_when_the_same_browser_opens_the_page_again(
    browser,  # noqa: F811
    start_app,
    settings,
    fake_openai,
    fake_telegram,
    monkeypatch,
):
    monkeypatch.setattr(page_channel, "PAGE_OPEN_SECONDS", 2)  # a page unseen this long is closed (15 s)
    app = start_app(settings)
    url = app.demo.local_url
    page = browser.new_page(viewport={"width": 390, "height": 844})
    ask_in_the_page(page, url, fake_openai)
    conversation_kept(page)
    kept = page.evaluate(f"localStorage.getItem('{STORAGE_KEY}')")
    assert OPERA not in kept and "opera" not in kept.lower()  # a key, not the conversation's words
    alert_about(fake_telegram, OPERA)
    context = page.context
    page.close()
    assert wait_until(lambda: not app.inbox.page.page_open(1), timeout=30)

    fake_telegram.push("/answer 1 " + ANSWER)
    confirmation = said(fake_telegram, "Learned answer")
    assert "#1: their page is closed" in confirmation
    assert "when they open the page again in the same browser" in confirmation and "90 days" in confirmation

    again = context.new_page()
    again.goto(url)
    again.get_by_text(ANSWER).first.wait_for(timeout=30_000)
    texts = again.evaluate(
        "() => Array.from(document.querySelectorAll('#replica-chat .message')).map(m => m.innerText.trim())"
    )
    assert OPERA in texts and "I've passed that on to Ada." in texts  # the conversation, opened again
    assert owner_bubbles(again)[-1].startswith("Ada Lovelace · in person")
    fake_openai.script(say("Glad you like it."))
    send(again, "Lovely, thanks!")
    again.get_by_text("Glad you like it.").first.wait_for(timeout=30_000)
    history = [m["content"] for m in fake_openai.requests[-1]["messages"]]
    assert OPERA in history and any(ANSWER in str(text) for text in history)  # one conversation, continued

    stranger = browser.new_page(viewport={"width": 390, "height": 844})  # another browser: nothing of it
    stranger.goto(url)
    stranger.locator("#replica-chat").wait_for()
    stranger.wait_for_timeout(1500)
    assert stranger.get_by_text(ANSWER).count() == 0 and stranger.get_by_text(OPERA).count() == 0
