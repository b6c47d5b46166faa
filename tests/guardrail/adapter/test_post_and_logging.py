"""Post-call restoring, the should_run override and the logging hook."""

from __future__ import annotations

import copy
import json

import pytest
from litellm.types.guardrails import GuardrailEventHooks
from litellm.types.utils import ModelResponse

from reversible_mask.guardrail import ReversibleMaskGuardrail

from conftest import clean

pytestmark = pytest.mark.anyio

TEXT = "Acme Corporation asked Globex about Project Bluebird and Skyhook."


async def test_post_call_restores_chat_response_with_tool_calls(
    guard: ReversibleMaskGuardrail,
) -> None:
    token = guard.masker.mask(TEXT)
    response = ModelResponse(
        choices=[
            {
                "index": 0,
                "finish_reason": "tool_calls",
                "message": {
                    "role": "assistant",
                    "content": token,
                    "tool_calls": [
                        {
                            "id": "c",
                            "type": "function",
                            "function": {"name": "f", "arguments": json.dumps({"q": token})},
                        }
                    ],
                },
            }
        ]
    )
    result = await guard.async_post_call_success_hook({}, None, response)
    message = result.choices[0].message
    assert message.content == TEXT
    assert json.loads(message.tool_calls[0].function.arguments) == {"q": TEXT}


async def test_post_call_restores_anthropic_dict(guard: ReversibleMaskGuardrail) -> None:
    token = guard.masker.mask(TEXT)
    response = {
        "content": [{"type": "text", "text": token}, {"type": "tool_use", "input": {"q": token}}]
    }
    result = await guard.async_post_call_success_hook({}, None, response)
    assert result["content"][0]["text"] == TEXT and result["content"][1]["input"] == {"q": TEXT}


def test_should_run_ignores_client_opt_out_and_always_remasks_logs(
    guard: ReversibleMaskGuardrail,
) -> None:
    opt_out = {"metadata": {"disable_global_guardrail": True}, "disable_global_guardrail": True}
    assert guard.should_run_guardrail(opt_out, GuardrailEventHooks.pre_call)
    assert guard.should_run_guardrail(opt_out, GuardrailEventHooks.logging_only)
    assert not guard.should_run_guardrail({}, GuardrailEventHooks.during_call)


def test_logging_hook_remasks_copies_idempotently(guard: ReversibleMaskGuardrail) -> None:
    response = ModelResponse(
        choices=[
            {"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": TEXT}}
        ]
    )
    kwargs = {
        "messages": [{"role": "user", "content": TEXT}],
        "standard_logging_object": {
            "messages": [{"content": TEXT}],
            "response": {"text": TEXT},
            "metadata": {"requester_metadata": {"note": "Globex"}},
        },
        "litellm_params": {
            "proxy_server_request": {"body": {"messages": [{"content": TEXT}]}},
            "metadata": {"requester_metadata": {"note": "Skyhook"}},
        },
    }
    params, original = kwargs["litellm_params"], copy.deepcopy(kwargs["litellm_params"])
    masked_kwargs, masked_result = guard.logging_hook(kwargs, response, "acompletion")
    assert clean(json.dumps(masked_kwargs)) and clean(masked_result.model_dump_json())
    assert response.choices[0].message.content == TEXT  # the client's object is not touched
    assert params == original  # nor the request's params: the hook swaps in masked copies
    again, again_result = guard.logging_hook(
        copy.deepcopy(masked_kwargs), masked_result, "acompletion"
    )
    assert json.dumps(again) == json.dumps(masked_kwargs)
    assert again_result.model_dump_json() == masked_result.model_dump_json()


async def test_logging_hook_fails_open(
    guard: ReversibleMaskGuardrail, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(text: str) -> str:
        raise RuntimeError("boom")

    monkeypatch.setattr(guard.masker, "mask", broken)
    kwargs = {
        "messages": [{"content": "x"}],
        "litellm_params": {"proxy_server_request": {"body": {}}},
    }
    result_kwargs, result = await guard.async_logging_hook(kwargs, "raw", "acompletion")
    assert result_kwargs["messages"] == [{"content": "x"}] and result == "raw"
