"""The house's structure, measured: layers without circles or upward imports, small classes and
functions, SQL only in the storage package, the time read only through the one clock, and each owner
command and visitor-facing sentence once."""

from __future__ import annotations

import ast
import re
from collections import defaultdict
from pathlib import Path

import pytest

from tests.fixtures.environment import ROOT
from tests.fixtures.ordering import LONGEST_FIRST

# Lowest first: a module may import from its own layer and those below, never from one above.
LAYERS = [
    ["replica.settings", "replica.logs", "replica.wording", "replica.runtime", "replica.text", "replica.languages"],
    ["replica.storage", "replica.telegram"],
    ["replica.alerts", "replica.knowledge", "replica.stats"],
    ["replica.inbox", "replica.tools", "replica.contacts"],
    ["replica.chat"],
    ["replica.owner_bot"],
    ["replica.web", "replica.cli.doctor", "replica.cli.export", "replica.cli.telegram_setup"],
    ["replica.wiring"],
    ["replica.cli.main", "replica.cli.evaluate"],
    ["app"],
]
SQL = re.compile(
    r"\b(SELECT\s.+\sFROM|INSERT INTO|UPDATE\s+\w+\s+SET|DELETE FROM|(CREATE|ALTER|DROP) (TABLE|INDEX)|PRAGMA\s+\w+"
    r"|REVOKE\s|GRANT\s|VACUUM\b)",
    re.S,
)
# Databases in states the app never makes (an older schema with its rows, a full disk) are made by
# replica.storage.provisioning, so no test but this one holds SQL.
TEST_SQL = {"test_structure.py"}


def modules() -> dict[str, Path]:
    found = {"app": ROOT / "app.py"}
    for path in (ROOT / "replica").rglob("*.py"):
        name = ".".join(path.relative_to(ROOT).with_suffix("").parts)
        found[name.removesuffix(".__init__")] = path
    return found


def imports(path: Path) -> set[str]:
    """Every replica module ``path`` imports, at the top or inside a function."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
    return {name for name in names if name.startswith("replica") or name == "app"}


def layer_of(module: str) -> int:
    for index, layer in enumerate(LAYERS):
        if any(module == prefix or module.startswith(prefix + ".") for prefix in layer):
            return index
    raise AssertionError(f"{module} is in no layer: add it to LAYERS")


def test_every_module_has_a_layer_and_imports_only_its_own_or_lower_ones():
    known = modules()
    upward = []
    for name, path in known.items():
        if name == "replica":
            continue
        for imported in imports(path) & set(known):
            if imported != "replica" and layer_of(imported) > layer_of(name):
                upward.append(f"{name} -> {imported}")
    assert upward == []


def test_no_import_circle():
    known = modules()
    graph = defaultdict(set)
    for name, path in known.items():
        graph[name] = {m for m in imports(path) & set(known) if m != name and m != "replica"}
    state: dict[str, int] = {}

    def visit(node: str, trail: list[str]) -> None:
        state[node] = 1
        for nxt in graph[node]:
            if state.get(nxt) == 1:
                raise AssertionError("import circle: " + " -> ".join(trail + [node, nxt]))
            if nxt not in state:
                visit(nxt, trail + [node])
        state[node] = 2

    for name in graph:
        if name not in state:
            visit(name, [])


def package_of(module: str) -> str:
    """The package a module belongs to: ``replica.chat`` for ``replica.chat.reply_check.claims``, the module
    itself for one flat in ``replica/``."""
    return ".".join(module.split(".")[:2])


def test_no_package_reaches_into_one_that_reaches_back():
    """No arrow runs back up between packages either: the packages' imports have no circle (alerts drew
    stats' picture while stats took alerts' text clipper; the clippers now live in replica/text.py)."""
    known = modules()
    graph = defaultdict(set)
    for name, path in known.items():
        graph[package_of(name)] |= {package_of(m) for m in imports(path) & set(known) if m != "replica"}
    circles = [f"{a} <-> {b}" for a in graph for b in graph[a] if a < b and a in graph.get(b, set()) and a != b]
    assert circles == []


def test_at_most_six_modules_stand_flat_in_replica():
    """A newcomer finds a change's place by the folders: what stands flat in replica/ is what every layer
    reads (settings, words, text, logs, languages) and the wiring."""
    flat = sorted(p.name for p in (ROOT / "replica").glob("*.py") if p.name != "__init__.py")
    assert len(flat) <= 6, flat


def lines(node: ast.AST) -> int:
    return getattr(node, "end_lineno", 0) - getattr(node, "lineno", 0) + 1


def test_no_class_over_200_lines_and_no_function_over_80():
    """Field declarations count too: the settings are grouped so that no group passes 200 lines."""
    long = []
    for path in [ROOT / "app.py", *(ROOT / "replica").rglob("*.py"), *(ROOT / "bench").rglob("*.py")]:
        for node in ast.walk(ast.parse(path.read_text())):
            size = lines(node)
            if isinstance(node, ast.ClassDef) and size > 200 or isinstance(node, ast.FunctionDef) and size > 80:
                long.append(f"{path.relative_to(ROOT)}: {node.name} ({size} lines)")
    assert long == []


def string_literals(path: Path) -> list[str]:
    return [
        n.value
        for n in ast.walk(ast.parse(path.read_text()))
        if isinstance(n, ast.Constant) and isinstance(n.value, str)
    ]


def test_every_sql_statement_is_in_the_storage_package():
    outside = [
        f"{path.relative_to(ROOT)}: {text[:60]!r}"
        for path in [ROOT / "app.py", *(ROOT / "replica").rglob("*.py"), *(ROOT / "bench").rglob("*.py")]
        if "storage" not in path.relative_to(ROOT).parts
        for text in string_literals(path)
        if SQL.search(text)
    ]
    in_tests = [
        f"{path.name}: {text[:60]!r}"
        for path in (ROOT / "tests").rglob("*.py")
        if path.name not in TEST_SQL
        for text in string_literals(path)
        if SQL.search(text)
    ]
    assert outside == [] and in_tests == []


def test_each_visitor_facing_sentence_is_written_once():
    from replica import wording

    sentences = {name: value for name, value in vars(wording).items() if name.isupper() and isinstance(value, str)}
    elsewhere = []
    for path in (ROOT / "replica").rglob("*.py"):
        if path.name == "wording.py":
            continue
        literals = " ".join(string_literals(path))
        for name, sentence in sentences.items():
            head = sentence.split("{")[0][:40]
            if len(head) >= 15 and head in literals:
                elsewhere.append(f"{name} in {path.relative_to(ROOT)}")
    assert elsewhere == []


def test_each_owner_command_is_defined_once_and_everything_is_made_from_the_table():
    from replica.owner_bot.commands import COMMANDS, help_text, menu
    from replica.owner_bot.dispatcher import Dispatcher

    names = [command.name for command in COMMANDS]
    assert len(names) == len(set(names))
    assert [name for name, _ in menu()] == names
    assert all(command.usage in help_text() for command in COMMANDS)
    handled = {command.name for command in COMMANDS if command.run}
    assert handled | {"help"} == set(names)  # every command is bound to its handler where it is declared
    with pytest.raises(ValueError, match="commands without a handler: leads"):  # refused at start, not at use
        Dispatcher(None, {name: str for name in handled if name != "leads"}, None, None, None)
    documented = set(re.findall(r"^\| `/(\w+)", (ROOT / "docs" / "inbox.md").read_text(), flags=re.M))
    assert documented == set(names), "docs/inbox.md's command table and COMMANDS differ"


def test_no_two_modules_or_classes_share_a_name_across_packages():
    """One meaning per name: a module is not named as another package's module, nor as a package, and no
    two classes of the house share a name."""
    modules = [p for p in (ROOT / "replica").rglob("*.py") if p.name != "__init__.py"]
    packages = {p.parent.name for p in (ROOT / "replica").rglob("__init__.py")}
    names = defaultdict(list)
    for path in modules:
        names[path.stem].append(str(path.relative_to(ROOT)))
    shared = {name: paths for name, paths in names.items() if len(paths) > 1 or name in packages}
    classes = defaultdict(list)
    for path in (ROOT / "replica").rglob("*.py"):
        for node in ast.parse(path.read_text()).body:
            if isinstance(node, ast.ClassDef):
                classes[node.name].append(str(path.relative_to(ROOT)))
    assert shared == {} and {name: paths for name, paths in classes.items() if len(paths) > 1} == {}


def gradio_uses(tree: ast.Module) -> list[str]:
    """What a module does with Gradio beyond its public API: private names, subclasses, monkeypatches,
    imports of its inner modules. Gradio is taken whole, as ``import gradio as gr``."""
    problems = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "gradio":
            problems.append(f"line {node.lineno}: from {node.module} import … (take gradio whole)")
        if isinstance(node, ast.Import):
            problems += [f"line {node.lineno}: import {a.name}" for a in node.names if a.name.startswith("gradio.")]
        if isinstance(node, ast.ClassDef):
            bases = [ast.unparse(base) for base in node.bases]
            problems += [
                f"line {node.lineno}: class {node.name}({b})" for b in bases if b.startswith(("gr.", "gradio."))
            ]
        if isinstance(node, ast.Attribute):
            private = node.attr.startswith("_") and not node.attr.startswith("__")
            own = isinstance(node.value, ast.Name) and node.value.id in ("self", "cls")
            if private and not own:
                problems.append(f"line {node.lineno}: {ast.unparse(node)}")
        targets = node.targets if isinstance(node, ast.Assign) else [getattr(node, "target", None)]
        for target in targets:
            if isinstance(target, ast.Attribute) and not (
                isinstance(target.value, ast.Name) and target.value.id == "self"
            ):
                if not target.attr.startswith("__"):  # a function's own __name__ and __doc__
                    problems.append(f"line {node.lineno}: {ast.unparse(target)} = … (another object's attribute set)")
        if isinstance(node, ast.Call) and ast.unparse(node.func) == "setattr":
            problems.append(f"line {node.lineno}: setattr(…)")
    return problems


def test_the_app_uses_only_gradios_public_api():
    users = {
        name: path
        for name, path in modules().items()
        if re.search(r"^\s*import gradio\b|^\s*from gradio\b", path.read_text(encoding="utf-8"), re.M)
    }
    assert {"replica.web.page", "replica.web.mcp", "replica.web.zerogpu"} <= set(users)
    found = {name: gradio_uses(ast.parse(path.read_text(encoding="utf-8"))) for name, path in users.items()}
    assert {name: problems for name, problems in found.items() if problems} == {}


def test_the_gradio_check_finds_each_way_past_the_public_api():
    source = """
from gradio import component_meta
import gradio.blocks
class Chat(gr.ChatInterface):
    def _setup_events(self):
        self.fake_api_btn.click(self._reply)
component_meta.create_or_modify_pyi = None
demo.mcp_server_obj.tool_to_endpoint = {}
chat._setup_stop_events([])
setattr(gr, "x", 1)
"""
    problems = gradio_uses(ast.parse(source))
    assert len(problems) == 7, problems
    assert gradio_uses(ast.parse("import gradio as gr\nask.__name__ = 'ask'\nself._key = 1\n")) == []


# What reads the time: only replica/runtime/clock.py may (a part takes a Clock and reads clock.time(),
# clock.monotonic(), clock.utc_today() or clock.utc_now()). A CPU measure (time.thread_time,
# time.process_time) reads no clock, nor does time.sleep.
CLOCK_MODULE = ROOT / "replica" / "runtime" / "clock.py"
CLOCK_READS = {
    "time": {"time", "time_ns", "monotonic", "monotonic_ns", "perf_counter", "perf_counter_ns"},
    "date": {"today"},
    "datetime": {"now", "utcnow", "today"},
}


def clock_reads(tree: ast.Module) -> list[str]:
    """Each place a module reads the time itself instead of through a Clock: ``time.time()``,
    ``time.monotonic`` handed on as a function, ``datetime.now(…)``, ``date.today()``,
    ``datetime.datetime.now()``, ``from time import monotonic``."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr in CLOCK_READS.get(ast.unparse(node.value).split(".")[-1], ()):
            found.append(f"line {node.lineno}: {ast.unparse(node)}")
        if isinstance(node, ast.ImportFrom) and node.module in CLOCK_READS:
            reads = [a.name for a in node.names if a.name in CLOCK_READS[node.module]]
            found += [f"line {node.lineno}: from {node.module} import {name}" for name in reads]
    return found


def test_the_time_is_read_only_through_the_clock():
    """One clock type: no part of the app reads the time but through a ``Clock``
    (``replica/runtime/clock.py``), so a test hands every part the one clock it moves."""
    found = {
        str(path.relative_to(ROOT)): clock_reads(ast.parse(path.read_text(encoding="utf-8")))
        for path in (ROOT / "replica").rglob("*.py")
        if path != CLOCK_MODULE
    }
    assert {name: reads for name, reads in found.items() if reads} == {}
    assert len(clock_reads(ast.parse(CLOCK_MODULE.read_text(encoding="utf-8")))) == 2  # the clock's own


def test_the_clock_check_finds_each_way_of_reading_the_time():
    source = """
import datetime as dt
from time import monotonic
started = time.monotonic()
stamp = time.time()
Deadline(30, time.monotonic)
today = date.today()
now = datetime.now(timezone.utc)
later = dt.datetime.utcnow()
"""
    found = clock_reads(ast.parse(source))
    assert len(found) == 7, found
    calm = "time.sleep(1)\nused = time.thread_time()\nat = clock.time()\nday = clock.utc_today()\n"
    assert clock_reads(ast.parse(calm + "d = date(2026, 1, 1)\n")) == []


def test_the_tests_mirror_the_packages():
    """Each folder of tests is named after the package it tests (beside the fixtures and the fakes), and
    the fixtures are in modules of their own: ``tests/conftest.py`` only registers them."""
    packages = {path.name for path in (ROOT / "replica").iterdir() if (path / "__init__.py").exists()}
    folders = {path.name for path in (ROOT / "tests").iterdir() if (path / "__init__.py").exists()}
    assert folders - {"fixtures", "fakes"} <= packages, folders - packages
    conftest = ast.parse((ROOT / "tests" / "conftest.py").read_text())
    assert not [node for node in conftest.body if isinstance(node, (ast.FunctionDef, ast.ClassDef))]


def test_the_files_handed_out_first_exist():
    """A renamed long file would quietly lose its head start (and the run its balance)."""
    assert [path for path in LONGEST_FIRST if not (ROOT / path).is_file()] == []


def test_alert_kinds_and_message_roles_are_enums_not_strings():
    """An alert's kind and a message's role are :class:`AlertKind` and :class:`Role` members: no module,
    and no test, names one by its text (``kind="lead"``, ``alert.kind == "question"``, ``Alert("digest", …)``)."""
    from replica.storage.records import AlertKind, Role

    texts = {member.value for member in (*AlertKind, *Role)}
    found = []
    tests = {f"tests/{p.relative_to(ROOT / 'tests').as_posix()}": p for p in (ROOT / "tests").rglob("*.py")}
    for name, path in {**modules(), **tests}.items():
        if name == "replica.storage.records":
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            literal = lambda n: isinstance(n, ast.Constant) and n.value in texts  # noqa: E731
            if isinstance(node, ast.keyword) and node.arg in ("kind", "role") and literal(node.value):
                found.append(f"{name}: {node.arg}={node.value.value!r}")
            if (
                isinstance(node, ast.Compare)
                and isinstance(node.left, ast.Attribute)
                and node.left.attr in ("kind", "role")
            ):
                found += [
                    f"{name}: .{node.left.attr} compared with {c.value!r}" for c in node.comparators if literal(c)
                ]
            if isinstance(node, ast.Call) and ast.unparse(node.func) == "Alert" and node.args and literal(node.args[0]):
                found.append(f"{name}: Alert({node.args[0].value!r}, …)")
    assert found == []


# Where anything may go wrong and the app must go on: a thread's loop, one request (a visitor's message,
# an owner's message, update or button, a page check, a tool call), a plugin of another project, and
# the record of last resort for a lead or question (nothing is lost, whatever the store raises).
BOUNDARIES = {
    ("replica.runtime.workers", "_run"),
    ("replica.owner_bot.housekeeping", "step"),
    ("replica.owner_bot.polling", "step"),
    ("replica.owner_bot.dispatcher", "handle"),
    ("replica.owner_bot.buttons", "press"),
    ("replica.chat.deadline", "produce"),
    ("replica.web.page", "replies"),
    ("replica.web.page", "check"),
    ("replica.chat.answer", "_with_model"),
    ("replica.chat.steps", "run"),
    ("replica.tools.registry", "run"),
    ("replica.tools.keeping", "keep"),
    ("replica.alerts.apprise_channel", "send_text"),
    ("replica.alerts.pictures", "drawn_for"),  # a drawing bug must not hold a digest back
    ("replica.contacts.mail", "send"),
    ("replica.web.refusals", "__call__"),
}


def own_handlers(function: ast.AST) -> list[ast.ExceptHandler]:
    """The except clauses of ``function`` itself, not of the functions defined inside it."""
    found, todo = [], list(ast.iter_child_nodes(function))
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            continue
        if isinstance(node, ast.ExceptHandler):
            found.append(node)
        todo.extend(ast.iter_child_nodes(node))
    return found


def test_anything_is_caught_only_at_boundaries_and_each_catch_keeps_its_cause():
    """``except Exception`` only where a thread, a request, a plugin or the record of last resort ends; each
    such handler logs the traceback or hands the error on (its name is used). A handler that undoes and
    raises again is no catch. Elsewhere the errors caught are named (a failing database: ``storage_errors()``)."""
    found, mute = set(), []
    for name, path in modules().items():
        for function in ast.walk(ast.parse(path.read_text())):
            if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            for node in own_handlers(function):
                caught = ast.unparse(node.type) if node.type else "BaseException"
                if caught not in ("Exception", "BaseException") or isinstance(node.body[-1], ast.Raise):
                    continue
                found.add((name, function.name))
                body = ast.unparse(ast.Module(node.body, []))
                if "log.exception" not in body and not (node.name and re.search(rf"\b{node.name}\b", body)):
                    mute.append(f"{name}.{function.name}")
    assert found == BOUNDARIES and mute == []


def test_every_status_the_sql_writes_or_reads_is_a_member_of_its_enum():
    """Statuses are enums at the storage's interface (``LeadStatus``, ``QuestionStatus``, ``AnswerStatus``,
    ``DeliveryStatus``, ``AlertStatus``, ``CodeStatus``, ``MailStatus``); the storage's SQL names them as
    text, and only as their members."""
    from replica.storage import records
    from replica.storage.deliveries import ALERT_STATUS

    enums = [records.LeadStatus, records.QuestionStatus, records.AnswerStatus, records.DeliveryStatus]
    enums += [records.CodeStatus, records.MailStatus]
    members = {member.value for enum in enums for member in enum}
    named = set()
    for path in (ROOT / "replica" / "storage").glob("*.py"):
        for text in string_literals(path):
            named |= set(re.findall(r"status\s*!?=\s*'([a-z_]+)'|status TEXT NOT NULL DEFAULT '([a-z_]+)'", text))
    named = {value for pair in named for value in pair if value}
    assert named and named <= members, named - members
    held = {records.AlertStatus.HELD.value}  # a lead's own, in replica/storage/leads.py
    assert set(re.findall(r"(?:THEN|ELSE) '([a-z]+)'", ALERT_STATUS)) | held == {s.value for s in records.AlertStatus}


def test_everything_the_app_sends_on_its_own_time_is_on_the_one_send_queue():
    """Alerts' deliveries and visitors' mails are rows of one queue (``replica/storage/send_queue.py``): only
    it leases, marks sent, reschedules and gives up; the others read their rows."""
    from replica.storage.answer_mails import AnswerMails
    from replica.storage.code_mails import Codes
    from replica.storage.deliveries import Deliveries
    from replica.storage.send_queue import SendQueue

    assert all(issubclass(queue, SendQueue) for queue in (Deliveries, Codes, AnswerMails))
    writes = re.compile(r"SET .*(lease_until = \?|attempts = attempts \+ 1)", re.S)
    elsewhere = [
        path.name
        for path in (ROOT / "replica").rglob("*.py")
        if path.name != "send_queue.py"
        for text in string_literals(path)
        if writes.search(text)
    ]
    assert elsewhere == []


def test_the_storage_hands_back_typed_rows():
    """No public method of a repository returns a raw database row (``Row``) or an untyped ``dict``: the
    rows are the dataclasses of ``replica/storage/rows.py`` (the database layer itself excepted)."""
    untyped = []
    for path in (ROOT / "replica" / "storage").glob("*.py"):
        if path.name == "database.py":
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.FunctionDef) and not node.name.startswith("_") and node.returns is not None:
                returns = ast.unparse(node.returns)
                if re.search(r"\bRow\b|\bMapping\b", returns) or re.fullmatch(r"(list\[)?dict\]?", returns):
                    untyped.append(f"{path.name}: {node.name} -> {returns}")
    assert untyped == []
