"""The matching view of a text, fast: the same result as `text_view.reference_view`, at C speed
for the regular stretches.

Invisible characters are cut out with one C regex call. The rest is split (one more call) only
where folding is not one character for one character (whitespace other than a lone space,
composed clusters, characters such as "ß" or "ﬁ" whose fold has another length); everything in
between is folded in one C call per text, offsets one to one (`piece_fold`). Text that is
mostly ASCII takes cheaper routes to the same pieces (`mostly_ascii`). Which characters are
irregular is computed once per process from the running Python's Unicode tables (about 0.3 s),
so the fast path agrees with `reference_view`; a property test checks it on arbitrary text, and
a length check falls back to the reference if they ever disagreed.
"""

from __future__ import annotations

from .fold_tables import INVISIBLE_BMP, tables_for
from .mostly_ascii import ascii_view, astral_view, latin1_pieces
from .piece_fold import DOUBLE_SPACE, split_view, stripped_view
from .text_view import TextView, reference_view


def fold_term(term: str, case_sensitive: bool) -> str:
    return reference_view(term, case_sensitive).folded


def view(text: str, case_sensitive: bool) -> TextView:
    """Same result as `reference_view`, at C speed for the regular stretches."""
    if text.isascii():
        return ascii_view(text, case_sensitive)
    tables = tables_for(case_sensitive)
    if len(text.encode("utf-16-le", "surrogatepass")) != 2 * len(text):
        return astral_view(text, case_sensitive, tables)  # runs of spaces: in the visible text
    spaced = DOUBLE_SPACE.search(text) is not None
    pieces = None if spaced else latin1_pieces(text, tables)
    if pieces is None:
        pieces = tables.fast[spaced].split(text)
    if len(pieces) > 1 and tables.unusual.search("".join(pieces[1::2])):
        return stripped_view(text, case_sensitive, tables, INVISIBLE_BMP.split(text))
    return split_view(text, text, case_sensitive, pieces, spaced, tables.fold_regular, None, None)
