"""Knowledge at any size: whole when it fits the budget, otherwise the most relevant chunks per message.

Files are split into chunks on headings and paragraphs, and ranked with BM25 (``bm25s``), a lexical
ranking, so exact names and codes ("project ORBIT-417", "Acme") are found. The chunks and the index are
cached in ``DATA_DIR``, keyed by the files' contents, so a warm start skips reading PDFs and indexing.
"""

from __future__ import annotations

import hashlib
import json
import logging
import re
import shutil
from dataclasses import asdict, dataclass
from pathlib import Path

import bm25s
import numpy as np

from replica.knowledge.files import Document, knowledge_files, load_documents, render_knowledge

log = logging.getLogger(__name__)

CHUNK_CHARS = 1200
INDEX_VERSION = "1"  # bump when chunking or tokenising changes, so old caches are not reused
OVERVIEW_SHARE = 0.15  # of the budget, kept for each file's opening chunk, so general questions have context
HEADING = re.compile(r"^#{1,6}\s+(.*)$")
WORD = re.compile(r"\w+(?:[-_./]\w+)*")


@dataclass(frozen=True)
class Chunk:
    """A piece of one knowledge file: where it comes from, the heading it sits under, and its text."""

    source: str
    heading: str
    text: str

    def render(self) -> str:
        """The chunk as it appears in the prompt, labelled with its file and heading."""
        where = f"{self.source} › {self.heading}" if self.heading else self.source
        return f"[{where}]\n{self.text}"


def tokenize(text: str) -> list[str]:
    """Lower-cased words; a code such as ``ORBIT-417`` is kept whole and also split into its parts."""
    tokens = []
    for word in WORD.findall(text.lower()):
        tokens.append(word)
        parts = re.split(r"[-_./]", word)
        if len(parts) > 1:
            tokens.extend(part for part in parts if part)
    return tokens


def split_document(document: Document, max_chars: int = CHUNK_CHARS) -> list[Chunk]:
    """Split a document on headings, then group its paragraphs into chunks of at most ``max_chars``."""
    chunks: list[Chunk] = []
    heading = ""
    paragraphs: list[str] = []

    def flush() -> None:
        buffer = ""
        for paragraph in paragraphs:
            for piece in _pieces(paragraph, max_chars):
                if buffer and len(buffer) + len(piece) + 2 > max_chars:
                    chunks.append(Chunk(document.name, heading, buffer))
                    buffer = ""
                buffer = f"{buffer}\n\n{piece}" if buffer else piece
        if buffer:
            chunks.append(Chunk(document.name, heading, buffer))
        paragraphs.clear()

    for block in re.split(r"\n\s*\n", document.text):
        block = block.strip()
        first_line = block.splitlines()[0] if block else ""
        match = HEADING.match(first_line)
        if match:
            flush()
            heading = match.group(1).strip()
            block = block[len(first_line) :].strip()
        if block:
            paragraphs.append(block)
    flush()
    return chunks


def _pieces(paragraph: str, max_chars: int) -> list[str]:
    """A paragraph longer than ``max_chars``, cut at sentence ends (or hard, if a sentence is longer)."""
    if len(paragraph) <= max_chars:
        return [paragraph]
    pieces, current = [], ""
    for sentence in re.split(r"(?<=[.!?])\s+", paragraph):
        while len(sentence) > max_chars:
            pieces.append(sentence[:max_chars])
            sentence = sentence[max_chars:]
        if current and len(current) + len(sentence) + 1 > max_chars:
            pieces.append(current)
            current = ""
        current = f"{current} {sentence}".strip()
    if current:
        pieces.append(current)
    return pieces


def fingerprint(folder: Path) -> str:
    """A hash of every knowledge file's path and bytes: the cache key for the index."""
    digest = hashlib.sha256(INDEX_VERSION.encode())
    for path in knowledge_files(folder):
        digest.update(path.relative_to(folder).as_posix().encode() + b"\0")
        digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()[:24]


class KnowledgeIndex:
    """The owner's files as chunks, ranked by BM25 against each visitor message."""

    def __init__(self, chunks: list[Chunk], whole_text: str, retriever: bm25s.BM25 | None):
        self.chunks = chunks
        self.whole_text = whole_text
        self._retriever = retriever
        self._openers = [i for i, c in enumerate(chunks) if i == 0 or chunks[i - 1].source != c.source]

    @classmethod
    def from_documents(cls, documents: list[Document]) -> "KnowledgeIndex":
        """Chunk and index ``documents``."""
        chunks = [chunk for document in documents for chunk in split_document(document)]
        retriever = None
        if chunks:
            retriever = bm25s.BM25()
            retriever.index([tokenize(c.heading + " " + c.text) for c in chunks], show_progress=False)
        return cls(chunks, render_knowledge(documents), retriever)

    @classmethod
    def load(cls, folder: Path, cache_root: Path) -> "KnowledgeIndex":
        """The index of ``folder``: from the cache when the files are unchanged, else built and cached."""
        key = fingerprint(folder)
        cache = cache_root / key
        try:
            if (cache / "chunks.json").is_file():
                data = json.loads((cache / "chunks.json").read_text(encoding="utf-8"))
                retriever = bm25s.BM25.load(str(cache / "bm25")) if data["chunks"] else None
                log.info("Knowledge index loaded from cache %s (%d chunks)", cache, len(data["chunks"]))
                return cls([Chunk(**c) for c in data["chunks"]], data["whole_text"], retriever)
        except (OSError, ValueError, KeyError, TypeError, EOFError) as exc:  # a damaged cache is rebuilt, never fatal
            log.warning("Ignoring unreadable knowledge cache %s: %s", cache, exc)
        index = cls.from_documents(load_documents(folder))
        index._save(cache, cache_root)
        return index

    def _save(self, cache: Path, cache_root: Path) -> None:
        try:
            if cache_root.is_dir():
                for old in cache_root.iterdir():  # only the current version of the folder is worth keeping
                    shutil.rmtree(old, ignore_errors=True)
            cache.mkdir(parents=True, exist_ok=True)
            if self._retriever is not None:
                self._retriever.save(str(cache / "bm25"))
            payload = {"chunks": [asdict(c) for c in self.chunks], "whole_text": self.whole_text}
            (cache / "chunks.json").write_text(json.dumps(payload), encoding="utf-8")
            log.info("Knowledge index built and cached in %s (%d chunks)", cache, len(self.chunks))
        except OSError as exc:
            log.warning("Could not cache the knowledge index in %s: %s", cache, exc)

    def select(self, query: str, budget_chars: int) -> str:
        """All the knowledge if it fits ``budget_chars``; otherwise the chunks most relevant to ``query``."""
        if len(self.whole_text) <= budget_chars:
            return self.whole_text
        chosen: list[int] = []
        used = 0

        def take(indices, limit: int) -> None:
            nonlocal used
            for i in indices:
                size = len(self.chunks[i].render()) + 2
                if i not in chosen and used + size <= limit:
                    chosen.append(i)
                    used += size

        if self._retriever is not None and query.strip():  # None: no chunks to rank
            scores = self._retriever.get_scores(tokenize(query))
        else:
            scores = np.zeros(len(self.chunks))
        ranked = [int(i) for i in np.argsort(-scores, kind="stable") if scores[i] > 0]
        take(ranked, budget_chars - int(budget_chars * OVERVIEW_SHARE))
        take(self._openers, budget_chars)
        # In the prompt, chunks keep their order in the files: easier for the model to read.
        return "\n\n".join(self.chunks[i].render() for i in sorted(chosen))
