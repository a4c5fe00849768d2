"""Return keys (replica/inbox/return_keys.py): a returning browser's key opens its own conversation only."""

from __future__ import annotations

from replica.inbox.return_keys import ReturnKeys


def test_a_key_opens_only_the_conversation_it_was_made_for():
    keys = ReturnKeys("salt")
    key = keys.key_for("k3j4h5g6f7")
    assert keys.session_of(key) == "k3j4h5g6f7"
    assert keys.session_of(key.replace("k3j4", "k3j5")) is None  # another session, the same signature
    assert keys.session_of(key[:-1] + ("0" if key[-1] != "0" else "1")) is None
    assert ReturnKeys("another salt").session_of(key) is None  # another app's key
    assert all(keys.session_of(bad) is None for bad in (None, 42, "", ".", "x" * 500, {"session": "k3j4h5g6f7"}))
