"""The automaton (ahocorasick-rs) finds every occurrence, overlapping ones included, exactly
as the reference Aho-Corasick automaton (pyahocorasick, which the matcher used before) does
over the same folded terms; lone surrogates neither break a scan nor hide a term."""

from __future__ import annotations

import ahocorasick
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reversible_mask import Masker, Registry, parse_dictionary
from reversible_mask.errors import DictionaryError
from reversible_mask.matcher import Automaton, Matcher, _occurrences, _resolve

from conftest import KEY

# Few letters, so that terms overlap, nest and share prefixes and suffixes.
LETTERS = "ab ßü😀İK"
terms = st.lists(
    st.text(alphabet=LETTERS, min_size=1, max_size=6).map(str.strip).filter(bool),
    min_size=1,
    max_size=12,
    unique_by=str.casefold,
)


def reference(automaton: Automaton, folded: str) -> list[tuple[int, int, int]]:
    """(pattern, start, end) of every occurrence, by pyahocorasick over the same keys."""
    reference = ahocorasick.Automaton()
    for pattern, key in enumerate(automaton.keys):
        reference.add_word(key, (pattern, len(key)))
    reference.make_automaton()
    return sorted(
        (pattern, last + 1 - size, last + 1) for last, (pattern, size) in reference.iter(folded)
    )


def build(words: list[str], case_sensitive: bool) -> Matcher:
    category = {"terms": words, "case_sensitive": True} if case_sensitive else words
    return Masker(parse_dictionary({"categories": {"names": category}}), KEY)._matcher


@settings(max_examples=150, deadline=None)
@given(terms, st.text(alphabet=LETTERS + "\ud800x", max_size=60), st.booleans())
def test_every_occurrence_is_the_reference_automatons(
    words: list[str], text: str, case_sensitive: bool
) -> None:
    try:
        matcher = build(words, case_sensitive)
    except DictionaryError:  # two terms that fold alike: refused at load, nothing to compare
        return
    for automaton in matcher._automata:
        for folded in (text, text.casefold()):
            assert sorted(_occurrences(automaton, folded)) == reference(automaton, folded)


def test_a_lone_surrogate_in_the_text_hides_no_term() -> None:
    masker = Masker(parse_dictionary({"categories": {"names": ["Acme Corp"]}}), KEY)
    masked = masker.mask("\ud800Acme Corp\udfff and acme corp", registry=Registry())
    assert "Acme" not in masked and "acme" not in masked
    assert masked.startswith("\ud800[[") and "\udfff and [[" in masked


def test_a_term_with_a_lone_surrogate_is_refused_at_load() -> None:
    with pytest.raises(DictionaryError, match="surrogate"):
        Masker(parse_dictionary({"categories": {"names": ["Acme\ud800", "Globex"]}}), KEY)


def test_ascii_text_is_scanned_for_the_ascii_terms_of_a_mixed_dictionary() -> None:
    """ASCII text goes to the bytes automaton of the ASCII keys alone: its pattern numbers are
    mapped back to the full automaton's, so each match still names its own term."""
    masker = Masker(
        parse_dictionary({"categories": {"names": ["Müller", "Acme", "Zoë", "Bo"]}}), KEY
    )
    automaton = masker._matcher._automata[0]
    assert automaton.ascii_keys is not None  # some keys are not ASCII
    for text in ("Acme and Bo", "Bo, Acme", "Muller Zoe"):
        folded = text.lower()
        assert sorted(_occurrences(automaton, folded)) == reference(automaton, folded)
    registry = Registry()
    masked = masker.mask("Bo met Acme; Müller met Zoë", registry=registry)
    assert masked.count("[[NAMES_") == 4 and masker.unmask(masked, registry) == (
        "Bo met Acme; Müller met Zoë"
    )


words = st.lists(st.sampled_from(["ab", "abc", "bc", "b c", "ca", "x"]), min_size=1, unique=True)


@settings(max_examples=150, deadline=None)
@given(words, st.text(alphabet="abc x_", max_size=40), st.booleans())
def test_matches_kept_as_found_are_the_resolved_ones(
    terms: list[str], text: str, whole_word: bool
) -> None:
    """`find` keeps the scan's matches as they are when they come in order and apart; the
    result is always what full leftmost-longest resolution chooses."""
    category = {"terms": terms, "whole_word": whole_word}
    matcher = Masker(parse_dictionary({"categories": {"names": category}}), KEY)._matcher
    found: list = []
    for automaton in matcher._automata:
        matcher._scan(text, automaton, None, found)
    assert matcher.find(text, None, []) == _resolve(found, [])
