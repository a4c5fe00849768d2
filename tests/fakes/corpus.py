"""A deterministic knowledge folder of many projects with unique codes, for retrieval tests and the benchmark."""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path

WORDS = (
    "amber basalt cedar delta ember falcon garnet harbor iris jasper kestrel lumen maple nimbus onyx "
    "pylon quartz raven sierra tundra umber vertex willow xenon yarrow zephyr"
).split()
DOMAINS = ["logistics", "retail", "fintech", "healthcare", "energy", "media", "insurance", "agriculture", "travel"]
TECH = ["Airflow", "dbt", "Kafka", "Spark", "BigQuery", "Snowflake", "Postgres", "Flink", "DuckDB", "Terraform"]
GOALS = [
    "cut report times",
    "unify customer data",
    "detect fraud",
    "forecast demand",
    "track shipments",
    "price products",
]


@dataclass(frozen=True)
class Project:
    code: str
    text: str  # the project's whole section, as written to the files

    @property
    def signature(self) -> str:
        """A sentence found only in this project's section."""
        return self.text.splitlines()[2]


def make_projects(count: int, seed: int = 7) -> list[Project]:
    """``count`` projects, each with a unique code like ``KESTREL-4821`` and a unique description."""
    rng = random.Random(seed)
    codes: set[str] = set()
    projects = []
    while len(projects) < count:
        code = f"{rng.choice(WORDS).upper()}-{rng.randint(100, 9999)}"
        if code in codes:
            continue
        codes.add(code)
        domain, goal = rng.choice(DOMAINS), rng.choice(GOALS)
        tools = ", ".join(rng.sample(TECH, 3))
        year = rng.randint(2012, 2025)
        text = (
            f"## Project {code}\n\n"
            f"Project {code} was a {domain} engagement in {year} to {goal} for client number {rng.randint(1000, 99999)}. "
            f"It used {tools}, ran for {rng.randint(2, 30)} months with a team of {rng.randint(2, 12)}.\n"
            f"Outcome: the {domain} team saw a {rng.randint(5, 95)}% gain, measured over {rng.randint(2, 52)} weeks "
            f"across {rng.randint(2, 400)} sites.\n"
            f"Notes: the {rng.choice(WORDS)} pipeline replaced a legacy {rng.choice(TECH)} job; the "
            f"{rng.choice(WORDS)} office signed off in week {rng.randint(1, 52)}."
        )
        projects.append(Project(code, text))
    return projects


def write_projects(folder: Path, projects: list[Project], per_file: int = 100) -> int:
    """Write ``projects`` as Markdown and text files in nested folders; return the bytes written."""
    total = 0
    for start in range(0, len(projects), per_file):
        group = projects[start : start + per_file]
        number = start // per_file
        path = folder / f"year-{number % 7}" / f"projects-{number:03d}.{'md' if number % 2 == 0 else 'txt'}"
        path.parent.mkdir(parents=True, exist_ok=True)
        body = f"# Project notes, part {number}\n\n" + "\n\n".join(p.text for p in group) + "\n"
        path.write_text(body, encoding="utf-8")
        total += len(body.encode())
    return total


def projects_for_size(target_bytes: int) -> int:
    """About how many projects make ``target_bytes`` of knowledge."""
    return max(1, target_bytes // 340)
