"""Anthropic `/v1/messages` streams as raw SSE bytes: events may be split or merged at any byte,
so they are re-framed into whole events, restored, and serialised again."""

from __future__ import annotations

import json
from typing import Any

from .event_deltas import AnthropicStream


class SseFramer:
    """Re-frames raw SSE bytes (events may be split or merged at any byte) into whole events,
    restores each event through the Anthropic event stream, and serialises the results again."""

    def __init__(self, stream: AnthropicStream) -> None:
        self._stream = stream
        self._buffer = b""

    def push(self, data: bytes) -> bytes:
        self._buffer += data.replace(b"\r\n", b"\n")
        head, separator, rest = self._buffer.rpartition(b"\n\n")
        if not separator:
            return b""
        self._buffer = rest
        return b"".join(self._event(block) for block in head.split(b"\n\n") if block.strip())

    def finish(self) -> bytes:
        rest, self._buffer = self._buffer, b""
        out = self._event(rest) if rest.strip() else b""
        return out + b"".join(_serialise(None, event) for event in self._stream.finish())

    def _event(self, block: bytes) -> bytes:
        name, payload = None, []
        for line in block.decode("utf-8").split("\n"):
            if line.startswith("event:"):
                name = line[6:].strip()
            elif line.startswith("data:"):
                payload.append(line[5:].lstrip(" "))
        try:
            event = json.loads("\n".join(payload))
        except ValueError:
            return block + b"\n\n"
        if not isinstance(event, dict):
            return block + b"\n\n"
        return b"".join(_serialise(name, item) for item in self._stream.push(event))


def _serialise(name: str | None, event: dict[str, Any]) -> bytes:
    label = event.get("type") or name
    head = f"event: {label}\n" if label else ""
    return f"{head}data: {json.dumps(event, ensure_ascii=False)}\n\n".encode()
