"""Replica: a person's AI stand-in on the web.

Layers, top to bottom: ``ui`` (Gradio) -> ``agent`` (the model loop) -> ``tools/`` -> ``notify`` (Telegram).
"""
