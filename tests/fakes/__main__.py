"""``python -m tests.fakes``: the test fakes as standalone servers, to try the app offline.

It starts the scripted model, the Telegram stand-in and a webhook standing in for an ``ALERT_URLS``
channel on 127.0.0.1, prints the environment lines that point ``python app.py`` at them, then reads lines from stdin: each is sent to your bot as if you typed it
in Telegram (``/recent``, ``/show 1``, or a reply: ``>12 your words`` replies to message 12). What the
bot sends to your chat is printed as it arrives. The model answers in a sentence; an email address in
the visitor's message makes it call ``gather_user_details``, one without its domain makes it ask again,
a question mark calls ``inform_unknown``, and doctor's probe gets its ``note_city`` call. So ``doctor``
goes green offline, and ``eval`` holds every behaviour that needs no real understanding (docs/testing.md).
"""

from __future__ import annotations

import re
import sys
import threading
import time

from tests.fakes.openai_server import FakeOpenAI, Reply, call, say
from tests.fakes.telegram_server import FakeTelegram
from tests.fakes.webhook_server import FakeWebhook

EMAIL = re.compile(r"[\w.+-]+@[\w-]+\.[\w.]+")
CITY = re.compile(r"\bcity\s+([A-Z][\w-]+)")
MODEL = "fake-model"


def answer(body: dict) -> Reply:
    """The model's part: a tool for an email or a question it is the first call for, else words."""
    messages = body.get("messages", [])
    if messages and messages[-1].get("role") == "tool":
        return say("Thank you! I've passed that on, and you'll hear back soon.")
    text = str(messages[-1].get("content", "")) if messages else ""
    offered = {tool["function"]["name"] for tool in body.get("tools") or []}
    if "note_city" in offered and (city := CITY.search(text)):  # doctor's tool-calling probe
        return call(("note_city", {"city": city.group(1)}))
    if "@" in text and not EMAIL.search(text):
        return say("That email address doesn't look complete: could you check it and send it again?")
    if (email := EMAIL.search(text)) and body.get("tool_choice") != "none":
        return call(("gather_user_details", {"email": email.group(0), "notes": text[:200]}))
    if text.strip().endswith("?") and body.get("tool_choice") != "none":
        return call(("inform_unknown", {"question": text[:300]}))
    return say("Hello! I'm the fake model standing in for a real one. Ask me anything, or leave your email.")


def show_deliveries(telegram: FakeTelegram, webhook: FakeWebhook) -> None:
    shown = posted = 0
    while True:
        for delivered in telegram.delivered[shown:]:
            print(f"\n[bot → you, message {delivered.message_id}]\n{delivered.text}\n", flush=True)
        for received in webhook.received[posted:]:
            print(f"\n[alert channel → you]\n{received.title}\n{received.text}\n", flush=True)
        shown, posted = len(telegram.delivered), len(webhook.received)
        time.sleep(0.2)


def main() -> None:
    model, telegram, webhook = FakeOpenAI(), FakeTelegram(), FakeWebhook()
    model.default, model.models = answer, [MODEL]
    print(f"OPENAI_BASE_URL={model.base_url}")
    print(f"OPENAI_MODEL={MODEL}")
    print("OPENAI_API_KEY=sk-fake-key-for-local-tries")
    print(f"TELEGRAM_API_BASE={telegram.base}")
    print(f"TELEGRAM_BOT_TOKEN={telegram.token}")
    print(f"TELEGRAM_CHAT_ID={telegram.chat_id}")
    print(f"ALERT_URLS=json://{webhook.url.split('//', 1)[1]}/alerts")
    print(
        "# Put these lines in the environment of `python app.py`; type here what you would send your bot.", flush=True
    )
    threading.Thread(target=show_deliveries, args=(telegram, webhook), daemon=True).start()
    try:
        for line in sys.stdin:
            line = line.strip()
            if line.startswith(">") and " " in line:
                target, text = line[1:].split(" ", 1)
                telegram.push(text, reply_to=int(target) if target.isdigit() else None)
            elif line:
                telegram.push(line)
    except KeyboardInterrupt:
        pass
    finally:
        model.close()
        telegram.close()
        webhook.close()


if __name__ == "__main__":
    main()
