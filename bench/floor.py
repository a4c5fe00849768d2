"""The floor the app is measured against: a bare Gradio ``ChatInterface`` making one plain model call, with
the app's queue concurrency (3), as a tutorial's copy would be.

    python -m bench.floor BASE_URL PORT   # the streaming floor, served in a process of its own (the spike row)
"""

from __future__ import annotations

import os
import sys

os.environ.setdefault("GRADIO_ANALYTICS_ENABLED", "False")

import gradio as gr  # noqa: E402
import openai  # noqa: E402


def _floor(chat) -> gr.ChatInterface:
    demo = gr.ChatInterface(chat, api_name="chat")
    demo.queue(default_concurrency_limit=3)  # the app's queue concurrency
    return demo


def _asked(message: str, history: list) -> list[dict]:
    return [
        {"role": "system", "content": "You are a helpful assistant."},
        *history,
        {"role": "user", "content": message},
    ]


def bare_chat_interface(base_url: str) -> gr.ChatInterface:
    """The baseline: a ChatInterface whose function makes one plain model call."""
    client = openai.OpenAI(api_key="sk-bench", base_url=base_url)

    def chat(message, history):
        return (
            client.chat.completions.create(model="bench", messages=_asked(message, history)).choices[0].message.content
        )

    return _floor(chat)


def streaming_floor(base_url: str) -> gr.ChatInterface:
    """The floor a message is measured against: a bare streaming ChatInterface making one model call."""
    client = openai.OpenAI(api_key="sk-bench", base_url=base_url)

    def chat(message, history):
        text = ""
        for chunk in client.chat.completions.create(model="bench", messages=_asked(message, history), stream=True):
            if chunk.choices and chunk.choices[0].delta.content:
                text += chunk.choices[0].delta.content
                yield text

    return _floor(chat)


if __name__ == "__main__":
    base_url, port = sys.argv[1], int(sys.argv[2])
    streaming_floor(base_url).launch(server_name="127.0.0.1", server_port=port, quiet=True)
