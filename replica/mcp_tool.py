"""The replica as one MCP tool, for AI assistants: ``ask_<owner>(question, conversation_id?)``.

Served by Gradio's own MCP server (streamable HTTP at ``/gradio_api/mcp/``) when ``MCP_ENABLED`` is
true. Exactly one tool: nothing else of the app (the page's endpoint, exports, learned answers) is
exposed. A question goes through the same loop as a visitor's message: knowledge, the two tools (an
agent may leave its user's contact details; the alert says "via MCP"), learned answers, ``MAX_TURNS``,
the reply deadline, and the usage limits (an MCP caller counts as a visitor, with its address).
"""

from __future__ import annotations

import re
import uuid
from typing import Callable

import gradio as gr

from replica.agent import Visitor

AskFunction = Callable[..., str]
CONVERSATION_ID = re.compile(r"mcp-[0-9a-f]{32}")


def tool_name(owner_name: str) -> str:
    """``ask_jordan_avery`` for Jordan Avery: letters, digits and underscores only."""
    slug = re.sub(r"[^a-z0-9]+", "_", owner_name.casefold()).strip("_")[:40] or "owner"
    return f"ask_{slug}"


def make_ask(
    reply: Callable[[str, list, Visitor], str],
    owner_name: str,
    knows: str,
    visitor_for: Callable[[str, gr.Request | None], Visitor],
) -> AskFunction:
    """The tool's function: ``reply(message, history, visitor)`` answers; ``visitor_for(session, request)``
    says who is asking. Its name and docstring are what MCP clients see."""

    def ask(question: str, conversation_id: str = "", request: gr.Request = None) -> str:
        # Only ids this tool handed out continue a conversation: a page visitor's session is never reachable.
        given = conversation_id.strip()
        session = given if CONVERSATION_ID.fullmatch(given) else f"mcp-{uuid.uuid4().hex}"
        visitor = visitor_for(session, request)
        answer = reply(question, [], visitor)
        return f"{answer}\n\nconversation_id: {visitor.session_id} (pass it back to continue this conversation)"

    ask.__name__ = tool_name(owner_name)
    ask.__doc__ = (
        f"Ask {owner_name}'s AI replica a question; it answers as {owner_name}, from {owner_name}'s own "
        f"files ({knows}). It passes on what it cannot answer, and to get in touch, include the email "
        f"address to reply to in the question: {owner_name} is told at once.\n\n"
        "Args:\n"
        f"    question: The question for {owner_name}, in plain words.\n"
        "    conversation_id: To ask a follow-up, the conversation_id a previous answer ended with; "
        "leave empty to start a new conversation.\n"
    )
    return ask
