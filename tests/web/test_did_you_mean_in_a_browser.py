"""As a visitor meets it, with ``python app.py`` and no model: a question close to an approved one is asked
about ("Did you mean…?") with the question as a chip; tapping the chip sends it and quotes the answer."""

from __future__ import annotations

from tests.fixtures.processes import served_app
from tests.web.test_browser import browser, chromium, send  # noqa: F401 (the browser fixtures)

ASKED = "Are you available for new data projects this spring?"
QUESTION = "Are you available for new projects?"
ANSWER = "Yes, from next month, remote or on-site in Lisbon."


def test_the_chip_of_did_you_mean_quotes_the_answer_when_tapped(browser, tmp_path):  # noqa: F811
    with served_app(tmp_path / "app.log", DATA_DIR=str(tmp_path / "data"), MEANING_MODEL="off") as (url, _):
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        page.goto(url)
        page.get_by_text("What kind of work do you do?").first.wait_for()
        send(page, ASKED)
        page.get_by_text(f"Did you mean: “{QUESTION}”").wait_for(timeout=60_000)
        chip = page.locator("#replica-chat").get_by_role("button", name=QUESTION)
        chip.wait_for()
        page.screenshot(path=str(tmp_path / "did-you-mean.png"))
        chip.click()
        page.get_by_text(f"From Jordan Avery's FAQ: {ANSWER}").wait_for(timeout=60_000)
        visitor = page.locator("#replica-chat .user-row .message").all_inner_texts()
        assert [text.strip() for text in visitor] == [ASKED, QUESTION]  # the tap is the visitor's words
        assert page.locator("#replica-chat").get_by_role("button", name=QUESTION).count() == 0  # asked once
