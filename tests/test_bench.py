"""The benchmark still runs and prints its table (its numbers are judged in the README, not here)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tests.fixtures.databases import POSTGRES_ENV, fresh_postgres_database
from tests.fixtures.environment import ROOT, bare_env

pytestmark = pytest.mark.measure  # a measure: its own line of the README (docs/testing.md)


def test_bench_quick_prints_the_table():
    done = subprocess.run(
        [sys.executable, "-m", "bench", "--quick"],
        cwd=ROOT,
        env=bare_env(),
        capture_output=True,
        text=True,
        timeout=900,  # a guard against a hang: on a machine busy with a second suite it has taken over 300 s
    )
    assert done.returncode == 0, done.stderr[-2000:]
    table = [line for line in done.stdout.splitlines() if line.startswith("|")]
    assert table == done.stdout.splitlines()  # the table alone: `python -m bench > table.md` is the table
    assert table[0] == "| Measure | Result | Against target |"
    assert any("Per-turn latency" in line for line in table) and any("Knowledge 10 KB" in line for line in table)
    assert any("Reply without a model" in line for line in table)
    per_message = [line for line in table if line.startswith("| Per message")]
    assert "exact clock" in per_message[0] and "x (target ≤ 1.10x)" in per_message[0]
    assert "gradio_client" in per_message[1]
    first, restarted = [line for line in table if line.startswith("| First words") and "floods" not in line]
    assert "reads as the model wrote it" in first and "over the floor (target ≤ +50 ms)" in first
    assert "first message after a restart" in restarted and "over the floor (target ≤ +50 ms)" in restarted
    [spike] = [line for line in table if line.startswith("| Spike: 20 visitors at once")]
    assert "app: 20/20 answered, 20/20 leads stored" in spike and "floor: 20/20 answered" in spike
    [flood] = [line for line in table if line.startswith("| First words while one client floods")]
    assert "refused at the door" in flood and "x (target ≤ 1.10x)" in flood
    [picture] = [line for line in table if line.startswith("| Owner's picture: 90 days, 1,000 conversations")]
    assert "ms counting" in picture and "target < 1 s" in picture
    # header, the owner's picture, latency and burst, per message (two clocks), first words (two), no model,
    # spike, flood, one tiny knowledge folder
    assert len(table) == 2 + 1 + 2 + 2 + 2 + 1 + 1 + 1 + 3


def test_bench_instances_runs_two_instances_on_postgres_beside_sqlite():
    with fresh_postgres_database():  # skips (or fails under CI) without a PostgreSQL server
        pass
    done = subprocess.run(
        [sys.executable, "-m", "bench", "--instances", "2", "--visitors", "12"],
        cwd=ROOT,
        env=bare_env(REPLICA_TEST_DATABASE_URL=os.environ[POSTGRES_ENV]),
        capture_output=True,
        text=True,
        timeout=900,  # a guard against a hang: on a machine busy with a second suite it has taken over 300 s
    )
    assert done.returncode == 0, done.stderr[-2000:]
    rows = [line.split(" | ") for line in done.stdout.splitlines() if line.startswith("| ") and "instance" in line]
    assert [row[0] for row in rows] == ["| SQLite, 1 instance", "| PostgreSQL, 2 instances"]
    for row in rows:
        assert row[1:4] == ["12/12", "12/12", "0"]  # every lead stored, every alert sent once
