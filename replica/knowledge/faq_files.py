"""The answers the owner approved, as their files hold them: the FAQ files and the sections of other
Markdown files the owner marked as approved.

A FAQ file is any file named ``faq.md``, ``faq.markdown`` or ``faq.txt`` in the knowledge folder (nested
folders included; ``faq.es.md`` and the like for another language): a question line (or several, one
per phrasing, each ending in "?"), then its answer paragraph, a blank line between entries. A line
alone (a title) is skipped; Markdown marks around the question (``## ``, ``**``, ``Q:``) and an ``A:``
before the answer are left out.

A marked section is a Markdown heading's section (up to the next heading of its level or higher)
holding the line ``<!-- approved: Question one? | Question two? -->``: it answers the questions the mark
lists (with a bare ``<!-- approved -->``, its heading), and is quoted whole, without the mark.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from pathlib import Path

from replica.knowledge.files import knowledge_files
from replica.languages import KNOWN, detect

log = logging.getLogger(__name__)

FAQ_FILE = re.compile(r"^faq(?:[._-]([a-z]{2}))?\.(?:md|markdown|txt)$", re.I)  # faq.md, faq.es.md
MARKDOWN_FILE = re.compile(r"\.(md|markdown)$", re.I)
APPROVED_MARK = re.compile(r"^\s*<!--\s*approved\s*(?::\s*(.*?))?\s*-->\s*$", re.I)
HEADING = re.compile(r"^(#{1,6})\s+(.+?)\s*#*\s*$")


@dataclass(frozen=True)
class Approved:
    """One approved answer: the question it answers, the answer word for word, where it comes from
    (``faq``, ``profile``: a marked section, or ``learned``), and the language it is written in."""

    question: str
    answer: str
    source: str
    language: str = "en"


def parse_faq(text: str) -> list[tuple[str, str]]:
    """The (question, answer) entries of a FAQ file's text: one for each question line of an entry (an
    entry may open with several, one per phrasing, each ending in "?"), all with the entry's answer."""
    entries = []
    for block in re.split(r"\n\s*\n", text.strip()):
        lines = [line.strip() for line in block.strip().splitlines() if line.strip()]
        if len(lines) < 2:
            continue
        asked = 1
        while asked < len(lines) - 1 and _question_line(lines[asked]).endswith("?"):
            asked += 1  # another phrasing of the same question
        answer = re.sub(r"^A:\s*", "", " ".join(lines[asked:]), flags=re.I).strip()
        questions = [_question_line(line) for line in lines[:asked]]
        entries += [(question, answer) for question in questions if question and answer]
    return entries


def _question_line(line: str) -> str:
    """A question line without its Markdown marks (``## ``, ``**``, ``Q:``)."""
    return re.sub(r"^(#+\s*|\*\*|__|Q:\s*)+|(\*\*|__)$", "", line, flags=re.I).strip()


def marked_sections(text: str) -> list[tuple[str, str]]:
    """The (question, answer) pairs of a Markdown file's sections marked ``<!-- approved: … -->``: one per
    question the mark lists (its heading when it lists none), the section's text without the mark."""
    lines = text.splitlines()
    headings = [(at, len(m.group(1)), m.group(2)) for at, line in enumerate(lines) if (m := HEADING.match(line))]
    entries = []
    for at, line in enumerate(lines):
        mark = APPROVED_MARK.match(line)
        above = [heading for heading in headings if heading[0] < at]
        if not mark or not above:
            continue
        start, level, title = above[-1]
        end = next((h[0] for h in headings if h[0] > start and h[1] <= level), len(lines))
        answer = "\n".join(kept for kept in lines[start + 1 : end] if not APPROVED_MARK.match(kept)).strip()
        questions = [q.strip() for q in (mark.group(1) or "").split("|") if q.strip()] or [title]
        entries += [(question, answer) for question in questions if answer]
    return entries


def approved_entries(folder: Path, languages: tuple[str, ...] = ("en",)) -> list[Approved]:
    """Every approved answer in ``folder``'s files written in one of ``languages``: the FAQ files'
    entries, then the marked sections of the other Markdown files; a file that cannot be read is skipped
    with a log line. Each is in the language its FAQ file's name gives (``faq.es.md``), else the one its
    words are in (the first of ``languages`` when they do not tell); those in another language are left
    out, with a log line for each file."""
    faq: list[Approved] = []
    marked: list[Approved] = []
    for path in knowledge_files(folder):
        named = FAQ_FILE.match(path.name)
        is_faq = bool(named)
        if not is_faq and not MARKDOWN_FILE.search(path.name):
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as error:
            if is_faq:  # another unreadable file is named once, by the knowledge reader
                log.warning("Skipping FAQ file %s: %s", path, type(error).__name__)
            continue
        code = named.group(1).lower() if named and named.group(1) else None
        code = code if code in KNOWN else None

        def language(question: str, answer: str) -> str:
            return code or detect(f"{question} {answer}", languages[0])

        if is_faq:
            found = [Approved(q, a, "faq", language(q, a)) for q, a in parse_faq(text)]
        else:
            found = [Approved(q, a, "profile", language(q, a)) for q, a in marked_sections(text)]
        left = sorted({entry.language for entry in found} - set(languages))
        if left:
            log.info(
                "Answers in %s in %s are not quoted without a model: add it to LANGUAGES", ", ".join(left), path.name
            )
        (faq if is_faq else marked).extend(entry for entry in found if entry.language in languages)
    return faq + marked
