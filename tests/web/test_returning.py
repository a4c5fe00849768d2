"""A visitor who comes back: session ids as Gradio issues them, and the conversation a kept key opens again."""

from __future__ import annotations

from types import SimpleNamespace

from replica.web.returning import ReturningPages, session_id


def test_an_unusual_session_id_that_reaches_the_chat_is_replaced_by_a_short_digest():
    replaced = session_id(SimpleNamespace(session_hash="x" * 1_000_000))
    assert replaced.startswith("unusual-") and len(replaced) <= 64
    assert session_id(SimpleNamespace(session_hash="k3j4h5g6f7")) == "k3j4h5g6f7"
    assert session_id(None) == "anonymous"


def page(session: str) -> SimpleNamespace:
    return SimpleNamespace(session_hash=session)


def test_a_kept_key_opens_its_conversation_for_that_page_only():
    keys = {"key-of-a1b2c3d4e5": "a1b2c3d4e5"}
    pages = ReturningPages(lambda session: f"key-of-{session}", keys.get, browser_secret="s")
    assert pages.key(page("f6g7h8j9k0")) == "key-of-f6g7h8j9k0"
    assert not pages.open_again("forged", page("f6g7h8j9k0"))  # no conversation of that key
    assert not pages.open_again("key-of-a1b2c3d4e5", page("a1b2c3d4e5"))  # its own: nothing to open
    assert pages.open_again("key-of-a1b2c3d4e5", page("f6g7h8j9k0"))
    assert pages.session_of(page("f6g7h8j9k0")) == "a1b2c3d4e5"  # the new page speaks for the old conversation
    assert pages.key(page("f6g7h8j9k0")) == "key-of-a1b2c3d4e5"
    assert pages.session_of(page("z9y8x7w6v5")) == "z9y8x7w6v5"  # another page: its own
