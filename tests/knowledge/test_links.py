"""The owner's links: each from its setting, else from a line at the top of the profile; a line that is
not an address is skipped, named by its place, and never becomes a broken link."""

from __future__ import annotations

import logging

from replica.knowledge.links import owner_links, profile_lines, with_owner_links
from replica.settings import Settings
from tests.fixtures.processes import run_app

LINKS = """name: Grace Hopper
website: https://grace.example
linkedin: https://www.linkedin.com/in/grace-example
github: https://github.com/grace-example
email: grace@grace.example
booking: https://cal.com/grace-example/intro

# Grace Hopper

I build compilers and teach programming. I work in Arlington.
"""


def test_profile_links_fill_what_settings_leave_and_a_bad_line_is_skipped_with_its_place(tmp_path, caplog):
    folder = tmp_path / "knowledge"
    folder.mkdir()
    (folder / "profile.md").write_text(
        LINKS.replace("github: https://github.com/grace-example", "github: github.com/grace-example"), encoding="utf-8"
    )
    settings = Settings.of(knowledge_dir=folder, owner_website="https://hopper.example")
    with caplog.at_level(logging.WARNING):
        filled = with_owner_links(settings)
    assert filled.owner.owner_website == "https://hopper.example"  # the setting wins over the profile line
    assert filled.owner.owner_linkedin == "https://www.linkedin.com/in/grace-example"
    assert (
        filled.owner.owner_email == "grace@grace.example"
        and filled.owner.owner_booking == "https://cal.com/grace-example/intro"
    )
    assert filled.owner.owner_github is None  # not an address: no broken link on the page
    assert "profile.md, line 4 skipped" in caplog.text
    doctor = run_app("doctor", KNOWLEDGE_DIR=str(folder)).stdout
    assert "profile.md, line 4: github must be an address" in doctor and "left out of the links row" in doctor
    assert "links row: website, linkedin, email, booking (booking offered after a lead)" in doctor


def test_the_first_good_line_of_a_kind_wins_and_the_links_keep_the_pages_order(tmp_path):
    folder = tmp_path / "knowledge"
    folder.mkdir()
    (folder / "a.md").write_text("name: Grace\nemail: not-an-address\nGitHub:  https://github.com/first\n")
    (folder / "b.md").write_text("github: https://github.com/second\nemail: grace@grace.example\n")
    lines = profile_lines(folder)
    assert [(line.kind, line.place.rsplit("/", 1)[-1]) for line in lines] == [
        ("email", "a.md, line 2"),
        ("github", "a.md, line 3"),
        ("github", "b.md, line 1"),
        ("email", "b.md, line 2"),
    ]
    assert lines[0].problem and not lines[1].problem
    filled = with_owner_links(Settings.of(knowledge_dir=folder))
    assert owner_links(filled) == [("github", "https://github.com/first"), ("email", "grace@grace.example")]
