"""The placeholder registries of requests between their pre-call hook and their last hook.

A registry is found by a ticket the pre-call hook writes into the request's proxy metadata
(`litellm_metadata` where the route has it, else `metadata`), not by the identity of the request
dict: LiteLLM 1.110 hands the post-call hook a copy of the dict the pre-call hook saw, and a
guardrail that runs after this one may rebuild the dict (a content filter on 1.104 does). The
ticket is 128 random bits, found by value; the pre-call hook overwrites whatever ticket a client
sent, and log copies never carry one (log_copier.py), so no client can learn a live ticket to
claim another request's registry.

Closed by the request's last hook, and in any case when the HTTP request ends: the route guard
runs every request inside `request_scope()`, which closes the registries the request opened and
no hook closed (a stream the proxy dropped before iterating it runs neither its iterator's
`finally` nor a failure hook; seen once in 1,000 requests on a loaded machine). Bounded as well:
beyond `limit` entries, or after `ttl` seconds (a request outside any HTTP scope that the proxy
abandoned between hooks), the oldest are dropped; a response whose registry was dropped keeps
its placeholders (nothing is restored, nothing leaks). The number in flight is logged at debug
level on every change (logger `reversible_mask`).
"""

from __future__ import annotations

import itertools
import logging
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar, Token
from typing import Any

from .placeholder import Registry

log = logging.getLogger("reversible_mask")

LIMIT = 4096
TTL_SECONDS = 1800.0
TICKET_KEY = "reversible_mask_ticket"


class _RequestScope:
    """One HTTP request: its number in the debug log and the registries it opened (tasks the
    request spawns share the list)."""

    __slots__ = ("number", "opened")

    def __init__(self, number: int) -> None:
        self.number = number
        self.opened: list[tuple[InFlight, str]] = []


_SCOPE: ContextVar[_RequestScope | None] = ContextVar("reversible_mask_scope", default=None)
_NUMBERS = itertools.count(1)


@contextmanager
def request_scope() -> Iterator[None]:
    """Run one HTTP request: whatever registries it opened are closed when it ends. At debug
    level its end is logged by number, so a registry still open can be told apart: one whose
    request still runs (the proxy's work) from one that outlived its request (ours)."""
    scope = _RequestScope(next(_NUMBERS))
    token = _SCOPE.set(scope)
    try:
        yield
    finally:
        for in_flight, ticket in scope.opened:
            if in_flight.close_ticket(ticket):
                log.debug("reversible_mask: the request ended with its registry open; closed")
        if scope.opened:
            log.debug("reversible_mask: request %d ended", scope.number)
        _reset(token)


def _reset(token: Token[_RequestScope | None]) -> None:
    """A request task the server dropped unfinished is closed by the garbage collector, in
    another context, where `reset` refuses the token: the registries are closed by then."""
    try:
        _SCOPE.reset(token)
    except ValueError:
        pass


def proxy_metadata(data: Any, create: bool = False) -> dict[str, Any] | None:
    """The request's proxy-side metadata dict (never sent to the provider)."""
    if not isinstance(data, dict):
        return None
    key = "litellm_metadata" if "litellm_metadata" in data else "metadata"
    bucket = data.get(key)
    if bucket is None and create:
        bucket = data[key] = {}
    return bucket if isinstance(bucket, dict) else None


def _buckets(data: Any) -> list[dict[str, Any]]:
    if not isinstance(data, dict):
        return []
    found = (data.get("litellm_metadata"), data.get("metadata"))
    return [bucket for bucket in found if isinstance(bucket, dict)]


class InFlight:
    def __init__(
        self,
        limit: int = LIMIT,
        ttl: float = TTL_SECONDS,
        clock: Callable[[], float] = time.monotonic,
        observe: Callable[[int], None] = lambda count: None,
    ) -> None:
        """`observe` is told the number in flight after each open and close (the metrics)."""
        self._limit, self._ttl, self._clock, self._observe = limit, ttl, clock, observe
        # ticket -> (registry, when opened, the HTTP request's number)
        self._entries: OrderedDict[str, tuple[Registry, float, int]] = OrderedDict()
        self._lock = threading.Lock()

    def open(self, data: dict[str, Any]) -> Registry:
        """A fresh registry for this request; any ticket the client wrote is replaced."""
        bucket = proxy_metadata(data, create=True)
        if bucket is None:
            raise TypeError("the request's metadata is not an object")
        for other in _buckets(data):
            other.pop(TICKET_KEY, None)  # a client's, in either place
        ticket = secrets.token_hex(16)
        bucket[TICKET_KEY] = ticket
        registry = Registry()
        now = self._clock()
        scope = _SCOPE.get()
        if scope is not None:
            scope.opened.append((self, ticket))
        number = scope.number if scope is not None else 0
        with self._lock:
            self._entries[ticket] = (registry, now, number)
            self._evict(now)
            self._report("opened", number)
        return registry

    def get(self, data: Any) -> Registry | None:
        ticket = self._ticket(data)
        if ticket is None:
            return None
        with self._lock:
            entry = self._entries.get(ticket)
        return entry[0] if entry is not None else None

    def close(self, data: Any) -> None:
        ticket = self._ticket(data)
        if ticket is not None:
            self.close_ticket(ticket)

    def close_ticket(self, ticket: str) -> bool:
        """False when the ticket was closed already (or dropped)."""
        with self._lock:
            entry = self._entries.pop(ticket, None)
            if entry is None:
                return False
            self._report("closed", entry[2])
        return True

    def _report(self, change: str, number: int) -> None:
        """Under the lock: hooks close from the proxy's thread pool too, and a count reported
        after the lock could reach the log (and the gauge) after a later one, leaving a stale
        last number. `number` is the HTTP request's (0: opened outside any)."""
        count = len(self._entries)
        self._observe(count)
        log.debug(
            "reversible_mask: %d requests in flight (%s one, request %d)", count, change, number
        )

    def __len__(self) -> int:
        return len(self._entries)

    @staticmethod
    def _ticket(data: Any) -> str | None:
        """Looked up in both places: a proxy may add `litellm_metadata` to a chat request
        after the pre-call hook wrote the ticket into `metadata` (1.104 does)."""
        for bucket in _buckets(data):
            ticket = bucket.get(TICKET_KEY)
            if isinstance(ticket, str):
                return ticket
        return None

    def _evict(self, now: float) -> None:
        while self._entries:
            _, (_, opened, _) = next(iter(self._entries.items()))
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
