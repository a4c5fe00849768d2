"""The model's seam (replica/chat/model.py): a failure says what failed and its HTTP status, never the
provider's message, which may quote part of the key; a turn starts empty."""

from __future__ import annotations

from replica.chat.model import ModelError, Turn


def test_a_model_error_names_the_class_and_status_only():
    error = ModelError("AuthenticationError", 401)
    assert str(error) == "AuthenticationError (HTTP status 401)"
    assert (error.kind, error.status) == ("AuthenticationError", 401)
    assert str(ModelError("APIConnectionError")) == "APIConnectionError (HTTP status none)"


def test_each_turn_has_its_own_calls():
    first, second = Turn(), Turn()
    first.calls.append("a call")
    assert second.calls == [] and (second.text, second.finish_reason) == ("", None)
