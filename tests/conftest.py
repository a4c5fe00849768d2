"""The tests' fixtures live in ``tests/fixtures/``, a module per kind; this registers them all, and the
order the files are handed out in (``tests/fixtures/ordering.py``)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the checkout's replica, not an installed one

pytest_plugins = [
    "tests.fixtures.environment",
    "tests.fixtures.processes",
    "tests.fixtures.servers",
    "tests.fixtures.databases",
    "tests.fixtures.replicas",
    "tests.fixtures.apps",
    "tests.fixtures.ordering",
]
