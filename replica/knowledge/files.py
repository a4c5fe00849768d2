"""Reads the owner's knowledge folder: Markdown, text and PDF files, nested folders included."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path

from pypdf import PdfReader
from pypdf.errors import PyPdfError

log = logging.getLogger(__name__)

TEXT_SUFFIXES = {".md", ".markdown", ".txt"}
PDF_SUFFIXES = {".pdf"}
KNOWLEDGE_SUFFIXES = TEXT_SUFFIXES | PDF_SUFFIXES
# What reading a file can meet: the disk, text that is not UTF-8, and a damaged PDF (pypdf's own errors,
# and the lookups and types a malformed one trips in it).
UNREADABLE = (OSError, ValueError, PyPdfError, KeyError, IndexError, TypeError, AttributeError)


@dataclass(frozen=True)
class Document:
    """One knowledge file: its path relative to the folder, and its text."""

    name: str
    text: str


def _read_pdf(path: Path) -> str:
    reader = PdfReader(path)
    return "\n".join((page.extract_text() or "") for page in reader.pages)


def knowledge_files(folder: Path) -> list[Path]:
    """Every ``.md``, ``.txt`` and ``.pdf`` file under ``folder``, nested folders included, in sorted order."""
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.rglob("*") if p.is_file() and p.suffix.lower() in KNOWLEDGE_SUFFIXES)


def read_documents(folder: Path) -> tuple[list[Document], list[tuple[Path, str]]]:
    """Every readable, non-empty knowledge file under ``folder`` in sorted order, and the files that could
    not be read, each with the reason."""
    documents, unreadable = [], []
    for path in knowledge_files(folder):
        try:
            text = _read_pdf(path) if path.suffix.lower() in PDF_SUFFIXES else path.read_text(encoding="utf-8")
        except UNREADABLE as exc:  # a bad file must never stop the app
            unreadable.append((path, f"{type(exc).__name__}: {exc}"))
            continue
        if text.strip():
            documents.append(Document(name=path.relative_to(folder).as_posix(), text=text.strip()))
    return documents, unreadable


def load_documents(folder: Path) -> list[Document]:
    """Return every readable knowledge file under ``folder``, in a stable (sorted) order.

    A file that cannot be read is skipped with a log line naming it; a missing folder gives no documents.
    """
    if not folder.is_dir():
        log.warning("Knowledge folder %s does not exist; the replica has no knowledge (docs/knowledge.md)", folder)
        return []
    documents, unreadable = read_documents(folder)
    for path, reason in unreadable:
        log.warning("Skipping knowledge file %s: %s", path, reason)
    log.info("Loaded %d knowledge file(s) from %s", len(documents), folder)
    return documents


def render_knowledge(documents: list[Document]) -> str:
    """Join documents into one block for the system prompt, each under a header naming its file."""
    return "\n\n".join(f"### {doc.name}\n\n{doc.text}" for doc in documents)
