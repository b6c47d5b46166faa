"""A broken guardrail configuration stops the proxy: it never runs without the guardrail.

LiteLLM 1.104.5 and newer skip a guardrail whose constructor raises ValueError or TypeError and
start without it; every case here must instead end the proxy's start-up with a non-zero exit and
one line that names the setting and the fix, so nothing can reach the upstream. The proxies
start side by side (each takes seconds to import LiteLLM)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from fake_upstream import FakeUpstream
from helpers import TEXT, assert_clean, chat
from proxy import SHIM, Proxy, example_config

STOP_LINE = "reversible_mask: the proxy cannot start: "
MALFORMED = "version: 1\ncategories:\n  clients: [Acme Corporation\n"

# name -> (env overrides, dictionary text or None for the example, words the line must hold)
CASES: dict[str, tuple[dict[str, str | None], str | None, tuple[str, ...]]] = {
    "dictionary unset": ({"GUARD_DICTIONARY_PATH": None}, None, ("dictionary_path", "set it")),
    "dictionary not found": (
        {"GUARD_DICTIONARY_PATH": "/nonexistent/dictionary.yaml"},
        None,
        ("not found", "GUARD_DICTIONARY_PATH"),
    ),
    "dictionary malformed": ({}, MALFORMED, ("is not valid", "fix the file")),
    "key unset": ({"GUARD_ORG_KEY": None}, None, ("GUARD_ORG_KEY", "openssl rand -hex 32")),
    "key too short": ({"GUARD_ORG_KEY": "too-short"}, None, ("at least 32", "openssl rand")),
}


@pytest.fixture(scope="module")
def launched(
    tmp_path_factory: pytest.TempPathFactory, version: str, upstream: FakeUpstream
) -> Iterator[dict[str, Proxy]]:
    proxies = {}
    for name, (env, dictionary_text, _) in CASES.items():
        workdir = tmp_path_factory.mktemp(f"start-{name.replace(' ', '-')}-{version}")
        dictionary = SHIM / "dictionary.yaml"
        if dictionary_text is not None:
            dictionary = workdir.parent / f"{workdir.name}-dictionary.yaml"
            dictionary.write_text(dictionary_text, encoding="utf-8")
        proxy = Proxy(version, example_config(), workdir, upstream.url, dictionary, env=env)
        proxies[name] = proxy.launch()
    yield proxies
    for proxy in proxies.values():
        proxy.stop()


@pytest.mark.parametrize("case", list(CASES))
def test_bad_configuration_stops_the_proxy(
    case: str, launched: dict[str, Proxy], upstream: FakeUpstream
) -> None:
    proxy = launched[case]
    code = proxy.exit_code()
    if code is None:  # it started without the guardrail: show what that lets through
        status, body = proxy.post("/v1/chat/completions", chat(TEXT))
        sent = upstream.recorder.all_bytes()
        pytest.fail(f"proxy still runs ({status}); upstream got {sent[:500]!r}\n{proxy.log()}")
    assert code != 0, proxy.log()
    lines = [line for line in proxy.log(tail=None).splitlines() if line.startswith(STOP_LINE)]
    assert len(lines) == 1, proxy.log()
    for word in CASES[case][2]:
        assert word in lines[0], lines[0]
    assert_clean(upstream.recorder.all_bytes())
