#!/usr/bin/env python3
"""Benchmark of the reversible masking guardrail. Run: .venv/bin/python scripts/bench-guardrail.py

Every figure is measured in the same run as the baseline it is compared with; times are CPU
time of the measuring thread unless marked wall. Progress goes to stderr, results to stdout.

1. Masking by script: a 20 KB (20,000 UTF-8 bytes) request of English (ASCII), German, Chinese
   and emoji-rich chat text, about 2 % of its words dictionary terms, 1,000-term dictionary;
   p50 / p99 per request and the ratio to ASCII. Goal: every script within 2x of ASCII.
2. Dictionary size: the same ASCII request with 1,000 and 100,000 terms, and two regex
   baselines: a flat alternation of all terms, and the competent one, the terms compiled into a
   prefix tree (trie regex) with the same case folding. Goal: p99 <= 1 ms at 100,000 terms.
3. Hooks inside a real proxy (LiteLLM from .venvs/): the CPU time of every guardrail hook of
   one chat request (pre-call, post-call, the async and the sync logging hook), through a
   timing subclass of the shipped class, for a 20 KB prompt answered with 200 characters and
   with a full 20 KB echo. Goal: <= 0.5 ms per request at p50. `--against REV` also times the
   guardrail of a git revision: four proxies (this, REV, REV, this), all their requests
   interleaved, and the ratio of all-hooks p50: an A/B that sees one machine at one time.
4. Proxy round trip, shipped example config with the guardrail vs the same config without it,
   requests interleaved in shuffled order, against a zero-latency and a 50 ms upstream.
   Goal: <= 3 % at 50 ms.

`--parts 3` runs one part (about 10 s for part 3); `--help` lists the other options.
"""

from __future__ import annotations

import argparse
import http.client
import io
import json
import random
import re
import socket
import statistics
import subprocess
import sys
import tarfile
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

from reversible_mask import Masker, Registry, parse_dictionary  # noqa: E402

from fake_upstream import FakeUpstream  # noqa: E402
from proxy import MASTER_KEY, Proxy, example_config  # noqa: E402

KEY = b"bench-org-key-0123456789abcdef0123456789"
SIZE = 20_000  # bytes of UTF-8
SYLLABLES = ["ka", "lo", "mi", "ra", "ten", "vo", "zu", "per", "qui", "son", "dex", "ar", "bel"]
SCRIPTS = {
    "ASCII": "The quarterly report shows steady growth across all regions. The team plans "
    "further investment in tooling and hiring for the next fiscal year. Please review the "
    "attached documents by Friday and send feedback on open questions.",
    "German": "Der Quartalsbericht zeigt ein stetiges Wachstum in allen Regionen. Das Team plant "
    "für das nächste Geschäftsjahr weitere Investitionen in Werkzeuge und Personal. Bitte prüfen "
    "Sie die Unterlagen bis Freitag, außerdem müssen wir die Straßenbaukosten neu berechnen.",
    "Chinese": "季度报告显示所有地区均实现稳步增长。团队计划在下一财年进一步投资于工具和人员招聘。"
    "请在周五之前审阅附件并就未决问题提供反馈，我们还需要重新计算道路建设成本。",
    "emoji": "great job on the launch 🎉🎉 see you at the offsite ❤️ tomorrow! the whole team "
    "👨‍👩‍👧‍👦 says thanks 🙏🏽 lunch is on me 🍕🥳 ok 👍 let's ship it 🚀🔥 congrats 👏🏼✨",
}
TIMED_GUARDRAIL = """import json, os, sys, time
AGAINST = os.environ.get("BENCH_GUARDRAIL_PATH")  # --against: another revision's package
if AGAINST:
    sys.path.insert(0, AGAINST)
import reversible_mask
from reversible_mask.guardrail import ReversibleMaskGuardrail
if AGAINST and not reversible_mask.__file__.startswith(AGAINST):
    raise RuntimeError(f"bench: reversible_mask came from {reversible_mask.__file__}")



def _record(stage, call_id, started):
    spent = time.thread_time() - started  # taken before the write below
    with open(os.environ["HOOK_TIMES"], "a") as file:
        file.write(json.dumps([stage, call_id, spent]) + "\\n")


class TimedGuardrail(ReversibleMaskGuardrail):
    async def async_pre_call_hook(self, user_api_key_dict, cache, data, call_type):
        started = time.thread_time()
        result = await super().async_pre_call_hook(user_api_key_dict, cache, data, call_type)
        _record("pre_call", data.get("litellm_call_id"), started)
        return result

    async def async_post_call_success_hook(self, data, user_api_key_dict, response):
        started = time.thread_time()
        result = await super().async_post_call_success_hook(data, user_api_key_dict, response)
        _record("post_call", data.get("litellm_call_id"), started)
        return result

    async def async_logging_hook(self, kwargs, result, call_type):
        started = time.thread_time()
        out = self.logging_hook_body(kwargs, result, call_type)
        _record("logging (async)", kwargs.get("litellm_call_id"), started)
        return out

    def logging_hook(self, kwargs, result, call_type):
        started = time.thread_time()
        out = self.logging_hook_body(kwargs, result, call_type)
        _record("logging (sync)", kwargs.get("litellm_call_id"), started)
        return out

    def logging_hook_body(self, kwargs, result, call_type):
        return super().logging_hook(kwargs, result, call_type)
"""


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


def make_prompt(
    terms: list[str], rng: random.Random, script: str = "ASCII", line_every: int = 0
) -> str:
    """20,000 UTF-8 bytes of `script` text with about 2 % of its words replaced by terms; with
    `line_every`, a line break instead of a space after every `line_every`-th word."""
    filler = SCRIPTS[script].split(" ")
    words: list[str] = []
    size = 0
    while size < SIZE:
        word = rng.choice(terms) if rng.random() < 0.02 else filler[len(words) % len(filler)]
        words.append(word)
        size += len(word.encode()) + 1
    breaks = (
        "\n" if line_every and i % line_every == line_every - 1 else " " for i in range(len(words))
    )
    text = "".join(word + gap for word, gap in zip(words, breaks, strict=True))[:-1]
    while len(text.encode()) > SIZE:
        text = text[: -max(1, (len(text.encode()) - SIZE) // 4)]
    return text


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def timings(
    fn: Callable[[str], object], text: str, runs: int, budget: float
) -> tuple[list[float], list[float]]:
    """CPU and wall time per call; a distinct text per call, so no memo can answer."""
    cpu: list[float] = []
    wall: list[float] = []
    deadline = time.perf_counter() + budget
    for index in range(runs):
        variant = f"{index} {text}"
        started, started_cpu = time.perf_counter(), time.thread_time()
        fn(variant)
        cpu.append(time.thread_time() - started_cpu)
        wall.append(time.perf_counter() - started)
        if time.perf_counter() > deadline and len(cpu) >= 3:
            break
    return cpu, wall


def request_masker(masker: Masker) -> Callable[[str], str]:
    target = masker.target(None)
    return lambda text: masker.mask(text, target, Registry())


# Chat text comes in paragraphs: the second shape breaks the line every 40 words, which sends
# every script (ASCII too) through the engine's whitespace-folding view.
SHAPES = {"one paragraph": 0, "a line break every 40 words": 40}


def by_script(runs: int) -> None:
    rng = random.Random(7)
    terms = make_terms(1000, rng)
    masker = Masker(parse_dictionary({"categories": {"clients": terms}}), KEY)
    mask = request_masker(masker)
    print("1. masking a 20 KB request by script (1,000 terms; CPU ms per request)")
    for shape, line_every in SHAPES.items():
        print(f"   {shape}")
        print(
            f"{'script':>8} {'chars':>7} {'p50 ms':>8} {'p99 ms':>8} {'MB/s':>7} {'p50 / ASCII':>12}"
        )
        base = 0.0
        for script in SCRIPTS:
            prompt = make_prompt(terms, rng, script, line_every)
            p50 = time_script(mask, masker, prompt, (script, shape), runs, base)
            base = base or p50


def time_script(
    mask: Callable[[str], str],
    masker: Masker,
    prompt: str,
    label: tuple[str, str],
    runs: int,
    base: float,
) -> float:
    """Prints one row of the script table; returns its p50 (the ASCII row is the base)."""
    registry = Registry()
    assert masker.unmask(masker.mask(prompt, masker.target(None), registry), registry) == prompt
    script, shape = label
    log(f"timing {script}, {shape}")
    mask(prompt)  # warm: Unicode tables are built once per process
    samples, _ = timings(mask, prompt, runs, budget=20.0)
    p50 = pct(samples, 0.5)
    mbps = SIZE * len(samples) / sum(samples) / 1e6
    print(f"{script:>8} {len(prompt):>7} {p50 * 1e3:>8.3f} {pct(samples, 0.99) * 1e3:>8.3f} "
          f"{mbps:>7.1f} {p50 / (base or p50):>11.2f}x")  # fmt: skip
    return p50


def regex_baseline(terms: list[str]) -> Callable[[str], str]:
    ordered = sorted(terms, key=len, reverse=True)
    pattern = re.compile(r"\b(?:" + "|".join(map(re.escape, ordered)) + r")\b", re.IGNORECASE)
    placeholders = {t.lower(): f"[[T_{i:010d}]]" for i, t in enumerate(terms)}
    return lambda text: pattern.sub(lambda m: placeholders[m.group().lower()], text)


def trie_pattern(words: list[str]) -> str:
    """One regex of all terms as a prefix tree (the well-known trie-regex technique): shared
    prefixes are matched once, and each branch point is a group whose `?` keeps the longest
    term at a position, as the engine does."""
    trie: dict = {}
    for word in words:
        node = trie
        for char in word:
            node = node.setdefault(char, {})
        node[""] = {}

    def emit(node: dict) -> str:
        branches = [re.escape(char) + emit(child) for char, child in sorted(node.items()) if char]
        if not branches:
            return ""
        if len(branches) == 1 and "" not in node:
            return branches[0]
        group = "(?:" + "|".join(branches) + ")"
        return group + "?" if "" in node else group

    return emit(trie)


def trie_baseline(terms: list[str]) -> Callable[[str], str]:
    """A competent regex: terms case-folded into a prefix tree, matched case-insensitively with
    word boundaries (the engine's folding, for this ASCII request)."""
    folded = sorted({term.casefold() for term in terms})
    pattern = re.compile(r"\b" + trie_pattern(folded) + r"\b", re.IGNORECASE)
    placeholders = {t: f"[[T_{i:010d}]]" for i, t in enumerate(folded)}
    return lambda text: pattern.sub(lambda m: placeholders[m.group().casefold()], text)


def by_size(sizes: list[int], runs: int) -> None:
    rng = random.Random(7)
    print("\n2. dictionary size: the ASCII request, engine vs a regex alternation and a trie regex")
    print(f"{'terms':>8} {'impl':>7} {'p50 ms':>9} {'p99 ms':>9} {'p99 wall':>9} {'runs':>5}")
    for size in sizes:
        terms = make_terms(size, rng)
        prompt = make_prompt(terms, rng)
        log(f"{size} terms: building the automaton")
        started = time.perf_counter()
        masker = Masker(parse_dictionary({"categories": {"clients": terms}}), KEY)
        build = time.perf_counter() - started
        log(f"{size} terms: building the regex baseline")
        results = {}
        for name, fn, count in (
            ("engine", request_masker(masker), runs),
            ("regex", regex_baseline(terms), max(3, runs // 50)),
            ("trie", trie_baseline(terms), max(3, runs // 10)),
        ):
            log(f"{size} terms: timing {name}")
            fn(prompt)
            cpu, walls = timings(fn, prompt, count, budget=30.0)
            results[name] = pct(cpu, 0.5)
            print(f"{size:>8} {name:>7} {pct(cpu, 0.5) * 1e3:>9.3f} {pct(cpu, 0.99) * 1e3:>9.3f} "
                  f"{pct(walls, 0.99) * 1e3:>9.3f} {len(cpu):>5}")  # fmt: skip
        print(f"{size:>8} engine is {results['regex'] / results['engine']:,.1f}x faster than "
              f"the alternation and {results['trie'] / results['engine']:,.1f}x faster than the "
              f"trie regex (automaton build {build:.2f} s)")  # fmt: skip


def bench_config(upstreams: dict[str, str], guardrail: str | None) -> dict:
    config = example_config()
    config["model_list"] = [
        {
            "model_name": name,
            "litellm_params": {
                "model": f"openai/{model}",
                "api_key": "sk-x",
                "api_base": f"{url}/v1",
            },
        }  # fmt: skip
        for name, (model, url) in upstreams.items()
    ]
    if guardrail is None:
        config.pop("guardrails")
    else:
        config["guardrails"][0]["litellm_params"]["guardrail"] = guardrail
    return config


def proxy_runs(
    version: str, requests: int, delay_ms: float, parts: set[int], against: str | None = None
) -> None:
    rng = random.Random(11)
    terms = make_terms(1000, rng)
    prompts = {shape: make_prompt(terms, rng, "ASCII", every) for shape, every in SHAPES.items()}
    prompt = prompts["one paragraph"]
    with (
        FakeUpstream() as fast,
        FakeUpstream(delay_ms / 1e3) as slow,
        tempfile.TemporaryDirectory() as tmp,
    ):
        dictionary = Path(tmp) / "bench-dictionary.yaml"
        dictionary.write_text(yaml.safe_dump({"categories": {"clients": terms}}), "utf-8")
        upstreams = {
            "echo": ("echo-model", fast.url),
            "short": ("short-model", fast.url),
            "slow": ("echo-model", slow.url),
        }
        timed = bench_config(upstreams, "timed_guardrail.TimedGuardrail")
        # What each timed proxy runs: this checkout's guardrail, and with --against a revision's
        # too, started A B B A: a proxy started earlier runs the same hooks a few % cheaper (seen
        # in A/B runs of one revision against itself), so each side gets both start positions.
        paths = {"this checkout": None}
        if against:
            paths[against] = str(revision_package(against, Path(tmp) / "against"))
        sides = ["this checkout", against, against, "this checkout"] if against else list(paths)
        # the timed proxies by name, each with the package it loads (None: the installed one)
        timed_paths = (
            {f"timed {i}": paths[side] for i, side in enumerate(sides)} if 3 in parts else {}
        )
        configs = dict.fromkeys(timed_paths, timed)
        if 4 in parts:
            configs["with"] = bench_config(
                upstreams, "reversible_mask_guardrail.ReversibleMaskGuardrail"
            )
            configs["without"] = bench_config(upstreams, None)
        proxies: dict[str, Proxy] = {}
        try:
            for index, (name, config) in enumerate(configs.items()):
                log(f"starting proxy '{name}' (litellm {version})")
                workdir = Path(tmp) / f"proxy-{index}"
                workdir.mkdir()
                (workdir / "timed_guardrail.py").write_text(TIMED_GUARDRAIL, "utf-8")
                env = {"HOOK_TIMES": str(workdir / "hook-times.jsonl")}
                if name in timed_paths:
                    env["BENCH_GUARDRAIL_PATH"] = timed_paths[name]
                proxy = Proxy(version, config, workdir, fast.url, dictionary=dictionary, env=env)
                proxies[name] = proxy.start()
            timed_proxies = [(sides[i], proxies[name]) for i, name in enumerate(timed_paths)]
            for shape, text in prompts.items() if timed_proxies else ():
                hooks(timed_proxies, (shape, text), requests)
            for model in ("echo", "slow") if 4 in parts else ():
                latency = 0 if model == "echo" else delay_ms
                pair = {name: proxies[name] for name in ("with", "without")}
                count = requests if model == "echo" else max(30, requests // 2)
                samples = interleave(pair, model, prompt, count)
                report_round_trip(version, latency, samples)
        finally:
            for proxy in proxies.values():
                proxy.stop()


def revision_package(revision: str, into: Path) -> Path:
    """The guardrail package of a git revision, as source to put first on the proxy's path (it is
    pure Python; its dependencies come from the proxy's venv)."""
    archive = subprocess.run(
        ["git", "-C", str(REPO), "archive", revision, "src/guardrail/src"],
        check=True,
        capture_output=True,
    ).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")
    return into / "src" / "guardrail" / "src"


def hooks(proxies: list[tuple[str, Proxy]], shaped: tuple[str, str], requests: int) -> None:
    """Hook CPU per request of each side's timed proxies (a side: this checkout, or the
    --against revision); all proxies' requests are interleaved in shuffled order, so every
    side sees the same machine at the same time."""
    shape, prompt = shaped
    connections = [(side, _connect(proxy.port)) for side, proxy in proxies]
    times = [(side, proxy.workdir / "hook-times.jsonl") for side, proxy in proxies]
    rng = random.Random(3)
    for model in ("short", "echo"):
        log(f"hook CPU: {requests} requests, {shape}, reply '{model}'")
        for _, path in times:
            path.unlink(missing_ok=True)
        for index in range(requests + 20):
            rng.shuffle(connections)
            for _, connection in connections:
                _post(connection, model, f"request {index}: {prompt}")
        rows: dict[str, list[dict[str, float]]] = {}
        for side, path in times:
            _settle(path, requests + 20)
            rows.setdefault(side, []).extend(_per_request(path)[20:])
        reply = "200 characters" if model == "short" else "the full 20 KB echo"
        totals = {}
        for side, side_rows in rows.items():
            print(f"\n3. guardrail hooks inside the proxy, CPU per request: 20 KB prompt ({shape}), "
                  f"reply {reply}, 1,000 terms ({len(side_rows)} requests)"
                  + (f", guardrail of {side}" if len(rows) > 1 else "")
                  + "\n   measured in the proxy process: thread CPU time of each hook, recorded by a "
                  "timing subclass of the shipped class in the shipped example config, summed per "
                  "request")  # fmt: skip
            totals[side] = _report_hooks(side_rows)
        if len(totals) == 2:
            (mine, mine_p50), (other, other_p50) = totals.items()
            print(f"   all hooks p50, {mine} / {other}: {mine_p50 / other_p50:.3f}")


def _per_request(path: Path) -> list[dict[str, float]]:
    per_call: dict[str, dict[str, float]] = {}
    for line in path.read_text().splitlines():
        stage, call_id, spent = json.loads(line)
        per_call.setdefault(call_id, {}).setdefault(stage, 0.0)
        per_call[call_id][stage] += spent
    return [r for r in per_call.values() if "pre_call" in r]


def _report_hooks(rows: list[dict[str, float]]) -> float:
    """Prints the table; answers the p50 of all hooks."""
    print(f"{'hook':>16} {'p50 ms':>8} {'p99 ms':>8}")
    stages = ["pre_call", "post_call", "logging (async)", "logging (sync)"]
    for stage in [s for s in stages if any(s in r for r in rows)]:  # the sync hook may not run
        values = [r.get(stage, 0.0) for r in rows]
        print(f"{stage:>16} {pct(values, 0.5) * 1e3:>8.3f} {pct(values, 0.99) * 1e3:>8.3f}")
    totals = [sum(r.values()) for r in rows]
    print(f"{'all hooks':>16} {pct(totals, 0.5) * 1e3:>8.3f} {pct(totals, 0.99) * 1e3:>8.3f}")
    return pct(totals, 0.5)


def _settle(path: Path, count: int) -> None:
    """Logging hooks run after the response: wait until every request's are recorded."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if path.exists() and path.read_text().count('"logging (async)"') >= count:
            return
        time.sleep(0.5)
    log("warning: not every logging hook was recorded")


def interleave(proxies: dict[str, Proxy], model: str, prompt: str, requests: int) -> dict:
    connections = {name: _connect(p.port) for name, p in proxies.items()}
    samples: dict[str, list[float]] = {name: [] for name in proxies}
    order = list(connections)
    rng = random.Random(5)
    for index in range(requests + 10):
        rng.shuffle(order)  # the proxy answered last may still be logging
        for name in order:
            started = time.perf_counter()
            _post(connections[name], model, f"request {index}: {prompt}")
            if index >= 10:  # warm-up
                samples[name].append(time.perf_counter() - started)
        if index % 50 == 0:
            log(f"round trip ({model}): {index}/{requests + 10}")
    return samples


def report_round_trip(version: str, latency: float, samples: dict[str, list[float]]) -> None:
    print(f"\n4. proxy round trip, litellm {version}, upstream latency {latency:g} ms, "
          "20 KB prompt echoed (wall ms)")  # fmt: skip
    print(f"{'config':>8} {'p50':>8} {'p99':>8} {'mean':>8} {'n':>5}")
    for name, values in samples.items():
        print(f"{name:>8} {pct(values, 0.5) * 1e3:>8.2f} {pct(values, 0.99) * 1e3:>8.2f} "
              f"{statistics.fmean(values) * 1e3:>8.2f} {len(values):>5}")  # fmt: skip
    base = pct(samples["without"], 0.5)
    paired = statistics.median(
        a - b for a, b in zip(samples["with"], samples["without"], strict=True)
    )
    print(f"overhead: {(pct(samples['with'], 0.5) / base - 1) * 100:+.1f} % (p50 vs p50), "
          f"{paired / base * 100:+.1f} % (median of paired differences, {paired * 1e3:+.2f} ms)")  # fmt: skip


def _connect(port: int) -> http.client.HTTPConnection:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    connection.connect()
    # http.client writes headers and body separately: without this, Nagle + delayed ACK add
    # ~40 ms stalls at random and swamp what is being measured.
    connection.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return connection


def _post(connection: http.client.HTTPConnection, model: str, content: str) -> None:
    headers = {"content-type": "application/json", "authorization": f"Bearer {MASTER_KEY}"}
    body = json.dumps({"model": model, "messages": [{"role": "user", "content": content}]})
    connection.request("POST", "/v1/chat/completions", body, headers)
    reply = connection.getresponse()
    data = reply.read()
    assert reply.status == 200, data[:500]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--terms", default="1000,100000", help="dictionary sizes for part 2")
    parser.add_argument("--runs", type=int, default=300, help="masking runs per measurement")
    parser.add_argument("--requests", type=int, default=200, help="proxy requests per config")
    parser.add_argument("--litellm-version", default="1.104.5")
    parser.add_argument("--delay-ms", type=float, default=50.0, help="the slow upstream")
    parser.add_argument("--parts", default="1,2,3,4", help="which parts to run, e.g. 3")
    parser.add_argument(
        "--against",
        metavar="REV",
        help="part 3: also time the guardrail of this git revision, requests interleaved",
    )
    args = parser.parse_args()
    parts = {int(part) for part in args.parts.split(",")}
    if 1 in parts:
        by_script(args.runs)
    if 2 in parts:
        by_size([int(size) for size in args.terms.split(",")], args.runs)
    if parts & {3, 4}:
        proxy_runs(args.litellm_version, args.requests, args.delay_ms, parts, args.against)


if __name__ == "__main__":
    main()
