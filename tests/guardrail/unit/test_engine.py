from __future__ import annotations

import json

import pytest

from reversible_mask import Masker, ScopeError
from reversible_mask.placeholder import PATTERN

from conftest import KEY, make


def test_longest_match_wins(masker: Masker) -> None:
    masked = masker.mask("Acme Corporation and Acme")
    tokens = PATTERN.findall(masked)
    assert len(tokens) == 2 and tokens[0][1] == tokens[1][1]  # one entity, two spellings
    assert masker.unmask(masked) == "Acme Corporation and Acme"
    assert "Corporation" not in masked


def test_whole_word_terms_do_not_match_inside_words(masker: Masker) -> None:
    assert masker.mask("Acmeville and preGlobex") == "Acmeville and preGlobex"


def test_substring_category_matches_inside_words() -> None:
    masker = make({"codes": {"whole_word": False, "terms": ["XJ9"]}})
    masked = masker.mask("modelXJ9b")
    assert "XJ9" not in masked and masker.unmask(masked) == "modelXJ9b"


@pytest.mark.parametrize(
    "text",
    [
        "ACME CORPORATION",
        "acme corporation",
        "AcMe CoRpOrAtIoN",
        "ＡＣＭＥ Corporation",  # full-width compatibility letters
        "Acme\u00a0Corporation",  # no-break space (NFKC -> space)
    ],
)
def test_case_and_unicode_variants_are_masked_and_restored_exactly(
    masker: Masker, text: str
) -> None:
    masked = masker.mask(f"about {text}.")
    assert "acme" not in masked.lower() and "ａｃｍｅ" not in masked.lower()
    assert masker.unmask(masked) == f"about {text}."


def test_canonical_and_alias_spellings_get_short_placeholders(masker: Masker) -> None:
    assert PATTERN.fullmatch(masker.mask("Acme Corporation")).group(3) is None
    assert PATTERN.fullmatch(masker.mask("Acme Corp")).group(3) == "a1"
    assert PATTERN.fullmatch(masker.mask("ACME CORP")).group(3).startswith("x")


def test_decomposed_and_eszett_spellings() -> None:
    masker = make({"people": ["Jürgen Straße"]})
    for text in ["Jürgen Straße", "Ju\u0308rgen Straße", "JÜRGEN STRASSE", "jürgen strasse"]:
        masked = masker.mask(text)
        assert PATTERN.fullmatch(masked), (text, masked)
        assert masker.unmask(masked) == text


def test_match_never_splits_a_combining_sequence() -> None:
    masker = make({"a": {"whole_word": False, "terms": ["cafe"]}})
    text = "cafe\u0301"  # "café" with a combining accent: not the term "cafe"
    assert masker.mask(text) == text


def test_case_sensitive_category(masker: Masker) -> None:
    strict = masker.categories_for("strict")
    assert masker.mask("Jane Müller", strict) != "Jane Müller"
    assert masker.mask("JANE MÜLLER", strict) == "JANE MÜLLER"


def test_placeholders_are_deterministic_per_key() -> None:
    categories = {"clients": ["Globex"]}
    first = make(categories).mask("Globex")
    assert make(categories).mask("Globex") == first
    assert make(categories, key=b"other-org-key-0123456789abcdef012").mask("Globex") != first


def test_masking_is_idempotent(masker: Masker) -> None:
    text = "Acme Corp, ACME, Globex and Project Bluebird"
    once = masker.mask(text)
    assert masker.mask(once) == once
    assert masker.unmask(once) == text


def test_foreign_placeholder_shaped_text_is_never_corrupted(masker: Masker) -> None:
    text = "keep [[CLIENTS_aaaaaaaaaa]] and [[X_bbbbbbbbbb_a1]] and [[NOTE]] with Globex"
    masked = masker.mask(text)
    assert masked.startswith("keep [[CLIENTS_aaaaaaaaaa]] and [[X_bbbbbbbbbb_a1]] and [[NOTE]]")
    assert masker.unmask(masked) == text


def test_tampered_or_unknown_variants_stay_literal(masker: Masker) -> None:
    token = masker.mask("ACME")
    tampered = token[:-4] + ("a" if token[-4] != "a" else "b") + token[-3:]
    assert masker.unmask(tampered) == tampered
    alias = masker.mask("Globex")[:-2] + "_a9]]"
    assert masker.unmask(alias) == alias


def test_json_string_unmask_escapes_the_original() -> None:
    masker = make({"clients": {"whole_word": False, "terms": ['Acme "Quoted" \\ Co']}})
    arguments = json.dumps({"company": 'Acme "Quoted" \\ Co'})
    masked = masker.mask(json.loads(arguments)["company"])
    restored = masker.unmask(json.dumps({"company": masked}), json_string=True)
    assert json.loads(restored) == {"company": 'Acme "Quoted" \\ Co'}


def test_scopes(masker: Masker) -> None:
    assert masker.categories_for(None) == {"clients", "projects"}
    assert masker.scopes == {"standard", "strict", "clients_only"}
    only = masker.categories_for("clients_only")
    assert masker.mask("Skyhook at Globex", only).startswith("Skyhook at [[CLIENTS_")
    with pytest.raises(ScopeError, match="unknown guard scope 'nope'.*standard"):
        masker.categories_for("nope")


def test_empty_and_term_free_text_is_unchanged(masker: Masker) -> None:
    assert masker.mask("") == ""
    assert masker.mask("nothing to see [here]") == "nothing to see [here]"
    assert masker.unmask("no placeholders") == "no placeholders"


def test_large_dictionary_masks_every_term() -> None:
    terms = [f"client{i:05d} ltd" for i in range(20_000)]
    masker = make({"clients": terms})
    text = " ".join(terms[::997])
    masked = masker.mask(text)
    assert "client" not in masked and masker.unmask(masked) == text


def test_restore_token(masker: Masker) -> None:
    assert masker.restore_token(masker.mask("Globex")) == "Globex"
    assert masker.restore_token("not a token") == "not a token"


def test_key_length_independent_of_category_case() -> None:
    masker = make({"Clients": ["Globex"]}, key=KEY)
    assert masker.mask("Globex").startswith("[[CLIENTS_")
