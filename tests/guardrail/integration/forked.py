"""The test side of zygote.py: one forking process per LiteLLM venv, and handles for its proxies.

A proxy forked by the zygote is the zygote's child, not ours, so its handle keeps the part of
`subprocess.Popen` the suites use (poll, wait, terminate, kill, returncode) on top of the
zygote's reports.
"""

from __future__ import annotations

import atexit
import json
import os
import queue
import signal
import subprocess
import tempfile
import threading
from pathlib import Path

ZYGOTE = Path(__file__).with_name("zygote.py")
READY_TIMEOUT = 180.0


class Zygote:
    _started: dict[Path, Zygote] = {}
    _lock = threading.Lock()

    @classmethod
    def of(cls, python: Path, env: dict[str, str]) -> Zygote:
        """The zygote for this venv's python, started (with `env` for its import) on first use."""
        with cls._lock:
            if python not in cls._started:
                cls._started[python] = cls(python, env)
            return cls._started[python]

    def __init__(self, python: Path, env: dict[str, str]) -> None:
        self.errors = tempfile.TemporaryFile()
        self.process = subprocess.Popen(
            [str(python), str(ZYGOTE)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self.errors,
            env=env,
        )
        self.codes: dict[int, int] = {}
        self.ended = threading.Condition()
        self.replies: queue.Queue[dict | None] = queue.Queue()
        self.spawning = threading.Lock()
        threading.Thread(target=self._read, daemon=True).start()
        ready = self._next_reply(READY_TIMEOUT)
        if not ready.get("ready"):
            raise RuntimeError(f"the proxy zygote did not start: {ready}\n{self._stderr()}")
        atexit.register(self.close)

    def spawn(self, argv: list[str], env: dict[str, str], cwd: Path, log: Path) -> ForkedProcess:
        spec = {"argv": argv, "env": env, "cwd": str(cwd), "log": str(log)}
        with self.spawning:  # the zygote answers in order: the next "started" is this one's
            assert self.process.stdin is not None
            self.process.stdin.write((json.dumps(spec) + "\n").encode())
            self.process.stdin.flush()
            started = self._next_reply(READY_TIMEOUT)
        if "started" not in started:
            raise RuntimeError(f"the proxy zygote did not fork: {started}\n{self._stderr()}")
        return ForkedProcess(self, started["started"])

    def code_of(self, pid: int) -> int | None:
        with self.ended:
            return self.codes.get(pid)

    def wait_for(self, pid: int, timeout: float | None) -> int:
        with self.ended:
            if not self.ended.wait_for(lambda: pid in self.codes or self.gone, timeout):
                raise subprocess.TimeoutExpired(f"proxy {pid}", timeout or 0)
            if pid not in self.codes:
                raise RuntimeError(f"the proxy zygote ended before proxy {pid}\n{self._stderr()}")
            return self.codes[pid]

    @property
    def gone(self) -> bool:
        return self.process.poll() is not None

    def close(self) -> None:
        if self.process.stdin and not self.process.stdin.closed:
            self.process.stdin.close()  # the zygote stops the proxies still running, then exits
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            message = json.loads(line)
            if "exited" in message:
                with self.ended:
                    self.codes[message["exited"]] = message["code"]
                    self.ended.notify_all()
            else:
                self.replies.put(message)
        self.process.wait()
        self.replies.put(None)
        with self.ended:
            self.ended.notify_all()

    def _next_reply(self, timeout: float) -> dict:
        try:
            message = self.replies.get(timeout=timeout)
        except queue.Empty:
            message = None
        return message or {"error": "no answer", "exit": self.process.poll()}

    def _stderr(self) -> str:
        self.errors.seek(0)
        return self.errors.read().decode("utf-8", "replace")[-20000:]


class ForkedProcess:
    def __init__(self, zygote: Zygote, pid: int) -> None:
        self.zygote, self.pid = zygote, pid

    @property
    def returncode(self) -> int | None:
        return self.zygote.code_of(self.pid)

    def poll(self) -> int | None:
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        return self.zygote.wait_for(self.pid, timeout)

    def terminate(self) -> None:
        self._signal(signal.SIGTERM)

    def kill(self) -> None:
        self._signal(signal.SIGKILL)

    def _signal(self, number: int) -> None:
        if self.poll() is not None:
            return
        try:
            os.kill(self.pid, number)
        except ProcessLookupError:
            pass
