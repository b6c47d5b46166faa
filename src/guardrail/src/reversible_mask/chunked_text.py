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
from .placeholder import ID_CHARS, MAX_LENGTH, TAG_LENGTHS, Registry

_CATEGORY = re.compile(r"[A-Z][A-Z0-9]{0,31}")
_B32 = re.compile(r"[a-z2-7]*")


def viable_prefix(s: str) -> bool:
    """True when `s` (starting with '[') could be the beginning of a placeholder."""
    if s == "[":
        return True
    if not s.startswith("[["):
        return False
    category = _CATEGORY.match(s, 2)
    if category is None:
        return len(s) == 2
    rest = s[category.end() :]
    if rest == "":
        return True
    if rest[0] != "_":
        return False
    return _after_category(rest[1:])


def _after_category(rest: str) -> bool:
    entity = _B32.match(rest).group()  # type: ignore[union-attr]
    if len(entity) < ID_CHARS:
        return entity == rest
    rest = rest[ID_CHARS:]
    if rest in ("", "]"):
        return True
    if rest[0] != "_":
        return False
    tag = _B32.match(rest, 1).group()  # type: ignore[union-attr]
    if len(tag) > TAG_LENGTHS[-1]:
        return False
    rest = rest[1 + len(tag) :]
    return rest == "" or (rest == "]" and TAG_LENGTHS[0] <= len(tag))


class StreamUnmasker:
    def __init__(self, masker: Masker, registry: Registry, json_string: bool = False) -> None:
        self._masker = masker
        self._registry = registry
        self._json = json_string
        self._pending = ""

    @property
    def pending(self) -> str:
        return self._pending

    def feed(self, chunk: str) -> str:
        text = self._pending + chunk
        cut = _holdback_start(text)
        self._pending = text[cut:]
        return self._masker.unmask(text[:cut], self._registry, self._json)

    def flush(self) -> str:
        text, self._pending = self._pending, ""
        return self._masker.unmask(text, self._registry, self._json)


def _holdback_start(text: str) -> int:
    """Index of the earliest '[' in the tail whose suffix may still become a placeholder."""
    floor = max(0, len(text) - MAX_LENGTH)
    index = text.find("[", floor)
    while index != -1:
        if viable_prefix(text[index:]):
            return index
        index = text.find("[", index + 1)
    return len(text)
