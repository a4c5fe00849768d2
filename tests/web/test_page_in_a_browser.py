"""The page worth sharing, in Chromium: its layout measured at 390×844 and 1280×900, the owner's links
and privacy line, the link preview as a card, and the chat bubble (``/widget.js``) on another site.

Screenshots go to ``tmp_path``, or to the folder ``REPLICA_SCREENSHOTS`` names (from the checkout's
root): docs/page.md's images are made with ``REPLICA_SCREENSHOTS=docs/images``.
"""

from __future__ import annotations

import os
import threading
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
import requests

from replica.chat.reply import Visitor
from tests.fakes.openai_server import say
from tests.fixtures.environment import ROOT
from tests.web.test_browser import (  # noqa: F401 (the browser fixtures)
    ANSWER,
    SIZES,
    browser,
    chromium,
    conversation_kept,
    send,
    serious_accessibility_problems,
)
from tests.web.test_site import parsed

LINKS = {
    "owner_website": "https://ada.example",
    "owner_linkedin": "https://www.linkedin.com/in/ada-example",
    "owner_github": "https://github.com/ada-example",
    "owner_email": "ada@ada.example",
    "owner_booking": "https://cal.com/ada-example/intro",
}
LABELS = ["Website", "LinkedIn", "GitHub", "Email", "Book a call"]


def shots(tmp_path) -> Path:
    folder = ROOT / os.environ["REPLICA_SCREENSHOTS"] if os.environ.get("REPLICA_SCREENSHOTS") else tmp_path
    folder.mkdir(parents=True, exist_ok=True)
    return folder


MEASURE = """() => {
  const box = (e) => { if (!e) return null; const r = e.getBoundingClientRect();
                       return {top: r.top, bottom: r.bottom, left: r.left, right: r.right, width: r.width}; };
  const q = (s) => document.querySelector(s);
  const greeting = q('#replica-chat .placeholder') || q('#replica-chat .message');
  const avatar = q('#replica-chat .placeholder')
    ? getComputedStyle(q('#replica-chat .placeholder-content'), '::before')
    : getComputedStyle(q('#replica-chat .message-row .avatar-container img'));
  const visible = (e) => e.offsetParent !== null && getComputedStyle(e).display !== 'none';
  return {
    title: box(q('#replica-title')), description: box(q('#replica-description')), chat: box(q('#replica-chat')),
    input: box(q('#replica-input')), privacy: box(q('#replica-privacy')), greeting: box(greeting),
    greetingFont: getComputedStyle(greeting.querySelector('p')).fontSize,
    avatar: {width: parseFloat(avatar.width), image: avatar.backgroundImage || '', src: avatar.content || ''},
    avatarBox: box(q('#replica-chat .placeholder') ? null : q('#replica-chat .message-row .avatar-container')),
    chips: Array.from(document.querySelectorAll('#replica-chat button.example')).map(box),
    replies: Array.from(document.querySelectorAll('#replica-chat .bot-row .message')).map(box),
    copies: Array.from(document.querySelectorAll('#replica-chat button[aria-label="Copy message"]'))
      .filter(visible).map(b => b.closest('.message-buttons').previousElementSibling.textContent.trim().slice(0, 40)),
  };
}"""


@pytest.mark.parametrize("width, height", SIZES, ids=["desktop", "phone"])
def test_the_page_reads_well_on_a_phone_and_a_desktop(
    browser,  # noqa: F811
    start_app,
    settings,
    fake_openai,
    tmp_path,
    width,
    height,
):
    app = start_app(settings.updated(**LINKS, conversation_retention_days=30))
    url = app.demo.local_url
    page = browser.new_page(viewport={"width": width, "height": height})
    page.goto(url)
    page.get_by_text("What kind of work do you do?").first.wait_for()
    # Gradio draws the page's parts one after another: measured once every part is there.
    parts = ["#replica-title", "#replica-description", "#replica-chat", "#replica-input", "#replica-privacy"]
    page.wait_for_function(f"() => {parts!r}.every((s) => document.querySelector(s))")
    empty = page.evaluate(MEASURE)

    # The header and description take at most 12% of a phone's height.
    if width < 500:
        assert empty["description"]["bottom"] <= 0.12 * height, empty["description"]
    # The greeting has the owner's face from the start; the chips sit directly under it.
    assert "face.png" in empty["avatar"]["image"] and empty["avatar"]["width"] >= 24
    first_chip = empty["chips"][0]
    assert 0 <= first_chip["top"] - empty["greeting"]["bottom"] <= 16, (empty["greeting"], first_chip)
    assert abs(first_chip["left"] - empty["greeting"]["left"]) <= 2
    # The privacy line is under the box, and its link opens the owner's privacy text.
    assert empty["privacy"]["top"] >= empty["input"]["bottom"] and empty["privacy"]["bottom"] <= height
    line = page.locator("#replica-privacy")
    assert "Conversations are kept for 30 days" in line.inner_text()
    with page.expect_popup() as opened:
        line.get_by_role("link", name="Privacy").click()
    privacy = opened.value
    privacy.get_by_text("deleted 30 days after its last message", exact=False).wait_for()
    privacy.close()

    # The owner's links: labelled, with the app's own icons, reached with the keyboard.
    row = page.get_by_role("navigation", name="Ada Lovelace elsewhere")
    assert [link.inner_text().strip() for link in row.get_by_role("link").all()] == LABELS
    assert row.locator("svg").count() == 5 and row.locator("img").count() == 0
    page.locator("body").focus()
    reached = []
    for _ in range(8):
        page.keyboard.press("Tab")
        reached.append(page.evaluate("document.activeElement.textContent.trim()"))
    start = reached.index("Website") if "Website" in reached else 0  # after the page's own first stop
    assert reached[start : start + 5] == LABELS, reached
    assert serious_accessibility_problems(page) == []
    folder = shots(tmp_path)
    page.screenshot(path=str(folder / f"page-{width}.png"))
    if width > 800:
        row.screenshot(path=str(folder / "links.png"))

    fake_openai.default = say(ANSWER, pieces=4, piece_delay=0.05)
    send(page, "What do you do?")
    page.get_by_text(ANSWER).first.wait_for(timeout=30_000)
    page.wait_for_function("() => !document.querySelector('#replica-input textarea').disabled", timeout=30_000)
    talked = page.evaluate(MEASURE)
    # The greeting keeps its size, place and face once it is the first bubble.
    assert talked["greetingFont"] == empty["greetingFont"]
    assert abs(talked["greeting"]["left"] - empty["greeting"]["left"]) <= 2
    assert talked["avatarBox"]["width"] == pytest.approx(empty["avatar"]["width"], abs=1)
    # Copy only on the replica's answers: not on the greeting, nor the visitor's words.
    assert talked["copies"] == [ANSWER[:40]], talked["copies"]
    if width < 500:  # on a phone, replies take most of the width
        for reply in talked["replies"]:
            assert reply["width"] >= 0.85 * talked["chat"]["width"], (reply, talked["chat"])
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    assert serious_accessibility_problems(page) == []
    page.screenshot(path=str(folder / f"conversation-{width}.png"))


CARD = """<!doctype html><html lang="en"><title>A link preview</title><body style="font-family: system-ui;
background: #eef1f5; padding: 24px; margin: 0"><div style="display: flex; width: 560px; background: #fff; border-radius:
10px; overflow: hidden; border: 1px solid #d0d7de"><img src="{image}" alt="" style="width: 140px; height: 140px;
object-fit: cover"><div style="padding: 14px 16px"><div style="color: #57606a; font-size: 13px">{host}</div>
<div style="font-weight: 600; margin: 4px 0">{title}</div><div style="color: #24292f; font-size: 14px">{description}
</div></div></div></body></html>"""


def test_the_link_preview_is_the_owners_as_a_card_shows_it(browser, start_app, settings, tmp_path):  # noqa: F811
    app = start_app(settings)
    url = app.demo.local_url
    head = parsed(requests.get(url, timeout=10).text)
    [title], [description], [image], [page_url] = (
        head.content(key) for key in ("og:title", "og:description", "og:image", "og:url")
    )
    card = tmp_path / "card.html"
    card.write_text(CARD.format(image=image, host=page_url.split("/")[2], title=title, description=description))
    page = browser.new_page(viewport={"width": 620, "height": 200})
    page.goto(card.as_uri())
    page.wait_for_function("() => document.images[0].complete && document.images[0].naturalWidth > 0")
    assert page.get_by_text("Ada Lovelace — AI replica").count() == 1
    page.screenshot(path=str(shots(tmp_path) / "preview.png"))


WIDGET = (ROOT / "docs" / "page.md").read_text().split("<!-- widget -->")[1].split("```html")[1].split("```")[0]


def test_the_widget_on_another_site_opens_streams_closes_and_remembers(
    browser,  # noqa: F811
    start_app,
    settings,
    fake_openai,
    tmp_path,
):
    site = tmp_path / "site"
    site.mkdir()
    server = ThreadingHTTPServer(("127.0.0.1", 0), partial(SimpleHTTPRequestHandler, directory=str(site)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    origin = f"http://127.0.0.1:{server.server_address[1]}"
    app = start_app(settings.updated(embed_origins=(origin,)))  # EMBED_ORIGINS names the site: it may frame the page
    # Its first reply, given whole until the server has shown whether it writes thinking blocks
    # (replica/chat/markup.py): the widget's visitor meets the app as visitors do after that.
    app.replica.reply("Hello", Visitor("warm-up", "127.0.0.9"))
    fake_openai.reset()
    app_url = app.demo.local_url.rstrip("/")
    snippet = WIDGET.replace("https://YOUR-SPACE.hf.space", app_url)
    for name in ("index", "about"):
        (site / f"{name}.html").write_text(
            f"<!doctype html><html lang='en'><title>My {name}</title><body><main><h1>My {name}</h1>"
            f"<a href='about.html'>About</a></main>{snippet}</body></html>"
        )
    try:
        rest = threading.Event()
        fake_openai.default = say(ANSWER, pieces=10, piece_delay=0.05, gate=rest)
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        outside = []
        page.on(
            "request", lambda r: outside.append(r.url) if not r.url.startswith((origin, app_url, "data:")) else None
        )
        page.goto(origin + "/index.html")
        button = page.get_by_role("button", name="Chat with Ada Lovelace's AI replica")
        button.wait_for()
        assert button.get_attribute("aria-expanded") == "false"
        assert button.locator("img").get_attribute("src") == app_url + "/face.png"
        assert button.bounding_box()["x"] > 1000  # data-side="right"
        panel = page.get_by_role("dialog", name="Ada Lovelace's AI replica")
        assert not panel.is_visible()

        button.click()  # opened: the snippet's opening question is asked at once (the site is in EMBED_ORIGINS)
        assert panel.is_visible() and button.get_attribute("aria-expanded") == "true"
        assert "opened" in page.get_by_role("status").inner_text()
        frame = page.frame_locator("#replica-widget-panel iframe")
        frame.get_by_text("I work on analytical engines", exact=False).first.wait_for(timeout=30_000)
        assert frame.get_by_text(ANSWER).count() == 0  # streamed: a partial answer first
        rest.set()
        frame.get_by_text(ANSWER).first.wait_for(timeout=30_000)
        assert fake_openai.requests[0]["messages"][-1]["content"] == "What do you work on?"
        page.screenshot(path=str(shots(tmp_path) / "widget.png"))

        frame.locator("#replica-input textarea").press("Escape")  # Esc in the chat closes the panel
        page.wait_for_function("() => document.getElementById('replica-widget-panel').hidden")
        assert page.evaluate("document.activeElement.className") == "replica-widget-button"  # focus returned
        assert button.get_attribute("aria-expanded") == "false"

        conversation_kept(page.locator("#replica-widget-panel iframe").element_handle().content_frame())
        page.goto(origin + "/about.html")  # closed is remembered across the site's pages
        button.wait_for()
        assert not panel.is_visible()
        button.click()
        panel.wait_for()
        page.goto(origin + "/index.html")  # and open is, too (without asking the question again)
        panel.wait_for()
        frame = page.frame_locator("#replica-widget-panel iframe")  # the conversation goes on, page to page
        frame.locator("#replica-chat .message", has_text=ANSWER).first.wait_for(timeout=30_000)
        page.keyboard.press("Escape")
        page.wait_for_function("() => document.getElementById('replica-widget-panel').hidden")
        assert fake_openai.calls == 1
        assert outside == []  # the widget loads nothing but the app's own files
    finally:
        server.shutdown()
