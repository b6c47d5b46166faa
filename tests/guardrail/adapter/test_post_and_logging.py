"""Post-call restoring, the request-scoped registry, the logging hook and the failure hooks."""

from __future__ import annotations

import copy
import json

import pytest
from litellm.types.guardrails import GuardrailEventHooks
from litellm.types.utils import ModelResponse

from reversible_mask.guardrail import RAW_BODY_WARNING, ReversibleMaskGuardrail

from conftest import clean, masked_chat

pytestmark = pytest.mark.anyio

TEXT = "Acme Corporation asked Globex about Project Bluebird and Skyhook."


def chat_response(content: str, arguments: str | None = None) -> ModelResponse:
    message: dict = {"role": "assistant", "content": content}
    if arguments is not None:
        message["tool_calls"] = [
            {"id": "c", "type": "function", "function": {"name": "f", "arguments": arguments}}
        ]
    return ModelResponse(choices=[{"index": 0, "finish_reason": "stop", "message": message}])


async def test_post_call_restores_chat_response_with_tool_calls(
    guard: ReversibleMaskGuardrail,
) -> None:
    token, data = await masked_chat(guard, TEXT)
    response = chat_response(token, json.dumps({"q": token}))
    result = await guard.async_post_call_success_hook(data, None, response)
    message = result.choices[0].message
    assert message.content == TEXT
    assert json.loads(message.tool_calls[0].function.arguments) == {"q": TEXT}
    assert guard.in_flight.get(data) is None  # the registry is gone with the request


async def test_post_call_restores_anthropic_dict(guard: ReversibleMaskGuardrail) -> None:
    token, data = await masked_chat(guard, TEXT)
    response = {
        "content": [{"type": "text", "text": token}, {"type": "tool_use", "input": {"q": token}}]
    }
    result = await guard.async_post_call_success_hook(data, None, response)
    assert result["content"][0]["text"] == TEXT and result["content"][1]["input"] == {"q": TEXT}


async def test_placeholders_of_another_request_are_not_restored(
    guard: ReversibleMaskGuardrail,
) -> None:
    """A placeholder copied from a log, or made up, restores to nothing."""
    token, _ = await masked_chat(guard, "Globex")
    _, other = await masked_chat(guard, "hello")
    response = chat_response(f"{token} and {token[:-2]}_a1]]")
    result = await guard.async_post_call_success_hook(other, None, response)
    assert result.choices[0].message.content == f"{token} and {token[:-2]}_a1]]"


async def test_a_typed_placeholder_comes_back_as_typed(guard: ReversibleMaskGuardrail) -> None:
    token, _ = await masked_chat(guard, "Globex")
    sent, data = await masked_chat(guard, f"Globex or {token}?")
    assert sent.count(token) == 1 and "[[LITERAL_" in sent
    result = await guard.async_post_call_success_hook(data, None, chat_response(sent))
    assert result.choices[0].message.content == f"Globex or {token}?"


async def test_a_streamed_request_keeps_its_registry_until_the_stream_ends(
    guard: ReversibleMaskGuardrail,
) -> None:
    token, data = await masked_chat(guard, "Globex", stream=True)
    await guard.async_post_call_success_hook(data, None, chat_response(token))
    assert guard.in_flight.get(data) is not None


def test_should_run_ignores_client_opt_out_and_always_remasks_logs(
    guard: ReversibleMaskGuardrail,
) -> None:
    opt_out = {"metadata": {"disable_global_guardrail": True}, "disable_global_guardrail": True}
    assert guard.should_run_guardrail(opt_out, GuardrailEventHooks.pre_call)
    assert guard.should_run_guardrail(opt_out, GuardrailEventHooks.logging_only)
    assert not guard.should_run_guardrail({}, GuardrailEventHooks.during_call)


def logging_kwargs(text: str) -> dict:
    return {
        "messages": [{"role": "user", "content": text}],
        "standard_logging_object": {
            "messages": [{"content": text}],
            "response": {"text": text},
            "metadata": {"requester_metadata": {"note": "Globex"}},
        },
        "litellm_params": {
            "proxy_server_request": {"body": {"messages": [{"content": text}]}},
            "metadata": {"requester_metadata": {"note": "Skyhook"}, "user_api_key_hash": "abc"},
        },
        "served_output_texts": (text, None),
        "optional_params": {"stop": ["Skyhook"], "user": "Initech"},
        "some_future_field": {"deep": [text]},
        "litellm_call_id": "call-1",
        "model": "gpt",
    }


def test_logging_hook_remasks_every_field_as_copies_idempotently(
    guard: ReversibleMaskGuardrail,
) -> None:
    response = chat_response(TEXT)
    kwargs = logging_kwargs(TEXT)
    original = copy.deepcopy(kwargs)
    masked_kwargs, masked_result = guard.logging_hook(kwargs, response, "acompletion")
    assert clean(json.dumps(masked_kwargs)) and clean(masked_result.model_dump_json())
    assert isinstance(masked_kwargs["served_output_texts"], tuple)
    assert masked_kwargs["litellm_call_id"] == "call-1" and masked_kwargs["model"] == "gpt"
    assert response.choices[0].message.content == TEXT  # the client's object is not touched
    assert kwargs == original  # nor the call details: the hook hands back masked copies
    again, again_result = guard.logging_hook(copy.deepcopy(masked_kwargs), masked_result, "x")
    assert json.dumps(again) == json.dumps(masked_kwargs)
    assert again_result.model_dump_json() == masked_result.model_dump_json()


async def test_logging_hook_fails_open(
    guard: ReversibleMaskGuardrail, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*args: object, **kwargs: object) -> str:
        raise RuntimeError("boom")

    monkeypatch.setattr(guard.masker, "mask", broken)
    kwargs = {"messages": [{"content": "x"}], "litellm_params": {"proxy_server_request": {}}}
    result_kwargs, result = await guard.async_logging_hook(kwargs, "raw", "acompletion")
    assert result_kwargs["messages"] == [{"content": "x"}] and result == "raw"


async def test_failure_events_are_remasked_in_place_for_the_next_callbacks(
    guard: ReversibleMaskGuardrail,
) -> None:
    """Failure callbacks share one dict: the guardrail rewrites it before loggers read it."""
    kwargs = logging_kwargs(TEXT)
    await guard.async_log_failure_event(kwargs, None, None, None)
    assert clean(json.dumps(kwargs)) and kwargs["litellm_call_id"] == "call-1"
    sync_kwargs = logging_kwargs(TEXT)
    guard.log_failure_event(sync_kwargs, None, None, None)
    assert clean(json.dumps(sync_kwargs))


async def test_post_call_failure_hook_masks_the_request_and_drops_its_registry(
    guard: ReversibleMaskGuardrail,
) -> None:
    _, data = await masked_chat(guard, TEXT)
    data["user"] = "Globex"  # anything the request carried, masked or not
    await guard.async_post_call_failure_hook(data, RuntimeError("upstream 500"), None)
    assert clean(json.dumps(data, default=str)) and guard.in_flight.get(data) is None


def test_debug_logging_warns_at_start_up(caplog: pytest.LogCaptureFixture) -> None:
    from litellm._logging import verbose_proxy_logger

    from conftest import DICTIONARY, KEY

    level = verbose_proxy_logger.level
    verbose_proxy_logger.setLevel("DEBUG")
    try:
        with caplog.at_level("WARNING", logger="reversible_mask"):
            ReversibleMaskGuardrail(
                guardrail_name="g", dictionary_path=str(DICTIONARY), org_key=KEY
            )
    finally:
        verbose_proxy_logger.setLevel(level)
    assert RAW_BODY_WARNING in caplog.text
    caplog.clear()
    with caplog.at_level("WARNING", logger="reversible_mask"):
        ReversibleMaskGuardrail(guardrail_name="g", dictionary_path=str(DICTIONARY), org_key=KEY)
    assert RAW_BODY_WARNING not in caplog.text


def test_logging_copies_survive_cycles_and_decode_json_text(
    guard: ReversibleMaskGuardrail,
) -> None:
    """The proxy's call details hold cyclic dicts; JSON text may escape a term's letters."""
    params: dict = {"note": TEXT}
    params["self"] = params
    escaped = json.dumps({"q": "Glob\u0065x \u200b"}).replace("e", "\\u0065")
    kwargs = {"optional_params": params, "arguments": escaped, "raw": json.dumps([TEXT])}
    masked, _ = guard.logging_hook(kwargs, None, "acompletion")
    assert masked["optional_params"]["self"] is masked["optional_params"]
    assert clean(masked["optional_params"]["note"])
    assert clean(json.dumps(json.loads(masked["arguments"])))
    assert clean(json.dumps(json.loads(masked["raw"])))


def test_values_the_proxy_writes_into_the_returned_details_later_are_masked(
    guard: ReversibleMaskGuardrail,
) -> None:
    """1.80.x stores a fresh standard logging payload from a worker thread after the hook."""
    masked, _ = guard.logging_hook(logging_kwargs("hello"), None, "acompletion")
    masked["standard_logging_object"] = {"response": {"text": TEXT}}
    masked.update({"late": TEXT})
    masked.setdefault("later", [TEXT])
    assert clean(json.dumps(masked)) and copy.deepcopy(masked) == masked


async def test_the_requests_own_masked_text_never_shields_an_original_beside_it(
    guard: ReversibleMaskGuardrail,
) -> None:
    """The logging hook takes the pre-call hook's masked prompt as clean (the same object) and
    a restored reply as its provider text masked; originals next to them are still masked."""
    long_text = " ".join([TEXT] * 12)  # long enough for the by-identity memo
    provider, data = await masked_chat(guard, long_text)
    reply = await guard.async_post_call_success_hook(data, None, chat_response(provider))
    restored = reply.choices[0].message.content
    assert restored == long_text
    kwargs = logging_kwargs(provider)
    kwargs["beside"] = [provider, "Acme Corporation", provider + " Globex", "Skyhook " + provider]
    kwargs["inside"] = provider.replace("asked", "asked Initech", 1)
    kwargs["served_output_texts"] = (restored, restored + " Project Bluebird")
    masked, result = guard.logging_hook(kwargs, reply, "acompletion")
    assert clean(json.dumps(masked)) and clean(result.model_dump_json())
    assert masked["messages"][0]["content"] is provider  # known clean: shared, not copied
