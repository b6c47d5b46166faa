"""Matching view of a text: NFKC + case folding, with a map back to original offsets.

Terms and texts go through the same per-cluster key function, so "ACME", "acme", full-width
"ＡＣＭＥ" and a decomposed "e" + U+0301 all meet the dictionary's spelling. A cluster is a
character plus its following combining marks; matches must start and end on cluster boundaries,
so a match never splits an accented letter. ASCII text (the common case) takes a fast path with
identical offsets.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

# A non-ASCII run, plus the character before it (the base of a leading combining mark).
_NON_ASCII_RUN = re.compile(r"(?s).?[^\x00-\x7f]+")


@lru_cache(maxsize=65536)
def fold(cluster: str, case_sensitive: bool) -> str:
    """NFKC, then (for case-insensitive matching) casefold and NFKC again."""
    text = unicodedata.normalize("NFKC", cluster)
    if case_sensitive:
        return text
    return unicodedata.normalize("NFKC", text.casefold())


def fold_term(term: str, case_sensitive: bool) -> str:
    return "".join(fold(c, case_sensitive) for c in clusters(term))


def clusters(text: str) -> list[str]:
    out: list[str] = []
    for char in text:
        if out and unicodedata.combining(char):
            out[-1] += char
        else:
            out.append(char)
    return out


@dataclass(frozen=True)
class TextView:
    """`folded` is what the automaton scans; `origin[i]` is the original offset of folded index i
    when i is a cluster boundary, else -1. `origin` is None when offsets are identical."""

    folded: str
    origin: list[int] | None

    def span(self, start: int, end: int) -> tuple[int, int] | None:
        if self.origin is None:
            return start, end
        a, b = self.origin[start], self.origin[end]
        return None if a < 0 or b < 0 else (a, b)


def view(text: str, case_sensitive: bool) -> TextView:
    if text.isascii():
        return TextView(text if case_sensitive else text.lower(), None)
    parts: list[str] = []
    origin: list[int] = []
    position = 0
    for run in _NON_ASCII_RUN.finditer(text):
        _ascii(text[position : run.start()], position, case_sensitive, parts, origin)
        offset = run.start()
        for cluster in clusters(run.group()):
            folded = fold(cluster, case_sensitive)
            if not folded:
                offset += len(cluster)
                continue
            parts.append(folded)
            origin.append(offset)
            origin.extend([-1] * (len(folded) - 1))
            offset += len(cluster)
        position = run.end()
    _ascii(text[position:], position, case_sensitive, parts, origin)
    origin.append(len(text))
    return TextView("".join(parts), origin)


def _ascii(
    chunk: str, offset: int, case_sensitive: bool, parts: list[str], origin: list[int]
) -> None:
    if chunk:
        parts.append(chunk if case_sensitive else chunk.lower())
        origin.extend(range(offset, offset + len(chunk)))
