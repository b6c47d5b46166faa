#!/usr/bin/env python3
"""Benchmark of the reversible masking guardrail. Run: .venv/bin/python scripts/bench-guardrail.py

1. Masking a 20 KB prompt with 1k and 100k term dictionaries: throughput (MB/s) and p50/p99 per
   request, against a naive regex alternation baseline (longest-first, case-insensitive, word
   bounded) timed in the same run; printed as ratios.
2. Proxy round trip (real LiteLLM proxy from .venvs/, fake upstream on 127.0.0.1): the example
   config with the guardrail versus the same config without it, requests interleaved.
Targets: >= 10x the regex baseline at 100k terms, p99 masking <= 1 ms, round-trip overhead <= 3 %.
Progress goes to stderr, results to stdout.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path[:0] = [
    str(REPO / "tests" / "guardrail"),
    str(REPO / "tests" / "guardrail" / "integration"),
]

import yaml  # noqa: E402

from reversible_mask import Masker, parse_dictionary  # noqa: E402

from fake_upstream import FakeUpstream  # noqa: E402
from proxy import MASTER_KEY, Proxy, example_config  # noqa: E402

KEY = b"bench-org-key-0123456789abcdef0123456789"
SYLLABLES = [
    "ka",
    "lo",
    "mi",
    "ra",
    "ten",
    "vo",
    "zu",
    "per",
    "qui",
    "son",
    "dex",
    "ar",
    "bel",
    "cor",
]
FILLER = ("the quarterly report shows steady growth across all regions while the team plans "
          "further investment in tooling and hiring for the next fiscal year ").split()  # fmt: skip


def log(message: str) -> None:
    print(f"bench-guardrail: {message}", file=sys.stderr, flush=True)


def make_terms(count: int, rng: random.Random) -> list[str]:
    terms: set[str] = set()
    while len(terms) < count:
        words = [
            "".join(rng.choices(SYLLABLES, k=rng.randint(2, 4))).capitalize() for _ in range(2)
        ]
        terms.add(" ".join(words) + rng.choice(["", " Ltd", " GmbH", " Labs"]))
    return sorted(terms)


def make_prompt(terms: list[str], rng: random.Random, size: int = 20_000) -> str:
    words: list[str] = []
    length = 0
    while length < size:
        word = rng.choice(terms) if rng.random() < 0.02 else rng.choice(FILLER)
        words.append(word)
        length += len(word) + 1
    return " ".join(words)[:size]


def regex_baseline(terms: list[str]) -> Callable[[str], str]:
    ordered = sorted(terms, key=len, reverse=True)
    pattern = re.compile(r"\b(?:" + "|".join(map(re.escape, ordered)) + r")\b", re.IGNORECASE)
    placeholders = {t.lower(): f"[[T_{i:010d}]]" for i, t in enumerate(terms)}
    return lambda text: pattern.sub(lambda m: placeholders[m.group().lower()], text)


def timings(
    fn: Callable[[str], str], text: str, runs: int, budget: float
) -> tuple[list[float], list[float]]:
    """Wall and CPU (thread) time per call; a distinct text per run, so no memo can answer.
    CPU time is what the masking itself costs when other processes share the cores."""
    texts = [f"{index} {text}" for index in range(runs)]
    wall: list[float] = []
    cpu: list[float] = []
    deadline = time.perf_counter() + budget
    for variant in texts:
        start, start_cpu = time.perf_counter(), time.thread_time()
        fn(variant)
        cpu.append(time.thread_time() - start_cpu)
        wall.append(time.perf_counter() - start)
        if time.perf_counter() > deadline and len(wall) >= 3:
            break
    return wall, cpu


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def engine(sizes: list[int], runs: int) -> None:
    rng = random.Random(7)
    print("masking a 20 KB prompt (engine vs naive regex alternation, same run)")
    print(
        f"{'terms':>8} {'impl':>8} {'MB/s':>9} {'p50 ms':>9} {'p99 ms':>9} {'p99 cpu':>9} {'runs':>6}"
    )
    for size in sizes:
        terms = make_terms(size, rng)
        prompt = make_prompt(terms, rng)
        log(f"{size} terms: building automaton")
        started = time.perf_counter()
        masker = Masker(parse_dictionary({"categories": {"clients": terms}}), KEY)
        build = time.perf_counter() - started
        assert masker.unmask(masker.mask(prompt)) == prompt
        log(f"{size} terms: building regex baseline")
        baseline = regex_baseline(terms)
        results = {}
        for name, fn, count in (
            ("engine", masker.mask, runs),
            ("regex", baseline, max(5, runs // 20)),
        ):
            log(f"{size} terms: timing {name}")
            fn(prompt)
            samples, cpu = timings(fn, prompt, count, budget=20.0)
            mbps = len(prompt.encode()) * len(samples) / sum(samples) / 1e6
            results[name] = (mbps, pct(samples, 0.5), pct(samples, 0.99), pct(cpu, 0.99))
            print(f"{size:>8} {name:>8} {mbps:>9.2f} {results[name][1] * 1e3:>9.3f} "
                  f"{results[name][2] * 1e3:>9.3f} {results[name][3] * 1e3:>9.3f} {len(samples):>6}")  # fmt: skip
        ratio = results["engine"][0] / results["regex"][0]
        print(f"{size:>8} ratio: engine is {ratio:.1f}x the regex baseline throughput "
              f"(automaton build {build:.2f}s)")  # fmt: skip


NOOP_GUARDRAIL = """from litellm.integrations.custom_guardrail import CustomGuardrail


class NoopGuardrail(CustomGuardrail):
    async def async_pre_call_hook(self, user_api_key_dict, cache, data, call_type):
        return data
"""


def round_trip(version: str, requests: int, delay_ms: float) -> None:
    rng = random.Random(11)
    terms = make_terms(1000, rng)
    prompt = make_prompt(terms, rng)
    with FakeUpstream(delay_ms / 1e3) as upstream, tempfile.TemporaryDirectory() as tmp:
        dictionary = {"default_scope": "standard", "scopes": {"standard": ["clients"]},
                      "categories": {"clients": terms}}  # fmt: skip
        path = Path(tmp) / "bench-dictionary.yaml"
        path.write_text(yaml.safe_dump(dictionary), encoding="utf-8")
        without = example_config()
        without.pop("guardrails")
        noop = example_config()
        noop["guardrails"][0]["litellm_params"]["guardrail"] = "noop_guardrail.NoopGuardrail"
        configs = {"with": example_config(), "noop": noop, "without": without}
        proxies: dict[str, Proxy] = {}
        try:
            for name, config in configs.items():
                log(f"starting proxy '{name}' (litellm {version})")
                proxy = Proxy(version, config, Path(tmp) / name, upstream.url, dictionary=path)
                proxies[name] = proxy
                proxy.workdir.mkdir(parents=True)
                (proxy.workdir / "noop_guardrail.py").write_text(NOOP_GUARDRAIL, encoding="utf-8")
                proxy.start()
            samples = _interleave(proxies, prompt, requests)
        finally:
            for proxy in proxies.values():
                proxy.stop()
    print(f"\nproxy round trip, chat completion with a 20 KB prompt, litellm {version}, "
          f"upstream latency {delay_ms:g} ms")  # fmt: skip
    print("with: the example config; noop: the same entry with a pass-through CustomGuardrail; "
          "without: no guardrail entry")  # fmt: skip
    print(f"{'config':>10} {'p50 ms':>9} {'p99 ms':>9} {'mean ms':>9} {'n':>5}")
    for name, values in samples.items():
        print(f"{name:>10} {pct(values, 0.5) * 1e3:>9.2f} {pct(values, 0.99) * 1e3:>9.2f} "
              f"{statistics.fmean(values) * 1e3:>9.2f} {len(values):>5}")  # fmt: skip
    for base in ("without", "noop"):
        overhead = pct(samples["with"], 0.5) / pct(samples[base], 0.5) - 1
        pairs = zip(samples["with"], samples[base], strict=True)
        paired = statistics.median(a - b for a, b in pairs)
        print(f"overhead of the guardrail vs '{base}': {overhead * 100:+.1f}% (p50 vs p50), "
              f"{paired / pct(samples[base], 0.5) * 100:+.1f}% (median of paired differences, "
              f"{paired * 1e3:+.2f} ms)")  # fmt: skip


def _interleave(proxies: dict[str, Proxy], prompt: str, requests: int) -> dict[str, list[float]]:
    headers = {"content-type": "application/json", "authorization": f"Bearer {MASTER_KEY}"}
    connections = {
        n: http.client.HTTPConnection("127.0.0.1", p.port, timeout=60) for n, p in proxies.items()
    }
    samples: dict[str, list[float]] = {name: [] for name in proxies}
    order = list(connections)
    rng = random.Random(5)
    for index in range(requests + 20):
        # A fresh prompt per round: the masker's memo must not serve a repeated request.
        content = f"request {index}: {prompt}"
        body = json.dumps(
            {"model": "gpt-4o-mini", "messages": [{"role": "user", "content": content}]}
        )
        # Shuffle who goes first: the proxy answered last still has its logging work running.
        rng.shuffle(order)
        for name in order:
            connection = connections[name]
            start = time.perf_counter()
            connection.request("POST", "/v1/chat/completions", body, headers)
            reply = connection.getresponse()
            data = reply.read()
            elapsed = time.perf_counter() - start
            assert reply.status == 200, data[:500]
            if index >= 20:  # warm-up
                samples[name].append(elapsed)
        if index % 50 == 0:
            log(f"round trip: {index}/{requests + 20}")
    return samples


def _connect(port: int) -> http.client.HTTPConnection:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    connection.connect()
    # http.client writes headers and body separately: without this, Nagle + delayed ACK add
    # ~40 ms stalls at random and swamp what is being measured.
    connection.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return connection


def hooks(requests: int) -> None:
    """CPU time of the adapter's own hooks per request (runs inside a LiteLLM venv): what the
    guardrail adds to a round trip, independent of other load on the machine."""
    import asyncio
    import copy

    from litellm.types.utils import ModelResponse

    from reversible_mask.guardrail import ReversibleMaskGuardrail

    rng = random.Random(11)
    terms = make_terms(1000, rng)
    prompt = make_prompt(terms, rng)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "dictionary.yaml"
        path.write_text(yaml.safe_dump({"categories": {"clients": terms}}), encoding="utf-8")
        guard = ReversibleMaskGuardrail(
            guardrail_name="g", dictionary_path=str(path), org_key=KEY.decode(), default_on=True
        )
    stages: dict[str, list[float]] = {"pre_call": [], "post_call": [], "logging": [], "total": []}

    async def one(index: int) -> None:
        content = f"request {index}: {prompt}"
        data = {"model": "m", "messages": [{"role": "user", "content": content}], "metadata": {}}
        body = copy.copy(data)  # what the proxy keeps as proxy_server_request.body
        spent = time.thread_time()
        await guard.async_pre_call_hook(None, None, data, "acompletion")
        stages["pre_call"].append(time.thread_time() - spent)
        masked = data["messages"][0]["content"]
        response = ModelResponse(choices=[{"index": 0, "finish_reason": "stop",
                                           "message": {"role": "assistant", "content": f"ECHO: {masked}"}}])  # fmt: skip
        start = time.thread_time()
        await guard.async_post_call_success_hook(data, None, response)
        stages["post_call"].append(time.thread_time() - start)
        kwargs = {
            "messages": data["messages"],
            "standard_logging_object": {
                "messages": data["messages"],
                "response": response.model_dump(),
            },
            "litellm_params": {"proxy_server_request": {"body": body}, "metadata": {}},
            "additional_args": {"complete_input_dict": {"messages": data["messages"]}},
            "original_response": json.dumps(
                {"choices": [{"message": {"content": f"ECHO: {masked}"}}]}
            ),
        }
        start = time.thread_time()
        await guard.async_logging_hook(kwargs, response, "acompletion")
        stages["logging"].append(time.thread_time() - start)
        stages["total"].append(time.thread_time() - spent)

    async def run() -> None:
        for index in range(requests):
            await one(index)

    asyncio.run(run())
    print("\nadapter hooks, CPU time per chat request with a 20 KB prompt (1k terms)")
    print(f"{'stage':>10} {'p50 ms':>9} {'p99 ms':>9}")
    for name, values in stages.items():
        print(f"{name:>10} {pct(values, 0.5) * 1e3:>9.3f} {pct(values, 0.99) * 1e3:>9.3f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", default="1000,100000")
    parser.add_argument("--runs", type=int, default=500)
    parser.add_argument("--requests", type=int, default=300)
    parser.add_argument("--litellm-version", default="1.104.5")
    parser.add_argument("--skip-proxy", action="store_true")
    parser.add_argument("--delays-ms", default="0,200", help="simulated upstream latencies")
    parser.add_argument("--hooks-only", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.hooks_only:
        hooks(args.requests)
        return
    engine([int(s) for s in args.sizes.split(",")], args.runs)
    if not args.skip_proxy:
        venv_python = REPO / ".venvs" / f"litellm-{args.litellm_version}" / "bin" / "python"
        log("timing the adapter hooks inside the LiteLLM venv")
        env = {**os.environ, "LITELLM_LOCAL_MODEL_COST_MAP": "True"}
        command = [str(venv_python), __file__, "--hooks-only", "--requests", str(args.requests)]
        subprocess.run(command, check=True, env=env)
        for delay in args.delays_ms.split(","):
            requests = args.requests if float(delay) == 0 else max(20, args.requests // 5)
            round_trip(args.litellm_version, requests, float(delay))


if __name__ == "__main__":
    main()
