from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reversible_mask import Masker, Registry, ScopeError
from reversible_mask.errors import DictionaryError
from reversible_mask.placeholder import PATTERN

from conftest import KEY, make, request, round_trip


def test_longest_match_wins(masker: Masker) -> None:
    masked, registry = request(masker, "Acme Corporation and Acme")
    tokens = PATTERN.findall(masked)
    assert len(tokens) == 2 and tokens[0][1] == tokens[1][1]  # one entity, two spellings
    assert masker.unmask(masked, registry) == "Acme Corporation and Acme"
    assert "Corporation" not in masked


def test_whole_word_terms_do_not_match_inside_words(masker: Masker) -> None:
    assert request(masker, "Acmeville and preGlobex")[0] == "Acmeville and preGlobex"


def test_substring_category_matches_inside_words() -> None:
    masker = make({"codes": {"whole_word": False, "terms": ["XJ9"]}})
    masked, registry = request(masker, "modelXJ9b")
    assert "XJ9" not in masked and masker.unmask(masked, registry) == "modelXJ9b"


@pytest.mark.parametrize(
    "text",
    [
        "ACME CORPORATION",
        "acme corporation",
        "AcMe CoRpOrAtIoN",
        "ＡＣＭＥ Corporation",  # full-width compatibility letters
        "Acme\u00a0Corporation",  # no-break space
        "Acme  Corporation",  # a run of spaces
        "Acme\tCorporation",
        "Acme\nCorporation",
        "Acme\r\n   Corporation",
        "Acme \u200b Corporation",
        "Ac\u200bme Corporation",  # zero-width space
        "Ac\u200dme Corp\u200coration",  # zero-width joiner, non-joiner
        "Ac\u00adme Corporation",  # soft hyphen
        "Acme\u2060Corporation",  # word joiner between the words: no space, so not the term
        "\ufeffAcme Corporation",  # BOM
        "A\u200ec\u200fme Corporation",  # bidi marks
    ],
)
def test_variants_are_masked_and_restored_exactly(masker: Masker, text: str) -> None:
    sample = f"about {text}."
    masked, registry = request(masker, sample)
    visible = "".join(c for c in masked if c.isprintable()).lower()
    assert "acme" not in visible and "ａｃｍｅ" not in visible
    assert masker.unmask(masked, registry) == sample


def test_a_term_written_with_a_line_break_is_one_placeholder(masker: Masker) -> None:
    masked, registry = request(masker, "Project\n  Bluebird is late")
    assert PATTERN.fullmatch(masked.split(" is")[0])
    assert registry.get(masked.split(" is")[0]) == "Project\n  Bluebird"


def test_invisible_characters_at_the_edges_stay_outside_the_placeholder(masker: Masker) -> None:
    masked, registry = request(masker, "x \u200bGlobex\u200b y")
    assert masked.startswith("x \u200b[[CLIENTS_") and masked.endswith("]]\u200b y")
    assert masker.unmask(masked, registry) == "x \u200bGlobex\u200b y"


def test_canonical_spelling_gets_the_short_placeholder_others_a_tag(masker: Masker) -> None:
    assert PATTERN.fullmatch(request(masker, "Acme Corporation")[0]).group(3) is None
    alias = PATTERN.fullmatch(request(masker, "Acme Corp")[0])
    variant = PATTERN.fullmatch(request(masker, "ACME CORP")[0])
    assert len(alias.group(3)) == 8 and len(variant.group(3)) == 8
    assert alias.group(2) == variant.group(2)  # one entity id: the model can tell it is one client


def test_decomposed_and_eszett_spellings() -> None:
    masker = make({"people": ["Jürgen Straße"]})
    for text in ["Jürgen Straße", "Ju\u0308rgen Straße", "JÜRGEN STRASSE", "jürgen strasse"]:
        masked, registry = request(masker, text)
        assert PATTERN.fullmatch(masked), (text, masked)
        assert masker.unmask(masked, registry) == text


def test_match_never_splits_a_combining_sequence() -> None:
    masker = make({"a": {"whole_word": False, "terms": ["cafe"]}})
    for text in ["cafe\u0301", "cafe\u0323"]:  # a composing and a non-composing accent
        assert request(masker, text)[0] == text


def test_case_sensitive_category(masker: Masker) -> None:
    assert request(masker, "Jane Müller", "strict")[0] != "Jane Müller"
    assert request(masker, "JANE MÜLLER", "strict")[0] == "JANE MÜLLER"
    assert request(masker, "Jane  Mu\u0308ller", "strict")[0].startswith("[[PEOPLE_")


def test_placeholders_are_deterministic_per_key() -> None:
    categories = {"clients": ["Globex"]}
    first = request(make(categories), "Globex")[0]
    assert request(make(categories), "Globex")[0] == first
    assert request(make(categories, key=b"other-org-key-0123456789abcdef012"), "Globex")[0] != first


def test_per_scope_keys_give_each_scope_its_own_placeholders() -> None:
    scopes = {"a": ["clients"], "b": ["clients"]}
    shared = make({"clients": ["Globex"]}, scopes)
    assert request(shared, "Globex", "a")[0] == request(shared, "Globex", "b")[0]
    per_scope = make({"clients": ["Globex"]}, scopes, key_per_scope=True)
    in_a, registry_a = request(per_scope, "Globex", "a")
    in_b, registry_b = request(per_scope, "Globex", "b")
    assert in_a != in_b
    assert per_scope.unmask(in_a, registry_a) == "Globex" == per_scope.unmask(in_b, registry_b)


def test_logging_mode_is_idempotent_and_keeps_tokens(masker: Masker) -> None:
    text = "Acme Corp, ACME, Globex and Project Bluebird, [[CLIENTS_aaaaaaaaaa]]"
    once = masker.mask(text)
    assert masker.mask(once) == once
    assert "[[CLIENTS_aaaaaaaaaa]]" in once


def test_only_placeholders_this_request_minted_are_restored(masker: Masker) -> None:
    masked, registry = request(masker, "Globex")
    other = Registry()
    assert masker.unmask(masked, other) == masked  # copied from a log into another request
    assert masker.unmask(masked, registry) == "Globex"
    alias = masked[:-2] + "_a1]]"
    assert masker.unmask(alias, registry) == alias  # no suffix enumerates spellings


def test_placeholder_shaped_client_text_is_masked_and_restored_exactly(masker: Masker) -> None:
    known = request(masker, "Globex")[0]  # a valid placeholder, as seen in a log
    text = f"Globex is {known}? and [[FOO_bbbbbbbbbb]] and [[NOTE]]"
    masked, registry = request(masker, text)
    tokens = PATTERN.findall(masked)
    assert [t[0] for t in tokens] == ["CLIENTS", "LITERAL", "LITERAL"]
    assert masked.count(known) == 1  # the provider cannot see that the two are the same
    assert "[[NOTE]]" in masked
    assert masker.unmask(masked, registry) == text


def test_json_string_unmask_escapes_the_original() -> None:
    masker = make({"clients": {"whole_word": False, "terms": ['Acme "Quoted" \\ Co']}})
    masked, registry = request(masker, 'Acme "Quoted" \\ Co')
    restored = masker.unmask(json.dumps({"company": masked}), registry, json_string=True)
    assert json.loads(restored) == {"company": 'Acme "Quoted" \\ Co'}


def test_scopes(masker: Masker) -> None:
    assert masker.categories_for(None) == {"clients", "projects", "customers"}
    assert masker.scopes == {"standard", "strict", "clients_only"}
    assert request(masker, "Skyhook at Globex", "clients_only")[0].startswith(
        "Skyhook at [[CLIENTS_"
    )
    with pytest.raises(ScopeError, match="unknown guard scope 'nope'.*standard"):
        masker.target("nope")


def test_empty_and_term_free_text_is_unchanged(masker: Masker) -> None:
    assert request(masker, "")[0] == ""
    assert request(masker, "nothing to see [here]")[0] == "nothing to see [here]"
    assert masker.unmask("no placeholders", Registry()) == "no placeholders"


def test_large_dictionary_masks_every_term() -> None:
    terms = [f"client{i:05d} ltd" for i in range(20_000)]
    masker = make({"clients": terms})
    text = " ".join(terms[::997])
    masked, registry = request(masker, text)
    assert "client" not in masked and masker.unmask(masked, registry) == text


def test_restore_token(masker: Masker) -> None:
    masked, registry = request(masker, "Globex")
    assert masker.restore_token(masked, registry) == "Globex"
    assert masker.restore_token("not a token", registry) == "not a token"


def test_category_name_is_upper_cased() -> None:
    assert request(make({"Clients": ["Globex"]}, key=KEY), "Globex")[0].startswith("[[CLIENTS_")


def test_two_spellings_colliding_in_one_request_get_longer_tags(masker: Masker) -> None:
    masked, registry = request(masker, "Globex")
    registry.claim("[[CLIENTS_" + masked[10:20] + "_" + "a" * 8 + "]]", "x")
    clash = Registry()
    clash.claim(masked, "something else")  # the canonical token is taken in this request
    again = masker.mask("Globex", masker.target(None), clash)
    assert again != masked and PATTERN.fullmatch(again) and masker.unmask(again, clash) == "Globex"


def test_mixed_dictionary_reaches_a_fixpoint() -> None:
    masker = make({"words": ["x"], "codes": {"whole_word": False, "terms": ["Acme"]}})
    once = masker.mask("xAcme")  # "x" is a whole word once "Acme" is a placeholder
    assert once.startswith("[[WORDS_") and masker.mask(once) == once
    assert round_trip(masker, "xAcme") == "xAcme"


def test_text_shorter_than_every_term_still_has_its_placeholder_shapes_masked() -> None:
    masker = make({"clients": ["Extremely Long Company Name Ltd"]})
    client_text = "[[CLIENTS_abcdefghij]]"  # shorter than the only term, shaped like a placeholder
    masked, registry = request(masker, client_text)
    assert PATTERN.findall(masked)[0][0] == "LITERAL"
    assert masker.unmask(masked, registry) == client_text
    short = "role"
    assert request(masker, short)[0] is short  # nothing to find: the very object comes back


def test_counts_are_by_category_and_leave_literal_placeholders_out() -> None:
    """One category's name may start another's ("client", "clients"): each counts its own."""
    masker = make({"client": ["Acme"], "clients": ["Globex", "Initech"]})
    registry = Registry()
    masker.mask("Acme, Globex, Initech, Globex and [[CLIENT_aaaaaaaaaa]]", registry=registry)
    assert masker.counts(registry) == {"CLIENT": 1, "CLIENTS": 2}
    assert masker.counts(Registry()) == {}


def test_overlapping_matches_leave_only_the_chosen_placeholders_in_the_registry() -> None:
    """An overlap sends the text to leftmost-longest resolution: the registry (and the counts)
    hold only the chosen matches' placeholders."""
    masker = make({"codes": {"whole_word": False, "terms": ["bc", "abcd", "xy"]}})
    masked, registry = request(masker, "xy abcd")
    assert len(registry) == 2 and masker.counts(registry) == {"CODES": 2}
    assert masker.unmask(masked, registry) == "xy abcd"
    assert masked == masker.mask("xy abcd", masker.target(None), Registry())


def test_a_whole_word_term_is_bounded_only_where_it_has_a_word_character() -> None:
    """`C++` continues no word on its right, `-ish` none on its left: only the other ends are
    checked (the plain path reads this from the term)."""
    masker = make({"codes": ["C++", "-ish"]})
    masked, registry = request(masker, "C++x xC++ C++ grey-ish -ishy")
    kept = [part for part in masked.split(" ") if "[[" not in part]
    assert kept == ["xC++", "-ishy"] and len(registry) == 2
    assert masker.unmask(masked, registry) == "C++x xC++ C++ grey-ish -ishy"


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.sampled_from(["ab", "abc", "bc", "b c", "ca", "Ab", "x", "b-", "-a", "x.b"]),
        min_size=1,
        unique=True,
    ),
    st.text(alphabet="abcABx _\n-.", max_size=40),
    st.booleans(),
)
def test_the_plain_path_masks_as_the_general_one(
    terms: list[str], text: str, whole_word: bool
) -> None:
    try:
        masker = make({"codes": {"whole_word": whole_word, "terms": terms}})
    except DictionaryError:  # two terms that fold alike
        return
    fast, fast_registry = request(masker, text)
    general = make({"codes": {"whole_word": whole_word, "terms": terms}})
    general._matcher.plain_matches = lambda text: None  # type: ignore[method-assign]
    slow, slow_registry = request(general, text)
    assert fast == slow and masker.counts(fast_registry) == general.counts(slow_registry)
    assert masker.mask(text) == general.mask(text)
