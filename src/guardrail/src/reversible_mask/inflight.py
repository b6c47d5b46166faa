"""The placeholder registries of requests between their pre-call hook and their last hook.

A registry is found by the identity of the request's data dict: the proxy hands the same dict to
every hook of one request (pre-call, post-call, the streaming hook, the failure hook), and
nothing a client sends can name another request's dict (a `litellm_call_id` can be chosen by
the client through the `x-litellm-call-id` header). The dict is held while its registry lives,
so its id cannot be reused. Bounded: beyond `limit` entries, or after `ttl` seconds (a request
the proxy abandoned between hooks), the oldest are dropped; a response whose registry was
dropped keeps its placeholders (nothing is restored, nothing leaks).
"""

from __future__ import annotations

import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from .placeholder import Registry

log = logging.getLogger("reversible_mask")

LIMIT = 4096
TTL_SECONDS = 1800.0


class InFlight:
    def __init__(
        self,
        limit: int = LIMIT,
        ttl: float = TTL_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._limit, self._ttl, self._clock = limit, ttl, clock
        self._entries: OrderedDict[int, tuple[Any, Registry, float]] = OrderedDict()
        self._lock = threading.Lock()

    def open(self, data: Any) -> Registry:
        registry = Registry()
        now = self._clock()
        with self._lock:
            self._entries.pop(id(data), None)
            self._entries[id(data)] = (data, registry, now)
            self._evict(now)
        return registry

    def get(self, data: Any) -> Registry | None:
        with self._lock:
            entry = self._entries.get(id(data))
        return entry[1] if entry is not None and entry[0] is data else None

    def close(self, data: Any) -> None:
        with self._lock:
            entry = self._entries.get(id(data))
            if entry is not None and entry[0] is data:
                del self._entries[id(data)]

    def __len__(self) -> int:
        return len(self._entries)

    def _evict(self, now: float) -> None:
        while self._entries:
            _, (_, _, opened) = next(iter(self._entries.items()))
            expired = now - opened > self._ttl
            if not expired and len(self._entries) <= self._limit:
                return
            if not expired:
                log.warning(
                    "reversible_mask: more than %d requests in flight; the oldest one's "
                    "placeholders will not be restored",
                    self._limit,
                )
            self._entries.popitem(last=False)
