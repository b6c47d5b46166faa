from __future__ import annotations

import copy
import json
import logging

import pytest

from reversible_mask.inflight import TICKET_KEY, InFlight


def test_a_registry_is_found_through_copies_of_its_request() -> None:
    """LiteLLM 1.110 hands the post-call hook a copy of the pre-call hook's dict."""
    store = InFlight()
    data = {"messages": [], "metadata": {"user_api_key_hash": "h"}}
    registry = store.open(data)
    for twin in (data, dict(data), copy.copy(data), copy.deepcopy(data)):
        assert store.get(twin) is registry
    assert store.get({"messages": [], "metadata": {}}) is None
    store.close(copy.deepcopy(data))
    assert store.get(data) is None and len(store) == 0


def test_the_ticket_sits_in_the_routes_proxy_metadata() -> None:
    store = InFlight()
    messages = {"metadata": {"user_id": "client's"}, "litellm_metadata": {}}
    store.open(messages)
    assert TICKET_KEY in messages["litellm_metadata"] and TICKET_KEY not in messages["metadata"]
    bare: dict = {}
    store.open(bare)
    assert TICKET_KEY in bare["metadata"]


def test_a_ticket_a_client_writes_finds_nothing() -> None:
    """Tickets reach logs; a client that copies one into its metadata gets no registry."""
    store = InFlight()
    victim = {"metadata": {}}
    store.open(victim)
    spelled = json.loads(json.dumps(victim))  # the same characters, another object
    assert spelled["metadata"][TICKET_KEY] == victim["metadata"][TICKET_KEY]
    assert store.get(spelled) is None
    store.close(spelled)
    assert len(store) == 1
    attacker = {"metadata": {TICKET_KEY: victim["metadata"][TICKET_KEY]}}
    store.open(attacker)
    assert attacker["metadata"][TICKET_KEY] != victim["metadata"][TICKET_KEY]


def test_the_count_in_flight_is_logged(caplog: pytest.LogCaptureFixture) -> None:
    store = InFlight()
    data = {"metadata": {}}
    with caplog.at_level(logging.DEBUG, logger="reversible_mask"):
        store.open(data)
        store.close(data)
    assert "1 requests in flight (opened one)" in caplog.text
    assert "0 requests in flight (closed one)" in caplog.text


def test_the_oldest_are_dropped_beyond_the_limit(caplog: pytest.LogCaptureFixture) -> None:
    store = InFlight(limit=2)
    requests: list[dict] = [{"n": i} for i in range(3)]
    with caplog.at_level(logging.WARNING, logger="reversible_mask"):
        registries = [store.open(r) for r in requests]
    assert store.get(requests[0]) is None
    assert store.get(requests[2]) is registries[2] and len(store) == 2
    assert "more than 2 requests in flight" in caplog.text


def test_abandoned_requests_expire() -> None:
    now = [0.0]
    store = InFlight(ttl=10, clock=lambda: now[0])
    old: dict = {"n": 1}
    store.open(old)
    now[0] = 11.0
    fresh: dict = {"n": 2}
    store.open(fresh)
    assert store.get(old) is None and store.get(fresh) is not None
