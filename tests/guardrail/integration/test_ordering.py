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
from proxy import ORG_KEY, SHIM, Proxy, example_config

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
# These proxies get their params only from the config entry (a literal dictionary path and a
# key under another variable), with the GUARD_* fallbacks unset: on 1.80.15/16, whose loader
# drops custom params, this proves the lookup of the entry in the proxy's loaded config.
ENV = {"GUARD_ORG_KEY": None, "GUARD_DICTIONARY_PATH": None, "ORDERING_ORG_KEY": ORG_KEY}


def config(reversible_first: bool) -> dict:
    base = example_config()
    ours = base["guardrails"][0]
    ours["litellm_params"]["dictionary_path"] = str(SHIM / "dictionary.yaml")
    ours["litellm_params"]["org_key"] = "os.environ/ORDERING_ORG_KEY"
    base["guardrails"] = [ours, ONE_WAY] if reversible_first else [ONE_WAY, ours]
    return base


@pytest.fixture(scope="module")
def good(request: pytest.FixtureRequest, version: str, upstream: FakeUpstream) -> Proxy:
    return start_proxy(request, version, config(True), upstream, "reversible-first", ENV)


@pytest.fixture(scope="module")
def bad(request: pytest.FixtureRequest, version: str, upstream: FakeUpstream) -> Proxy:
    return start_proxy(request, version, config(False), upstream, "one-way-first", ENV)


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
