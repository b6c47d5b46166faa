"""Fixtures: one fake upstream and one real proxy per module, for $LITELLM_VERSION."""

from __future__ import annotations

import os
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from fake_upstream import FakeUpstream  # noqa: E402
from proxy import SHIM, Proxy  # noqa: E402

# Cases tried by the leak suite, per LiteLLM version (printed in the session summary).
LEAK_STATS: dict[str, Counter] = {}


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    for version, stats in LEAK_STATS.items():
        detail = ", ".join(f"{k}: {v}" for k, v in sorted(stats.items()))
        terminalreporter.write_line(f"leak suite, litellm {version}: {detail}")


@pytest.fixture(scope="session")
def version() -> str:
    value = os.environ.get("LITELLM_VERSION")
    if not value:
        pytest.fail("set LITELLM_VERSION (scripts/test-python.sh runs every pinned version)")
    return value


@pytest.fixture(scope="module")
def upstream() -> Iterator[FakeUpstream]:
    with FakeUpstream() as server:
        yield server


def start_proxy(
    request: pytest.FixtureRequest,
    version: str,
    config: dict,
    upstream: FakeUpstream,
    name: str,
    env: dict[str, str | None] | None = None,
    dictionary: Path = SHIM / "dictionary.yaml",
) -> Proxy:
    workdir = request.getfixturevalue("tmp_path_factory").mktemp(f"{name}-{version}")
    proxy = Proxy(version, config, Path(workdir), upstream.url, dictionary, env=env).start()

    def stop() -> None:
        proxy.stop()
        if request.session.testsfailed:
            sys.stderr.write(f"\n--- proxy log ({name}, litellm {version}) ---\n{proxy.log()}\n")

    request.addfinalizer(stop)
    return proxy
