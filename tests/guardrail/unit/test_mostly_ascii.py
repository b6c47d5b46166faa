"""The cheaper routes for mostly ASCII text are taken by the texts they are meant for (that they
agree with the reference definition is checked in test_normalize.py)."""

from __future__ import annotations

from reversible_mask.fold_tables import tables_for
from reversible_mask.mostly_ascii import ascii_view, latin1_pieces, lone_spaces, one_piece
from reversible_mask.normalize import view


def test_the_stretch_paths_run() -> None:
    tables = tables_for(False)
    assert latin1_pieces("Straße und Maß", tables) == [
        "Stra",
        "ß",
        "e und Ma",
        "ß",
        "",
    ]
    assert latin1_pieces("Straße ª", tables) is None  # two kinds: the regex
    assert latin1_pieces("Stra\u00dfe \u20ac", tables) is None  # not Latin-1
    # Lone line breaks and tabs read as spaces; a whitespace run goes to the regex.
    assert latin1_pieces("Maß\nund\tMaß", tables) == ["Ma", "ß", " und Ma", "ß", ""]
    assert latin1_pieces("Maß\n\nMaß", tables) is None
    assert view("Acme\nCorp", False).fold is None  # ASCII: one to one, no pieces
    assert view("Acme\n\nCorp", False).fold is not None
    visible = "great 🎉 job ❤ Acme"
    assert one_piece(visible.encode(), "🎉❤", tables)
    assert not one_piece((visible + "\n").encode(), "🎉❤", tables)
    assert lone_spaces(b"great \xf0\x9f\x8e\x89\njob") == b"great \xf0\x9f\x8e\x89 job"
    assert lone_spaces(b"x \ny") == b"x \ny"  # a run
    assert not one_piece((visible + "  x").encode(), "🎉❤", tables)
    assert not one_piece((visible + "\u0301").encode(), "🎉❤\u0301", tables)


def test_ascii_text_is_lowered_or_cut_at_its_whitespace_runs() -> None:
    assert ascii_view("Acme Corp", False).folded == "acme corp"
    assert ascii_view("Acme Corp", True).folded == "Acme Corp"
    assert ascii_view("Acme\tCorp", False).folded == "acme corp"  # lone whitespace: a space
    runs = ascii_view("Acme \n\t Corp\x00", False)
    assert runs.folded == "acme corp\x00"
    assert runs.span(0, 9) == (0, 12)
