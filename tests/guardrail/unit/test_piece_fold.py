"""A text cut into pieces folds as the definition says: invisible characters cut out, a space
before a whitespace run joined to it, and the definition itself when a fold changes a length."""

from __future__ import annotations

from reversible_mask.fold_tables import INVISIBLE_BMP, fold_ascii, tables_for
from reversible_mask.piece_fold import split_view, stripped_view
from reversible_mask.text_view import reference_view


def test_a_text_cut_at_its_invisible_characters_maps_back_past_them() -> None:
    text = "Ac\u200bme  Corp"
    found = stripped_view(text, False, tables_for(False), INVISIBLE_BMP.split(text))
    assert found.folded == "acme corp"
    assert found.span(0, 4) == (0, 5)
    assert found.span(5, 9) == (7, 11)


def test_a_space_before_a_whitespace_run_joins_the_run() -> None:
    text = "a \n\nb"
    found = split_view(text, text, False, ["a ", "\n\n", "b"], False, fold_ascii, None, None)
    assert found.folded == reference_view(text, False).folded == "a b"
    assert found.span(2, 3) == (4, 5)


def test_a_fold_that_changes_a_length_falls_back_to_the_definition() -> None:
    def lengthening(text: str, case_sensitive: bool) -> str:
        return text + "!"

    found = split_view("Acme", "Acme", False, ["Acme"], False, lengthening, None, None)
    assert found == reference_view("Acme", False)
