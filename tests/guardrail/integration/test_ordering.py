"""Ordering with a one-way masking guardrail (litellm_content_filter, action MASK).

Guardrails run in config-list order. With this plugin first, a term is replaced by a reversible
placeholder before the one-way masker sees it, so the client still gets it back; with the
one-way masker first, part of the term is destroyed before this plugin can protect it.
"""

from __future__ import annotations

import json

import pytest

from conftest import start_proxy
from fake_upstream import FakeUpstream
from helpers import chat
from proxy import Proxy, example_config

ONE_WAY = {
    "guardrail_name": "one-way-filter",
    "litellm_params": {
        "guardrail": "litellm_content_filter",
        "mode": "pre_call",
        "default_on": True,
        "blocked_words": [
            {"keyword": "Acme", "action": "MASK"},
            {"keyword": "Wonka", "action": "MASK"},
        ],
    },
}
PROMPT = "Acme Corporation met Wonka"


def config(reversible_first: bool) -> dict:
    base = example_config()
    ours = base["guardrails"][0]
    base["guardrails"] = [ours, ONE_WAY] if reversible_first else [ONE_WAY, ours]
    return base


@pytest.fixture(scope="module")
def good(request: pytest.FixtureRequest, version: str, upstream: FakeUpstream) -> Proxy:
    return start_proxy(request, version, config(True), upstream, "reversible-first")


@pytest.fixture(scope="module")
def bad(request: pytest.FixtureRequest, version: str, upstream: FakeUpstream) -> Proxy:
    return start_proxy(request, version, config(False), upstream, "one-way-first")


def ask(proxy: Proxy, upstream: FakeUpstream) -> tuple[str, str]:
    upstream.recorder.clear()
    status, body = proxy.post("/v1/chat/completions", chat(PROMPT))
    assert status == 200, body[:2000]
    sent = upstream.recorder.bodies("/chat/completions")[0]["messages"][-1]["content"]
    return sent, json.loads(body)["choices"][0]["message"]["content"]


def test_reversible_first_keeps_the_term_reversible(good: Proxy, upstream: FakeUpstream) -> None:
    sent, answer = ask(good, upstream)
    assert sent.startswith("[[CLIENTS_") and "Wonka" not in sent  # both guardrails ran
    assert "Acme" not in sent
    assert answer.startswith("ECHO: Acme Corporation met ")


def test_one_way_first_destroys_the_term(bad: Proxy, upstream: FakeUpstream) -> None:
    sent, answer = ask(bad, upstream)
    assert "Acme" not in sent and "[[CLIENTS_" not in sent
    assert "Acme Corporation" not in answer  # lost for good: the client cannot get it back
