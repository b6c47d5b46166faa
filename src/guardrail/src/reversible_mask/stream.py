"""Incremental unmasking of a text that arrives in pieces.

`feed` returns everything that can no longer be part of a placeholder and keeps only the
shortest tail that could still grow into one (from the earliest '[' whose suffix is a viable
placeholder prefix). Nothing is held back once it cannot be a placeholder, and half a
placeholder is never emitted. Concatenating the outputs of any chunking, plus `flush`, equals
`unmask` of the whole text.
"""

from __future__ import annotations

import re

from .engine import Masker
from .placeholder import ID_CHARS, MAX_LENGTH

_B32 = re.compile(r"[a-z2-7]*")
_UPPER = re.compile(r"[A-Z][A-Z0-9]{0,31}")


def viable_prefix(s: str) -> bool:
    """True when `s` (starting with '[') could be the beginning of a placeholder."""
    if len(s) < 2:
        return s == "["
    if not s.startswith("[["):
        return False
    rest = s[2:]
    category = _UPPER.match(rest)
    if category is None:
        return rest == ""
    rest = rest[category.end() :]
    if rest == "":
        return len(category.group()) <= 32
    if rest[0] != "_":
        return False
    return _after_category(rest[1:])


def _after_category(rest: str) -> bool:
    entity = _B32.match(rest).group()  # type: ignore[union-attr]
    if len(entity) < ID_CHARS:
        return entity == rest
    rest = rest[ID_CHARS:]
    if rest == "" or rest in ("]",):
        return True
    if rest[0] != "_":
        return False
    variant = rest[1:]
    if variant == "":
        return True
    if variant[0] == "a":
        return re.fullmatch(r"a([1-9][0-9]{0,5})?\]?", variant) is not None
    if variant[0] == "x":
        return re.fullmatch(r"x[a-z2-7]{0,1400}\]?", variant) is not None
    return False


class StreamUnmasker:
    def __init__(self, masker: Masker, json_string: bool = False) -> None:
        self._masker = masker
        self._json = json_string
        self._pending = ""

    @property
    def pending(self) -> str:
        return self._pending

    def feed(self, chunk: str) -> str:
        text = self._pending + chunk
        cut = _holdback_start(text)
        self._pending = text[cut:]
        return self._masker.unmask(text[:cut], self._json)

    def flush(self) -> str:
        text, self._pending = self._pending, ""
        return self._masker.unmask(text, self._json)


def _holdback_start(text: str) -> int:
    """Index of the earliest '[' in the tail whose suffix may still become a placeholder."""
    floor = max(0, len(text) - MAX_LENGTH)
    index = text.find("[", floor)
    while index != -1:
        if viable_prefix(text[index:]):
            return index
        index = text.find("[", index + 1)
    return len(text)
