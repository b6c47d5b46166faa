"""Start a real LiteLLM proxy (from .venvs/litellm-<version>) on a loopback port.

The config is the example shim/litellm/config.yaml with its model entries pointed at the fake
upstream (through the env references it already uses), plus test additions. Start-up waits for
/health/liveliness with a bounded timeout; the proxy log is printed when anything fails. Each
proxy is forked from a process that has imported LiteLLM once (zygote.py: the `litellm` command's
own entry point, without paying the import at every start); tests/guardrail/container starts one
through the `litellm` command itself.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import yaml
from forked import ForkedProcess, Zygote

REPO = Path(__file__).resolve().parents[3]
SHIM = REPO / "shim" / "litellm"
ORG_KEY = "test-org-key-0123456789abcdef0123456789abcdef"
MASTER_KEY = "sk-test-master-0123456789abcdef0123456789abcdef"
START_TIMEOUT = 180.0


def venv_for(version: str) -> Path:
    venv = REPO / ".venvs" / f"litellm-{version}"
    if not (venv / "bin" / "litellm").exists():
        raise RuntimeError(f"{venv} is missing: run bash scripts/setup-python.sh")
    return venv


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def example_config() -> dict[str, Any]:
    return yaml.safe_load((SHIM / "config.yaml").read_text(encoding="utf-8"))


class Proxy:
    def __init__(
        self,
        version: str,
        config: dict[str, Any],
        workdir: Path,
        upstream: str,
        dictionary: Path = SHIM / "dictionary.yaml",
        env: dict[str, str | None] | None = None,
    ) -> None:
        self.version, self.config, self.workdir = version, config, workdir
        self.dictionary = dictionary
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log_path = workdir / "proxy.log"
        self.capture_path = workdir / "capture.jsonl"
        self.env = {
            **{k: v for k, v in os.environ.items() if not k.lower().endswith("_proxy")},
            "GUARD_ORG_KEY": ORG_KEY,
            "LITELLM_MASTER_KEY": MASTER_KEY,
            "GUARD_DICTIONARY_PATH": str(workdir / "dictionary.yaml"),
            "OPENAI_API_KEY": "sk-fake",
            "OPENAI_API_BASE": f"{upstream}/v1",
            "ANTHROPIC_API_KEY": "sk-ant-fake",
            "ANTHROPIC_API_BASE": upstream,
            "CAPTURE_PATH": str(self.capture_path),
            "LITELLM_LOCAL_MODEL_COST_MAP": "True",
            "LITELLM_TELEMETRY": "False",
            "DO_NOT_TRACK": "1",
            "NO_PROXY": "*",
            "PYTHONUNBUFFERED": "1",
        }
        for name, value in (env or {}).items():
            if value is None:
                self.env.pop(name, None)
            else:
                self.env[name] = value
        self.process: ForkedProcess | None = None

    def start(self) -> Proxy:
        # Suites for several LiteLLM versions run side by side, so a free port can be taken
        # between free_port() and the proxy's bind: start again on another one.
        for _ in range(3):
            self.launch()
            try:
                self._wait_ready()
                return self
            except RuntimeError:
                if "address already in use" not in self.log().lower():
                    raise
                self.port = free_port()
                self.url = f"http://127.0.0.1:{self.port}"
        raise RuntimeError(f"no free port for the proxy after 3 tries\n{self.log()}")

    def launch(self) -> Proxy:
        """Start the process without waiting for it to answer."""
        self.workdir.mkdir(parents=True, exist_ok=True)
        shutil.copy(SHIM / "reversible_mask_guardrail.py", self.workdir)
        shutil.copy(self.dictionary, self.workdir / "dictionary.yaml")
        shutil.copy(Path(__file__).with_name("capture.py"), self.workdir / "capture.py")
        config_path = self.workdir / "config.yaml"
        config_path.write_text(yaml.safe_dump(self.config, sort_keys=False), encoding="utf-8")
        venv = venv_for(self.version)
        command = [str(venv / "bin" / "litellm"), "--config", str(config_path)]
        command += ["--host", "127.0.0.1", "--port", str(self.port), "--num_workers", "1"]
        zygote = Zygote.of(venv / "bin" / "python", self.env)
        self.process = zygote.spawn(command, self.env, self.workdir, self.log_path)
        return self

    def exit_code(self, timeout: float = START_TIMEOUT) -> int | None:
        """The exit code once the process has ended, None if it still runs after `timeout`."""
        assert self.process is not None
        try:
            return self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            return None

    def _wait_ready(self) -> None:
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            if self.process is not None and self.process.poll() is not None:
                raise RuntimeError(f"proxy exited with {self.process.returncode}\n{self.log()}")
            try:
                with urllib.request.urlopen(f"{self.url}/health/liveliness", timeout=2) as reply:
                    if reply.status == 200:
                        return
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                time.sleep(0.5)
        self.stop()
        raise RuntimeError(f"proxy not ready after {START_TIMEOUT}s\n{self.log()}")

    def log(self, tail: int | None = 20000) -> str:
        text = self.log_path.read_text(encoding="utf-8", errors="replace")
        return text if tail is None else text[-tail:]

    def stop(self) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        self.process.terminate()
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=15)

    def post(
        self, path: str, body: dict[str, Any], headers: dict[str, str] | None = None
    ) -> tuple[int, bytes]:
        request = urllib.request.Request(
            f"{self.url}{path}",
            data=json.dumps(body).encode(),
            headers={
                "content-type": "application/json",
                "authorization": f"Bearer {MASTER_KEY}",
                **(headers or {}),
            },
            method="POST",
        )
        try:
            with urllib.request.urlopen(request, timeout=60) as reply:
                return reply.status, reply.read()
        except urllib.error.HTTPError as error:
            return error.code, error.read()

    def captures(self) -> list[dict[str, Any]]:
        if not self.capture_path.exists():
            return []
        text = self.capture_path.read_text(encoding="utf-8")
        complete = text[: text.rfind("\n") + 1]  # a record still being written is read later
        return [json.loads(line) for line in complete.splitlines() if line.strip()]
