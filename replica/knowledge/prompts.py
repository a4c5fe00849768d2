"""Loads prompt templates from ``prompts/`` and fills them, failing loudly on a missing variable."""

from __future__ import annotations

import re
from pathlib import Path
from string import Template

PROMPTS_DIR = Path(__file__).resolve().parents[2] / "prompts"


class PromptError(ValueError):
    """A template names a variable that was not supplied."""


def render_prompt(name: str, prompts_dir: Path = PROMPTS_DIR, **variables: str) -> str:
    """Fill ``prompts_dir/name`` (a ``string.Template``) with ``variables``.

    Raises :class:`PromptError` naming every placeholder that has no value, so a broken template is
    found at start-up rather than in a visitor's chat.
    """
    template = Template((prompts_dir / name).read_text(encoding="utf-8"))
    missing = sorted(placeholders(template) - set(variables))
    if missing:
        raise PromptError(f"prompt {name} needs values for: {', '.join(missing)}")
    return template.substitute(variables)


def placeholders(template: Template) -> set[str]:
    """The variable names ``template`` uses (``Template.get_identifiers`` does this from Python 3.11 on)."""
    names = set()
    for match in template.pattern.finditer(template.template):
        name = match.group("named") or match.group("braced")
        if name:
            names.add(name)
    return names


def read_lines(name: str, prompts_dir: Path = PROMPTS_DIR) -> list[str]:
    """The non-blank lines of ``prompts_dir/name`` that are not ``#`` comments (an absent file gives none)."""
    path = prompts_dir / name
    if not path.is_file():
        return []
    lines = (line.strip() for line in path.read_text(encoding="utf-8").splitlines())
    return [line for line in lines if line and not line.startswith("#")]


def pattern_sections(
    name: str,
    headings: list[str],
    words: tuple[str, ...] = (),
    prompts_dir: Path = PROMPTS_DIR,
    lines: tuple[str, ...] = (),
) -> dict[str, list]:
    """The sections of ``prompts_dir/name``, a file of ``## heading`` sections (the claim patterns, the
    voice patterns, what a reply may say about the owner): for each of ``headings``, its lines compiled
    as regular expressions matched without regard to case, or, for a heading in ``words``, its words
    (lower case), or for one in ``lines``, its lines as written.
    Lines starting with ``>`` are notes. A heading it does not know, or a line that is no regular
    expression, raises ``ValueError`` naming the file and line: the start stops, never a visitor's message."""
    path = prompts_dir / name
    found: dict[str, list] = {heading: [] for heading in headings}
    heading = None
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if line.startswith("## "):
            heading = line[3:].strip().lower()
            if heading not in found:
                raise ValueError(f"{path}:{number}: no such heading {line[3:].strip()!r}: {', '.join(headings)}")
        elif heading and line.strip() and not line.startswith((">", "#")):
            if heading in words:
                found[heading].extend(word.lower() for word in line.split())
                continue
            if heading in lines:
                found[heading].append(line.strip())
                continue
            try:
                found[heading].append(re.compile(line.strip(), re.I))
            except re.error as error:
                raise ValueError(f"{path}:{number}: not a regular expression ({error})") from None
    return found


def earliest(patterns: tuple[re.Pattern, ...], text: str) -> int | None:
    """Where in ``text`` the first of ``patterns`` to match begins, or ``None`` (where a sentence still
    arriving is held from: a claim, framework talk, a promise may begin there)."""
    return min((m.start() for p in patterns for m in [p.search(text)] if m), default=None)
