"""Unmasking of event streams: OpenAI Responses events and Anthropic Messages events.

Both carry text in `*.delta` events keyed by output/content (or content block) index. Deltas go
through one StreamUnmasker per key; the first non-delta event (a `.done`, `content_block_stop`,
`message_delta`, ...) flushes what is pending as one synthetic delta event placed before it, and
is itself restored completely (its full texts repeat the deltas).
"""

from __future__ import annotations

import copy
import json
from typing import Any

from .engine import Masker
from .fields import get, put
from .payload import unmask_object
from .placeholder import Registry
from .stream import StreamUnmasker

Key = tuple[Any, ...]


class _EventStream:
    def __init__(self, masker: Masker, registry: Registry) -> None:
        self._masker = masker
        self._registry = registry
        self._unmaskers: dict[Key, StreamUnmasker] = {}
        self._templates: dict[Key, Any] = {}

    def push(self, event: Any) -> list[Any]:
        found = self._delta_field(event)
        if found is None:
            out = self._flush()
            out.append(unmask_object(event, self._restore))
            return out
        key, holder, field, json_string = found
        self._templates.setdefault(key, copy.deepcopy(event))
        unmasker = self._unmaskers.get(key)
        if unmasker is None:
            unmasker = self._unmaskers[key] = StreamUnmasker(
                self._masker, self._registry, json_string
            )
        value = get(holder, field)
        restored = unmasker.feed(value)
        if restored != value:
            put(holder, field, restored)
        return [event]

    def finish(self) -> list[Any]:
        return self._flush()

    def _restore(self, text: str, json_string: bool) -> str:
        return self._masker.unmask(text, self._registry, json_string)

    def _flush(self) -> list[Any]:
        out = []
        for key, unmasker in self._unmaskers.items():
            rest = unmasker.flush()
            if rest:
                event = copy.deepcopy(self._templates[key])
                found = self._delta_field(event)
                if found is not None:
                    put(found[1], found[2], rest)
                    out.append(event)
        return out

    def _delta_field(self, event: Any) -> tuple[Key, Any, str, bool] | None:
        raise NotImplementedError


class ResponsesStream(_EventStream):
    """`response.output_text.delta`, `response.function_call_arguments.delta`, reasoning deltas."""

    def _delta_field(self, event: Any) -> tuple[Key, Any, str, bool] | None:
        kind = get(event, "type") or ""
        kind = str(getattr(kind, "value", kind))  # litellm uses a str Enum here
        if not kind.endswith(".delta") or not isinstance(get(event, "delta"), str):
            return None
        key = (
            kind,
            get(event, "item_id"),
            get(event, "output_index"),
            get(event, "content_index"),
            get(event, "summary_index"),
        )
        return key, event, "delta", "function_call_arguments" in kind


ANTHROPIC_DELTAS = {
    "text_delta": "text",
    "input_json_delta": "partial_json",
    "thinking_delta": "thinking",
}


class AnthropicStream(_EventStream):
    """`content_block_delta` events; used on parsed SSE data dicts."""

    def _delta_field(self, event: Any) -> tuple[Key, Any, str, bool] | None:
        if get(event, "type") != "content_block_delta":
            return None
        delta = get(event, "delta")
        field = ANTHROPIC_DELTAS.get(str(get(delta, "type")))
        if field is None or not isinstance(get(delta, field), str):
            return None
        return (get(event, "index"), field), delta, field, field == "partial_json"


class SseFramer:
    """Re-frames raw SSE bytes (events may be split or merged at any byte) into whole events,
    passes each event's JSON data through `handle`, and serialises the results again."""

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
