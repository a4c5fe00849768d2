"""A fork adds a tool without editing ``replica/``: by ``EXTRA_TOOLS`` or a ``replica.tools`` entry point.

The tool is the calendar example of docs/architecture.md, taken from the page itself, so the page's
example is the one that runs; its ``reserve`` (the owner's calendar) writes a file instead.
"""

from __future__ import annotations

import re
import uuid
from pathlib import Path

import pytest

from replica.settings import ConfigError, load_settings
from replica.tools import Failure, ToolContext, default_registry
from tests.fakes.openai_server import call, say
from tests.fixtures.clients import app_client
from tests.fixtures.environment import ROOT
from tests.fixtures.processes import run_app, served_app

BUILT_IN = ["gather_user_details", "inform_unknown"]


def docs_example() -> str:
    """The calendar tool, as docs/architecture.md's "Adding a tool" writes it."""
    section = (ROOT / "docs" / "architecture.md").read_text().split("## Adding a tool\n", 1)[1].split("\n## ", 1)[0]
    return re.search(r"```python\n(.*?)```", section, re.S).group(1)


def write_fork_module(folder: Path, name: str = "") -> str:
    """The docs' example as module ``name`` (a new name by default: each test imports its own) in
    ``folder``, its calendar a file ``bookings.txt`` there; returns the module's name."""
    name = name or f"fork_tools_{uuid.uuid4().hex[:8]}"
    calendar = f"""

def reserve(start, minutes, note):  # the owner's calendar, for the test: a file
    with open({str(folder / "bookings.txt")!r}, "a") as bookings:
        bookings.write(f"{{start:%Y-%m-%d %H:%M}} {{minutes}} {{note}}\\n")
"""
    (folder / f"{name}.py").write_text(docs_example() + calendar)
    return name


def write_entry_point(folder: Path, package: str, entry: str) -> None:
    """An installed package's record, as pip writes it, declaring ``entry`` in the ``replica.tools`` group."""
    record = folder / f"{package}-1.0.dist-info"
    record.mkdir()
    (record / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {package}\nVersion: 1.0\n")
    (record / "entry_points.txt").write_text(f"[replica.tools]\n{entry}\n")


@pytest.fixture
def context(store, notifier):
    return ToolContext(session_id="s-1", store=store, notifier=notifier, conversation=7)


def test_a_tool_named_in_extra_tools_is_offered_after_the_built_in_ones_and_runs(tmp_path, monkeypatch, context):
    monkeypatch.syspath_prepend(str(tmp_path))
    module = write_fork_module(tmp_path)
    settings = load_settings({"EXTRA_TOOLS": f"{module}:book_a_call"}, dotenv_path=None)
    registry = default_registry(settings.reply.extra_tools)
    assert registry.names == [*BUILT_IN, "book_a_call"]
    [schema] = [s["function"] for s in registry.schemas() if s["function"]["name"] == "book_a_call"]
    assert schema["description"].startswith("Book a 30-minute call with the owner")
    assert schema["parameters"]["required"] == ["day", "time"]
    booked = registry.run("book_a_call", '{"day": "2030-01-07", "time": "10:00"}', context)
    assert (booked.text, booked.failure) == ("ok", None)
    assert booked.fact == "a call with the owner was booked for Monday 07 January 2030 at 10:00"
    assert (tmp_path / "bookings.txt").read_text() == (
        "2030-01-07 10:00 30 Booked through the replica (conversation 7)\n"
    )
    sunday = registry.run("book_a_call", '{"day": "2030-01-06", "time": "10:00"}', context)
    assert sunday.failure is Failure.REFUSED
    assert sunday.text == "Error: the owner takes calls on weekdays from 09:00 to 17:00: offer the visitor a time then."


def test_a_tool_declared_by_an_installed_packages_entry_point_is_offered(tmp_path, monkeypatch, caplog):
    module = write_fork_module(tmp_path)
    write_entry_point(tmp_path, "fork_calendar", f"book_a_call = {module}:book_a_call")
    monkeypatch.syspath_prepend(str(tmp_path))
    caplog.set_level("INFO", logger="replica.tools.extra")
    assert default_registry().names == [*BUILT_IN, "book_a_call"]
    assert "book_a_call (the replica.tools entry point 'book_a_call' of fork_calendar)" in caplog.text
    # The same function named in EXTRA_TOOLS too is offered once.
    assert default_registry((f"{module}:book_a_call",)).names == [*BUILT_IN, "book_a_call"]


@pytest.mark.parametrize(
    "value, said",
    [
        (
            "book_a_call",
            "EXTRA_TOOLS takes package.module:function names separated by commas; 'book_a_call' is not one",
        ),
        ("no_such_module:book_a_call", "EXTRA_TOOLS: 'no_such_module:book_a_call' cannot be imported (No module named"),
        ("json:no_such_function", "EXTRA_TOOLS: 'json:no_such_function' cannot be imported (module 'json' has no"),
        ("json:decoder", "EXTRA_TOOLS: 'json:decoder' is not a function; it takes package.module:function names"),
    ],
)
def test_a_bad_extra_tools_value_stops_the_start_in_one_line_naming_the_variable(value, said):
    result = run_app(EXTRA_TOOLS=value)
    assert result.returncode == 2 and result.stderr.startswith(f"Configuration error: {said}")
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr


def test_a_function_that_is_not_a_tool_or_takes_a_tools_name_is_refused_in_one_line(tmp_path, monkeypatch):
    monkeypatch.syspath_prepend(str(tmp_path))
    module = f"fork_tools_{uuid.uuid4().hex[:8]}"
    (tmp_path / f"{module}.py").write_text(
        "from replica.tools import ToolContext, ToolResult\n\n\n"
        "def inform_unknown(context: ToolContext, question: str) -> ToolResult:\n"
        '    """Ask the owner, our way.\n\n    Args:\n        question: The question.\n    """\n'
        '    return ToolResult("ok")\n\n\n'
        "def undescribed(context, day):\n"
        '    return ToolResult("ok")\n'
    )
    with pytest.raises(ConfigError) as clash:
        default_registry((f"{module}:inform_unknown",))
    assert str(clash.value) == (
        f"EXTRA_TOOLS's {module}:inform_unknown is named 'inform_unknown', as a built-in tool is: "
        "tool names must differ, rename the function"
    )
    with pytest.raises(ConfigError) as not_a_tool:
        default_registry((f"{module}:undescribed",))
    assert str(not_a_tool.value).startswith(f"EXTRA_TOOLS's {module}:undescribed is not a tool: invalid tool")
    assert "argument 'day' has no type" in str(not_a_tool.value) and "\n" not in str(not_a_tool.value)
    started = run_app(EXTRA_TOOLS=f"{module}:inform_unknown", DATA_DIR=str(tmp_path / "data"))
    assert started.returncode == 2 and started.stderr.splitlines()[-1] == f"Configuration error: {clash.value}"
    assert "Traceback" not in started.stderr and "left out" not in started.stderr


def test_python_app_py_offers_the_model_a_tool_of_the_forks_own_and_runs_its_call(tmp_path, fake_openai):
    """As a fork on Spaces does it: my_tools.py beside the app (here: on PYTHONPATH) and EXTRA_TOOLS."""
    write_fork_module(tmp_path, "my_tools")
    fake_openai.script(
        call(("book_a_call", {"day": "2030-01-07", "time": "10:00"})), say("Your call is booked, see you then.")
    )
    env = {
        "OPENAI_API_KEY": "sk-test",
        "OPENAI_BASE_URL": fake_openai.base_url,
        "EXTRA_TOOLS": "my_tools:book_a_call",
        "PYTHONPATH": str(tmp_path),
    }
    with served_app(tmp_path / "app.log", **env) as (url, _):
        answer = app_client(url).predict("Could we talk on Monday 7 January 2030 at 10:00?", api_name="/chat")
    assert answer == "Your call is booked, see you then."
    offered = [tool["function"]["name"] for tool in fake_openai.requests[0]["tools"]]
    assert offered == [*BUILT_IN, "book_a_call"]
    [result] = [m for m in fake_openai.requests[1]["messages"] if m["role"] == "tool"]
    assert result["content"] == "ok"
    assert (tmp_path / "bookings.txt").read_text().startswith("2030-01-07 10:00 30 Booked through the replica")
    log = (tmp_path / "app.log").read_text()
    assert "Tools beside the built-in ones: book_a_call (EXTRA_TOOLS's my_tools:book_a_call)" in log
