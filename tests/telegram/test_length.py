"""Text as Telegram measures it (replica/telegram/length.py): in UTF-16 units, so an emoji counts twice."""

from __future__ import annotations

from replica.telegram.length import TELEGRAM_LIMIT, utf16_units


def test_letters_count_once_and_an_emoji_beyond_the_basic_plane_twice():
    assert utf16_units("Ada") == 3
    assert utf16_units("é€") == 2
    assert utf16_units("🪞") == 2 and utf16_units("Hi 👋🏽") == 3 + 4


def test_the_limit_is_reached_sooner_with_emoji():
    assert utf16_units("a" * TELEGRAM_LIMIT) == TELEGRAM_LIMIT
    assert utf16_units("🪞" * (TELEGRAM_LIMIT // 2 + 1)) > TELEGRAM_LIMIT
