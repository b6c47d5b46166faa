"""Deny by default: routes without the guardrail's hooks never forward a dictionary term.

Token counting (no hook) is masked as text; the provider pass-through routes and every other
route the proxy classifies as a model route are refused with a typed 403; management routes
still answer. Then a canary property: every POST route the proxy's own /openapi.json lists is
sent a body whose every text field, and a header, holds a dictionary term, and the recording
upstream never receives it."""

from __future__ import annotations

import json
import re
import urllib.request
from concurrent.futures import ThreadPoolExecutor

import pytest

from conftest import start_proxy
from fake_upstream import FakeUpstream
from helpers import TEXT, assert_clean, chat, messages, responses
from proxy import MASTER_KEY, Proxy, example_config

CANARY = "Skyhook"
# Upstream paths of the non-text calls the guardrail skips by design (README, "Call types that are
# skipped"): their input reaches the provider as sent.
NON_TEXT_UPSTREAM = (
    "/embeddings", "/moderations", "/rerank", "/images/generations", "/images/edits",
    "/images/variations", "/speech", "/audio/transcriptions",
)  # fmt: skip
# Routes the canary walk leaves out: they stop or reconfigure the proxy under test.
DISRUPTIVE = re.compile(r"shutdown|reload|restart|/config/|flushall|/cache/|/debug")


@pytest.fixture(scope="module")
def proxy(request: pytest.FixtureRequest, version: str, upstream: FakeUpstream) -> Proxy:
    config = example_config()
    config["litellm_settings"]["callbacks"] = ["prometheus"]  # the proxy's own /metrics
    return start_proxy(request, version, config, upstream, "routes")


@pytest.fixture(autouse=True)
def fresh(upstream: FakeUpstream) -> None:
    upstream.recorder.clear()


def test_count_tokens_is_masked_as_text(proxy: Proxy, upstream: FakeUpstream) -> None:
    body = messages(TEXT, tools=[{"name": "look", "description": "about Globex",
                                  "input_schema": {"type": "object"}}])  # fmt: skip
    status, raw = proxy.post("/v1/messages/count_tokens", body)
    assert b"route_not_guarded" not in raw, raw[:500]
    assert_clean(upstream.recorder.all_bytes())
    assert status == 200 or upstream.recorder.requests == [], (status, raw[:500])


def test_responses_input_tokens_is_masked_as_text(proxy: Proxy, upstream: FakeUpstream) -> None:
    status, raw = proxy.post("/v1/responses/input_tokens", responses(TEXT))
    assert b"route_not_guarded" not in raw, raw[:500]
    assert_clean(upstream.recorder.all_bytes())


@pytest.mark.parametrize(
    "path", ["/openai/v1/chat/completions", "/anthropic/v1/messages", "/openai_passthrough/x"]
)
def test_pass_through_routes_are_refused(proxy: Proxy, upstream: FakeUpstream, path: str) -> None:
    status, raw = proxy.post(path, {"model": "gpt-4o-mini", "input": TEXT}, {"x-note": CANARY})
    assert status == 403, raw[:500]
    error = json.loads(raw)["error"]
    assert error["code"] == "route_not_guarded" and error["type"] == "reversible_mask_refused"
    assert "unguarded_routes" in error["message"]
    assert upstream.recorder.requests == []


def metrics(proxy: Proxy) -> dict[str, float]:
    """The guardrail's samples in the proxy's own Prometheus exposition, by name and labels."""
    request = urllib.request.Request(
        f"{proxy.url}/metrics/", headers={"authorization": f"Bearer {MASTER_KEY}"}
    )  # 1.110 asks for a key there
    with urllib.request.urlopen(request, timeout=30) as reply:
        text = reply.read().decode("utf-8")
    assert CANARY not in text and "Acme" not in text  # numbers and category names only
    samples = re.findall(r"^(reversible_mask_\w+(?:\{[^}]*\})?) ([0-9.e+]+)$", text, re.M)
    return {name: float(number) for name, number in samples}


def test_the_proxy_metrics_count_masked_terms_and_refusals(proxy: Proxy) -> None:
    before = metrics(proxy)
    assert proxy.post("/v1/chat/completions", chat(TEXT))[0] == 200
    assert proxy.post("/openai/v1/chat/completions", {"input": CANARY})[0] == 403
    after = metrics(proxy)
    grew = {k for k, v in after.items() if v > before.get(k, 0)}
    assert "reversible_mask_requests_masked_total" in grew
    assert 'reversible_mask_terms_masked_total{category="clients"}' in grew
    assert 'reversible_mask_requests_refused_total{reason="route_not_guarded"}' in grew
    assert after["reversible_mask_in_flight"] == 0


def test_management_and_read_routes_still_answer(proxy: Proxy) -> None:
    request = urllib.request.Request(
        f"{proxy.url}/v1/models", headers={"authorization": f"Bearer {MASTER_KEY}"}
    )
    with urllib.request.urlopen(request, timeout=30) as reply:
        assert reply.status == 200
    status, raw = proxy.post("/key/generate", {"key_alias": "k"})
    assert b"route_not_guarded" not in raw, (status, raw[:300])


def test_identifiers_and_extra_headers_reach_the_provider_masked(
    proxy: Proxy, upstream: FakeUpstream
) -> None:
    body = chat(
        TEXT,
        prompt_cache_key="Globex-cache",
        safety_identifier="Acme Corporation",
        extra_headers={"x-customer": "Skyhook"},
    )
    status, raw = proxy.post("/v1/chat/completions", body)
    assert status == 200, raw[:500]
    assert json.loads(raw)["choices"][0]["message"]["content"] == "ECHO: " + TEXT
    assert upstream.recorder.requests, "nothing reached the upstream"
    assert_clean(upstream.recorder.all_bytes())


@pytest.mark.parametrize(
    "extra",
    [
        {"stream": True, "n": 2},
        {"tools": [{"type": "function", "function": {"name": "Globex", "parameters": {}}}]},
    ],
    ids=["stream n=2", "term in a tool name"],
)
def test_requests_the_guardrail_cannot_protect_are_refused(
    proxy: Proxy, upstream: FakeUpstream, extra: dict
) -> None:
    status, raw = proxy.post("/v1/chat/completions", chat(TEXT, **extra))
    assert status == 400, raw[:500]
    assert b"reversible_mask" in raw or b"dictionary term" in raw, raw[:500]
    assert upstream.recorder.requests == []


def canary_body() -> dict:
    text = f"note on {CANARY}"
    return {
        "model": "gpt-4o-mini",
        "messages": [{"role": "user", "content": text}],
        "input": text, "prompt": text, "query": text, "text": text, "system": text,
        "instructions": text, "documents": [text],
        "contents": [{"role": "user", "parts": [{"text": text}]}],
        "params": {"message": {"parts": [{"kind": "text", "text": text}]}},
        "metadata": {"note": text}, "user": text, "max_tokens": 5,
    }  # fmt: skip


def listed_post_routes(proxy: Proxy) -> list[str]:
    with urllib.request.urlopen(f"{proxy.url}/openapi.json", timeout=60) as reply:
        spec = json.load(reply)
    paths = [path for path, ops in spec["paths"].items() if "post" in ops]
    return [re.sub(r"\{[^}]+\}", "x1", path) for path in paths if not DISRUPTIVE.search(path)]


def test_no_listed_route_forwards_a_term(proxy: Proxy, upstream: FakeUpstream) -> None:
    """The spec has the guardrail skip non-text calls (embeddings, moderation, images, audio,
    rerank): the provider sees their input as sent. Every other route's request is clean."""
    routes = listed_post_routes(proxy)
    assert len(routes) > 150, routes

    def send(path: str) -> tuple[int, bytes]:
        return proxy.post(path, canary_body(), {"x-note": CANARY})

    with ThreadPoolExecutor(8) as pool:
        answers = dict(zip(routes, pool.map(send, routes), strict=True))
    with upstream.recorder.lock:
        received = list(zip(upstream.recorder.requests, upstream.recorder.headers, strict=True))
    leaked = [
        path
        for (path, body), headers in received
        if CANARY.lower().encode() in (body + headers).lower()
    ]
    assert all(path.endswith(NON_TEXT_UPSTREAM) for path in leaked), leaked
    refused = [path for path, (_, raw) in answers.items() if b"route_not_guarded" in raw]
    assert any(path.startswith("/anthropic/") for path in refused), refused
