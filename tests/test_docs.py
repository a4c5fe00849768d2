"""The README is short and the docs hold together: every relative link resolves, to a file and, where
it names one, to a heading of it; and the fakes run standalone, as the testing page shows."""

from __future__ import annotations

import re
import subprocess
import sys

import requests

from tests.conftest import ROOT, bare_env

LINK = re.compile(r"\[[^\]]+\]\(([^)\s]+)\)")


def slug(heading: str) -> str:
    """A heading's anchor, as GitHub and Hugging Face make it."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def test_the_readme_is_short_and_every_relative_link_in_it_and_the_docs_resolves():
    assert len((ROOT / "README.md").read_text().encode()) <= 15_000
    pages = [ROOT / "README.md", *(ROOT / "docs").glob("*.md")]
    broken = []
    for page in pages:
        for target in LINK.findall(page.read_text()):
            if re.match(r"^[a-z]+:", target):
                continue  # https:, mailto: …
            path, _, anchor = target.partition("#")
            linked = (page.parent / path).resolve() if path else page
            if not linked.exists():
                broken.append(f"{page.name}: {target}")
            elif anchor and linked.suffix == ".md":
                headings = {slug(h) for h in re.findall(r"^#+ (.+)$", linked.read_text(), flags=re.M)}
                if anchor not in headings:
                    broken.append(f"{page.name}: {target} (no such heading)")
    assert broken == []
    linked_from_readme = {m.split("#")[0] for m in LINK.findall((ROOT / "README.md").read_text())}
    assert {f"docs/{p.name}" for p in (ROOT / "docs").glob("*.md")} <= linked_from_readme  # every page listed


def test_the_fakes_run_standalone_and_print_the_environment_to_use():
    process = subprocess.Popen(
        [sys.executable, "-m", "tests.fakes"],
        cwd=ROOT,
        env=bare_env(),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        lines = dict(process.stdout.readline().strip().split("=", 1) for _ in range(6))
        me = requests.post(f"{lines['TELEGRAM_API_BASE']}/bot{lines['TELEGRAM_BOT_TOKEN']}/getMe", timeout=5).json()
        models = requests.get(f"{lines['OPENAI_BASE_URL']}/models", timeout=5).json()
        assert me["ok"] and lines["TELEGRAM_CHAT_ID"] == "4242" and models["data"]
        channel = lines["ALERT_URLS"].replace("json://", "http://", 1)
        assert requests.post(channel, json={"title": "t", "message": "m"}, timeout=5).json()["ok"]
    finally:
        process.terminate()
        process.wait(timeout=10)
