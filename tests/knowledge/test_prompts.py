"""The prompt templates: the persona that carries the owner's rules and knowledge, failing loudly."""

from __future__ import annotations

import pytest

from replica.knowledge.prompts import PromptError, render_prompt


def test_system_prompt_carries_owner_rules_and_knowledge():
    prompt = render_prompt("system.md", owner_name="Ada Lovelace", knowledge="Fact: ORBIT-417 $HOME")
    assert "Ada Lovelace" in prompt and "Fact: ORBIT-417 $HOME" in prompt
    for rule in ("inform_unknown", "gather_user_details", "Never invent", "Never reveal"):
        assert rule in prompt


def test_missing_template_variable_fails_loudly():
    with pytest.raises(PromptError, match="knowledge"):
        render_prompt("system.md", owner_name="Ada")
