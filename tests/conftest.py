"""The tests' fixtures live in ``tests/fixtures/``, a module per kind; this registers them all, and the
order the files are handed out in (``tests/fixtures/ordering.py``). The checkout's ``replica`` and
``tests`` are importable through pytest's ``pythonpath`` setting, in ``pyproject.toml``."""

pytest_plugins = [
    "tests.fixtures.environment",
    "tests.fixtures.processes",
    "tests.fixtures.servers",
    "tests.fixtures.databases",
    "tests.fixtures.replicas",
    "tests.fixtures.apps",
    "tests.fixtures.ordering",
]
