"""Prometheus counters of what the guardrail did: numbers and category names, never text.

They are registered in prometheus_client's default registry, the one the proxy's own `/metrics`
serves when its `prometheus` callback is on, so they appear beside LiteLLM's metrics with no
set-up of their own (and in multi-process mode through PROMETHEUS_MULTIPROC_DIR, as LiteLLM's
do). prometheus_client is what that callback needs too; without it installed every method here
does nothing, and the same counts still reach each logging payload's guardrail information.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any


class Metrics:
    def __init__(self, client: Any | None, registry: Any | None = None) -> None:
        """`client` is the prometheus_client module (None: no metrics); `registry` its default
        registry unless given (tests give their own)."""
        self._on = client is not None
        if client is None:
            return
        where = {} if registry is None else {"registry": registry}
        self._requests = client.Counter(
            "reversible_mask_requests_masked",
            "Requests masked before the provider call",
            **where,
        )
        self._terms = client.Counter(
            "reversible_mask_terms_masked",
            "Distinct dictionary terms masked per request, summed, by category",
            ["category"],
            **where,
        )
        self._term_children: dict[str, Any] = {}
        self._refused = client.Counter(
            "reversible_mask_requests_refused",
            "Requests refused before anything reached a provider, by reason",
            ["reason"],
            **where,
        )
        self._reloads = client.Counter(
            "reversible_mask_dictionary_reloads",
            "Changed dictionary files: loaded, or refused with the last good one kept",
            ["result"],
            **where,
        )
        self._in_flight = client.Gauge(
            "reversible_mask_in_flight",
            "Requests whose placeholders are held until their answer is restored",
            multiprocess_mode="livesum",
            **where,
        )

    def masked(self, counts: Mapping[str, int]) -> None:
        if not self._on:
            return
        self._requests.inc()
        children = self._term_children
        for category, count in counts.items():
            child = children.get(category)
            if child is None:  # `labels` locks and builds a key each call: asked once per name
                child = children[category] = self._terms.labels(category.lower())
            child.inc(count)

    def refused(self, reason: str) -> None:
        if self._on:
            self._refused.labels(reason).inc()

    def reloaded(self, loaded: bool) -> None:
        if self._on:
            self._reloads.labels("loaded" if loaded else "kept_last_good").inc()

    def in_flight(self, count: int) -> None:
        if self._on:
            self._in_flight.set(count)


@functools.cache
def process_metrics() -> Metrics:
    """One set per process: the default registry refuses a second registration of a name, and
    a proxy may construct the guardrail more than once (one per guardrails entry)."""
    try:
        import prometheus_client
    except ImportError:
        return Metrics(None)
    return Metrics(prometheus_client)
