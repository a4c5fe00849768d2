"""What the repositories hand back: enums that are their text everywhere, and times as ISO 8601."""

from __future__ import annotations

import json

from replica.storage.records import AlertKind, Role, iso


def test_an_enum_member_is_its_text_in_fstrings_json_and_comparisons():
    assert f"{Role.VISITOR}" == "visitor" and str(AlertKind.LEAD) == "lead"
    assert AlertKind.QUESTION == "question" and json.dumps({"kind": AlertKind.LEAD}) == '{"kind": "lead"}'
    assert Role("owner") is Role.OWNER


def test_times_are_iso_8601_in_utc_to_the_second():
    assert iso(0) == "1970-01-01T00:00:00+00:00"
    assert iso(1764720000.75) == "2025-12-03T00:00:00+00:00"
    assert iso(None) is None
