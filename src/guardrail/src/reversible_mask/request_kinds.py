"""What the adapter treats as text: the call types and responses that carry none, the request
keys the proxy keeps to itself, and the stream shape it refuses.

Pure: the adapter passes in LiteLLM's own parameter names (`internal_keys`), so this module
needs no LiteLLM import.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .errors import RefusedRequestError

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
# Top-level request keys the proxy adds or consumes itself (never sent to the provider).
PROXY_KEYS = frozenset(
    {
        "metadata", "litellm_metadata", "proxy_metadata", "proxy_server_request",
        "secret_fields", "litellm_call_id", "litellm_logging_obj", "guardrails",
        "disable_global_guardrail", "litellm_trace_id", "litellm_session_id", "tags",
        "mock_response", "api_key", "api_base", "user_api_key_dict",
    }
)  # fmt: skip
# LiteLLM params that still reach the provider (as HTTP headers): masked like any text.
PROVIDER_BOUND_PARAMS = frozenset({"headers", "extra_headers"})


def internal_keys(litellm_params: Iterable[str]) -> frozenset[str]:
    """Top-level keys never sent to the provider: the proxy's own and LiteLLM's parameters,
    less those LiteLLM turns into provider headers."""
    return (PROXY_KEYS | frozenset(litellm_params)) - PROVIDER_BOUND_PARAMS


def call_type_name(call_type: Any) -> str:
    return str(getattr(call_type, "value", call_type))


def refuse_mixed_streams(data: dict) -> None:
    """A chat stream with n > 1: LiteLLM (1.108 at least) logs it as one response built from the
    restored chunks with the choices interleaved, so a term split across them cannot be found
    and re-masked in any log. Refused on every version, so the rule does not depend on one."""
    choices = data.get("n")
    if data.get("stream") and isinstance(choices, int) and choices > 1:
        raise RefusedRequestError(
            "reversible_mask: a stream with n > 1 is refused (its logged copy mixes the choices, "
            "so originals could not be re-masked there); send n=1, or stream=false for n > 1"
        )
