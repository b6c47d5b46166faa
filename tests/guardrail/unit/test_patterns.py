"""Pattern entries: emails, customer ids and the like, masked reversibly and deterministically
beside the terms; patterns RE2 cannot run in linear time are refused at load."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reversible_mask import DictionaryError, Masker, parse_dictionary
from reversible_mask.placeholder import Registry

KEY = b"pattern-test-org-key-0123456789abcdef"
EMAIL = r"[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}"
DOCUMENT = {
    "categories": {
        "clients": ["Globex"],
        "customers": {"patterns": ["CUST-[0-9]{6}"]},
        "emails": {"patterns": [EMAIL]},
    }
}
MASKER = Masker(parse_dictionary(DOCUMENT), KEY)


def test_matches_are_masked_reversibly_and_deterministically() -> None:
    text = "Globex: CUST-123456 mailed jane@globex.example; CUST-123456 again, CUST-999999."
    registry = Registry()
    masked = MASKER.mask(text, registry=registry)
    assert "CUST-" not in masked and "@" not in masked and "Globex" not in masked
    assert masked.count("[[CUSTOMERS_") == 3 and masked.count("[[EMAILS_") == 1
    assert MASKER.unmask(masked, registry) == text
    assert MASKER.mask("CUST-123456", registry=Registry()) in masked  # same text, same token
    assert MASKER.counts(registry) == {"CLIENTS": 1, "CUSTOMERS": 2, "EMAILS": 1}


def test_a_scope_without_the_category_leaves_its_matches() -> None:
    document = {**DOCUMENT, "scopes": {"narrow": ["clients"]}, "default_scope": "narrow"}
    masker = Masker(parse_dictionary(document), KEY)
    masked = masker.mask("CUST-123456 at Globex", masker.target(None), Registry())
    assert masked.startswith("CUST-123456 at [[CLIENTS_")


@pytest.mark.parametrize(
    ("pattern", "message"),
    [
        (r"(a)\1", "without backreferences or lookaround"),
        (r"(?=x)ab", "without backreferences or lookaround"),
        ("x*", "matches the empty string"),
        ("a" * 1001, "longer than 1000"),
        (7, "non-empty strings"),
    ],
)
def test_patterns_that_cannot_run_bounded_are_refused(pattern: object, message: str) -> None:
    with pytest.raises(DictionaryError, match=message):
        parse_dictionary({"categories": {"ids": {"patterns": [pattern]}}})


def test_a_nested_quantifier_runs_in_linear_time_on_hostile_input() -> None:
    """(a+)+$ backtracks exponentially in Python's re; RE2 has no backtracking at all."""
    masker = Masker(parse_dictionary({"categories": {"ids": {"patterns": ["(a+)+$"]}}}), KEY)
    hostile = "a" * 5000 + "!"
    assert masker.mask(hostile, registry=Registry()) == hostile


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.one_of(
            st.text(alphabet="abc -.@!", max_size=12),
            st.from_regex(r"CUST-[0-9]{6}", fullmatch=True),
            st.from_regex(r"[a-z]{1,5}@[a-z]{1,5}\.(com|org)", fullmatch=True),
            st.just("Globex"),
        ),
        max_size=12,
    )
)
def test_round_trip_and_nothing_left(parts: list[str]) -> None:
    text = " ".join(parts)
    registry = Registry()
    masked = MASKER.mask(text, registry=registry)
    assert MASKER.unmask(masked, registry) == text
    assert "CUST-" not in masked.replace("[[CUSTOMERS_", "")
