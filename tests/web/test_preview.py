"""The owner's link preview: the page's address as the visitor asked for it (through the trusted proxy,
or the public URL), and the tags a link card is made from."""

from __future__ import annotations

import pytest
import requests

from replica.settings import ConfigError, load_settings
from replica.text import plain_line
from replica.web.preview import Preview, page_url, preview_tags, with_preview
from tests.web.test_site import parsed


def test_without_public_url_the_preview_names_the_address_asked_as_the_trusted_proxy_reports_it(app_url, shared_app):
    head = parsed(requests.get(app_url, timeout=10).text)
    assert head.content("og:url") == [app_url]
    assert head.content("og:image") == [app_url + "face.png"]
    scope = {
        "scheme": "http",
        "server": ("10.0.0.5", 7860),
        "headers": [
            (b"host", b"10.0.0.5:7860"),
            (b"x-forwarded-proto", b"https"),
            (b"x-forwarded-host", b"evil.example, ada-replica.hf.space"),
        ],
    }
    assert page_url(scope, None, trusted_proxy_hops=1) == "https://ada-replica.hf.space/"  # our proxy's entry
    assert page_url(scope, None, trusted_proxy_hops=0) == "http://10.0.0.5:7860/"  # no proxy: headers not taken
    assert page_url(scope, "https://you.example/", trusted_proxy_hops=1) == "https://you.example/"
    junk = {**scope, "headers": [(b"host", b"<script>")]}
    assert page_url(junk, None, 0) == "http://10.0.0.5:7860/"


def test_on_a_space_the_public_url_is_the_space_host():
    settings = load_settings({"SPACE_ID": "ada/replica", "SPACE_HOST": "ada-replica.hf.space,ada.example"}, None)
    assert settings.serving.public_url == "https://ada-replica.hf.space"
    assert load_settings({"PUBLIC_URL": "https://ada.example"}, None).serving.public_url == "https://ada.example"
    with pytest.raises(ConfigError, match="PUBLIC_URL"):
        load_settings({"PUBLIC_URL": "ada.example"}, None)


GRADIO_HEAD = (
    '<html><head><meta charset="utf-8" /><meta property="og:title" content="Gradio" />\n'
    '<meta name="twitter:creator" content="@Gradio" /><title>t</title></head></html>'
)


def test_the_owners_tags_replace_gradios_first_in_the_head_after_the_charset():
    tags = preview_tags(Preview("Ada — AI replica", 'Ask me "anything" <here>', "/face.png"), "https://ada.example/")
    page = with_preview(GRADIO_HEAD, tags)
    head = parsed(page)
    assert head.content("og:title") == ["Ada — AI replica"] and head.content("twitter:creator") == []
    assert head.content("og:image") == ["https://ada.example/face.png"]  # made absolute against the page
    assert head.content("description") == ['Ask me "anything" <here>'] and "<here>" not in page  # escaped
    absolute = preview_tags(Preview("A", "B", "https://cdn.example/me.png"), "https://ada.example/")
    assert parsed(absolute).content("og:image") == ["https://cdn.example/me.png"]


def test_the_description_is_one_plain_line_cut_at_a_word():
    assert plain_line("# Hi\n\nI **build** [compilers](https://x.example).") == "Hi I build compilers."
    cut = plain_line("word " * 100, limit=20)
    assert cut == "word word word…" and len(cut) <= 20


@pytest.mark.xfail(
    strict=True,
    reason="with_preview puts the tags right after <head>, before the charset its docstring says they follow "
    "(HEAD's alternation matches <head> first); reported, not fixed here",
)
def test_the_charset_stays_first_in_the_head():
    page = with_preview(GRADIO_HEAD, preview_tags(Preview("A", "B", "/face.png"), "https://ada.example/"))
    assert page.index('<meta charset="utf-8" />') < page.index("og:title")
