"""The page in a real browser: Debian's Chromium driven by Playwright, against the app and the fake model.

Where Chromium or Playwright is missing the tests skip with how to install them; with ``CI=true`` that is
a failure instead. No browser is ever downloaded by the tests.
"""

from __future__ import annotations

import os
import threading
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
import requests

from replica import wording
from replica.storage.records import REPLICA
from replica.web.returning import STORAGE_KEY
from tests.fakes.openai_server import say
from tests.fixtures.environment import ROOT, wait_until

CHROMIUM = Path("/usr/bin/chromium")
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking"]
ANSWER = "I work on analytical engines and write about computing, mostly for small teams in London."  # from the profile


def missing(what: str) -> None:
    message = f"{what} is missing: install it with `apt-get install -y chromium` and `pip install playwright`"
    if os.environ.get("CI") == "true":
        pytest.fail(message)
    pytest.skip(message)


class Pages:
    """What a test opens pages with: each page in a fresh context (its own storage and viewport) of the
    one Chromium the module shares; closed after the test."""

    def __init__(self, chromium):
        self._chromium = chromium
        self._contexts = []

    def new_page(self, **options):
        context = self._chromium.new_context(**options)
        self._contexts.append(context)
        return context.new_page()

    def close(self) -> None:
        for context in self._contexts:
            context.close()


def conversation_kept(page_or_frame) -> None:
    """Wait until the browser keeps the key to its conversation: it is given with the step after the
    reply, so a page closed at the reply's last word may not have it yet."""
    page_or_frame.wait_for_function(f"() => localStorage.getItem('{STORAGE_KEY}') !== null", timeout=30_000)


@pytest.fixture(scope="module")
def chromium():
    """One Chromium for the module: launching it is the slow part."""
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


@pytest.fixture
def browser(chromium):
    pages = Pages(chromium)
    yield pages
    pages.close()


@pytest.mark.parametrize("width, height", [(1280, 800), (390, 844)], ids=["desktop", "phone"])
def test_a_typed_message_gets_its_streamed_reply_on_the_page(browser, app_url, fake_openai, tmp_path, width, height):
    whole = threading.Event()  # the last piece waits until the partial reply has been seen
    fake_openai.default = say(ANSWER, pieces=10, piece_delay=0.05, gate=whole)
    page = browser.new_page(viewport={"width": width, "height": height})
    outside = []
    page.on("request", lambda r: outside.append(r.url) if not r.url.startswith((app_url, "data:", "blob:")) else None)
    page.goto(app_url)

    page.get_by_text("Ada Lovelace — AI replica").first.wait_for()
    assert "Ada Lovelace" in page.title()
    page.get_by_text("Are you available for new projects?").first.wait_for()  # examples from prompts/examples.txt
    page.get_by_placeholder("Ask me something…").first.wait_for()  # count() does not wait for the box to render
    assert page.get_by_placeholder("Ask me something…").count() == 1
    box = page.locator("textarea").first
    box.fill("What do you do?")
    box.press("Enter")

    page.get_by_text("I work on analytical engines", exact=False).first.wait_for(timeout=30_000)
    assert page.get_by_text(ANSWER).count() == 0  # a partial reply is on the page before the whole one
    whole.set()
    page.get_by_text(ANSWER).first.wait_for(timeout=30_000)
    page.screenshot(path=str(tmp_path / f"chat-{width}.png"), full_page=True)

    assert fake_openai.requests[0]["messages"][-1]["content"] == "What do you do?"

    fake_openai.default = say("Yes, I write about computing.")  # what the profile holds (replies are checked)
    box.fill("Do you write about computing?")
    box.press("Enter")
    page.get_by_text("Yes, I write about computing.").first.wait_for(timeout=30_000)
    history = [(m["role"], m["content"]) for m in fake_openai.requests[1]["messages"][1:]]
    assert history == [("user", "What do you do?"), ("assistant", ANSWER), ("user", "Do you write about computing?")]
    assert page.evaluate("document.documentElement.scrollWidth") <= width  # no sideways scrolling

    # While a reply is written, stop takes send's place; pressing it ends the reply and opens the box.
    fake_openai.default = say(ANSWER, pieces=10, piece_delay=0.5)
    box.fill("Tell me more.")
    box.press("Enter")
    page.get_by_text("I work on analytical engines", exact=False).nth(1).wait_for(timeout=30_000)
    assert page.get_by_role("button", name="Send").count() == 0
    page.get_by_role("button", name="Stop").click()
    page.wait_for_function("() => !document.querySelector('#replica-input textarea').disabled", timeout=30_000)
    page.get_by_role("button", name="Send").wait_for(timeout=30_000)
    assert page.get_by_text(ANSWER).count() == 1  # the stopped reply was never finished on the page
    assert outside == []  # nothing fetched from outside: the page works offline


def test_the_owners_words_appear_in_an_open_page_without_the_visitor_typing(
    browser, start_app, settings, fake_openai, fake_telegram, tmp_path, monkeypatch
):
    from replica.web import page as page_module

    monkeypatch.setattr(page_module, "CHECK_SECONDS", 1)  # the page checks every 4 s; here, every second
    app = start_app(settings)
    fake_openai.default = say("Hello! Ada will be glad you asked.")
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.goto(app.demo.local_url)
    box = page.locator("textarea").first
    box.fill("Can I talk to Ada herself?")
    box.press("Enter")
    page.get_by_text("Ada will be glad you asked.").first.wait_for(timeout=30_000)
    # The owner answers the reply they were sent: it is recorded by then. (Words that arrive while it is
    # still being recorded are shown once it is: tests/chat/test_reply.py.)
    assert wait_until(lambda: any(m.role == REPLICA for m in app.store.conversations.messages(1)))

    fake_telegram.push("/say 1 Hi, this is Ada: happy to talk!")
    page.get_by_text("happy to talk!").first.wait_for(timeout=30_000)  # shown without the visitor typing
    page.screenshot(path=str(tmp_path / "takeover.png"), full_page=True)
    bubbles = page.evaluate(
        """() => Array.from(document.querySelectorAll('#replica-chat .message')).map(m => ({
            text: m.innerText.trim(), owner: !!m.querySelector('.replica-owner-label'),
            notice: !!m.querySelector('.replica-notice'), border: getComputedStyle(m).borderTopStyle}))"""
    )
    texts = [b["text"] for b in bubbles]
    assert texts[0].startswith("Hi! I'm Ada Lovelace's AI replica")  # the greeting stays the first bubble
    assert texts[1:3] == ["Can I talk to Ada herself?", "Hello! Ada will be glad you asked."]
    [own] = [b for b in bubbles if "happy to talk!" in b["text"]]
    assert own["owner"] and own["text"].startswith("Ada Lovelace · in person")  # a bubble of its own, named
    assert "happy to talk!" not in texts[2]  # never merged into the replica's
    avatars = page.locator("#replica-chat .message-row img, #replica-chat .avatar-container img")
    assert avatars.count() >= 2  # the owner's face beside their own bubble too

    fake_telegram.push("/pause 1")
    page.get_by_text("is answering you in person now").first.wait_for(timeout=30_000)
    notice = page.locator("#replica-chat .message", has=page.locator(".replica-notice")).first
    assert notice.evaluate("m => getComputedStyle(m.querySelector('.replica-notice')).fontStyle") == "italic"
    fake_telegram.push("/resume 1")
    page.get_by_text("handed back to me").first.wait_for(timeout=30_000)
    page.screenshot(path=str(tmp_path / "takeover-notices.png"), full_page=True)
    delivered = lambda: any("Delivered to conversation #1" in t for t in fake_telegram.sent_texts())  # noqa: E731
    assert wait_until(delivered), fake_telegram.sent_texts()

    fake_openai.default = say("Noted.")
    box.fill("Thanks!")
    box.press("Enter")
    page.get_by_text("Noted.").first.wait_for(timeout=30_000)
    history = [(m["role"], m["content"]) for m in fake_openai.requests[-1]["messages"][1:]]
    assert ("assistant", "[Ada Lovelace, in person] Hi, this is Ada: happy to talk!") in history
    assert page.get_by_text("happy to talk!").count() >= 1  # still on the page after the next reply


# --- a page visitors enjoy on any screen -----------------------------------------------------------

SIZES = [(1280, 900), (390, 844)]
LONG = (  # from the profile, and no sentence said three times (that would be debris)
    "I work on analytical engines for small teams in London, and I keep them boring. "
    "I also write about computing, for the people who use the engines every day. "
    "Most days are careful arithmetic, checked twice, and written up plainly. "
)
VISITOR_BUTTONS = {"Send", "Stop", "Copy message"}


def serious_accessibility_problems(page) -> list[str]:
    """axe-core's serious and critical violations on the page, as "rule: target" lines."""
    from axe_playwright_python.sync_playwright import Axe

    violations = Axe().run(page).response["violations"]
    return [
        f"{v['id']}: {node['target']}"
        for v in violations
        if v["impact"] in ("serious", "critical")
        for node in v["nodes"]
    ]


def visible_buttons(page) -> list[str]:
    """The accessible name of every visible button ("" for one without a name)."""
    return page.evaluate(
        """Array.from(document.querySelectorAll('button'))
            .filter(b => b.offsetParent !== null && getComputedStyle(b).visibility !== 'hidden')
            .map(b => (b.getAttribute('aria-label') || b.innerText || '').trim())"""
    )


def send(page, text, with_button=False):
    box = page.locator("#replica-input textarea")
    box.fill(text)
    if with_button:
        page.get_by_role("button", name="Send").click()
    else:
        box.press("Enter")


@pytest.mark.parametrize("width, height", SIZES, ids=["desktop", "phone"])
def test_the_page_fills_the_screen_keeps_focus_and_offers_only_what_visitors_use(
    browser, app_url, fake_openai, tmp_path, width, height
):
    fake_openai.default = say(LONG, pieces=4, piece_delay=0.05)
    page = browser.new_page(viewport={"width": width, "height": height})
    page.goto(app_url)
    page.get_by_text("What kind of work do you do?").first.wait_for()
    assert serious_accessibility_problems(page) == []
    page.screenshot(path=str(tmp_path / f"empty-{width}.png"))

    # 5: the greeting is a bubble; the examples are chips, and tapping one asks it
    greeting = page.locator("#replica-chat .placeholder").first
    style = greeting.evaluate("e => getComputedStyle(e)")
    assert float(style["paddingLeft"].rstrip("px")) >= 8 and float(style["borderTopLeftRadius"].rstrip("px")) >= 8
    chips = page.locator("#replica-chat button.example")
    assert chips.count() == 4
    for chip in chips.all():
        chip_style = chip.evaluate("e => getComputedStyle(e)")
        assert float(chip_style["borderTopLeftRadius"].rstrip("px")) >= 12 and chip_style["borderTopStyle"] == "solid"
    chips.first.click()
    page.get_by_text("I keep them boring").first.wait_for(timeout=30_000)
    assert fake_openai.requests[0]["messages"][-1]["content"] == "What kind of work do you do?"

    # 1: focus stays in the box after sending by Enter and by the button; the placeholder stays
    box = page.locator("#replica-input textarea")
    for n, with_button in enumerate([False, True, False]):
        send(page, f"Question {n}", with_button)
        page.wait_for_function(
            f"() => document.querySelectorAll('#replica-chat .message-row, #replica-chat .message').length >= {2 * (n + 2)}",
            timeout=30_000,
        )
        page.wait_for_function("() => !document.querySelector('#replica-input textarea').disabled", timeout=30_000)
        if width > 800:  # "on desktop"
            page.wait_for_function(
                "() => document.activeElement === document.querySelector('#replica-input textarea')", timeout=30_000
            )
        assert box.get_attribute("placeholder") == "Ask me something…"
    # The chat scrolls the newest message into view: wait for it to be there, then measure the page.
    page.wait_for_function(
        """() => { const chat = document.getElementById('replica-chat').getBoundingClientRect();
                   const bubbles = document.querySelectorAll('#replica-chat .message');
                   return bubbles[bubbles.length - 1].getBoundingClientRect().bottom <= chat.bottom + 1; }""",
        timeout=30_000,
    )

    # 2: the chat fills the height below the header; the newest message is in view; the page does not scroll
    layout = page.evaluate(
        """() => {
            const chat = document.getElementById('replica-chat').getBoundingClientRect();
            // The last thing on the page: the privacy line under the box (the box, without one).
            const last_line = document.getElementById('replica-privacy') || document.getElementById('replica-input');
            const input = last_line.getBoundingClientRect();
            const title = document.querySelector('h1').getBoundingClientRect();
            const bubbles = document.querySelectorAll('#replica-chat .message');
            const last = bubbles[bubbles.length - 1].getBoundingClientRect();
            return {chatTop: chat.top, chatBottom: chat.bottom, inputBottom: input.bottom, titleBottom: title.bottom,
                    lastTop: last.top, lastBottom: last.bottom, pageHeight: document.scrollingElement.scrollHeight};
        }"""
    )
    assert layout["titleBottom"] <= layout["chatTop"] and layout["inputBottom"] >= height - 48  # no blank band
    assert layout["pageHeight"] <= height + 2  # the page itself never scrolls the header away
    assert layout["chatTop"] <= layout["lastTop"] and layout["lastBottom"] <= layout["chatBottom"] + 1

    # 3: only send, stop and copy; every button has a name
    names = [name for name in visible_buttons(page) if not name.startswith("Select example")]
    assert "" not in names and set(names) <= VISITOR_BUTTONS, names
    for gone in ("Retry", "Undo", "Clear", "Share", "Copy conversation", "Flag"):
        assert gone not in names

    # 4: the owner's face beside the replica's messages, served by the app itself
    avatars = page.locator("#replica-chat img").evaluate_all("imgs => imgs.map(i => i.src)")
    assert avatars and all(src.startswith(app_url.rstrip("/")) for src in avatars)

    assert serious_accessibility_problems(page) == []
    page.screenshot(path=str(tmp_path / f"conversation-{width}.png"))


@pytest.mark.parametrize("width, height", SIZES, ids=["desktop", "phone"])
def test_a_deep_link_asks_its_question_once(browser, app_url, fake_openai, width, height):
    fake_openai.default = say("I work on data pipelines.")
    page = browser.new_page(viewport={"width": width, "height": height})
    page.goto(app_url + "?q=What%20do%20you%20work%20on%3F")
    page.get_by_text("I work on data pipelines.").first.wait_for(timeout=30_000)
    assert [r["messages"][-1]["content"] for r in fake_openai.requests] == ["What do you work on?"]
    assert "q=" not in page.url
    conversation_kept(page)
    page.reload()  # the browser kept its conversation: the page shows it again, and does not ask again
    page.locator("#replica-chat .message", has_text="I work on data pipelines.").first.wait_for(timeout=30_000)
    page.wait_for_timeout(1500)
    assert fake_openai.calls == 1  # not asked again on reload


EMBED = (ROOT / "docs" / "page.md").read_text().split("<!-- embed -->")[1].split("```html")[1].split("```")[0]


@pytest.mark.parametrize("width, height", SIZES, ids=["desktop", "phone"])
def test_the_readme_embedding_snippet_streams_an_answer_in_another_page(
    browser, app_url, fake_openai, tmp_path, width, height
):
    site = tmp_path / "site"
    site.mkdir()
    snippet = EMBED.replace("https://YOUR-SPACE.hf.space", app_url.rstrip("/"))
    (site / "index.html").write_text(
        f"<!doctype html><html lang='en'><title>My site</title><body><h1>Me</h1>{snippet}</body></html>"
    )
    server = ThreadingHTTPServer(("127.0.0.1", 0), partial(SimpleHTTPRequestHandler, directory=str(site)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        whole = threading.Event()  # the last piece waits until the partial answer has been seen
        fake_openai.default = say(ANSWER, pieces=10, piece_delay=0.05, gate=whole)
        page = browser.new_page(viewport={"width": width, "height": height})
        page.goto(f"http://127.0.0.1:{server.server_address[1]}/index.html")
        frame = page.frame_locator("iframe")
        frame.locator("#replica-input textarea").fill("What do you do?")
        frame.locator("#replica-input textarea").press("Enter")
        frame.get_by_text("I work on analytical engines", exact=False).first.wait_for(timeout=30_000)
        assert frame.get_by_text(ANSWER).count() == 0  # streamed: a partial answer first
        whole.set()
        frame.get_by_text(ANSWER).first.wait_for(timeout=30_000)
        page.screenshot(path=str(tmp_path / f"embedded-{width}.png"))
    finally:
        server.shutdown()


def test_a_visitor_arriving_in_a_spike_reads_the_owners_sentence_and_the_box_stays_usable(
    browser, start_app, settings, fake_openai
):
    from replica import wording
    from tests.fixtures.clients import app_client

    release = threading.Event()

    def held(body):  # the one lane stays busy until the test lets go, however loaded the machine
        release.wait(60)
        return say("Answered by the model.")

    fake_openai.default = held
    app = start_app(settings.updated(queue_concurrency=1, queue_max_size=0, address_messages_per_hour=100))
    try:
        busy = app_client(app.demo.local_url).submit("Tell me everything.", api_name="/chat")
        assert wait_until(lambda: fake_openai.in_flight == 1)
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        page.goto(app.demo.local_url)
        spike = wording.SPIKE.format(owner=settings.owner.owner_name)
        send(page, "Are you free next week?")
        page.get_by_text(spike).first.wait_for(timeout=30_000)
        assert page.get_by_text("Queue is full").count() == 0
        send(page, "And my email is ada@example.org")  # the box is open again, and a second message goes too
        page.wait_for_function(
            f"() => document.querySelector('#replica-chat').innerText.split({spike!r}).length - 1 >= 2",
            timeout=30_000,
        )
        page.wait_for_function("() => !document.querySelector('#replica-input textarea').disabled", timeout=30_000)
    finally:
        release.set()
    assert busy.result(timeout=30) == "Answered by the model."
    assert "ada@example.org" in [lead.email for lead in app.store.leads.all()]


def test_a_message_that_cannot_be_sent_is_given_back_with_a_notice(browser, app_url, fake_openai):
    fake_openai.default = say(ANSWER)
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(app_url)
    page.locator("#replica-input textarea").wait_for(timeout=30_000)
    # A proxy in front answers 502 (the app restarting behind it): what the browser meets, on its requests.
    bad_gateway = lambda route: route.fulfill(status=502, body="Bad Gateway")  # noqa: E731
    for path in ("**/gradio_api/run/**", "**/gradio_api/queue/join*"):
        page.route(path, bad_gateway)
    send(page, "Are you free next week?")
    page.get_by_text("Your message could not be sent just now: it is still in the box.").wait_for(timeout=30_000)
    page.wait_for_function(
        "() => document.querySelector('#replica-input textarea').value === 'Are you free next week?'", timeout=30_000
    )
    page.unroute_all()  # the app is back: the same words go, and are answered
    page.locator("#replica-input textarea").press("Enter")
    page.get_by_text(ANSWER).first.wait_for(timeout=30_000)


def test_a_message_over_the_hourly_limit_is_refused_as_it_is_sent_and_given_back_with_the_sentence(
    browser, start_app, settings, fake_openai
):
    fake_openai.default = say(ANSWER)
    app = start_app(settings.updated(visitor_messages_per_hour=1))
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(app.demo.local_url)
    send(page, "Hello there")
    page.get_by_text(ANSWER).first.wait_for(timeout=30_000)
    page.wait_for_function("() => !document.querySelector('#replica-input textarea').disabled", timeout=30_000)
    send(page, "Are you free next week?")  # the second this hour: refused at the line's door, at once
    page.locator("#replica-status").get_by_text(wording.TOO_MANY_MESSAGES).wait_for(timeout=30_000)
    page.wait_for_function(  # the words given back, the box open again, and no error in place of the chat
        """() => { const box = document.querySelector('#replica-input textarea');
                   return box.value === 'Are you free next week?' && !box.disabled; }""",
        timeout=30_000,
    )
    assert page.get_by_text("Error", exact=True).count() == 0
    assert page.locator("#replica-chat").get_by_text("Are you free next week?").count() == 0  # it was not kept
    assert fake_openai.calls == 1
    [conversation] = app.store.conversations.recent(10)
    kept = [message.text for message in app.store.conversations.messages(conversation.id)]
    assert "Hello there" in kept and "Are you free next week?" not in kept  # refused: never kept whole


def site_framing(tmp_path, name: str, src: str):
    """A site of its own (another origin: another port) whose page holds one hidden frame of ``src``."""
    folder = tmp_path / name
    folder.mkdir()
    frame = f'<iframe src="{src}" width="1" height="1" style="opacity:0" title="hidden"></iframe>'
    (folder / "index.html").write_text(
        f"<!doctype html><html lang='en'><title>A site</title><body>{frame}</body></html>"
    )
    server = ThreadingHTTPServer(("127.0.0.1", 0), partial(SimpleHTTPRequestHandler, directory=str(folder)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}"


DRIVEN = "?q=Hire%20me%20now%2C%20victim%40example.com"


def test_a_hidden_frame_on_another_site_cannot_make_the_visitor_chat(
    browser, app_url, fake_openai, tmp_path, shared_app
):
    server, origin = site_framing(tmp_path, "any-site", app_url.rstrip("/") + "/" + DRIVEN)
    try:
        assert requests.get(app_url, timeout=10).headers["content-security-policy"] == "frame-ancestors *"
        page = browser.new_page()
        page.goto(origin + "/index.html")
        box = page.frame_locator("iframe").locator("#replica-input textarea")
        # The question is put in the box, to wait there for the visitor's own send.
        # The page decided not to send it, and says so; the question waits in the box.
        status = page.frame_locator("iframe").locator("#replica-status")
        status.wait_for(timeout=30_000)
        assert status.inner_text() == "Your question is in the box: press Enter to send it."
        assert box.input_value() == "Hire me now, victim@example.com"
        notice, typed = status.bounding_box(), box.bounding_box()  # the notice sits above the box, not beside it
        assert notice["y"] + notice["height"] <= typed["y"] + 1 and typed["width"] >= notice["width"] * 0.6
        assert fake_openai.calls == 0 and shared_app.store.leads.all() == []
    finally:
        server.shutdown()


def test_a_frame_on_the_owners_own_site_asks_at_once_and_no_other_site_may_frame_it(
    browser, start_app, settings, fake_openai, tmp_path
):
    own, own_origin = site_framing(tmp_path, "own-site", "")
    other, other_origin = site_framing(tmp_path, "other-site", "")
    app = start_app(settings.updated(embed_origins=(own_origin,)))
    url = app.demo.local_url.rstrip("/") + "/" + DRIVEN
    for folder in ("own-site", "other-site"):
        index = tmp_path / folder / "index.html"
        index.write_text(index.read_text().replace('src=""', f'src="{url}"'))
    fake_openai.default = say("Thanks, I have your address.")
    try:
        policy = requests.get(app.demo.local_url, timeout=10).headers["content-security-policy"]
        assert policy == f"frame-ancestors 'self' {own_origin}"
        page = browser.new_page()
        page.goto(own_origin + "/index.html")
        page.frame_locator("iframe").get_by_text("Thanks, I have your address.").first.wait_for(timeout=30_000)
        assert fake_openai.requests[0]["messages"][-1]["content"] == "Hire me now, victim@example.com"
        blocked = browser.new_page()
        blocked.goto(other_origin + "/index.html")
        # The browser refuses the frame (frame-ancestors): it shows its error page in its place.
        assert wait_until(lambda: blocked.frames[-1].url == "chrome-error://chromewebdata/", timeout=30)
        assert fake_openai.calls == 1  # the other site's frame asked nothing
    finally:
        own.shutdown()
        other.shutdown()
