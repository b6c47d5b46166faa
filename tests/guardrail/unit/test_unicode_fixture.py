"""fixtures/guardrail/unicode.json: accents, eszett, ligature-free folding, CJK without spaces."""

from __future__ import annotations

from pathlib import Path

import pytest

from reversible_mask import Masker, load_dictionary

from conftest import KEY, request

FIXTURE = Path(__file__).resolve().parents[3] / "fixtures" / "guardrail" / "unicode.json"


@pytest.fixture(scope="module")
def masker() -> Masker:
    return Masker(load_dictionary(FIXTURE), KEY)


@pytest.mark.parametrize(
    ("text", "hidden"),
    [
        ("Termin mit JÜRGEN STRASSE morgen", "JÜRGEN"),
        ("Termin mit Ju\u0308rgen Straße morgen", "Straße"),
        ("zoë ångström joined", "zoë"),
        ("Paris, Île-de-France", "Île"),
        ("本日は株式会社アクメの東京", "アクメ"),
        ("我们的东京分公司很好", "东京分公司"),
    ],
)
def test_unicode_terms_are_masked_and_restored(masker: Masker, text: str, hidden: str) -> None:
    masked, registry = request(masker, text)
    assert hidden not in masked
    assert masker.unmask(masked, registry) == text


def test_case_sensitive_place_keeps_other_casing(masker: Masker) -> None:
    assert request(masker, "ÎLE-DE-FRANCE")[0] == "ÎLE-DE-FRANCE"


def test_scope_limits_categories(masker: Masker) -> None:
    assert request(masker, "Île-de-France", "people_only")[0] == "Île-de-France"
    assert masker.categories_for(None) == {"people", "places", "cjk"}
