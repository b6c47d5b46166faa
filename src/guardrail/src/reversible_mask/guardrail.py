"""The LiteLLM adapter: a thin CustomGuardrail over the pure engine.

Load it through a one-line shim beside the proxy config (see shim/litellm/), e.g.
`guardrail: reversible_mask_guardrail.ReversibleMaskGuardrail`.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncGenerator, Callable
from typing import Any

from fastapi import HTTPException
from litellm.integrations.custom_guardrail import CustomGuardrail
from litellm.types.guardrails import GuardrailEventHooks

from .dictionary import load_dictionary
from .engine import Masker
from .errors import ScopeError
from .payload import mask_copy, mask_request, unmask_object
from .scope import requested_scope
from .settings import resolve_settings
from .streaming import restore_stream

log = logging.getLogger("reversible_mask")

NON_TEXT_CALL_TYPES = frozenset(
    {
        "embedding", "aembedding", "image_generation", "aimage_generation", "image_edit",
        "aimage_edit", "image_variation", "aimage_variation", "transcription", "atranscription",
        "speech", "aspeech", "rerank", "arerank", "moderation", "amoderation",
        "pass_through_endpoint", "pass_through", "llm_passthrough_route",
        "allm_passthrough_route",
    }
)  # fmt: skip
NON_TEXT_RESPONSES = frozenset(
    {"EmbeddingResponse", "ImageResponse", "TranscriptionResponse", "RerankResponse"}
)
LOGGED_KWARGS = (
    "messages", "input", "prompt", "system", "standard_logging_object", "original_response",
    "complete_streaming_response", "async_complete_streaming_response", "additional_args",
)  # fmt: skip


def _call_type_name(call_type: Any) -> str:
    return str(getattr(call_type, "value", call_type))


def _proxy_guardrail_entries() -> list[Any]:
    """The proxy's loaded, env-resolved config (1.80.15/16 do not pass custom params)."""
    try:
        from litellm.proxy.proxy_server import proxy_config

        return list((getattr(proxy_config, "config", None) or {}).get("guardrails") or [])
    except Exception:  # noqa: BLE001 - not running inside a proxy: fall back to env
        return []


class ReversibleMaskGuardrail(CustomGuardrail):
    def __init__(
        self,
        guardrail_name: str | None = None,
        dictionary_path: str | None = None,
        org_key: str | None = None,
        **kwargs: Any,
    ) -> None:
        settings = resolve_settings(
            {"dictionary_path": dictionary_path, "org_key": org_key},
            guardrail_name,
            _proxy_guardrail_entries,
        )
        self.masker = Masker(load_dictionary(settings.dictionary_path), settings.org_key)
        super().__init__(guardrail_name=guardrail_name, **kwargs)

    def should_run_guardrail(self, data: Any, event_type: GuardrailEventHooks) -> bool:
        """Logs are always re-masked; with default_on, clients cannot opt out of masking."""
        if event_type == GuardrailEventHooks.logging_only:
            return True
        if self.default_on:
            return self._event_hook_is_event_type(event_type)
        return super().should_run_guardrail(data, event_type)

    async def async_pre_call_hook(
        self, user_api_key_dict: Any, cache: Any, data: dict, call_type: Any
    ) -> dict:
        name = _call_type_name(call_type)
        if name in NON_TEXT_CALL_TYPES:
            log.debug("reversible_mask: skipping non-text call type %s", name)
            return data
        try:
            categories = self.masker.categories_for(requested_scope(data))
        except ScopeError as error:
            raise HTTPException(status_code=400, detail={"error": str(error)}) from error
        mask_request(data, lambda text: self.masker.mask(text, categories))
        return data

    async def async_post_call_success_hook(
        self, data: dict, user_api_key_dict: Any, response: Any
    ) -> Any:
        if type(response).__name__ in NON_TEXT_RESPONSES:
            return response
        return unmask_object(response, self.masker)

    async def async_post_call_streaming_iterator_hook(
        self, user_api_key_dict: Any, response: Any, request_data: dict
    ) -> AsyncGenerator[Any, None]:
        async for chunk in restore_stream(self.masker, response):
            yield chunk

    async def async_logging_hook(
        self, kwargs: dict, result: Any, call_type: str
    ) -> tuple[dict, Any]:
        return self.logging_hook(kwargs, result, call_type)

    def logging_hook(self, kwargs: dict, result: Any, call_type: str) -> tuple[dict, Any]:
        """Re-mask what loggers and the spend log will read; idempotent, fails open per part."""
        mask: Callable[[str], str] = self.masker.mask
        for key in LOGGED_KWARGS:
            if key in kwargs:
                kwargs[key] = _fail_open(key, kwargs[key], mask)
        params = kwargs.get("litellm_params")
        if isinstance(params, dict):
            kwargs["litellm_params"] = _masked_params(params, mask)
        if _call_type_name(call_type) not in NON_TEXT_CALL_TYPES:
            result = _fail_open("result", result, mask)
        return kwargs, result


def _masked_params(params: dict, mask: Callable[[str], str]) -> dict:
    params = dict(params)
    if "proxy_server_request" in params:
        params["proxy_server_request"] = _fail_open(
            "proxy_server_request", params["proxy_server_request"], mask
        )
    for key in ("metadata", "litellm_metadata"):
        metadata = params.get(key)
        if isinstance(metadata, dict) and "requester_metadata" in metadata:
            metadata = dict(metadata)
            metadata["requester_metadata"] = _fail_open(
                "requester_metadata", metadata["requester_metadata"], mask
            )
            params[key] = metadata
    return params


def _fail_open(name: str, value: Any, mask: Callable[[str], str]) -> Any:
    try:
        return mask_copy(value, mask)
    except Exception:  # noqa: BLE001 - the spec's fail-open rule: never break the call
        log.warning("reversible_mask: could not re-mask logging field %s", name, exc_info=True)
        return value
