"""The in-flight registry drains: 1,000 mixed requests through a real proxy (successes on every
protected route, streamed or not, n=2, upstream errors, timeouts, clients hanging up
mid-stream), then the count the guardrail logs (GUARD_LOG_LEVEL=DEBUG) is back to 0 (or, when
the overloaded proxy still runs a few requests, no registry outlived its HTTP request), and every
response that completed was restored. 1,000 on the oldest and the newest proxy, 250 on the
versions between them: each request costs the proxy CPU, and the suite runs on two cores."""

from __future__ import annotations

import http.client
import json
import re
import time
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

import pytest

from conftest import start_proxy
from fake_upstream import FakeUpstream
from helpers import TEXT, assert_clean, chat, messages, responses
from proxy import MASTER_KEY, REPO, Proxy, example_config

VERSIONS = [
    line.strip()
    for line in (REPO / "src" / "guardrail" / "litellm-versions.txt").read_text().splitlines()
    if line.strip() and not line.startswith("#")
]
WORKERS = 16
COUNT_LINE = re.compile(
    r"reversible_mask: (\d+) requests in flight \((opened|closed) one, request (\d+)\)"
)
ENDED_LINE = re.compile(r"reversible_mask: request (\d+) ended")


@pytest.fixture(scope="module")
def proxy(request: pytest.FixtureRequest, version: str, upstream: FakeUpstream) -> Proxy:
    env: dict[str, str | None] = {"GUARD_LOG_LEVEL": "DEBUG"}
    return start_proxy(request, version, example_config(), upstream, "in-flight", env=env)


def hang_up_mid_stream(proxy: Proxy) -> str:
    """Read the first bytes of a dripping stream, then close the socket."""
    connection = http.client.HTTPConnection("127.0.0.1", proxy.port, timeout=30)
    body = json.dumps(chat(TEXT + " UPSTREAM-DRIP", stream=True))
    headers = {"content-type": "application/json", "authorization": f"Bearer {MASTER_KEY}"}
    connection.request("POST", "/v1/chat/completions", body, headers)
    reply = connection.getresponse()
    reply.read1(64) if reply.status == 200 else reply.read()
    if connection.sock is not None:  # None once a whole answer was read (an error, say)
        connection.sock.close()  # hang up while the upstream still streams
    connection.close()
    return f"hung up {reply.status}"


def one_request(proxy: Proxy, index: int) -> str:
    kinds: list[Callable[[], tuple[int, bytes] | str]] = [
        lambda: proxy.post("/v1/chat/completions", chat(TEXT)),
        lambda: proxy.post("/v1/chat/completions", chat(TEXT, stream=True)),
        lambda: proxy.post("/v1/messages", messages(TEXT)),
        lambda: proxy.post("/v1/messages", messages(TEXT, stream=True)),
        lambda: proxy.post("/v1/responses", responses(TEXT)),
        lambda: proxy.post("/v1/responses", responses(TEXT, stream=True)),
        lambda: proxy.post("/v1/chat/completions", chat(TEXT + " UPSTREAM-500", num_retries=0)),
        lambda: proxy.post("/v1/chat/completions", chat(TEXT + " UPSTREAM-SLOW", timeout=0.5)),
        lambda: hang_up_mid_stream(proxy),
        lambda: proxy.post("/v1/chat/completions", chat(TEXT, n=2)),
    ]
    try:
        outcome = kinds[index % len(kinds)]()
    except (OSError, http.client.HTTPException) as error:
        # An overloaded proxy may drop a connection; that is one more way a request ends.
        return f"{index % len(kinds)}: {type(error).__name__}"
    if isinstance(outcome, str):
        return outcome
    status, raw = outcome
    if status == 200:
        assert b"[[" not in raw, raw[:500]  # no placeholder reaches the client
        if stream_failed(raw):
            return f"{index % len(kinds)}: 200, stream failed"
        assert b"Acme Corporation" in raw, raw[:500]  # completed answers are restored
    return f"{index % len(kinds)}: {status}"


# How each route's stream reports an upstream failure after its 200 was sent: one more way a
# request ends (an overloaded machine made the proxy's read of the fake upstream time out once).
STREAM_FAILURES = (b'"type":"response.failed"', b"event: error", b'data: {"error"')


def stream_failed(raw: bytes) -> bool:
    return any(marker in raw for marker in STREAM_FAILURES)


def last_count(log: str) -> tuple[int, Counter]:
    matches = COUNT_LINE.findall(log)
    assert matches, "the guardrail logged no in-flight count"
    return int(matches[-1][0]), Counter(kind for _, kind, _ in matches)


def left_open(log: str) -> tuple[Counter, set[int]]:
    """The HTTP requests (by number) whose registries are open, and those that ended."""
    registries: Counter = Counter()
    for _, kind, number in COUNT_LINE.findall(log):
        registries[int(number)] += 1 if kind == "opened" else -1
    ended = {int(number) for number in ENDED_LINE.findall(log)}
    return +registries, ended


def requests_for(version: str) -> int:
    """1,000 on the oldest and the newest proxy; 250 between them (each costs proxy CPU)."""
    return 1000 if version in (VERSIONS[0], VERSIONS[-1]) else 250


def test_the_registry_is_empty_after_mixed_requests(
    proxy: Proxy, upstream: FakeUpstream, version: str
) -> None:
    total = requests_for(version)
    with ThreadPoolExecutor(WORKERS) as pool:
        outcomes = Counter(pool.map(lambda i: one_request(proxy, i), range(total)))
    assert sum(outcomes.values()) == total
    assert outcomes["0: 200"] >= total // 20, outcomes  # the plain chats mostly went through
    assert outcomes["6: 200"] == 0 and outcomes["7: 200"] == 0, outcomes
    deadline = time.monotonic() + 30
    while True:  # hung-up streams and timed-out calls finish their hooks a little later
        count, kinds = last_count(proxy.log(tail=None))
        if count == 0 or time.monotonic() > deadline:
            break
        time.sleep(0.5)
    if count:
        # Under overload the proxy itself may leave a request running (a connection its server
        # lost): its registry is the request's until it ends, or until the TTL. What must never
        # be left is a registry whose HTTP request ended, or one opened outside any request.
        registries, ended = left_open(proxy.log(tail=None))
        outlived = sorted(number for number in registries if number in ended or number == 0)
        assert not outlived, (outlived, outcomes, kinds)
        assert sum(registries.values()) == count, (registries, count)
        assert count <= total // 100, ("requests still running", registries, outcomes, kinds)
    assert kinds["opened"] >= total // 2, (outcomes, kinds)
    assert_clean(upstream.recorder.all_bytes())
