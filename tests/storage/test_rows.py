"""Rows as the repositories hand them back: a database row read into its frozen type by field name."""

from __future__ import annotations

import dataclasses

import pytest

from replica.storage.rows import LeadListing, QuestionListing, typed


def test_a_row_becomes_its_type_by_field_name_other_columns_left_and_changes_applied():
    row = {"id": 3, "question": "Opera?", "created_at": None, "askers": 2, "not_a_field": "x"}
    assert typed(QuestionListing, row) == QuestionListing(3, "Opera?", None, 2)
    assert typed(QuestionListing, row, askers=5).askers == 5
    with pytest.raises(dataclasses.FrozenInstanceError):
        typed(QuestionListing, row).askers = 9


def test_a_row_missing_a_field_is_an_error_not_a_default():
    fields = [field.name for field in dataclasses.fields(LeadListing)]
    with pytest.raises(KeyError):
        typed(LeadListing, {name: None for name in fields[1:]})
