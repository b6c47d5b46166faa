from __future__ import annotations

import logging

import pytest

from reversible_mask.inflight import InFlight


def test_a_registry_is_found_by_the_identity_of_its_request() -> None:
    store = InFlight()
    data, twin = {"messages": []}, {"messages": []}
    registry = store.open(data)
    assert store.get(data) is registry
    assert store.get(twin) is None  # equal contents, another request
    store.close(twin)
    assert store.get(data) is registry
    store.close(data)
    assert store.get(data) is None and len(store) == 0


def test_the_oldest_are_dropped_beyond_the_limit(caplog: pytest.LogCaptureFixture) -> None:
    store = InFlight(limit=2)
    requests = [{"n": i} for i in range(3)]
    with caplog.at_level(logging.WARNING, logger="reversible_mask"):
        registries = [store.open(r) for r in requests]
    assert store.get(requests[0]) is None
    assert store.get(requests[2]) is registries[2] and len(store) == 2
    assert "more than 2 requests in flight" in caplog.text


def test_abandoned_requests_expire() -> None:
    now = [0.0]
    store = InFlight(ttl=10, clock=lambda: now[0])
    old = {"n": 1}
    store.open(old)
    now[0] = 11.0
    fresh = {"n": 2}
    store.open(fresh)
    assert store.get(old) is None and store.get(fresh) is not None
