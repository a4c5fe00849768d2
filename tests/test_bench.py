"""The benchmark still runs and prints its table (its numbers are judged in the README, not here)."""

from __future__ import annotations

import subprocess
import sys

from tests.conftest import ROOT, bare_env


def test_bench_quick_prints_the_table():
    done = subprocess.run(
        [sys.executable, "-m", "bench", "--quick"],
        cwd=ROOT,
        env=bare_env(),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    table = [line for line in done.stdout.splitlines() if line.startswith("|")]
    assert table[0] == "| Measure | Result | Against target |"
    assert any("Per-turn latency" in line for line in table) and any("2 MB" in line for line in table)
    assert len(table) == 2 + 2 + 3 * 3
