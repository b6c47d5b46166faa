"""Unmasking of OpenAI chat-completions stream chunks (litellm ModelResponseStream).

One StreamUnmasker per (choice, field) and per (choice, tool call). Pending text is flushed into
the chunk that carries the choice's finish_reason, or into one extra chunk if the stream ends
without one.
"""

from __future__ import annotations

import copy
from typing import Any

from .chunked_text import StreamUnmasker
from .engine import Masker
from .fields import get, put
from .placeholder import Registry

TEXT_FIELDS = ("content", "reasoning_content")


class ChatStream:
    def __init__(self, masker: Masker, registry: Registry) -> None:
        self._masker = masker
        self._registry = registry
        self._text: dict[tuple[int, str], StreamUnmasker] = {}
        self._tools: dict[tuple[int, int], StreamUnmasker] = {}
        self._tool_template: dict[tuple[int, int], Any] = {}
        self._last: Any = None

    def push(self, chunk: Any) -> Any:
        self._last = chunk
        for choice in get(chunk, "choices") or []:
            index = get(choice, "index", 0) or 0
            delta = get(choice, "delta")
            if delta is not None:
                self._delta(index, delta)
                if get(choice, "finish_reason"):
                    self._flush_into(index, delta)
        return chunk

    def tail(self) -> Any | None:
        """One extra chunk with whatever is still pending, or None."""
        if self._last is None or not self._has_pending():
            return None
        chunk = copy.deepcopy(self._last)
        for choice in get(chunk, "choices") or []:
            delta = get(choice, "delta")
            if delta is None:
                continue
            for field in TEXT_FIELDS:
                if get(delta, field) is not None:
                    put(delta, field, "")
            if get(delta, "tool_calls"):
                put(delta, "tool_calls", [])
            self._flush_into(get(choice, "index", 0) or 0, delta)
        return chunk

    def _delta(self, index: int, delta: Any) -> None:
        for field in TEXT_FIELDS:
            value = get(delta, field)
            if isinstance(value, str) and value:
                restored = self._text_unmasker(index, field).feed(value)
                if restored != value:
                    put(delta, field, restored)
        for call in get(delta, "tool_calls") or []:
            function = get(call, "function")
            arguments = get(function, "arguments") if function is not None else None
            if not isinstance(arguments, str):
                continue
            key = (index, get(call, "index", 0) or 0)
            self._tool_template.setdefault(key, copy.deepcopy(call))
            unmasker = self._tools.get(key)
            if unmasker is None:
                unmasker = self._tools[key] = StreamUnmasker(self._masker, self._registry, True)
            restored = unmasker.feed(arguments)
            if restored != arguments:
                put(function, "arguments", restored)

    def _text_unmasker(self, index: int, field: str) -> StreamUnmasker:
        unmasker = self._text.get((index, field))
        if unmasker is None:
            unmasker = self._text[index, field] = StreamUnmasker(self._masker, self._registry)
        return unmasker

    def _flush_into(self, index: int, delta: Any) -> None:
        for (choice, field), unmasker in self._text.items():
            rest = unmasker.flush() if choice == index else ""
            if rest:
                put(delta, field, (get(delta, field) or "") + rest)
        for key, unmasker in self._tools.items():
            rest = unmasker.flush() if key[0] == index else ""
            if rest:
                self._append_tool_arguments(delta, key, rest)

    def _append_tool_arguments(self, delta: Any, key: tuple[int, int], rest: str) -> None:
        calls = get(delta, "tool_calls") or []
        for call in calls:
            if (get(call, "index", 0) or 0) == key[1]:
                function = get(call, "function")
                put(function, "arguments", (get(function, "arguments") or "") + rest)
                return
        call = copy.deepcopy(self._tool_template[key])
        for name in ("id", "type"):
            if get(call, name) is not None:
                put(call, name, None)
        function = get(call, "function")
        put(function, "name", None)
        put(function, "arguments", rest)
        put(delta, "tool_calls", [*calls, call])

    def _has_pending(self) -> bool:
        unmaskers = [*self._text.values(), *self._tools.values()]
        return any(u.pending for u in unmaskers)
