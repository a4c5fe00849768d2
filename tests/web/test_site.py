"""A page worth sharing, over HTTP: the owner's link preview and face, their links, the privacy text,
the widget script, and the booking page offered after a lead. ``python app.py`` as users start it."""

from __future__ import annotations

import csv
import io
from html.parser import HTMLParser

import requests

from replica.chat.reply import Visitor
from tests.fakes.openai_server import call, say
from tests.fixtures.clients import app_client
from tests.fixtures.processes import run_app_process, served_app
from tests.knowledge.test_links import LINKS

GRADIO_PREVIEW = ("Gradio", "Click to try out the app!", "@Gradio", "@teamGradio", "raw.githubusercontent.com")


class Head(HTMLParser):
    """The served page's ``<meta>`` and ``<link>`` tags, as (attribute dict) lists."""

    def __init__(self):
        super().__init__()
        self.metas: list[dict] = []
        self.links: list[dict] = []

    def handle_starttag(self, tag, attrs):
        if tag == "meta":
            self.metas.append(dict(attrs))
        elif tag == "link":
            self.links.append(dict(attrs))

    def content(self, key: str) -> list[str]:
        return [m["content"] for m in self.metas if m.get("property") == key or m.get("name") == key]


def parsed(html: str) -> Head:
    head = Head()
    head.feed(html)
    return head


def knowledge_with_links(folder):
    folder.mkdir()
    (folder / "profile.md").write_text(LINKS, encoding="utf-8")
    return folder


def test_the_served_page_previews_as_the_owner_and_every_url_it_names_is_served(tmp_path):
    knowledge = knowledge_with_links(tmp_path / "knowledge")
    public = "https://grace-replica.example"
    booking = "https://calendly.com/grace-example"  # the setting wins over the profile's booking: line
    data = str(tmp_path / "data")
    with served_app(
        tmp_path / "app.log",
        KNOWLEDGE_DIR=str(knowledge),
        PUBLIC_URL=public,
        CONVERSATION_RETENTION_DAYS="30",
        OWNER_BOOKING=booking,
        DATA_DIR=data,
    ) as (url, _):
        page = requests.get(url, timeout=10)
        head = parsed(page.text)
        for key in ("og:title", "og:description", "og:url", "og:image", "og:type", "twitter:card", "twitter:image"):
            assert len(head.content(key)) == 1, key  # one set of tags, not Gradio's and then the app's
        assert head.content("og:title") == ["Grace Hopper — AI replica"]
        assert head.content("twitter:title") == ["Grace Hopper — AI replica"]
        [description] = head.content("og:description")
        assert description.startswith("An AI replica of Grace Hopper") and "\n" not in description  # prompts/page*.md
        assert head.content("og:url") == [public + "/"]
        assert not [m for m in head.metas if any(g in str(m.get("content")) for g in GRADIO_PREVIEW)]
        assert not [m for m in head.metas if m.get("name") == "twitter:creator"]

        # Each URL the preview names is the app's own, and is served: the face as a PNG, the favicon too.
        [image] = head.content("og:image")
        [icon] = [link["href"] for link in head.links if link.get("rel") == "icon"]
        assert image == icon == public + "/face.png"
        face = requests.get(url + "face.png", timeout=10)
        assert face.status_code == 200 and face.headers["content-type"] == "image/png"
        assert face.content.startswith(b"\x89PNG") and len(face.content) > 1000  # the initials, drawn

        # The links row: five labelled links, in the profile's order, with icons drawn in the page itself.
        config = requests.get(url + "config", timeout=10).text
        for address in ("https://grace.example", "https://www.linkedin.com/in/grace-example",
                        "https://github.com/grace-example", "mailto:grace@grace.example",
                        booking):  # fmt: skip
            assert address in config
        assert "https://cal.com/grace-example/intro" not in config
        assert config.count('class=\\"replica-link replica-link-') == 5 and config.count("<svg aria-hidden") >= 5

        # The privacy line and the privacy text say how long conversations are kept.
        assert "Conversations are kept for 30 days after their last message." in config
        privacy = requests.get(url + "privacy", timeout=10)
        assert privacy.status_code == 200 and privacy.headers["content-type"].startswith("text/html")
        assert "deleted 30 days after its last message" in privacy.text and "Grace Hopper" in privacy.text

        widget = requests.get(url + "widget.js", timeout=10)
        assert widget.headers["content-type"].startswith("text/javascript")
        assert '{"owner": "Grace Hopper", "face": "/face.png"}' in widget.text
        assert "http" not in widget.text.split("const config")[1].split("\n")[0]  # nothing of another host
        assert requests.get(url + "favicon.ico", timeout=10).content == face.content  # not Gradio's logo

        # Without a model too, a lead is offered the booking page.
        reply = app_client(url).predict("Reach me at jane@example.com", api_name="/chat")
        assert reply.endswith(f"you can also book a time: {booking}")

        # Each open of the page is counted by day, the site the link was on and its utm_source, once a
        # day per client (tests/web/test_opens.py); no cookie.
        opens = [
            {"headers": {"Referer": "https://www.linkedin.com/feed/update/urn:li:activity:1"}},
            {"headers": {"Referer": "https://www.linkedin.com/"}},
            {"params": {"utm_source": "QR-card"}},
            {"headers": {"Referer": url + "?__theme=dark"}},  # a reload: the page's own host, no source
        ]
        for request in opens:
            page = requests.get(url, timeout=10, **request)
            assert page.status_code == 200 and "set-cookie" not in page.headers
    exported = run_app_process("export", "stats", "--days", "1", DATA_DIR=data).stdout
    [today] = list(csv.DictReader(io.StringIO(exported)))
    assert today["page_opens"] == "1"  # one client: the test, whose first look at the page counted
    assert int(today["conversations"]) == 1 and today["answered_passed_on"] == "0"


def test_a_saved_lead_is_offered_the_booking_page_and_the_persona_may_offer_it(start_app, settings, fake_openai):
    booking = "https://cal.com/ada-example/intro"
    app = start_app(settings.updated(owner_booking=booking))
    fake_openai.script(
        call(("gather_user_details", {"email": "jane@example.com", "notes": "wants a call"})),
        say("Thanks Jane, I've noted your address."),
    )
    reply = app.replica.reply("Can we talk? I'm Jane, jane@example.com", Visitor("booking-1", "10.9.0.1"))
    assert reply.startswith("Thanks Jane, I've noted your address.")
    assert reply.endswith(f"If you'd rather talk sooner, you can also book a time: {booking}")
    system = fake_openai.requests[0]["messages"][0]["content"]
    assert booking in system and "asks to meet" in system  # prompts/booking.md
    fake_openai.default = say("I work on analytical engines.")
    assert booking not in app.replica.reply("What do you do?", Visitor("booking-2", "10.9.0.2"))  # no lead: not offered
