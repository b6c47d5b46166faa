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
    when full. Thread-safe (the proxy runs a sync logging hook in a worker thread).

    An answer of "" means "the text itself" (no masked text is empty): a clean value is handed
    back as the very object asked about, so the copy-on-write walk shares it instead of
    copying every container above it."""

    def __init__(self) -> None:
        self._large: OrderedDict[tuple[str, Target], str] = OrderedDict()
        self._small: dict[Target, dict[str, str]] = {}
        self._restored: OrderedDict[str, str] = OrderedDict()
        self._restored_small: dict[str, str] = {}
        # Texts the pre-call hook masked, by identity: the logging payload holds the very same
        # string objects, so no hashing of large texts on the request path. And by length: an
        # equal text in another object (a provider's echo, a decoded raw response) is found by
        # one comparison (a memcmp), without hashing it.
        self._fixed: OrderedDict[int, tuple[str, Target]] = OrderedDict()
        self._sizes: dict[int, tuple[str, Target]] = {}
        self._lock = threading.Lock()

    def remember(self, masked: str, target: Target) -> None:
        """`masked` is its own logging form (masking is idempotent)."""
        if len(masked) < MIN_CHARS:
            return
        with self._lock:
            self._fixed[id(masked)] = self._sizes[len(masked)] = (masked, target)
            while len(self._fixed) > LARGE_ENTRIES:
                self._fixed.popitem(last=False)
            while len(self._sizes) > LARGE_ENTRIES:
                del self._sizes[next(iter(self._sizes))]

    def small(self, target: Target) -> dict[str, str]:
        """The short texts' answers for one target (read without a lock: one dict lookup)."""
        found = self._small.get(target)
        if found is None:
            found = self._small.setdefault(target, {})
        return found

    def get(self, text: str, target: Target) -> str | None:
        if len(text) < MIN_CHARS:
            return self.small(target).get(text)
        fixed = self._fixed.get(id(text))
        if fixed is not None and fixed[0] is text and fixed[1] is target:
            return ""
        same_size = self._sizes.get(len(text))
        if same_size is not None and same_size[1] is target and same_size[0] == text:
            return ""
        with self._lock:
            found = self._large.get((text, target))
            if found is not None:
                self._large.move_to_end((text, target))
            return found

    def seed(self, text: str, masked: str, target: Target) -> None:
        """`masked` is a logging form of `text`, and of itself (masking is idempotent)."""
        if len(text) < MIN_CHARS:
            small = self.small(target)
            if len(small) > SMALL_ENTRIES:
                small.clear()
            small[text] = "" if masked == text else masked
            return
        with self._lock:
            self._large[text, target] = "" if masked == text else masked
            self._large[masked, target] = ""
            while len(self._large) > LARGE_ENTRIES:
                self._large.popitem(last=False)

    def remember_restored(self, restored: str, source: str) -> None:
        if len(restored) < MIN_CHARS:
            if len(self._restored_small) > SMALL_ENTRIES:
                self._restored_small.clear()
            self._restored_small[restored] = source
            return
        with self._lock:
            self._restored[restored] = source
            while len(self._restored) > LARGE_ENTRIES:
                self._restored.popitem(last=False)

    def restored_from(self, text: str) -> str | None:
        if len(text) < MIN_CHARS:
            return self._restored_small.get(text)
        with self._lock:
            return self._restored.get(text)
