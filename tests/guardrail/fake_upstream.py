"""A local stand-in for OpenAI and Anthropic on 127.0.0.1, speaking their wire formats.

It records every request body byte for byte and answers by echoing the (masked) user text, so
the placeholders the proxy sent come back in the response. Streams are cut into 3-character
deltas, and Anthropic SSE bytes are written in 7-byte pieces, so placeholders and events are
split across chunks. With `random_chunks`, the delta size (1-9 characters) and the write size
(1-16 bytes, every route) are drawn from a hash of the request body instead: every request of
a property test streams with another cut.

Failure modes, chosen by a marker in the request body: `UPSTREAM-500` answers a 500 error,
`UPSTREAM-SLOW` answers after 2 s (longer than a test's request timeout), `UPSTREAM-DRIP` streams
with 50 ms between writes (long enough for a client to hang up mid-stream).
"""

from __future__ import annotations

import hashlib
import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from fake_wire import (
    PIECE,
    chat_json,
    chat_sse,
    messages_json,
    messages_sse,
    responses_json,
    responses_sse,
)

BYTE_PIECE = 7


class Recorder:
    def __init__(self) -> None:
        self.requests: list[tuple[str, bytes]] = []
        self.headers: list[bytes] = []
        self.lock = threading.Lock()

    def add(self, path: str, body: bytes, headers: bytes = b"") -> None:
        with self.lock:
            self.requests.append((path, body))
            self.headers.append(headers)

    def all_bytes(self) -> bytes:
        """Every body and every header block received (headers can carry text too)."""
        with self.lock:
            return b"\n".join([body for _, body in self.requests] + self.headers)

    def bodies(self, suffix: str) -> list[dict[str, Any]]:
        with self.lock:
            return [json.loads(body) for path, body in self.requests if path.endswith(suffix)]

    def clear(self) -> None:
        with self.lock:
            self.requests.clear()
            self.headers.clear()


class Handler(BaseHTTPRequestHandler):
    recorder: Recorder
    delay: float = 0.0  # seconds of simulated provider latency per request
    random_chunks: bool = False
    drip: bool = False
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True  # headers and body go out as separate writes

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - stdlib signature
        return

    def do_POST(self) -> None:  # noqa: N802 - stdlib name
        length = int(self.headers.get("content-length") or 0)
        raw = self.rfile.read(length)
        self.recorder.add(self.path, raw, str(self.headers).encode("utf-8", "replace"))
        if self.delay:
            time.sleep(self.delay)
        if b"UPSTREAM-500" in raw:
            return self._json(
                {"error": {"message": "upstream failed", "type": "server_error"}}, 500
            )
        if b"UPSTREAM-SLOW" in raw:
            time.sleep(2.0)
        self.drip = b"UPSTREAM-DRIP" in raw
        body = json.loads(raw or b"{}")
        route = self.path.split("?")[0]
        if route.endswith("/embeddings"):
            return self._json(
                {
                    "object": "list",
                    "model": body.get("model"),
                    "data": [
                        {"object": "embedding", "index": i, "embedding": [0.1, 0.2, 0.3]}
                        for i, _ in enumerate(
                            body["input"] if isinstance(body["input"], list) else [1]
                        )
                    ],
                    "usage": {"prompt_tokens": 3, "total_tokens": 3},
                }
            )
        if route.endswith(("/count_tokens", "/input_tokens")):
            return self._json({"object": "response.input_tokens", "input_tokens": len(raw) // 4})
        piece, byte_piece = self._cuts(raw)
        if route.endswith("/chat/completions"):
            if body.get("stream"):
                return self._sse(chat_sse(body, piece), byte_piece if self.random_chunks else 0)
            return self._json(chat_json(body))
        if route.endswith("/responses"):
            if body.get("stream"):
                return self._sse(
                    responses_sse(body, piece), byte_piece if self.random_chunks else 0
                )
            return self._json(responses_json(body))
        if route.endswith("/messages"):
            if body.get("stream"):
                return self._sse(messages_sse(body, piece), byte_piece)
            return self._json(messages_json(body))
        self._json({"error": {"message": f"no route {route}"}}, 404)

    def _cuts(self, raw: bytes) -> tuple[int, int]:
        if not self.random_chunks:
            return PIECE, BYTE_PIECE
        digest = hashlib.sha256(raw).digest()
        return 1 + digest[0] % 9, 1 + digest[1] % 16

    def _json(self, payload: Any, status: int = 200) -> None:
        data = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _sse(self, data: bytes, byte_piece: int = 0) -> None:
        if self.drip:
            return self._drip(data)
        self.send_response(200)
        self.send_header("content-type", "text/event-stream")
        self.send_header("transfer-encoding", "chunked")
        self.end_headers()
        step = byte_piece or len(data)
        for i in range(0, len(data), step):
            part = data[i : i + step]
            self.wfile.write(f"{len(part):x}\r\n".encode() + part + b"\r\n")
            self.wfile.flush()
            if byte_piece and not self.random_chunks:
                time.sleep(0.0005)
        self.wfile.write(b"0\r\n\r\n")

    def _drip(self, data: bytes) -> None:
        self.send_response(200)
        self.send_header("content-type", "text/event-stream")
        self.send_header("transfer-encoding", "chunked")
        self.end_headers()
        try:
            for line in data.splitlines(keepends=True):
                self.wfile.write(f"{len(line):x}\r\n".encode() + line + b"\r\n")
                self.wfile.flush()
                time.sleep(0.05)
            self.wfile.write(b"0\r\n\r\n")
        except (BrokenPipeError, ConnectionResetError):
            return  # the proxy hung up: the client it streamed to went away


class FakeUpstream:
    def __init__(self, delay: float = 0.0, random_chunks: bool = False) -> None:
        self.recorder = Recorder()
        fields = {"recorder": self.recorder, "delay": delay, "random_chunks": random_chunks}
        handler = type("BoundHandler", (Handler,), fields)
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.server.daemon_threads = True
        self.port = self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def __enter__(self) -> FakeUpstream:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()
