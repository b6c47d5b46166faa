"""Unmasking of the text deltas of event streams: OpenAI Responses and Anthropic Messages events.

Both carry text in `*.delta` events keyed by output/content (or content block) index. Deltas go
through one StreamUnmasker per key; the first non-delta event (a `.done`, `content_block_stop`,
`message_delta`, ...) flushes what is pending as one synthetic delta event placed before it, and
is itself restored completely (its full texts repeat the deltas).
"""

from __future__ import annotations

import copy
from typing import Any

from .chunked_text import StreamUnmasker
from .engine import Masker
from .fields import get, put
from .payload import unmask_object
from .placeholder import Registry

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
