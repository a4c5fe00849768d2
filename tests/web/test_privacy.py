"""The owner's privacy text: shown as written, never run as HTML, and the page's one line about keeping."""

from __future__ import annotations

from replica.web.privacy import privacy_html, privacy_line


def test_the_privacy_text_is_shown_as_written_never_run_as_html():
    page = privacy_html("# Privacy\n\nKept **30 days**. <script>alert(1)</script> [More](https://x.example)", "P")
    assert "<h1>Privacy</h1>" in page and "<strong>30 days</strong>" in page
    assert "<script>alert" not in page and "&lt;script&gt;" in page
    assert '<a href="https://x.example">More</a>' in page


def test_the_page_says_how_long_a_conversation_is_kept():
    assert "kept for 30 days after their last message" in privacy_line(30)
    assert "kept for a day after" in privacy_line(1) and 'href="privacy"' in privacy_line(1)
