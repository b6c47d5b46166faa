from __future__ import annotations

import json
from pathlib import Path

import pytest

from reversible_mask import DictionaryError, Masker, load_dictionary, parse_dictionary

from conftest import EXAMPLE, KEY, make, request, round_trip


def test_example_dictionary_loads_with_scopes_and_aliases() -> None:
    dictionary = load_dictionary(EXAMPLE)
    assert dictionary.default_scope == "standard"
    assert dictionary.scopes["strict"] == {"clients", "projects", "people", "customers"}
    assert [(p.category, p.source) for p in dictionary.patterns] == [("customers", "CUST-[0-9]{6}")]
    acme = next(e for e in dictionary.entities if e.term == "Acme Corporation")
    assert acme.aliases == ("Acme Corp", "Acme") and acme.whole_word and not acme.case_sensitive


def test_json_dictionary_is_read_by_extension(tmp_path: Path) -> None:
    path = tmp_path / "terms.json"
    path.write_text(json.dumps({"categories": {"clients": ["Acme"]}}), encoding="utf-8")
    dictionary = load_dictionary(path)
    assert [e.term for e in dictionary.entities] == ["Acme"]
    assert dictionary.scopes == {"default": frozenset({"clients"})}


def test_missing_file_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(DictionaryError, match="not found"):
        load_dictionary(tmp_path / "nope.yaml")


def test_malformed_yaml_is_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text("categories: [unclosed", encoding="utf-8")
    with pytest.raises(DictionaryError, match="not valid"):
        load_dictionary(path)


@pytest.mark.parametrize(
    ("document", "message"),
    [
        ([], "top level"),
        ({"categories": {}}, "non-empty mapping"),
        ({"categories": {"a": ["x"]}, "extra": 1}, "unknown top-level"),
        ({"version": 2, "categories": {"a": ["x"]}}, "version 1"),
        ({"categories": {"bad name": ["x"]}}, "category name"),
        ({"categories": {"a": {"terms": ["x"], "colour": 1}}}, "unknown keys"),
        ({"categories": {"a": {"terms": ["x"], "whole_word": "yes"}}}, "booleans"),
        ({"categories": {"a": {"terms": []}}}, "non-empty list"),
        ({"categories": {"a": [""]}}, "non-empty strings"),
        ({"categories": {"a": [" x"]}}, "whitespace"),
        ({"categories": {"a": ["a [[b"]}}, "placeholders use"),
        ({"categories": {"a": ["x" * 201]}}, "longer than"),
        ({"categories": {"a": [{"term": "x", "aliases": "y"}]}}, "list of strings"),
        ({"categories": {"a": [{"term": "x", "other": 1}]}}, "mapping with 'term'"),
        ({"categories": {"literal": ["x"]}}, "reserved"),
        ({"categories": {"Literal": ["x"]}}, "reserved"),
        ({"categories": {"a": ["\u0301x"]}}, "combining mark"),
        ({"categories": {"a": ["x"]}, "scopes": {"s": ["b"]}, "default_scope": "s"}, "unknown"),
        ({"categories": {"a": ["x"]}, "scopes": {"s": ["a"]}}, "default_scope 'default'"),
        ({"categories": {"a": ["x"]}, "scopes": {"bad scope": ["a"]}}, "scope name"),
        ({"categories": {"a": ["x"]}, "scopes": []}, "'scopes' must be"),
    ],
)
def test_malformed_documents_name_the_problem(document: object, message: str) -> None:
    with pytest.raises(DictionaryError, match=message):
        parse_dictionary(document)


@pytest.mark.parametrize(
    ("categories", "name"),
    [
        ({"a": ["Acme"], "b": ["ACME"]}, "case"),
        ({"a": ["Acme", "Acme"]}, "duplicate"),
        ({"a": ["Acme Corp"], "b": ["ACME  corp"]}, "whitespace run"),
        ({"a": ["Acme"], "b": ["Ac\u200bme"]}, "invisible character"),
    ],
)
def test_spellings_equal_after_folding_in_two_entities_are_rejected(
    categories: dict, name: str
) -> None:
    with pytest.raises(DictionaryError, match="are the same after case, Unicode, whitespace"):
        make(categories)


@pytest.mark.parametrize("term", ["\u200b\u200d", "\u00ad", "\ufe0f"])
def test_terms_of_invisible_characters_only_are_rejected(term: str) -> None:
    with pytest.raises(DictionaryError):
        make({"a": [term]})


def test_same_spelling_as_alias_of_its_own_entity_is_fine() -> None:
    masker = make({"a": [{"term": "Acme", "aliases": ["ACME"]}]})
    assert round_trip(masker, "ACME") == "ACME"


def test_placeholders_depend_on_the_key() -> None:
    dictionary = load_dictionary(EXAMPLE)
    first, _ = request(Masker(dictionary, KEY), "Globex")
    second, _ = request(Masker(dictionary, b"another-key-0123456789abcdef0123"), "Globex")
    assert first != second and first.startswith("[[CLIENTS_")
