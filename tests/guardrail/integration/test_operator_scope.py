"""Scopes bound by the operator, inside a real proxy: a key bound to `strict` cannot ask for
`standard` (typed 403, nothing reaches the upstream); without a choice it runs under `strict`."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from fake_upstream import FakeUpstream
from helpers import PERSON, chat
from proxy import Proxy, example_config

AUTH = Path(__file__).with_name("bound_auth.py")


@pytest.fixture(scope="module")
def proxy(
    tmp_path_factory: pytest.TempPathFactory, version: str, upstream: FakeUpstream
) -> Iterator[Proxy]:
    config = example_config()
    config["general_settings"]["custom_auth"] = "bound_auth.user_api_key_auth"
    workdir = tmp_path_factory.mktemp(f"bound-{version}")
    shutil.copy(AUTH, workdir / "bound_auth.py")
    started = Proxy(version, config, workdir, upstream.url).start()
    yield started
    started.stop()


@pytest.fixture(autouse=True)
def fresh(upstream: FakeUpstream) -> None:
    upstream.recorder.clear()


def post(proxy: Proxy, key: str, scope: str | None) -> tuple[int, bytes]:
    headers = {"authorization": f"Bearer {key}"}
    if scope:
        headers["x-guard-scope"] = scope
    return proxy.post("/v1/chat/completions", chat(f"Call {PERSON}."), headers)


def test_a_bound_key_cannot_lower_its_scope(proxy: Proxy, upstream: FakeUpstream) -> None:
    status, raw = post(proxy, "sk-bound-strict", "standard")
    assert status == 403, raw[:500]
    assert b"masks less than the scope this caller is bound to" in raw
    assert upstream.recorder.requests == []


def test_a_bound_key_runs_under_its_scope(proxy: Proxy, upstream: FakeUpstream) -> None:
    status, raw = post(proxy, "sk-bound-strict", None)
    assert status == 200, raw[:500]
    assert PERSON.encode() not in upstream.recorder.all_bytes()
    assert PERSON in raw.decode("utf-8")  # restored for the client


def test_an_unbound_key_keeps_the_default_scope(proxy: Proxy, upstream: FakeUpstream) -> None:
    status, raw = post(proxy, "sk-free", "standard")
    assert status == 200, raw[:500]
    assert PERSON.encode() in upstream.recorder.all_bytes()  # standard leaves people unmasked
