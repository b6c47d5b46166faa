"""The view's definition, one cluster at a time, and its map back to the original text."""

from __future__ import annotations

from reversible_mask.text_view import reference_view


def test_the_definition_folds_case_width_and_whitespace_and_drops_invisibles() -> None:
    assert reference_view("a\u2028\u00a0\tb", False).folded == "a b"  # a run: one space
    assert reference_view("\ufb01le ΟΔΟΣ", False).folded == "file οδοσ"
    assert reference_view("\ufb01le ΟΔΟΣ", True).folded == "file ΟΔΟΣ"
    assert reference_view("x\U000e0041\ufe0fy", False).folded == "xy"  # a tag, a selector
    assert reference_view("\uff21e\u0301", False).folded == "a\u00e9"  # full width; composed


def test_a_span_maps_back_over_invisible_characters_and_whole_clusters_only() -> None:
    text = "x Ac\u200bme"
    found = reference_view(text, False)
    assert found.folded == "x acme"
    assert found.span(2, 6) == (2, 7)  # "Ac\u200bme": the invisible character inside
    clustered = reference_view("ae\u0301b", False)  # "a", "é" (one cluster), "b"
    assert clustered.span(0, 2) == (0, 3)
    assert clustered.span(0, 1) == (0, 1)
    strasse = reference_view("Straße", False)
    assert strasse.span(0, 5) is None  # ends inside "ss", the fold of "ß"
    assert strasse.span(0, 6) == (0, 5)
    assert strasse.span(0, 7) == (0, 6)
