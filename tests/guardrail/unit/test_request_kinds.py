"""The adapter's classification of requests, without LiteLLM."""

from __future__ import annotations

import pytest

from reversible_mask.errors import RefusedRequestError
from reversible_mask.request_kinds import (
    NON_TEXT_CALL_TYPES,
    call_type_name,
    internal_keys,
    refuse_mixed_streams,
)


def test_provider_bound_params_stay_text_even_when_litellm_lists_them() -> None:
    keys = internal_keys(["api_version", "headers", "extra_headers", "timeout"])
    assert {"api_version", "timeout", "metadata", "litellm_metadata"} <= keys
    assert "headers" not in keys and "extra_headers" not in keys
    assert "messages" not in keys and "user" not in keys


class _CallType:
    value = "aembedding"


def test_call_type_names_come_from_enums_and_strings_alike() -> None:
    assert call_type_name(_CallType()) == "aembedding" in NON_TEXT_CALL_TYPES
    assert call_type_name("acompletion") == "acompletion" not in NON_TEXT_CALL_TYPES


@pytest.mark.parametrize("body", [{"stream": True, "n": 2}, {"stream": True, "n": 5}])
def test_streams_with_several_choices_are_refused(body: dict) -> None:
    with pytest.raises(RefusedRequestError, match="n > 1"):
        refuse_mixed_streams(body)


@pytest.mark.parametrize(
    "body", [{"stream": True, "n": 1}, {"stream": False, "n": 2}, {"n": 3}, {"stream": True}]
)
def test_other_shapes_pass(body: dict) -> None:
    refuse_mixed_streams(body)
