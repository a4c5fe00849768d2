"""The chat page's own logic, without a browser: whose words each bubble holds, the visitor's address
as our proxies report it, the page's script settings, and a page that still opens when the record cannot
be read."""

from __future__ import annotations

import sqlite3
from types import SimpleNamespace

from replica import wording
from replica.storage.records import NOTICE, OWNER, REPLICA, VISITOR
from replica.web.page import Bubbles, PageText, client_address, page_head, recorded_messages

PAGE = PageText("Ada", "Ask Ada", "Hi, I'm Ada's replica.", [], owner_name="Ada <Lovelace>")


def test_the_greeting_comes_first_and_each_bubble_says_whose_words_it_holds():
    bubbles = Bubbles(PAGE).render(
        [
            (VISITOR, "Hello"),
            (VISITOR, "   "),
            (REPLICA, "Hi!"),
            (OWNER, "Ada here."),
            (NOTICE, "<b>Ada stepped in</b>"),
        ]
    )
    assert bubbles[0]["role"] == "assistant" and "replica-greeting" in bubbles[0]["content"]
    assert "Hi, I'm Ada's replica." in bubbles[0]["content"]
    assert [b["role"] for b in bubbles[1:]] == ["user", "assistant", "assistant", "assistant"]  # the blank: none
    assert bubbles[1]["content"] == "Hello" and bubbles[2]["content"] == "Hi!"
    owner_label = wording.OWNER_LABEL.format(owner="Ada &lt;Lovelace&gt;")
    assert owner_label in bubbles[3]["content"] and "Ada here." in bubbles[3]["content"]
    assert bubbles[4]["content"] == '<div class="replica-notice">&lt;b&gt;Ada stepped in&lt;/b&gt;</div>'
    assert Bubbles(PAGE).render([]) == []  # before the first message the page shows its own greeting


def test_the_address_is_the_hop_our_proxies_added_never_one_the_client_wrote():
    request = SimpleNamespace(
        client=SimpleNamespace(host="10.0.0.2"), headers={"x-forwarded-for": "198.51.100.66, 203.0.113.9"}
    )
    assert client_address(request, trusted_proxy_hops=1) == "203.0.113.9"
    assert client_address(request, trusted_proxy_hops=0) == "10.0.0.2"  # no proxy: the header is the client's
    assert client_address(None, 1) == "unknown"


def test_the_pages_script_is_told_its_askers_and_limit_and_nothing_closes_its_tags():
    head = page_head(("https://ada.example", "</script><script>alert(1)"), 2000, face="/face.png")
    assert 'window.REPLICA_ASKERS = ["https://ada.example", "<\\/script><script>alert(1)"];' in head
    assert "window.REPLICA_MAX_QUESTION = 2000;" in head and '--replica-face: url("face.png")' in head
    assert head.count("</script>") == 1
    assert "--replica-face" not in page_head((), 2000)


def test_a_record_that_cannot_be_read_leaves_the_page_empty_not_broken(caplog):
    def unreadable(session):
        raise sqlite3.OperationalError("disk I/O error")

    assert recorded_messages(unreadable, "s1") == []
    assert "Could not read the conversation for the page (OperationalError)" in caplog.text
    assert recorded_messages(lambda session: [(VISITOR, session)], "s1") == [(VISITOR, "s1")]
