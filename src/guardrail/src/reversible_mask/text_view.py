"""The matching view of a text, defined: what the automaton scans, with a map back to original
offsets.

The view is defined by `reference_view`, one step at a time:

1. invisible characters (Unicode Default_Ignorable_Code_Point: zero-width space, joiner and
   non-joiner, soft hyphen, word joiner, BOM, bidi controls, variation selectors, tags, ...) are
   removed;
2. what remains is cut into clusters (a character plus the combining marks after it), and each
   cluster is folded: NFKC, and unless case-sensitive, case folding then NFKC again;
3. every run of clusters that fold to whitespace becomes one space.

So "ACME  Corp", "acme\\ncorp", "Ac\\u200bme Corp" and full-width "ＡＣＭＥ Corp" all read
"acme corp". A match maps back to whole clusters only: it never starts at a combining mark or
ends just before one. `normalize.view` computes the same view fast.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass
from itertools import accumulate

from .fold_tables import fold, is_ignorable, is_mark


@dataclass(frozen=True)
class TextView:
    """`folded` is what the automaton scans; `visible` is the text without invisible
    characters. The visible text is cut into pieces: piece k covers visible[orig[k]:orig[k+1]]
    and folded[fold[k]:fold[k+1]]; a linear piece maps offsets one to one, any other piece is
    atomic (a match may only start or end at its edges). `fold is None`: one to one throughout.
    `kept`/`at` map visible offsets back: visible[kept[j]:kept[j+1]] is text[at[j]:...]."""

    text: str
    folded: str
    visible: str = ""
    fold: list[int] | None = None
    orig: list[int] | None = None
    linear: bytes = b""
    kept: list[int] | None = None
    at: list[int] | None = None

    def span(self, start: int, end: int) -> tuple[int, int] | None:
        """Original offsets of folded[start:end], or None when that cuts through a piece or
        starts or ends next to a combining mark (inside a cluster)."""
        found = self._visible_span(start, end)
        if found is None:
            return None
        first, last = found
        visible = self.visible or self.text
        head = visible[first]
        if head >= "\u0300" and is_mark(head):
            return None
        if last < len(visible) and visible[last] >= "\u0300" and is_mark(visible[last]):
            return None
        if self.kept is None or self.at is None:
            return first, last
        k = bisect_right(self.kept, first) - 1
        j = bisect_right(self.kept, last - 1) - 1
        return self.at[k] + first - self.kept[k], self.at[j] + last - self.kept[j]

    def _visible_span(self, start: int, end: int) -> tuple[int, int] | None:
        if self.fold is None or self.orig is None:
            return start, end
        fold, orig = self.fold, self.orig
        k = bisect_right(fold, start) - 1
        if self.linear[k]:
            first = orig[k] + start - fold[k]
        elif start == fold[k]:
            first = orig[k]
        else:
            return None
        k = bisect_right(fold, end - 1) - 1
        if self.linear[k]:
            return first, orig[k] + end - fold[k]
        return (first, orig[k + 1]) if end == fold[k + 1] else None


def reference_view(text: str, case_sensitive: bool) -> TextView:
    """The definition of the view, one character and one cluster at a time (slow)."""
    kept = [i for i, char in enumerate(text) if not is_ignorable(char)]
    visible = "".join(text[i] for i in kept)
    clusters: list[str] = []
    for char in visible:
        if clusters and is_mark(char):
            clusters[-1] += char
        else:
            clusters.append(char)
    lengths: list[int] = []
    folds: list[str] = []
    for cluster in clusters:
        folded = fold(cluster, case_sensitive)
        if folded.isspace() and folds and folds[-1] == " ":
            lengths[-1] += len(cluster)  # a whitespace run is one space
            continue
        lengths.append(len(cluster))
        folds.append(" " if folded.isspace() else folded)
    return assemble(text, visible, lengths, folds, bytes(len(folds)), list(range(len(kept))), kept)


def assemble(
    text: str,
    visible: str,
    lengths: list[int],
    folds: list[str],
    linear: bytes,
    kept: list[int] | None,
    at: list[int] | None,
) -> TextView:
    return TextView(
        text,
        "".join(folds),
        visible,
        list(accumulate(map(len, folds), initial=0)),
        list(accumulate(lengths, initial=0)),
        linear,
        kept,
        at,
    )
