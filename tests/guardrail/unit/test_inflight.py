from __future__ import annotations

import copy
import json
import logging
import re
import time
from collections.abc import Generator
from concurrent.futures import ThreadPoolExecutor
from itertools import pairwise

import pytest

from reversible_mask.inflight import TICKET_KEY, InFlight, request_scope
from reversible_mask.log_copier import TICKET_IN_LOGS, Copier


def test_a_registry_is_found_through_copies_of_its_request() -> None:
    """LiteLLM 1.110 hands the post-call hook a copy of the pre-call hook's dict, and another
    guardrail may rebuild it (a JSON round trip)."""
    store = InFlight()
    data = {"messages": [], "metadata": {"user_api_key_hash": "h"}}
    registry = store.open(data)
    rebuilt = json.loads(json.dumps(data))
    for twin in (data, dict(data), copy.copy(data), copy.deepcopy(data), rebuilt):
        assert store.get(twin) is registry
    assert store.get({"messages": [], "metadata": {}}) is None
    store.close(rebuilt)
    assert store.get(data) is None and len(store) == 0


def test_the_ticket_sits_in_the_routes_proxy_metadata() -> None:
    store = InFlight()
    messages = {"metadata": {"user_id": "client's"}, "litellm_metadata": {}}
    store.open(messages)
    assert TICKET_KEY in messages["litellm_metadata"] and TICKET_KEY not in messages["metadata"]
    bare: dict = {}
    registry = store.open(bare)
    assert TICKET_KEY in bare["metadata"]
    bare["litellm_metadata"] = {}  # added by the proxy after the pre-call hook (1.104)
    assert store.get(bare) is registry


def test_a_ticket_a_client_sends_is_replaced() -> None:
    store = InFlight()
    victim = {"metadata": {}}
    store.open(victim)
    live = victim["metadata"][TICKET_KEY]
    attacker = {"metadata": {TICKET_KEY: live}, "litellm_metadata": {TICKET_KEY: live}}
    store.open(attacker)
    assert attacker["metadata"] == {}
    assert attacker["litellm_metadata"][TICKET_KEY] != live
    assert len(victim["metadata"][TICKET_KEY]) == 32  # 128 random bits


def test_log_copies_never_carry_a_ticket() -> None:
    """Tickets are found by value: one a log reader saw could claim a live registry."""
    store = InFlight()
    data = {"metadata": {"note": "x"}}
    store.open(data)
    copied = Copier(lambda text: text).copy({"litellm_params": {"metadata": data["metadata"]}}, "")
    assert copied["litellm_params"]["metadata"][TICKET_KEY] == TICKET_IN_LOGS
    assert store.get(data) is not None  # the request's own metadata is untouched


def test_the_count_in_flight_is_logged(caplog: pytest.LogCaptureFixture) -> None:
    store = InFlight()
    data = {"metadata": {}}
    with caplog.at_level(logging.DEBUG, logger="reversible_mask"):
        store.open(data)
        store.close(data)
    assert "1 requests in flight (opened one, request 0)" in caplog.text
    assert "0 requests in flight (closed one, request 0)" in caplog.text


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


def test_a_request_scope_closes_what_its_hooks_left_open() -> None:
    """A stream the proxy dropped before iterating it runs no closing hook: the HTTP request's
    end closes its registries, in whichever store opened them, and only those."""
    store, other = InFlight(), InFlight()
    outside = {"metadata": {}}
    store.open(outside)
    with request_scope():
        left, closed = {"metadata": {}}, {"metadata": {}}
        store.open(left)
        other.open(closed)
        other.close(closed)
        assert len(store) == 2
    assert len(store) == 1 and store.get(left) is None and store.get(outside) is not None
    assert len(other) == 0


def test_the_debug_log_names_each_registrys_request_and_its_end(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """An operator (and the in-flight test) can tell a registry whose request still runs from
    one that outlived its request."""
    store = InFlight()
    with caplog.at_level(logging.DEBUG, logger="reversible_mask"):
        with request_scope():
            store.open({"metadata": {}})
        with request_scope():
            kept = {"metadata": {}}
            store.open(kept)
            store.close(kept)
    numbers = [int(n) for n in re.findall(r"\(opened one, request (\d+)\)", caplog.text)]
    first, second = numbers
    assert second == first + 1
    assert f"(closed one, request {first})" in caplog.text  # closed by its request's end
    assert f"(closed one, request {second})" in caplog.text
    assert f"request {first} ended" in caplog.text and f"request {second} ended" in caplog.text


def test_request_scopes_of_concurrent_requests_stay_apart() -> None:
    import asyncio

    store = InFlight()
    seen: dict[str, int] = {}

    async def one(name: str, gate: asyncio.Event) -> None:
        with request_scope():
            store.open({"metadata": {}})
            await gate.wait()
        seen[name] = len(store)

    async def main() -> None:
        first, second = asyncio.Event(), asyncio.Event()
        tasks = [asyncio.create_task(one("a", first)), asyncio.create_task(one("b", second))]
        await asyncio.sleep(0)
        first.set()
        await tasks[0]
        second.set()
        await tasks[1]

    asyncio.run(main())
    assert seen == {"a": 1, "b": 0}  # a's end closed a's registry, not b's


def test_a_request_task_dropped_unfinished_still_closes_its_registries() -> None:
    """A request coroutine the server never resumes is closed by the garbage collector in
    another context, where the context variable refuses its token: its registries close all
    the same."""
    import contextvars

    store = InFlight()

    async def request() -> None:
        with request_scope():
            store.open({"metadata": {}})
            await Suspend()

    coroutine = request()
    coroutine.send(None)  # runs up to the await, inside the request's scope
    assert len(store) == 1
    contextvars.Context().run(coroutine.close)  # what the collector does, elsewhere
    assert len(store) == 0


class Suspend:
    """An await that never resumes by itself."""

    def __await__(self) -> Generator[None, None, None]:
        yield


def test_the_reported_counts_follow_each_other_when_threads_close_at_once() -> None:
    """Hooks close from the proxy's thread pool too: every number reported (log and gauge) is
    one more or one less than the one before, and the last is 0 once all have closed."""
    reported: list[int] = []

    def observe(count: int) -> None:
        time.sleep(0)  # give another thread the chance to report in between
        reported.append(count)

    store = InFlight(observe=observe)

    def open_and_close(_: int) -> None:
        for _ in range(300):
            request: dict = {}
            store.open(request)
            store.close(request)

    with ThreadPoolExecutor(8) as pool:
        list(pool.map(open_and_close, range(8)))
    assert len(store) == 0 and reported[-1] == 0
    assert all(abs(b - a) == 1 for a, b in pairwise(reported)), reported
