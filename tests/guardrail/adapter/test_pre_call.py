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
        "metadata": {"requester_metadata": {"note": "about Globex"}, "headers": {}},
        "user": "jane@globex.example",
        "stop": ["Skyhook", "END"],
        "prediction": {"type": "content", "content": "Initech will say"},
        "response_format": {
            "type": "json_schema",
            "json_schema": {
                "name": "answer",
                "description": "Answer about Acme",
                "schema": {
                    "type": "object",
                    "properties": {
                        "name": {"type": "string", "description": "e.g. Globex"},
                        "client": {"type": "string", "enum": ["Acme Corp", "other"]},
                    },
                    "required": ["name", "client"],
                },
            },
        },
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
        "metadata": {"user_id": "globex-42"},
        "stop_sequences": ["Project Bluebird"],
        "system": [{"type": "text", "text": "Advise Initech."}],
        "messages": [
            {
                "role": "user",
                "content": [
                    {"type": "text", "text": TEXT},
                    {
                        "type": "document",
                        "title": "Notes on Acme",
                        "source": {"type": "text", "media_type": "text/plain", "data": TEXT},
                    },
                    {
                        "type": "image",
                        "source": {"type": "base64", "media_type": "image/png", "data": "QWNtZQ=="},
                    },
                ],
            },
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
        "litellm_metadata": {},
        "instructions": "Advise Initech.",
        "text": {
            "format": {
                "type": "json_schema",
                "name": "answer",
                "schema": {
                    "type": "object",
                    "properties": {"who": {"type": "string", "description": "Skyhook or Acme"}},
                },
            }
        },
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
    internal = ("litellm_metadata",) if "litellm_metadata" in result else ("metadata",)
    provider_view = json.dumps({k: v for k, v in result.items() if k not in internal})
    assert clean(provider_view), provider_view
    assert '"lookup"' in provider_view  # tool names stay valid identifiers
    restored = guard.masker.unmask(provider_view, guard.in_flight.get(result))
    assert "Acme Corporation asked Globex" in restored


async def test_structure_is_never_rewritten(guard: ReversibleMaskGuardrail) -> None:
    data = await guard.async_pre_call_hook(None, None, chat_request(), "acompletion")
    schema = data["response_format"]["json_schema"]
    assert schema["name"] == "answer" and schema["schema"]["required"] == ["name", "client"]
    assert set(schema["schema"]["properties"]) == {"name", "client"}
    assert data["stop"][1] == "END" and data["stop"][0].startswith("[[PROJECTS_")
    messages = await guard.async_pre_call_hook(None, None, messages_request(), "anthropic_messages")
    image = messages["messages"][0]["content"][2]["source"]
    assert image == {"type": "base64", "media_type": "image/png", "data": "QWNtZQ=="}


async def test_pre_call_keeps_binary_parts_and_ids(guard: ReversibleMaskGuardrail) -> None:
    data = await guard.async_pre_call_hook(None, None, chat_request(), "acompletion")
    parts = data["messages"][1]["content"]
    assert parts[1]["image_url"]["url"] == "data:image/png;base64,QWNtZQ=="
    assert data["messages"][2]["tool_calls"][0]["id"] == "c1"
    arguments = json.loads(data["messages"][2]["tool_calls"][0]["function"]["arguments"])
    assert arguments["q"].startswith("[[")


async def test_the_kept_raw_body_and_requester_metadata_are_masked_too(
    guard: ReversibleMaskGuardrail,
) -> None:
    """The proxy keeps a shallow copy of the body and a copy of the client metadata; failure
    logs are built from them before any logging hook runs."""
    data = chat_request()
    data["proxy_server_request"] = {"body": dict(data), "headers": {}}
    await guard.async_pre_call_hook(None, None, data, "acompletion")
    kept = data["proxy_server_request"]["body"]
    assert clean(json.dumps(kept)), kept
    assert kept["user"] == data["user"] and kept["messages"] is data["messages"]
    assert clean(json.dumps(data["metadata"]["requester_metadata"]))


async def test_proxy_parameters_are_left_alone(guard: ReversibleMaskGuardrail) -> None:
    data = {
        "model": "m",
        "messages": [{"role": "user", "content": TEXT}],
        "metadata": {"tags": ["Globex"], "user_api_key_alias": "Globex team"},
        "tags": ["Globex"],
        "mock_response": "Globex",
        "litellm_call_id": "call-Globex",
    }
    result = await guard.async_pre_call_hook(None, None, data, "acompletion")
    assert result["tags"] == ["Globex"] and result["mock_response"] == "Globex"
    assert result["metadata"]["user_api_key_alias"] == "Globex team"
    assert result["litellm_call_id"] == "call-Globex"


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
    data |= {"model": "m", "messages": [{"role": "user", "content": TEXT}], "user": "Globex"}
    with pytest.raises(HTTPException) as raised:
        await guard.async_pre_call_hook(None, None, data, "acompletion")
    assert raised.value.status_code == 400 and status_text in str(raised.value.detail)
    # the refused request is masked in place: failure logs are built from it
    assert clean(json.dumps({k: v for k, v in data.items()}, default=str))
    assert guard.in_flight.get(data) is None


async def test_scope_from_header_and_proxy_metadata(guard: ReversibleMaskGuardrail) -> None:
    for data in (
        {"proxy_server_request": {"headers": {"X-Guard-Scope": "strict"}}},
        {"proxy_metadata": {"guard_scope": "strict"}},
        {"litellm_metadata": {"requester_metadata": {"guard_scope": "strict"}}},
    ):
        data |= {"model": "m", "messages": [{"role": "user", "content": "Jane Müller"}]}
        result = await guard.async_pre_call_hook(None, None, data, "acompletion")
        assert result["messages"][0]["content"].startswith("[[PEOPLE_")


async def test_masking_failure_refuses_the_request(
    guard: ReversibleMaskGuardrail, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*args: object, **kwargs: object) -> str:
        raise RuntimeError("boom")

    data = {"model": "m", "messages": [{"role": "user", "content": TEXT}]}
    monkeypatch.setattr(guard.masker, "mask", broken)
    with pytest.raises(HTTPException) as raised:
        await guard.async_pre_call_hook(None, None, data, "acompletion")
    assert raised.value.status_code == 500 and "could not be masked" in str(raised.value.detail)
    assert guard.in_flight.get(data) is None


async def test_identifiers_and_headers_bound_for_the_provider_are_masked(
    guard: ReversibleMaskGuardrail,
) -> None:
    data = {
        "model": "m",
        "messages": [{"role": "user", "content": "hi"}],
        "metadata": {},
        "prompt_cache_key": "Globex-cache",
        "safety_identifier": "user at Acme Corporation",
        "extra_headers": {"x-customer": "Skyhook", "x-trace": "t-1"},
        "headers": {"x-project": "Project Bluebird"},
    }
    result = await guard.async_pre_call_hook(None, None, data, "acompletion")
    provider_view = {k: v for k, v in result.items() if k != "metadata"}
    assert clean(json.dumps(provider_view)), provider_view
    assert result["prompt_cache_key"].startswith("[[CLIENTS_")
    assert result["extra_headers"]["x-trace"] == "t-1"


def with_name(data: dict, place: str) -> dict:
    if place == "message name":
        data["messages"][0]["name"] = "Globex"
    elif place == "tool name":
        data["tools"][0]["function"]["name"] = "Globex"
    elif place == "schema pattern":
        properties = data["tools"][0]["function"]["parameters"]["properties"]
        properties["q"]["pattern"] = "^Acme Corp-[0-9]+$"
    elif place == "tool choice":
        data["tool_choice"] = {"type": "function", "function": {"name": "Skyhook"}}
    elif place == "tool call id":
        data["messages"][2]["tool_calls"][0]["id"] = "Initech-1"
    return data


@pytest.mark.parametrize(
    "place", ["message name", "tool name", "schema pattern", "tool choice", "tool call id"]
)
async def test_a_term_where_a_placeholder_would_break_the_format_is_refused(
    guard: ReversibleMaskGuardrail, place: str
) -> None:
    data = with_name(chat_request(), place)
    with pytest.raises(HTTPException) as raised:
        await guard.async_pre_call_hook(None, None, data, "acompletion")
    assert raised.value.status_code == 400
    assert "holds a dictionary term" in raised.value.detail["error"]
    assert clean(json.dumps(data)), data  # what loggers read afterwards is masked
    assert len(guard.in_flight) == 0


async def test_a_stream_with_several_choices_is_refused(guard: ReversibleMaskGuardrail) -> None:
    data = {"model": "m", "messages": [{"role": "user", "content": TEXT}], "metadata": {}}
    with pytest.raises(HTTPException) as raised:
        await guard.async_pre_call_hook(None, None, {**data, "stream": True, "n": 2}, "acompletion")
    assert raised.value.status_code == 400 and "n > 1" in raised.value.detail["error"]
    assert len(guard.in_flight) == 0
    kept = await guard.async_pre_call_hook(None, None, {**data, "n": 2}, "acompletion")
    assert clean(json.dumps(kept["messages"]))


def caller(scope: str) -> object:
    from types import SimpleNamespace

    return SimpleNamespace(metadata={"guard_scope": scope}, team_metadata={})


async def test_a_caller_cannot_lower_the_scope_its_key_is_bound_to(
    guard: ReversibleMaskGuardrail,
) -> None:
    def request(**metadata: object) -> dict:
        return {
            "model": "m",
            "messages": [{"role": "user", "content": "Jane Müller"}],
            "metadata": metadata,
        }

    lowered = request(headers={"x-guard-scope": "standard"})
    with pytest.raises(HTTPException) as raised:
        await guard.async_pre_call_hook(caller("strict"), None, lowered, "acompletion")
    assert raised.value.status_code == 403 and "masks less" in raised.value.detail["error"]
    bound = await guard.async_pre_call_hook(caller("strict"), None, request(), "acompletion")
    assert "Müller" not in bound["messages"][0]["content"]  # strict masks people
    free = await guard.async_pre_call_hook(None, None, request(), "acompletion")
    assert "Müller" in free["messages"][0]["content"]  # the default scope does not


async def test_logs_use_the_key_domain_of_an_operator_bound_scope() -> None:
    """With key_per_scope, a request masked under the scope its key is bound to (it asked for
    none) gets the same placeholders in its log copies as in the provider's copy."""
    from conftest import DICTIONARY, KEY

    guard = ReversibleMaskGuardrail(
        guardrail_name="g", dictionary_path=str(DICTIONARY), org_key=KEY, key_per_scope=True
    )
    data = {"model": "m", "messages": [{"role": "user", "content": "Call Globex."}], "metadata": {}}
    data["metadata"]["reversible_mask_scope"] = "standard"  # a client's value is replaced
    await guard.async_pre_call_hook(caller("strict"), None, data, "acompletion")
    sent = data["messages"][0]["content"]
    assert "Globex" not in sent and data["metadata"]["reversible_mask_scope"] == "strict"
    kwargs = {"messages": [{"role": "user", "content": "Call Globex."}],
              "litellm_params": {"metadata": dict(data["metadata"])}}  # fmt: skip
    logged, _ = guard.logging_hook(kwargs, None, "acompletion")
    assert logged["messages"][0]["content"] == sent
    unbound = guard.masker.mask("Call Globex.", target=guard.masker.target(None, True))
    assert unbound != sent  # the default scope's domain would have given other placeholders
