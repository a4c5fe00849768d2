"""The replica from any agent: one MCP tool beside the page, driven by the official ``mcp`` SDK's client
over streamable HTTP."""

from __future__ import annotations

import asyncio
import re

import httpx
import pytest

from tests.fakes.openai_server import call, say
from tests.fixtures.clients import app_client
from tests.fixtures.environment import API_KEY
from tests.fixtures.processes import served_app

mcp = pytest.importorskip("mcp", reason="the MCP tests need gradio[mcp]: pip install -r requirements.txt")

from mcp import ClientSession  # noqa: E402
from mcp.client.streamable_http import streamablehttp_client  # noqa: E402


async def mcp_session(url, steps, source: str | None = None, headers: dict | None = None):
    """Run ``steps(session)`` in an MCP session with the app, from local address ``source`` if given."""

    def client_from(headers=None, timeout=None, auth=None):
        transport = httpx.AsyncHTTPTransport(local_address=source) if source else None
        return httpx.AsyncClient(headers=headers, timeout=timeout, auth=auth, transport=transport)

    async with streamablehttp_client(url, headers=headers, httpx_client_factory=client_from) as (read, write, _):
        async with ClientSession(read, write) as session:
            await session.initialize()
            return await steps(session)


def text_of(result) -> str:
    return "".join(part.text for part in result.content if getattr(part, "text", None))


def test_one_tool_answers_from_knowledge_follows_up_and_passes_on_a_lead(
    start_app, settings, fake_openai, fake_telegram
):
    app = start_app(settings.updated(mcp_enabled=True))
    url = app.demo.local_url.rstrip("/") + "/gradio_api/mcp/"

    async def steps(session):
        tools = (await session.list_tools()).tools
        fake_openai.script(say("I led project ORBIT-417, a scheduler."))
        first = await session.call_tool("ask_ada_lovelace", {"question": "What did you work on?"})
        conversation_id = re.search(r"conversation_id: (\S+)", text_of(first)).group(1)
        fake_openai.script(
            call(("gather_user_details", {"email": "agent.user@example.org", "notes": "Wants to hire Ada"})),
            say("Thanks, Ada will write to agent.user@example.org."),
        )
        second = await session.call_tool(
            "ask_ada_lovelace",
            {"question": "My user wants to hire you: agent.user@example.org", "conversation_id": conversation_id},
        )
        hidden = await session.call_tool("chat", {"message": "hi"})
        return tools, first, second, conversation_id, hidden

    tools, first, second, conversation_id, hidden = asyncio.run(mcp_session(url, steps))
    assert hidden.isError  # the page's own endpoint is not a tool
    assert [tool.name for tool in tools] == ["ask_ada_lovelace"]  # exactly one tool, nothing else of the app
    [tool] = tools
    assert "Ada Lovelace" in tool.description and "profile" not in tool.description
    assert set(tool.inputSchema["properties"]) == {"question", "conversation_id"}
    assert tool.inputSchema.get("required") == ["question"]
    assert text_of(first).startswith("I led project ORBIT-417") and conversation_id.startswith("mcp-")
    assert "ORBIT-417" in fake_openai.requests[0]["messages"][0]["content"]  # the same knowledge as the page
    history = [(m["role"], m["content"]) for m in fake_openai.requests[1]["messages"][1:3]]
    assert history == [("user", "What did you work on?"), ("assistant", "I led project ORBIT-417, a scheduler.")]
    assert text_of(second).startswith("Thanks, Ada will write")
    [alert] = fake_telegram.wait_for(1)
    assert alert.text.startswith("New lead (via MCP) #1") and "agent.user@example.org" in alert.text


def test_no_description_names_the_owners_knowledge_files(start_app, settings, fake_openai):
    """The tool's description is read by any caller, in the tools list, the API's info and the page's
    own config: it says whom the replica speaks for, never what the owner's files are called."""
    import requests

    private = ["salary-floor-zq7731.md", "leaving-acme-quietly-zq4402.txt"]
    (settings.owner.knowledge_dir / "notes").mkdir()
    for name in private:
        (settings.owner.knowledge_dir / "notes" / name).write_text(
            "# Notes\n\nNothing for visitors.\n", encoding="utf-8"
        )
    app = start_app(settings.updated(mcp_enabled=True))
    base = app.demo.local_url.rstrip("/")

    async def steps(session):
        return (await session.list_tools()).tools

    [tool] = asyncio.run(mcp_session(base + "/gradio_api/mcp/", steps))
    shown = {
        "the MCP tools list": tool.model_dump_json(),
        "/gradio_api/info": requests.get(base + "/gradio_api/info", timeout=10).text,
        "the page": requests.get(base + "/", timeout=10).text,
        "the page's config": requests.get(base + "/config", timeout=10).text,
    }
    assert "Ada Lovelace" in shown["the MCP tools list"] and "Ada Lovelace" in shown["/gradio_api/info"]
    named = {
        where: [part for part in ("zq7731", "zq4402", "profile.md") if part in text] for where, text in shown.items()
    }
    assert named == {where: [] for where in shown}


def test_mcp_is_off_by_default(app_url):
    import requests

    assert requests.post(app_url.rstrip("/") + "/gradio_api/mcp/", json={}, timeout=10).status_code == 404


def test_an_mcp_caller_counts_as_a_visitor_for_the_limits(start_app, settings, fake_openai):
    app = start_app(settings.updated(mcp_enabled=True, address_messages_per_hour=1))
    url = app.demo.local_url.rstrip("/") + "/gradio_api/mcp/"

    async def steps(session):
        return [text_of(await session.call_tool("ask_ada_lovelace", {"question": f"Q{n}"})) for n in range(2)]

    answers = asyncio.run(mcp_session(url, steps))
    assert fake_openai.calls == 1 and answers[1].startswith("You've sent a lot of messages")


def test_python_app_py_serves_one_tool_and_limits_each_caller_by_its_own_address(tmp_path, fake_openai):
    """As users start it: MCP_ENABLED=true python app.py. Callers from two addresses (127.0.0.2 and
    127.0.0.3) with an address limit of one message an hour: each gets its own answer."""
    env = {
        "OPENAI_API_KEY": API_KEY,
        "OPENAI_BASE_URL": fake_openai.base_url,
        "OWNER_NAME": "Ada Lovelace",
        "MCP_ENABLED": "true",
        "ADDRESS_MESSAGES_PER_HOUR": "1",
    }
    fake_openai.default = say("I build analytical engines.")
    with served_app(tmp_path / "app.log", **env) as (url, _):
        mcp_url = url + "gradio_api/mcp/"

        async def first_caller(session):
            tools = (await session.list_tools()).tools
            hidden = await session.call_tool("chat", {"message": "hi"})
            answers = [text_of(await session.call_tool("ask_ada_lovelace", {"question": f"Q{n}"})) for n in range(2)]
            return tools, hidden, answers

        async def second_caller(session):
            forged = {"question": "Q", "conversation_id": "mcp-" + "0" * 32}  # well formed, never issued
            return text_of(await session.call_tool("ask_ada_lovelace", forged))

        tools, hidden, answers = asyncio.run(mcp_session(mcp_url, first_caller, source="127.0.0.2"))
        # The second caller also claims to be someone else in the header the guard signs: stripped.
        spoof = {"x-replica-caller": "127.0.0.2;" + "0" * 32}
        second = asyncio.run(mcp_session(mcp_url, second_caller, source="127.0.0.3", headers=spoof))
        fake_openai.default = say("Through the page's API.")
        through_chat = app_client(url).predict("hi", api_name="/chat")  # no MCP tool, still served
    assert through_chat == "Through the page's API."
    assert [tool.name for tool in tools] == ["ask_ada_lovelace"] and hidden.isError
    assert answers[0].startswith("I build analytical engines.")
    assert answers[1].startswith("You've sent a lot of messages")  # 127.0.0.2's one message an hour is spent
    assert second.startswith("I build analytical engines.")  # 127.0.0.3 has its own
    issued = re.search(r"conversation_id: (\S+)", second).group(1)
    assert issued != "mcp-" + "0" * 32 and issued.startswith("mcp-")  # a made-up id starts a new conversation
    assert fake_openai.calls == 3 and [m["role"] for m in fake_openai.requests[1]["messages"]] == ["system", "user"]


def test_only_conversation_ids_the_tool_issued_continue_a_conversation():
    from replica.web.mcp import ConversationIds

    ids = ConversationIds("key")
    issued = ids.new()
    assert ids.issued(issued) and issued.startswith("mcp-") and len(issued) == 36
    assert not ids.issued("mcp-" + "0" * 32) and not ids.issued(issued[:-1] + "x") and not ids.issued("k3j4h5g6f7")
    assert not ConversationIds("another key").issued(issued)


def test_an_over_long_question_is_refused_in_a_plain_sentence_naming_no_internal_address(
    start_app, settings, fake_openai
):
    app = start_app(settings.updated(mcp_enabled=True, max_message_chars=50))
    url = app.demo.local_url.rstrip("/") + "/gradio_api/mcp/"
    port = str(app.demo.server_port)

    async def steps(session):
        over = [await session.call_tool("ask_ada_lovelace", {"question": "x" * n}) for n in (51, 100_000)]
        fake_openai.script(say("I build analytical engines."))
        return over, await session.call_tool("ask_ada_lovelace", {"question": "x" * 50})

    over, within = asyncio.run(mcp_session(url, steps))
    for result in over:  # just over the limit, and far over what the page's events may carry
        assert result.isError and text_of(result) == "The question is too long: at most 50 characters."
        assert "127.0.0.1" not in text_of(result) and "http" not in text_of(result) and port not in text_of(result)
    assert text_of(within).startswith("I build analytical engines.") and fake_openai.calls == 1


def test_a_tool_call_whose_params_are_not_an_object_passes_on_to_gradio_untouched():
    from replica.web.mcp import QuestionLimit

    passed = []

    async def gradio(scope, receive, send):
        passed.append((await receive())["body"])

    async def run(body: bytes) -> None:
        async def receive():
            return {"type": "http.request", "body": body, "more_body": False}

        async def send(message):
            raise AssertionError("answered by the limit")

        scope = {"type": "http", "method": "POST", "path": "/gradio_api/mcp/"}
        await QuestionLimit(gradio, tool="ask_ada", max_chars=5)(scope, receive, send)

    for params in ("5", '"ask_ada"', "null", "[1]"):
        asyncio.run(run(b'{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": %s}' % params.encode()))
    assert len(passed) == 4  # Gradio's MCP server answers the malformed call itself
