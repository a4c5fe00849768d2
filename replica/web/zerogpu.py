"""ZeroGPU, the hardware free Hugging Face Spaces run on, and a replica that needs no GPU.

At launch, the ``spaces`` package (preinstalled on Spaces) reports the functions decorated with
``@spaces.GPU`` to ZeroGPU, which stops an app that has none ("No @spaces.GPU function detected during
startup"). ``app.py`` decorates one placeholder that does nothing; :func:`bind_placeholder` registers it
with Gradio on an event of a button that is never shown, private (no API listing, no ``gradio_client``
endpoint, no MCP tool), and :class:`replica.web.guard.RequestGuard` refuses any request that names the
event, so no visitor, script or page ever runs it, and no GPU time is spent.
"""

from __future__ import annotations

from typing import Callable

import gradio as gr

PLACEHOLDER_ID = "replica-zerogpu-placeholder"
PLACEHOLDER_NAME = "zerogpu_placeholder"  # its API name, refused on every route by path


def bind_placeholder(demo: gr.Blocks, placeholder: Callable[[], None]) -> int:
    """Register ``placeholder`` with ``demo`` on an event nothing can trigger; return the event's id (the
    ``fn_index`` a request would name, which the guard refuses)."""
    with demo:
        never_shown = gr.Button(visible=False, elem_id=PLACEHOLDER_ID)
        event = never_shown.click(
            placeholder,
            None,
            None,
            api_name=PLACEHOLDER_NAME,
            api_visibility="private",
            queue=False,
            show_progress="hidden",
        )
    return int(event["id"])
