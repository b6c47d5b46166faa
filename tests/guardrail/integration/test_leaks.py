"""The leak suite: generated requests through a real proxy, and everything they produce checked.

For every case (leak_cases.py) the recording fake upstream must hold no original in any form,
the client must get the exact echo of its own text (streamed with a cut drawn per request), a
refused case (unknown scope, refused by the guardrail; or a key the proxy does not know,
refused before any guardrail runs) must reach no upstream at all; at the end, every payload the capturing callback
received from any logging hook, success or failure, and every spend-log row must hold no
original. The number of cases tried is printed in the session summary.
"""

from __future__ import annotations

import json
import time
from collections import Counter
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, Phase, example, given, settings

from conftest import LEAK_STATS, start_proxy
from fake_upstream import FakeUpstream
from leak_cases import LEAK_DICTIONARY, Case, body, cases, client_texts, expected_echo, originals_in
from proxy import Proxy, example_config

EXAMPLES = 100


@pytest.fixture(scope="module")
def chunky_upstream() -> Iterator[FakeUpstream]:
    with FakeUpstream(random_chunks=True) as server:
        yield server


@pytest.fixture(scope="module")
def proxy(request: pytest.FixtureRequest, version: str, chunky_upstream: FakeUpstream) -> Proxy:
    config = example_config()
    config["litellm_settings"]["callbacks"] = ["capture.capture_instance"]
    config["general_settings"]["store_prompts_in_spend_logs"] = True
    return start_proxy(
        request, version, config, chunky_upstream, "leaks", dictionary=LEAK_DICTIONARY
    )


def run(case: Case, proxy: Proxy, upstream: FakeUpstream) -> None:
    upstream.recorder.clear()
    request = body(case)
    headers = {
        "": {},
        "scope": {"x-guard-scope": "no-such-scope"},
        "auth": {"authorization": "Bearer sk-not-a-key-of-this-proxy"},
    }[case.refused]
    status, raw = proxy.post(case.path, request, headers)
    sent = upstream.recorder.requests[:]
    if case.refused == "scope":
        assert status == 400 and b"unknown guard scope" in raw, raw[:500]
    elif case.refused == "auth":  # 401, or 400 "No connected db." for a non-master key
        assert status in (400, 401) and b"unknown guard scope" not in raw, raw[:500]
    if case.refused:
        assert sent == []
        return
    assert status == 200, raw[:2000]
    for path, payload in sent:
        found = originals_in(json.loads(payload))
        assert not found, f"{found} sent upstream to {path}: {payload[:3000]!r}"
    assert sent, "nothing reached the upstream"
    texts = client_texts(case, raw)
    assert texts and all(text == expected_echo(request) for text in texts), (texts, request)


@pytest.fixture(scope="module")
def tried(version: str) -> Counter:
    stats = LEAK_STATS.setdefault(version, Counter())
    return stats


@settings(
    max_examples=EXAMPLES,
    deadline=None,
    # Each example is a proxy round trip: report the failing case as generated, no shrinking.
    phases=[Phase.explicit, Phase.reuse, Phase.generate],
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(case=cases())
# Every run tries each refusal kind at least once, whatever the draw.
@example(case=Case("chat", False, "auth", True, ["A\u200bcme  Corp, Globex"] * 12))
@example(case=Case("messages", True, "scope", True, ["Project\nBluebird 东京分公司"] * 12))
def test_no_original_reaches_the_provider_and_the_client_gets_its_text(
    case: Case, proxy: Proxy, chunky_upstream: FakeUpstream, tried: Counter
) -> None:
    run(case, proxy, chunky_upstream)
    tried["cases"] += 1
    refused = f" refused ({case.refused})" if case.refused else ""
    tried[f"{case.route}{' stream' if case.stream else ''}{refused}"] += 1


def test_no_logging_payload_holds_an_original(proxy: Proxy, tried: Counter) -> None:
    """Runs after the generated cases: every logging event they caused has been captured."""
    assert tried["cases"] >= EXAMPLES
    captures = _settled(proxy)
    kinds = Counter(c["kind"] for c in captures)
    assert kinds["async_success"] and kinds["async_failure"] and kinds["post_call_failure"]
    for capture in captures:
        assert "spend_log_error" not in capture, capture["spend_log_error"]
        found = originals_in(capture)
        assert not found, f"{found} in a {capture['kind']} payload: {json.dumps(capture)[:3000]}"
    tried["captured payloads"] = len(captures)


def _settled(proxy: Proxy) -> list[dict]:
    """Logging runs after the response: wait until the capture file stops growing."""
    deadline, last = time.monotonic() + 60, -1
    while time.monotonic() < deadline:
        captures = proxy.captures()
        if len(captures) == last:
            return captures
        last = len(captures)
        time.sleep(1.5)
    return proxy.captures()
