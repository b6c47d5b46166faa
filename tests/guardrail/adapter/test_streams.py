"""The streaming hook on real LiteLLM chunk types, with placeholders split across chunks."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from litellm.types.llms.openai import OutputTextDeltaEvent, OutputTextDoneEvent
from litellm.types.utils import ModelResponseStream

from reversible_mask.guardrail import ReversibleMaskGuardrail

from conftest import masked_chat

pytestmark = pytest.mark.anyio

TEXT = "Acme Corporation asked ACME CORP, Globex and Skyhook [about] Project Bluebird."


async def collect(guard: ReversibleMaskGuardrail, items: list, data: dict) -> list:
    async def source():  # noqa: ANN202
        for item in items:
            yield item

    hook = guard.async_post_call_streaming_iterator_hook(None, source(), data)
    out = [c async for c in hook]
    assert guard.in_flight.get(data) is None  # the stream's end closes the request
    return out


def pieces(text: str, size: int) -> list[str]:
    return [text[i : i + size] for i in range(0, len(text), size)]


def chat_chunk(delta: dict, finish: str | None = None) -> ModelResponseStream:
    return ModelResponseStream(choices=[{"index": 0, "delta": delta, "finish_reason": finish}])


@pytest.mark.parametrize("size", [1, 3, 7, 50])
async def test_chat_content_chunks(guard: ReversibleMaskGuardrail, size: int) -> None:
    masked, data = await masked_chat(guard, TEXT, stream=True)
    chunks = [chat_chunk({"content": p}) for p in pieces(masked, size)] + [chat_chunk({}, "stop")]
    out = await collect(guard, chunks, data)
    text = "".join(c.choices[0].delta.content or "" for c in out)
    assert text == TEXT
    assert all("[[" not in (c.choices[0].delta.content or "") for c in out)
    assert len(out) == len(chunks)


async def test_chat_stream_without_finish_flushes_a_tail_chunk(
    guard: ReversibleMaskGuardrail,
) -> None:
    _, data = await masked_chat(guard, "Globex", stream=True)
    chunks = [chat_chunk({"content": "cost [[CLIENTS_ab"})]
    out = await collect(guard, chunks, data)
    assert "".join(c.choices[0].delta.content or "" for c in out) == "cost [[CLIENTS_ab"
    assert len(out) == 2


async def test_chat_tool_call_arguments(guard: ReversibleMaskGuardrail) -> None:
    masked, data = await masked_chat(guard, TEXT, stream=True)
    arguments = json.dumps({"q": masked})
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
    out = await collect(guard, [*chunks, chat_chunk({}, "tool_calls")], data)
    joined = "".join(
        call.function.arguments or "" for c in out for call in (c.choices[0].delta.tool_calls or [])
    )
    assert json.loads(joined) == {"q": TEXT}


async def test_responses_events(guard: ReversibleMaskGuardrail) -> None:
    masked, data = await masked_chat(guard, TEXT, stream=True)
    common = {"item_id": "m", "output_index": 0, "content_index": 0}
    events = [
        OutputTextDeltaEvent(type="response.output_text.delta", delta=p, **common)
        for p in pieces(masked, 5)
    ]
    events.append(OutputTextDoneEvent(type="response.output_text.done", text=masked, **common))
    out = await collect(guard, events, data)
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
    masked, data = asyncio.run(masked_chat(guard, TEXT, stream=True))
    raw = anthropic_sse(masked)
    points = sorted({min(c, len(raw)) for c in cuts} | {0, len(raw)})
    parts = [raw[a:b] for a, b in zip(points, points[1:], strict=False)]
    out = asyncio.run(collect(guard, parts, data))
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
    _, data = await masked_chat(guard, "Globex", stream=True)
    raw = f"event: content_block_delta\ndata: {json.dumps(event)}\n\n".encode()
    out = await collect(guard, [raw], data)
    assert parse_text(b"".join(out)) == "x [[CL"


async def test_a_stream_of_an_unknown_request_passes_through(
    guard: ReversibleMaskGuardrail,
) -> None:
    masked, _ = await masked_chat(guard, "Globex", stream=True)
    out = await collect(guard, [chat_chunk({"content": masked}), chat_chunk({}, "stop")], {})
    assert out[0].choices[0].delta.content == masked
