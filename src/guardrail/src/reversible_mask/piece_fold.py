"""A text cut into pieces, folded: the regular stretches between the pieces in one C call per
text (offsets one to one), each irregular piece (a whitespace run, a composed cluster, a
character whose fold has another length) on its own, from a cache. A text is first cut at its
invisible characters (`stripped_view`), or the caller has cut it already (`split_view`).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from itertools import accumulate
from operator import add

from .fold_tables import INVISIBLE_BMP, SENTINEL, Tables, fold, is_mark
from .text_view import TextView, assemble, reference_view

# `"  " in text` steps through a text one character at a time; `re` jumps between spaces.
DOUBLE_SPACE = re.compile("  ")
Fold = Callable[[str, bool], str]


def stripped_view(
    text: str,
    case_sensitive: bool,
    tables: Tables,
    chunks: list[str],
    slow: bool = False,
    partial: bool = False,
    fold: Fold | None = None,
) -> TextView:
    """`chunks`: the text cut at each invisible character (one character per cut), or with
    `partial` at some of them: the fast pattern cuts at any other, which then sends the text
    back here cut at all of them. Composing marks and rare astral characters need the slow
    pattern, where any character may start a cluster. `fold`: folds the regular parts
    (default: `tables.fold_regular`)."""
    visible = "".join(chunks)
    spaced = DOUBLE_SPACE.search(visible) is not None
    parts = [] if slow else tables.fast[spaced].split(visible)
    if slow or (len(parts) > 1 and tables.unusual.search("".join(parts[1::2]))):
        if partial:
            return stripped_view(text, case_sensitive, tables, INVISIBLE_BMP.split(text))
        parts, spaced = tables.slow.split(visible), True
    kept, at = offsets(chunks)
    fold_regular = fold or tables.fold_regular
    return split_view(text, visible, case_sensitive, parts, spaced, fold_regular, kept, at)


def offsets(chunks: list[str]) -> tuple[list[int] | None, list[int] | None]:
    """`kept` and `at` of a text cut at one invisible character between chunks."""
    if len(chunks) == 1:
        return None, None
    kept = list(accumulate(map(len, chunks), initial=0))[:-1]
    return kept, list(map(add, kept, range(len(kept))))  # chunk k: k invisible ones before


def split_view(
    text: str,
    visible: str,
    case_sensitive: bool,
    pieces: list[str],
    spaced: bool,
    fold_regular: Fold,
    kept: list[int] | None,
    at: list[int] | None,
) -> TextView:
    """`pieces` alternate: regular text, an irregular piece, regular text, ... (of `visible`,
    or of a text that views alike and has its length)."""
    if len(pieces) == 1:
        folded = fold_regular(pieces[0], case_sensitive)
        if len(folded) != len(visible):
            return reference_view(text, case_sensitive)
        if kept is None:
            return TextView(text, folded)
        return TextView(text, folded, visible, kept=kept, at=at)
    parts = pieces[0::2]
    folded_parts = fold_regular(SENTINEL.join(parts), case_sensitive).split(SENTINEL)
    if list(map(len, folded_parts)) != list(map(len, parts)):
        return reference_view(text, case_sensitive)
    separators = pieces[1::2]
    folded_separators = list(map(_SEPARATOR_FOLDS[case_sensitive].__getitem__, separators))
    if not spaced and " " in folded_separators:  # a C-level test spares the Python loop
        _attach_leading_spaces(parts, folded_parts, separators, folded_separators)
        pieces[0::2], pieces[1::2] = parts, separators
    lengths = list(map(len, pieces))
    pieces[0::2], pieces[1::2] = folded_parts, folded_separators
    linear = b"\x01\x00" * (len(pieces) // 2) + b"\x01"
    return assemble(text, visible, lengths, pieces, linear, kept, at)


def _attach_leading_spaces(
    parts: list[str], folded_parts: list[str], separators: list[str], folds: list[str]
) -> None:
    """Without a run of plain spaces in the text, no pattern match starts at a space (spaces
    are everywhere), so a space just before a whitespace run is still at the end of the
    regular part before it: move it into the run."""
    for k, folded in enumerate(folds):
        if folded == " " and parts[k][-1:] == " ":
            parts[k], folded_parts[k] = parts[k][:-1], folded_parts[k][:-1]
            separators[k] = " " + separators[k]


class _SeparatorFolds(dict[str, str]):
    """Fold of each irregular piece (a whitespace run folds to one space), cached: pieces
    repeat, and a dict hit costs no Python frame. Cleared when large (hostile input)."""

    def __init__(self, case_sensitive: bool) -> None:
        super().__init__()
        self.case_sensitive = case_sensitive

    def __missing__(self, piece: str) -> str:
        if len(self) > 8192:
            self.clear()
        spaces = all(fold(c, self.case_sensitive).isspace() for c in piece)
        if spaces and not any(map(is_mark, piece)):
            folded = " "
        else:
            folded = fold(piece, self.case_sensitive)
        self[piece] = folded
        return folded


_SEPARATOR_FOLDS = {flag: _SeparatorFolds(flag) for flag in (False, True)}
