"""Fork LiteLLM proxies from one process that has imported the proxy already.

Run with a LiteLLM venv's python (tests/guardrail/integration/proxy.py does). Importing the
proxy costs 7-11 s of CPU per start (more on newer releases) and the suites start about a dozen
proxies per version, so the import is paid once here and each proxy is a fork that runs the
venv's own `litellm` console-script entry point with its argv, environment, working directory
and log file: the same code path from the command line on, only without the import. Nothing of
the guardrail is imported here: each proxy loads it from its config as a user's does.

Protocol, one JSON object per line: the parent writes `{"argv", "env", "cwd", "log"}` on stdin;
this process answers `{"ready": true}` once, then `{"started": pid}` per request and
`{"exited": pid, "code": n}` when a proxy ends (n < 0: killed by signal -n, as subprocess
reports it). Single-threaded on purpose: a fork copies only the calling thread, so no lock can be
held by another one. When stdin closes, the proxies still running are terminated.
"""

from __future__ import annotations

import json
import os
import selectors
import signal
import socket
import sys
import time
from importlib.metadata import entry_points
from typing import Any


def reply(message: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def reap(children: set[int]) -> None:
    while children:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            children.clear()
            return
        if pid == 0:
            return
        children.discard(pid)
        reply({"exited": pid, "code": os.waitstatus_to_exitcode(status)})


def stop_all(children: set[int]) -> None:
    for pid in children:
        try:
            os.kill(pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
    deadline = time.monotonic() + 15
    while children and time.monotonic() < deadline:
        reap(children)
        time.sleep(0.1)
    for pid in children:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


def serve() -> dict[str, Any]:
    """Answer fork requests until stdin closes; returns only in a forked child, with its request."""
    wake_read, wake_write = socket.socketpair()
    wake_read.setblocking(False)
    wake_write.setblocking(False)
    signal.set_wakeup_fd(wake_write.fileno())
    signal.signal(signal.SIGCHLD, lambda *_: None)  # a handler, so the wake-up byte is written
    selector = selectors.DefaultSelector()
    selector.register(0, selectors.EVENT_READ)
    selector.register(wake_read, selectors.EVENT_READ)
    children: set[int] = set()
    pending = b""
    reply({"ready": True})
    while True:
        for key, _ in selector.select():
            if key.fileobj is wake_read:
                drain(wake_read)
                continue
            chunk = os.read(0, 65536)  # raw reads: a buffered readline could hide a second line
            if not chunk:
                stop_all(children)
                sys.exit(0)
            pending += chunk
            while b"\n" in pending:
                line, pending = pending.split(b"\n", 1)
                pid = os.fork()
                if pid == 0:
                    signal.set_wakeup_fd(-1)
                    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
                    selector.close()
                    wake_read.close()
                    wake_write.close()
                    return json.loads(line)
                children.add(pid)
                reply({"started": pid})
        reap(children)


def drain(sock: socket.socket) -> None:
    while True:
        try:
            if not sock.recv(512):
                return
        except BlockingIOError:
            return


def become(spec: dict[str, Any], imported: dict[str, str | None]) -> None:
    """Turn this forked child into the proxy the request describes (as its command line would).

    `imported` is what the import did to the environment (LiteLLM 1.80 points TIKTOKEN_CACHE_DIR at
    its bundled tokenizers there; without it a stream's usage count fetches them from the
    internet): replayed over the request's environment, as if the import had run with it.
    """
    log = os.open(spec["log"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.dup2(log, 1)
    os.dup2(log, 2)
    os.close(log)
    os.close(null)
    sys.stdin = open(0, encoding="utf-8", closefd=False)  # noqa: SIM115
    sys.stdout = open(1, "w", buffering=1, encoding="utf-8", closefd=False)  # noqa: SIM115
    sys.stderr = open(2, "w", buffering=1, encoding="utf-8", closefd=False)  # noqa: SIM115
    os.chdir(spec["cwd"])
    os.environ.clear()
    os.environ.update(spec["env"])
    for name, value in imported.items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value
    sys.argv = list(spec["argv"])


def main() -> None:
    before = dict(os.environ)
    entry = entry_points(group="console_scripts")["litellm"].load()
    import litellm.proxy.proxy_server  # noqa: F401  (the import every start would pay)

    imported: dict[str, str | None] = {
        name: value for name, value in os.environ.items() if before.get(name) != value
    }
    imported.update({name: None for name in before.keys() - os.environ.keys()})
    spec = serve()
    become(spec, imported)
    sys.exit(entry())


if __name__ == "__main__":
    main()
