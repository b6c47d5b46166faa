"""Pre-call masking of the three route shapes, skipped call types and scopes."""

from __future__ import annotations

import json
import logging

import pytest
from fastapi import HTTPException

from reversible_mask.guardrail import ReversibleMaskGuardrail

from conftest import clean

pytestmark = pytest.mark.anyio

TEXT = "Acme Corporation asked Globex about Project Bluebird and Skyhook."


def chat_request() -> dict:
    return {
        "model": "m",
        "metadata": {"requester_metadata": {}},
        "messages": [
            {"role": "system", "content": "Advise Initech."},
            {
                "role": "user",
                "content": [
                    {"type": "text", "text": TEXT},
                    {"type": "image_url", "image_url": {"url": "data:image/png;base64,QWNtZQ=="}},
                ],
            },
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {
                        "id": "c1",
                        "type": "function",
                        "function": {"name": "lookup", "arguments": json.dumps({"q": "Globex"})},
                    }
                ],
            },
            {"role": "tool", "tool_call_id": "c1", "content": "Globex is Initech's rival"},
        ],
        "tools": [
            {
                "type": "function",
                "function": {
                    "name": "lookup",
                    "description": "Find Acme",
                    "parameters": {
                        "type": "object",
                        "properties": {
                            "q": {
                                "type": "string",
                                "description": "e.g. Skyhook",
                                "enum": ["Globex", "other"],
                            }
                        },
                    },
                },
            }
        ],
    }


def messages_request() -> dict:
    return {
        "model": "m",
        "litellm_metadata": {},
        "system": [{"type": "text", "text": "Advise Initech."}],
        "messages": [
            {"role": "user", "content": TEXT},
            {
                "role": "assistant",
                "content": [
                    {
                        "type": "tool_use",
                        "id": "t1",
                        "name": "lookup",
                        "input": {"q": "Globex", "nested": ["Skyhook"]},
                    }
                ],
            },
            {
                "role": "user",
                "content": [
                    {
                        "type": "tool_result",
                        "tool_use_id": "t1",
                        "content": [{"type": "text", "text": "Acme Corp"}],
                    }
                ],
            },
        ],
        "tools": [
            {"name": "lookup", "description": "Find Acme", "input_schema": {"type": "object"}}
        ],
    }


def responses_request() -> dict:
    return {
        "model": "m",
        "instructions": "Advise Initech.",
        "input": [
            {"role": "user", "content": [{"type": "input_text", "text": TEXT}]},
            {
                "type": "function_call",
                "call_id": "c1",
                "name": "lookup",
                "arguments": '{"q": "Globex"}',
            },
            {"type": "function_call_output", "call_id": "c1", "output": "Skyhook"},
        ],
        "tools": [
            {"type": "function", "name": "lookup", "description": "Find Acme", "parameters": {}}
        ],
    }


@pytest.mark.parametrize(
    ("build", "call_type"),
    [
        (chat_request, "acompletion"),
        (messages_request, "anthropic_messages"),
        (responses_request, "aresponses"),
    ],
)
async def test_pre_call_masks_every_provider_visible_text(
    guard: ReversibleMaskGuardrail,
    build,
    call_type: str,  # noqa: ANN001
) -> None:
    data = build()
    result = await guard.async_pre_call_hook(None, None, data, call_type)
    provider_view = json.dumps({k: v for k, v in result.items() if "metadata" not in k})
    assert clean(provider_view), provider_view
    assert '"lookup"' in provider_view  # tool names stay valid identifiers
    restored = guard.masker.unmask(provider_view)
    assert "Acme Corporation asked Globex" in restored


async def test_pre_call_keeps_binary_parts_and_ids(guard: ReversibleMaskGuardrail) -> None:
    data = await guard.async_pre_call_hook(None, None, chat_request(), "acompletion")
    parts = data["messages"][1]["content"]
    assert parts[1]["image_url"]["url"] == "data:image/png;base64,QWNtZQ=="
    assert data["messages"][2]["tool_calls"][0]["id"] == "c1"
    assert json.loads(data["messages"][2]["tool_calls"][0]["function"]["arguments"])[
        "q"
    ].startswith("[[")


@pytest.mark.parametrize(
    "call_type",
    [
        "aembedding",
        "embedding",
        "aimage_generation",
        "atranscription",
        "arerank",
        "aspeech",
        "amoderation",
        "moderation",
    ],
)
async def test_non_text_calls_are_skipped_with_one_debug_line(
    guard: ReversibleMaskGuardrail, call_type: str, caplog: pytest.LogCaptureFixture
) -> None:
    data = {"model": "m", "input": [TEXT]}
    with caplog.at_level(logging.DEBUG, logger="reversible_mask"):
        result = await guard.async_pre_call_hook(None, None, data, call_type)
    assert result["input"] == [TEXT]
    lines = [r for r in caplog.records if r.name == "reversible_mask"]
    assert len(lines) == 1 and call_type in lines[0].getMessage()


@pytest.mark.parametrize(
    ("data", "status_text"),
    [
        (
            {"metadata": {"requester_metadata": {"guard_scope": "nope"}}},
            "unknown guard scope 'nope'",
        ),
        ({"litellm_metadata": {"headers": {"x-guard-scope": "bad"}}}, "unknown guard scope 'bad'"),
        (
            {"proxy_metadata": {"guard_scope": "strict"}, "metadata": {"guard_scope": "standard"}},
            "conflicting",
        ),
        ({"metadata": {"guard_scope": 5}}, "non-empty string"),
    ],
)
async def test_bad_scope_is_a_400(
    guard: ReversibleMaskGuardrail, data: dict, status_text: str
) -> None:
    data |= {"model": "m", "messages": [{"role": "user", "content": TEXT}]}
    with pytest.raises(HTTPException) as raised:
        await guard.async_pre_call_hook(None, None, data, "acompletion")
    assert raised.value.status_code == 400 and status_text in str(raised.value.detail)


async def test_scope_from_header_and_proxy_metadata(guard: ReversibleMaskGuardrail) -> None:
    for data in (
        {"proxy_server_request": {"headers": {"X-Guard-Scope": "strict"}}},
        {"proxy_metadata": {"guard_scope": "strict"}},
        {"litellm_metadata": {"requester_metadata": {"guard_scope": "strict"}}},
    ):
        data |= {"model": "m", "messages": [{"role": "user", "content": "Jane Müller"}]}
        result = await guard.async_pre_call_hook(None, None, data, "acompletion")
        assert result["messages"][0]["content"].startswith("[[PEOPLE_")
