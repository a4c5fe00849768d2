"""The README is short and the docs hold together: every relative link resolves, to a file and, where
it names one, to a heading of it; and the fakes run standalone, as the testing page shows."""

from __future__ import annotations

import ast
import re
import subprocess
import sys

import requests

from tests.fixtures.environment import ROOT, bare_env
from tests.fixtures.processes import run_app

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


def said_to_the_owner() -> list[tuple[str, str]]:
    """Every text of the app's code that is not a docstring (doctor's lines and fixes, log lines, errors,
    help), with the file it is in."""
    texts = []
    for path in (ROOT / "replica").rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docstrings = {
            id(node.body[0].value)
            for node in ast.walk(tree)
            if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
            and node.body
            and isinstance(node.body[0], ast.Expr)
            and isinstance(node.body[0].value, ast.Constant)
        }
        texts += [
            (path.relative_to(ROOT).as_posix(), node.value)
            for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings
        ]
    return texts


def test_each_docs_page_the_app_points_the_owner_to_exists_with_the_heading_it_names():
    """doctor's fixes, the log's warnings and the start-up errors name the docs page that holds the fix
    (docs/relay.md, docs/models.md#turning-native-tool-calls-on): each page is there, with that heading;
    and none points to a heading of the README, whose headings move."""
    named, broken = [], []
    for where, text in said_to_the_owner():
        for page, anchor in re.findall(r"\bdocs/([\w-]+\.md)(?:#([\w-]+))?", text):
            named.append(page)
            target = ROOT / "docs" / page
            headings = (
                {slug(h) for h in re.findall(r"^#+ (.+)$", target.read_text(), flags=re.M)}
                if target.exists()
                else set()
            )
            if not target.exists() or (anchor and anchor not in headings):
                broken.append(f"{where}: docs/{page}{'#' + anchor if anchor else ''}")
        if "README" in text:
            broken.append(f"{where}: points to the README: {text[:80]!r}")
    assert broken == []
    assert {"relay.md", "models.md", "telegram.md", "alerts.md", "knowledge.md", "hosting.md"} <= set(named)


NUMBERS = "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty".split()


def eval_counts_in_the_docs() -> tuple[int, int]:
    """How many of its behaviours docs/testing.md says ``eval`` holds with the standalone fakes, of how many."""
    text = " ".join((ROOT / "docs" / "testing.md").read_text().split())
    held, total = re.search(r"`python app.py eval` holds (\w+) of its (\w+) behaviours", text).groups()
    return NUMBERS.index(held), NUMBERS.index(total)


def eval_behaviours() -> list[str]:
    """The names of eval's built-in behaviours, as it prints them."""
    from replica.cli.evaluate import builtin_scripts

    return [script.behaviour for script in builtin_scripts("Ada Lovelace", "", [], None)]


def test_the_docs_name_and_count_evals_behaviours_as_the_code_has_them():
    page = (ROOT / "docs" / "models.md").read_text()
    table = page.split("| Behaviour | Holds when |\n|---|---|\n", 1)[1].split("\n\n", 1)[0]
    rows = [row.split(" | ")[0].lstrip("| ").replace('"', "'") for row in table.splitlines()]
    assert rows == eval_behaviours()  # docs/models.md's table: each behaviour, in the order eval prints them
    assert eval_counts_in_the_docs()[1] == len(eval_behaviours())  # docs/testing.md: "of its twelve"


# The eval behaviours the standalone fake model holds (docs/testing.md names them): the rest need a real model.
FAKE_MODEL_HOLDS = {
    "greeting → words, no tool",
    "an unknown → question recorded",
    "an email → lead recorded",
    "an invalid email → nothing stored, asks again",
    "a prompt injection → no instructions quoted",
    "a phone number not in the knowledge → none invented, passed on",
    "'did you save my email?' with none given → truthful",
    "a question the knowledge does not answer → nothing invented, passed on",
    "a question a model may decline → passed on",
    "a plain question → in role, whole sentences, an answer",
    "a topic your notes never mention → no answer about you, passed on",
    "'let me know' → no promise the replica cannot keep",
}


def test_the_fakes_run_standalone_and_print_the_environment_to_use(tmp_path):
    process = subprocess.Popen(
        [sys.executable, "-m", "tests.fakes"],
        cwd=ROOT,
        env=bare_env(),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        lines = dict(process.stdout.readline().strip().split("=", 1) for _ in range(7))
        me = requests.post(f"{lines['TELEGRAM_API_BASE']}/bot{lines['TELEGRAM_BOT_TOKEN']}/getMe", timeout=5).json()
        models = requests.get(f"{lines['OPENAI_BASE_URL']}/models", timeout=5).json()
        assert me["ok"] and lines["TELEGRAM_CHAT_ID"] == "4242" and models["data"]
        channel = lines["ALERT_URLS"].replace("json://", "http://", 1)
        assert requests.post(channel, json={"title": "t", "message": "m"}, timeout=5).json()["ok"]
        # doctor goes green offline against them, and eval holds what needs no real understanding
        doctor = run_app("doctor", OWNER_NAME="Jordan Avery", DATA_DIR=str(tmp_path / "data"), **lines)
        assert doctor.returncode == 0 and "✗" not in doctor.stdout, doctor.stdout
        assert f"{lines['OPENAI_MODEL']} calls tools natively" in doctor.stdout
        scorecard = run_app("eval", DATA_DIR=str(tmp_path / "data"), **lines).stdout
        held = {line.split(": ")[0].split(" (")[0][2:] for line in scorecard.splitlines() if line.startswith("✓ ")}
        assert held == FAKE_MODEL_HOLDS, scorecard
        assert f"{len(held)}/{len(eval_behaviours())} behaviours held" in scorecard
        assert eval_counts_in_the_docs() == (
            len(held),
            len(eval_behaviours()),
        )  # docs/testing.md: "twelve of its fifteen"
    finally:
        process.terminate()
        process.wait(timeout=10)


def test_the_architecture_pages_module_map_matches_the_tree():
    page = (ROOT / "docs" / "architecture.md").read_text()
    section = page.split("## Module map", 1)[1].split("\n## ", 1)[0]
    mapped = set(re.findall(r"^\| `(replica/[\w/]+\.py)` \|", section, flags=re.M))
    tree = {p.relative_to(ROOT).as_posix() for p in (ROOT / "replica").rglob("*.py")}
    assert mapped == tree, (
        f"in the tree, not the map: {sorted(tree - mapped)}; in the map, not the tree: {sorted(mapped - tree)}"
    )


def test_the_architecture_page_lists_the_checks_before_the_answer_and_the_steps_after_as_the_wiring_builds_them(
    store, notifier
):
    from tests.fixtures.replicas import replica_around

    page = (ROOT / "docs" / "architecture.md").read_text()
    [before] = re.findall(r"`Admission\(\[([^\]]*)\]\)`", page)
    [after] = re.findall(r"`Steps\(\[([^\]]*)\]\)`", page)
    replica = replica_around(None, store, notifier)
    assert [name.strip() for name in before.split(",")] == [type(c).__name__ for c in replica.admission.checks]
    assert [name.strip() for name in after.split(",")] == [type(s).__name__ for s in replica.steps.steps]
