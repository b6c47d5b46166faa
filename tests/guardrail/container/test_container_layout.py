"""The container setup, replayed: no container engine runs on CI machines, so the image's
install steps are replayed into .venvs/container-replay (scripts/replay-dockerfile.py, run by
setup-python.sh), and a proxy is started the way the image starts it (the Dockerfile's ENV,
WORKDIR, ENTRYPOINT and CMD) from the files shim/litellm/compose.yaml mounts, at the paths it
mounts them. scripts/container-guardrail.sh builds and runs the real image with podman."""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml

REPO = Path(__file__).resolve().parents[3]
SHIM = REPO / "shim" / "litellm"
sys.path[:0] = [
    str(REPO / "tests" / "guardrail"),
    str(REPO / "tests" / "guardrail" / "integration"),
]

from fake_upstream import FakeUpstream  # noqa: E402
from proxy import MASTER_KEY, ORG_KEY, free_port  # noqa: E402

spec = importlib.util.spec_from_file_location("replay", REPO / "scripts" / "replay-dockerfile.py")
replay = importlib.util.module_from_spec(spec)
spec.loader.exec_module(replay)  # type: ignore[union-attr]
VENV = REPO / ".venvs" / "container-replay"
TEXT = "Ask Acme  Corp about Project\nBluebird"


@pytest.fixture(scope="module")
def upstream() -> Iterator[FakeUpstream]:
    with FakeUpstream() as server:
        yield server


def image_layout(app: Path, upstream: FakeUpstream) -> tuple[list[str], dict[str, str], Path]:
    """The image's command, environment and working directory, /app mapped to `app`."""
    instructions = replay.parse()
    image = {k: v for k, v in instructions}
    compose = yaml.safe_load((SHIM / "compose.yaml").read_text(encoding="utf-8"))
    service = compose["services"]["litellm"]
    for volume in service["volumes"]:
        source, target, *_ = volume.split(":")
        assert target.startswith("/app/"), target
        shutil.copy(SHIM / source, app / target.removeprefix("/app/"))

    def local(value: str) -> str:
        return value.replace("/app/", f"{app}/").replace("/app", str(app))

    env = {k: v for k, v in os.environ.items() if not k.lower().endswith("_proxy")}
    env |= {k: local(v) for k, v in replay.variables(instructions).items()}
    given = {
        "GUARD_ORG_KEY": ORG_KEY,
        "LITELLM_MASTER_KEY": MASTER_KEY,
        "OPENAI_API_KEY": "sk-fake",
        "OPENAI_API_BASE": f"{upstream.url}/v1",
        "ANTHROPIC_API_KEY": "sk-ant-fake",
        "ANTHROPIC_API_BASE": upstream.url,
    }
    assert set(service["environment"]) <= set(given) | {"GUARD_DICTIONARY_PATH"}
    env |= given | {"LITELLM_TELEMETRY": "False", "NO_PROXY": "*"}
    env["GUARD_DICTIONARY_PATH"] = local(service["environment"]["GUARD_DICTIONARY_PATH"])
    command = json.loads(image["ENTRYPOINT"]) + json.loads(image["CMD"])
    command[0] = str(VENV / "bin" / command[0])
    command = [local(word) for word in command]
    port = str(free_port())
    command[command.index("--host") + 1] = "127.0.0.1"
    command[command.index("--port") + 1] = port
    return command, env, Path(local(image["WORKDIR"]))


def start(command: list[str], env: dict[str, str], workdir: Path, log: Path) -> subprocess.Popen:
    with log.open("wb") as out:
        process = subprocess.Popen(
            command, cwd=workdir, env=env, stdout=out, stderr=subprocess.STDOUT
        )
    port = command[command.index("--port") + 1]
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(log.read_text(errors="replace")[-5000:])
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/health/liveliness", timeout=2)
            return process
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            time.sleep(0.5)
    process.kill()
    raise RuntimeError(f"not ready:\n{log.read_text(errors='replace')[-5000:]}")


def ask(command: list[str]) -> str:
    port = command[command.index("--port") + 1]
    body = {"model": "gpt-4o-mini", "messages": [{"role": "user", "content": TEXT}]}
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}/v1/chat/completions",
        json.dumps(body).encode(),
        {"content-type": "application/json", "authorization": f"Bearer {MASTER_KEY}"},
    )
    with urllib.request.urlopen(request, timeout=60) as reply:
        return json.loads(reply.read())["choices"][0]["message"]["content"]


def stop(process: subprocess.Popen) -> None:
    process.terminate()
    try:
        process.wait(timeout=15)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=15)


def test_the_image_layout_serves_masked_requests(tmp_path: Path, upstream: FakeUpstream) -> None:
    assert (VENV / "bin" / "litellm").exists(), "run bash scripts/setup-python.sh"
    command, env, workdir = image_layout(tmp_path, upstream)
    process = start(command, env, workdir, tmp_path / "proxy.log")
    try:
        upstream.recorder.clear()
        assert ask(command) == "ECHO: " + TEXT
        sent = upstream.recorder.bodies("/chat/completions")[0]["messages"][-1]["content"]
        assert "Acme" not in sent and "Bluebird" not in sent and "[[CLIENTS_" in sent
    finally:
        stop(process)
    log = (tmp_path / "proxy.log").read_text(errors="replace")
    assert "debug logging is on" not in log


def test_debug_logging_is_warned_about_and_does_write_raw_bodies(
    tmp_path: Path, upstream: FakeUpstream
) -> None:
    """What the README says of --detailed_debug: a warning at start-up, and the proxy's own
    log then holds originals (request bodies as received)."""
    command, env, workdir = image_layout(tmp_path, upstream)
    process = start([*command, "--detailed_debug"], env, workdir, tmp_path / "proxy.log")
    try:
        assert ask(command) == "ECHO: " + TEXT
    finally:
        stop(process)
    log = (tmp_path / "proxy.log").read_text(errors="replace")
    assert "reversible_mask: LiteLLM debug logging is on" in log
    assert "Bluebird" in log  # the raw body, logged by the proxy itself
