"""The streaming hook on real LiteLLM chunk types, with placeholders split across chunks."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from litellm.types.llms.openai import OutputTextDeltaEvent, OutputTextDoneEvent
from litellm.types.utils import ModelResponseStream

from reversible_mask.guardrail import ReversibleMaskGuardrail

pytestmark = pytest.mark.anyio

TEXT = "Acme Corporation asked ACME CORP, Globex and Skyhook [about] Project Bluebird."


async def collect(guard: ReversibleMaskGuardrail, items: list) -> list:
    async def source():  # noqa: ANN202
        for item in items:
            yield item

    return [c async for c in guard.async_post_call_streaming_iterator_hook(None, source(), {})]


def pieces(text: str, size: int) -> list[str]:
    return [text[i : i + size] for i in range(0, len(text), size)]


def chat_chunk(delta: dict, finish: str | None = None) -> ModelResponseStream:
    return ModelResponseStream(choices=[{"index": 0, "delta": delta, "finish_reason": finish}])


@pytest.mark.parametrize("size", [1, 3, 7, 50])
async def test_chat_content_chunks(guard: ReversibleMaskGuardrail, size: int) -> None:
    masked = guard.masker.mask(TEXT)
    chunks = [chat_chunk({"content": p}) for p in pieces(masked, size)] + [chat_chunk({}, "stop")]
    out = await collect(guard, chunks)
    text = "".join(c.choices[0].delta.content or "" for c in out)
    assert text == TEXT
    assert all("[[" not in (c.choices[0].delta.content or "") for c in out)
    assert len(out) == len(chunks)


async def test_chat_stream_without_finish_flushes_a_tail_chunk(
    guard: ReversibleMaskGuardrail,
) -> None:
    chunks = [chat_chunk({"content": "cost [[CLIENTS_ab"})]
    out = await collect(guard, chunks)
    assert "".join(c.choices[0].delta.content or "" for c in out) == "cost [[CLIENTS_ab"
    assert len(out) == 2


async def test_chat_tool_call_arguments(guard: ReversibleMaskGuardrail) -> None:
    arguments = json.dumps({"q": guard.masker.mask(TEXT)})
    first = {
        "tool_calls": [
            {"index": 0, "id": "c", "type": "function", "function": {"name": "f", "arguments": ""}}
        ]
    }
    chunks = [chat_chunk(first)]
    chunks += [
        chat_chunk({"tool_calls": [{"index": 0, "function": {"arguments": p}}]})
        for p in pieces(arguments, 4)
    ]
    out = await collect(guard, [*chunks, chat_chunk({}, "tool_calls")])
    joined = "".join(
        call.function.arguments or "" for c in out for call in (c.choices[0].delta.tool_calls or [])
    )
    assert json.loads(joined) == {"q": TEXT}


async def test_responses_events(guard: ReversibleMaskGuardrail) -> None:
    masked = guard.masker.mask(TEXT)
    common = {"item_id": "m", "output_index": 0, "content_index": 0}
    events = [
        OutputTextDeltaEvent(type="response.output_text.delta", delta=p, **common)
        for p in pieces(masked, 5)
    ]
    events.append(OutputTextDoneEvent(type="response.output_text.done", text=masked, **common))
    out = await collect(guard, events)
    deltas = [e.delta for e in out if getattr(e, "delta", None) is not None]
    assert "".join(deltas) == TEXT and out[-1].text == TEXT


def anthropic_sse(masked: str) -> bytes:
    events = [
        {"type": "message_start", "message": {"id": "m", "content": []}},
        {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}},
    ]
    events += [
        {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": p}}
        for p in pieces(masked, 4)
    ]
    events += [{"type": "content_block_stop", "index": 0}, {"type": "message_stop"}]
    return b"".join(f"event: {e['type']}\ndata: {json.dumps(e)}\n\n".encode() for e in events)


def parse_text(raw: bytes) -> str:
    text = ""
    for block in raw.decode().split("\n\n"):
        for line in block.split("\n"):
            if line.startswith("data: "):
                event = json.loads(line[6:])
                if event["type"] == "content_block_delta":
                    text += event["delta"]["text"]
    return text


@settings(max_examples=60, deadline=None)
@given(cuts=st.lists(st.integers(min_value=0, max_value=4000), max_size=25))
def test_anthropic_sse_bytes_cut_anywhere(cuts: list[int]) -> None:
    import asyncio

    from conftest import DICTIONARY, KEY

    guard = ReversibleMaskGuardrail(
        guardrail_name="g", dictionary_path=str(DICTIONARY), org_key=KEY
    )
    raw = anthropic_sse(guard.masker.mask(TEXT))
    points = sorted({min(c, len(raw)) for c in cuts} | {0, len(raw)})
    parts = [raw[a:b] for a, b in zip(points, points[1:], strict=False)]
    out = asyncio.run(collect(guard, parts))
    joined = b"".join(out)
    assert parse_text(joined) == TEXT
    assert b"[[" not in joined and joined.endswith(b"\n\n")


async def test_anthropic_stream_ending_mid_placeholder_is_flushed(
    guard: ReversibleMaskGuardrail,
) -> None:
    event = {
        "type": "content_block_delta",
        "index": 0,
        "delta": {"type": "text_delta", "text": "x [[CL"},
    }
    out = await collect(
        guard, [f"event: content_block_delta\ndata: {json.dumps(event)}\n\n".encode()]
    )
    assert parse_text(b"".join(out)) == "x [[CL"
