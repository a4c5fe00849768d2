"""The week in pictures as the owner runs it: ``python app.py`` with the digest's hour and weekday set
and a colour of the owner's, the Telegram stand-in as the owner's chat."""

from __future__ import annotations

import io
from datetime import datetime, timedelta, timezone

from PIL import Image

from tests.fakes.openai_server import call, say
from tests.fixtures.clients import app_client
from tests.fixtures.environment import API_KEY, wait_until
from tests.fixtures.processes import served_app


def test_python_app_py_sends_the_weeks_picture_with_the_digest_and_stats_on_request(
    tmp_path, fake_openai, fake_telegram
):
    today = datetime.now(timezone.utc).date()
    env = {
        "OPENAI_API_KEY": API_KEY,
        "OPENAI_BASE_URL": fake_openai.base_url,
        **fake_telegram.env,
        "OWNER_NAME": "Ada Lovelace",
        "DATA_DIR": str(tmp_path / "data"),
        "DIGEST_HOUR_UTC": "0",  # past already: yesterday's digest goes at start
        "DIGEST_WEEKDAY": f"{today:%A}".lower(),  # today: it brings the week's picture
        "STATS_COLOUR": "#1d4ed8",
    }
    with served_app(tmp_path / "app.log", **env) as (url, _):
        # The digest of yesterday, with the picture of the seven days up to it.
        assert wait_until(lambda: len(fake_telegram.photos()) == 1, timeout=60)
        week = f"{today - timedelta(days=7)} to {today - timedelta(days=1)}"
        assert fake_telegram.photos()[0].text.startswith(f"Last 7 days, {week}: nobody opened the page or wrote.")
        assert wait_until(lambda: any(t.startswith("Daily digest for") for t in fake_telegram.sent_texts()), timeout=30)
        # A visitor leaves an address; the owner asks for the picture of today's week.
        fake_openai.script(
            call(("gather_user_details", {"email": "jane@example.com", "notes": "Hiring"})), say("Thanks!")
        )
        app_client(url).predict("Reach me at jane@example.com", api_name="/chat")
        fake_telegram.push("/stats")
        assert wait_until(lambda: len(fake_telegram.photos()) == 2, timeout=60)
    stats = fake_telegram.photos()[1]
    assert stats.text.startswith(f"Last 7 days, {today - timedelta(days=6)} to {today};")
    assert "Conversations: 1 (0)" in stats.text and "Leads: 1 (0)" in stats.text
    assert "model 1, approved answers without a model 0" in stats.text and "Model calls: 2," in stats.text
    image = Image.open(io.BytesIO(stats.photo[1])).convert("RGB")
    assert image.size == (1080, 1350)
    assert (29, 78, 216) in {colour for _, colour in image.getcolors(1_000_000)}  # the owner's colour, #1d4ed8
    assert "Traceback" not in (tmp_path / "app.log").read_text()
