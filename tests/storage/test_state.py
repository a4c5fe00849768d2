"""Small state kept across restarts, such as the bot's offset."""

from __future__ import annotations


def test_small_state_such_as_the_bots_offset_is_kept_and_replaced(store):
    assert store.state.get("telegram_update_offset") is None
    store.state.set("telegram_update_offset", "501")
    store.state.set("telegram_update_offset", "502")
    assert store.state.get("telegram_update_offset") == "502"
