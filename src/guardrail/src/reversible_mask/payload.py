"""Walk request, response and logging payloads of the protected routes.

Requests (masking, in place): every string the request carries is masked, except under keys
whose format a placeholder would break: identifiers and enum values (`role`, `type`, ids, tool,
function and message names, `format`, `detail`, ...), JSON-schema `pattern`s, URLs, opaque blobs
(signatures, encrypted reasoning, cache control, tool choice). Those are checked instead: one
that holds a dictionary term refuses the request (`UnmaskableFieldError`), so no field is sent
as it came just because masking it is impossible. Not scanned at all: the `model` alias (the proxy
maps it to its own deployment) and binary data (image, audio and file data: `data` unless its
block is of type "text", which is how Anthropic `document` blocks carry plain text; data: URLs).
Headers a request asks the proxy to send (`extra_headers`), `prompt_cache_key`,
`safety_identifier` and `user` are masked like text. JSON-schema property maps are walked by
value (property names are keys, never masked). Tool arguments (`arguments`, tool-use `input`)
are user data throughout: every string inside is masked, JSON text decoded first so escapes
cannot hide a term.

Responses (unmasking, in place): every string of the response object is restored.

Logging payloads are copied, masked, by `log_copier.Copier`.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Collection
from typing import Any

from .errors import UnmaskableFieldError
from .placeholder import may_hold_token

Fn = Callable[[str], str]

STRUCTURAL = frozenset(
    {
        "model", "role", "type", "id", "object", "name", "status", "tool_call_id", "tool_use_id",
        "call_id", "item_id", "file_id", "previous_response_id", "response_id", "conversation",
        "vector_store_ids", "media_type", "mime_type", "format", "detail", "voice", "url",
        "image_url", "file_url", "file_data", "server_url", "server_label", "allowed_tools",
        "require_approval", "modalities", "reasoning_effort", "effort", "service_tier",
        "verbosity", "truncation", "include", "encoding_format", "search_context_size",
        "country", "timezone", "required", "$ref", "$schema", "$id", "pattern", "key",
        "input_type",
    }
)  # fmt: skip
OPAQUE = frozenset(
    {
        "cache_control", "signature", "encrypted_content", "logit_bias", "stream_options",
        "tool_choice", "reasoning", "redacted_thinking",
    }
)  # fmt: skip
UNSCANNED = frozenset({"model", "file_data"})
BINARY_URL = "data:"
SCHEMA_MAPS = frozenset({"properties", "patternProperties", "$defs", "definitions"})
TOOL_USE_TYPES = frozenset({"tool_use", "server_tool_use", "mcp_tool_use"})
JSON_KEYS = frozenset({"arguments", "partial_json"})


def mask_request(data: dict[str, Any], mask: Fn, skip: Collection[str]) -> None:
    """Mask in place every provider-bound string of a request body (top-level keys in `skip`,
    the proxy's own parameters, are left alone); raises UnmaskableFieldError."""
    for key in list(data):
        if key not in skip:
            data[key] = _walk(data[key], key, data, mask)


def _walk(value: Any, key: str, parent: Any, mask: Fn) -> Any:
    if isinstance(value, str):
        if key in JSON_KEYS:
            return mask_json_text(value, mask)
        if key in UNSCANNED or _binary(value, key, parent):
            return value
        if key in STRUCTURAL:
            return _checked(value, key, mask)
        return mask(value)
    if isinstance(value, list):
        for index, item in enumerate(value):
            value[index] = _walk(item, key, parent, mask)
        return value
    if isinstance(value, dict):
        if key in OPAQUE:
            return _check_all(value, key, mask)
        if key in JSON_KEYS or (key == "input" and _type_of(parent) in TOOL_USE_TYPES):
            return mask_all(value, mask)
        by_value = key in SCHEMA_MAPS
        for child in list(value):
            value[child] = _walk(value[child], "" if by_value else str(child), value, mask)
    return value


def _binary(value: str, key: str, parent: Any) -> bool:
    if key == "data":
        return _type_of(parent) != "text"
    return value.startswith(BINARY_URL) and key in ("url", "image_url", "file_url")


def _checked(value: str, key: str, mask: Fn) -> str:
    if mask(value) != value:
        raise UnmaskableFieldError(key)
    return value


def _check_all(value: Any, key: str, mask: Fn) -> Any:
    if isinstance(value, str):
        return _checked(value, key, mask)
    if isinstance(value, list):
        for item in value:
            _check_all(item, key, mask)
    elif isinstance(value, dict):
        for child in value.values():
            _check_all(child, key, mask)
    return value


def _type_of(parent: Any) -> Any:
    return parent.get("type") if isinstance(parent, dict) else None


def mask_all(value: Any, mask: Fn) -> Any:
    """Masks in place every string inside JSON-shaped data (dict keys excepted)."""
    if isinstance(value, str):
        return mask(value)
    if isinstance(value, list):
        for index, item in enumerate(value):
            value[index] = mask_all(item, mask)
    elif isinstance(value, dict):
        for child in list(value):
            value[child] = mask_all(value[child], mask)
    return value


def mask_json_text(text: str, mask: Fn) -> str:
    """Tool arguments are JSON text: mask the decoded values so escapes cannot hide a term."""
    try:
        decoded = json.loads(text)
    except (ValueError, RecursionError):
        return mask(text)
    changed = False

    def tracked(value: str) -> str:
        nonlocal changed
        result = mask(value)
        changed = changed or result != value
        return result

    masked = mask_all(decoded, tracked)
    return json.dumps(masked, ensure_ascii=False) if changed else text


Restore = Callable[[str, bool], str]


_LEAVES = frozenset({int, float, bool, type(None), bytes})


def unmask_object(value: Any, restore: Restore, key: str = "") -> Any:
    """Restore placeholders in place in dicts, lists and pydantic models; returns the value.
    `restore(text, json_string)` escapes what it restores inside JSON text (tool arguments)."""
    kind = type(value)
    if kind in _LEAVES:  # most of a response (usage counts, None): no text
        return value
    if kind is str or isinstance(value, str):
        return restore(value, key in JSON_KEYS) if may_hold_token(value) else value
    if isinstance(value, list):
        for index, item in enumerate(value):
            value[index] = unmask_object(item, restore, key)
    elif isinstance(value, dict):
        for child in list(value):
            value[child] = unmask_object(value[child], restore, str(child))
    elif hasattr(value, "__dict__") and not isinstance(value, type):
        _unmask_fields(value, restore)
    return value


def _unmask_fields(obj: Any, restore: Restore) -> None:
    """Fields of a plain object or pydantic model, including extras (litellm keeps many
    response fields, e.g. tool calls, in `__pydantic_extra__`)."""
    extra = getattr(obj, "__pydantic_extra__", None) or {}
    for name, current in [*vars(obj).items(), *extra.items()]:
        if type(current) in _LEAVES or name[:1] == "_":
            continue
        updated = unmask_object(current, restore, name)
        if updated is not current:
            setattr(obj, name, updated)


JSON_STARTS = ("{", "[")


def mask_text(text: str, mask: Fn, key: Any) -> str:
    if key in JSON_KEYS or text.startswith(JSON_STARTS):
        return mask_json_text(text, mask)
    return mask(text)
