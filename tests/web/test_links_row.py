"""The owner's links under the header: labelled, escaped, the email a mailto:, and no row without links."""

from __future__ import annotations

from replica.web.links_row import links_row


def test_each_link_is_labelled_opens_in_a_new_tab_and_the_email_is_a_mailto():
    row = links_row([("github", "https://github.com/ada"), ("email", "ada@example.org")], "Ada")
    assert row.startswith('<nav class="replica-links" aria-label="Ada elsewhere">')
    assert 'href="https://github.com/ada" target="_blank" rel="noopener me"' in row and "<span>GitHub</span>" in row
    assert 'href="mailto:ada@example.org"' in row and "<span>Email</span>" in row
    assert row.index("GitHub") < row.index("Email")  # in the order given
    assert "http" not in row.replace("https://github.com/ada", "")  # no icon loaded from another host


def test_an_address_or_a_name_cannot_break_out_of_its_attribute():
    row = links_row([("website", 'https://x.example/"><script>')], 'Ada "<b>"')
    assert "<script>" not in row and "<b>" not in row and "&quot;&gt;&lt;script&gt;" in row


def test_no_links_no_row():
    assert links_row([], "Ada") == ""
