"""Restore a proxy response stream: each chunk goes to the unmasker of its type.

* `ModelResponseStream`-like objects (have `choices`): chat completions.
* objects or dicts whose `type` starts with `response.`: Responses API events.
* `bytes` / `str`: Anthropic `/v1/messages` SSE text, re-framed into whole events.
* dicts with another `type`: parsed Anthropic events.
Anything else is restored as a whole object.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

from .chat_chunks import ChatStream
from .engine import Masker
from .event_deltas import AnthropicStream, ResponsesStream
from .fields import get
from .payload import unmask_object
from .placeholder import Registry
from .sse_framing import SseFramer


class StreamRestorer:
    def __init__(self, masker: Masker, registry: Registry) -> None:
        self._masker = masker
        self._registry = registry
        self._chat = ChatStream(masker, registry)
        self._responses = ResponsesStream(masker, registry)
        self._anthropic = AnthropicStream(masker, registry)
        self._sse = SseFramer(self._anthropic)
        self._text_chunks = False

    def push(self, item: Any) -> list[Any]:
        if isinstance(item, (bytes, str)):
            self._text_chunks = isinstance(item, str)
            raw = item.encode() if isinstance(item, str) else item
            out = self._sse.push(raw)
            return [self._as_input_type(out)] if out else []
        if get(item, "choices") is not None:
            return [self._chat.push(item)]
        kind = get(item, "type")
        if isinstance(kind, str) and kind.startswith("response."):
            return self._responses.push(item)
        if isinstance(item, dict) and isinstance(kind, str):
            return self._anthropic.push(item)
        return [unmask_object(item, self._restore)]

    def finish(self) -> list[Any]:
        out: list[Any] = []
        chat_tail = self._chat.tail()
        if chat_tail is not None:
            out.append(chat_tail)
        out.extend(self._responses.finish())
        sse = self._sse.finish()
        if sse:
            out.append(self._as_input_type(sse))
        else:
            out.extend(self._anthropic.finish())
        return out

    def _restore(self, text: str, json_string: bool) -> str:
        return self._masker.unmask(text, self._registry, json_string)

    def _as_input_type(self, data: bytes) -> bytes | str:
        return data.decode() if self._text_chunks else data


async def restore_stream(
    masker: Masker, registry: Registry, source: AsyncIterator[Any]
) -> AsyncIterator[Any]:
    restorer = StreamRestorer(masker, registry)
    async for item in source:
        for out in restorer.push(item):
            yield out
    for out in restorer.finish():
        yield out
