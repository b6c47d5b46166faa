"""Dictionary hot reload inside a real proxy: a changed file is in force within 5 s, a stream in
flight during the change is restored exactly, a broken file keeps the last good dictionary."""

from __future__ import annotations

import json
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
import yaml

from conftest import start_proxy
from fake_upstream import FakeUpstream
from helpers import TEXT, chat, sse_data
from proxy import SHIM, Proxy, example_config

NEW_TERM = "Umbrella Holdings"
PICK_UP_SECONDS = 5.0


@pytest.fixture(scope="module")
def proxy(request: pytest.FixtureRequest, version: str, upstream: FakeUpstream) -> Proxy:
    return start_proxy(request, version, example_config(), upstream, "reload")


def rewrite(proxy: Proxy, text: str) -> None:
    (proxy.workdir / "dictionary.yaml").write_text(text, encoding="utf-8")


def with_new_term() -> str:
    dictionary = yaml.safe_load((SHIM / "dictionary.yaml").read_text(encoding="utf-8"))
    dictionary["categories"]["clients"]["terms"].append(NEW_TERM)
    return yaml.safe_dump(dictionary, allow_unicode=True)


def streamed_text(raw: bytes) -> str:
    chunks = sse_data(raw)
    return "".join(c["choices"][0]["delta"].get("content") or "" for c in chunks if c["choices"])


def new_term_sent_masked(proxy: Proxy, upstream: FakeUpstream) -> bool:
    upstream.recorder.clear()
    status, _ = proxy.post("/v1/chat/completions", chat(f"About {NEW_TERM}."))
    assert status == 200
    return NEW_TERM.encode() not in upstream.recorder.all_bytes()


def test_a_changed_dictionary_is_in_force_within_seconds(
    proxy: Proxy, upstream: FakeUpstream
) -> None:
    assert not new_term_sent_masked(proxy, upstream)
    with ThreadPoolExecutor(1) as pool:
        stream = pool.submit(
            proxy.post, "/v1/chat/completions", chat(TEXT + " UPSTREAM-DRIP", stream=True)
        )
        time.sleep(0.5)  # the stream is under way
        rewrite(proxy, with_new_term())
        changed = time.monotonic()
        while not new_term_sent_masked(proxy, upstream):
            assert time.monotonic() - changed < PICK_UP_SECONDS, proxy.log()
            time.sleep(0.25)
        status, raw = stream.result(timeout=60)
    assert status == 200
    assert streamed_text(raw) == "ECHO: " + TEXT + " UPSTREAM-DRIP"


def test_a_broken_dictionary_keeps_the_last_good_one(proxy: Proxy, upstream: FakeUpstream) -> None:
    rewrite(proxy, with_new_term())
    time.sleep(1.2)
    assert new_term_sent_masked(proxy, upstream)
    rewrite(proxy, "categories: [")
    time.sleep(1.2)
    assert new_term_sent_masked(proxy, upstream)
    assert "the last good one stays in force" in proxy.log(tail=None)
    body = json.dumps(upstream.recorder.bodies("/chat/completions"))
    assert "[[CLIENTS_" in body
