"""What the logging hook would otherwise mask again and again (see `LogMemo`)."""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .engine import Target

MIN_CHARS = 512  # shorter texts are keyed by value, longer ones also by identity
LARGE_ENTRIES = 128
SMALL_ENTRIES = 16384


class LogMemo:
    """What the logging hook would otherwise mask again and again. One logging payload holds
    the same large texts several times (messages, the standard logging payload, the stored
    request body) and many short ones that repeat across requests (header values, metadata);
    the pre-call hook already masked the request's texts, and a restored response came from a
    provider text the hook masks anyway. Large texts: a small LRU; short ones: a dict, cleared
    when full. Thread-safe (the proxy runs a sync logging hook in a worker thread)."""

    def __init__(self) -> None:
        self._large: OrderedDict[tuple[str, Target], str] = OrderedDict()
        self._small: dict[tuple[str, Target], str] = {}
        self._restored: OrderedDict[str, str] = OrderedDict()
        # Texts the pre-call hook masked, by identity: the logging payload holds the very same
        # string objects, so no hashing of large texts on the request path.
        self._fixed: OrderedDict[int, tuple[str, Target]] = OrderedDict()
        self._lock = threading.Lock()

    def remember(self, masked: str, target: Target) -> None:
        """`masked` is its own logging form (masking is idempotent)."""
        if len(masked) < MIN_CHARS:
            return
        with self._lock:
            self._fixed[id(masked)] = (masked, target)
            while len(self._fixed) > LARGE_ENTRIES:
                self._fixed.popitem(last=False)

    def get(self, text: str, target: Target) -> str | None:
        if len(text) < MIN_CHARS:
            return self._small.get((text, target))
        fixed = self._fixed.get(id(text))
        if fixed is not None and fixed[0] is text and fixed[1] is target:
            return text
        with self._lock:
            found = self._large.get((text, target))
            if found is not None:
                self._large.move_to_end((text, target))
            return found

    def seed(self, text: str, masked: str, target: Target) -> None:
        """`masked` is a logging form of `text`, and of itself (masking is idempotent)."""
        if len(text) < MIN_CHARS:
            if len(self._small) > SMALL_ENTRIES:
                self._small.clear()
            self._small[text, target] = masked
            return
        with self._lock:
            self._large[text, target] = masked
            self._large[masked, target] = masked
            while len(self._large) > LARGE_ENTRIES:
                self._large.popitem(last=False)

    def remember_restored(self, restored: str, source: str) -> None:
        if len(restored) < MIN_CHARS:
            return
        with self._lock:
            self._restored[restored] = source
            while len(self._restored) > LARGE_ENTRIES:
                self._restored.popitem(last=False)

    def restored_from(self, text: str) -> str | None:
        if len(text) < MIN_CHARS:
            return None
        with self._lock:
            return self._restored.get(text)
