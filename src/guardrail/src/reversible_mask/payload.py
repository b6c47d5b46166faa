"""Walk request, response and logging payloads of the protected routes.

Requests (masking, in place): every string the request carries is masked, except under keys
that name structure (a denylist, not a list of text fields): identifiers and enum values
(`model`, `role`, `type`, ids, tool and function names, `format`, `detail`, ...), URLs and
binary data (image, audio and file data; `data` unless its block is of type "text", which is
how Anthropic `document` blocks carry plain text), opaque blobs (signatures, encrypted
reasoning, cache control, headers). JSON-schema property maps are walked by value (property
names are keys, never masked). Tool arguments (`arguments`, tool-use `input`) are user data
throughout: every string inside is masked, JSON text decoded first so escapes cannot hide a term.

Responses (unmasking, in place): every string of the response object is restored.

Logging (masked copies): every string of a logging payload, except a few identifiers the
proxy's own bookkeeping reads after the hook (call ids, model names, key hashes).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Collection, Iterable
from datetime import date, datetime, time, timedelta
from typing import Any

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
        "prompt_cache_key", "safety_identifier", "input_type",
    }
)  # fmt: skip
OPAQUE = frozenset(
    {
        "headers", "extra_headers", "cache_control", "signature", "encrypted_content",
        "logit_bias", "stream_options", "tool_choice", "reasoning", "redacted_thinking",
    }
)  # fmt: skip
SCHEMA_MAPS = frozenset({"properties", "patternProperties", "$defs", "definitions"})
TOOL_USE_TYPES = frozenset({"tool_use", "server_tool_use", "mcp_tool_use"})
JSON_KEYS = frozenset({"arguments", "partial_json"})
# Left as they are in log copies: identifiers the proxy's spend and logging code reads after
# the hook, and blocks built only from the proxy's configuration (the model cost map entry, the
# deployment's model info, cost arithmetic, per-callback credentials). Not key settings: the
# key's auth object carries the client's end-user id, which is request text.
LOG_IDENTIFIERS = frozenset(
    {
        "litellm_call_id", "litellm_trace_id", "call_type", "id", "model", "model_id",
        "model_group", "custom_llm_provider", "api_base", "user_api_key", "user_api_key_hash",
        "hashed_api_key", "api_key", "response_cost", "litellm_logging_obj",
        "model_map_information", "model_info", "cost_breakdown",
        "standard_callback_dynamic_params",
    }
)  # fmt: skip


def mask_request(data: dict[str, Any], mask: Fn, skip: Collection[str]) -> None:
    """Mask in place every provider-bound string of a request body (top-level keys in `skip`,
    the proxy's own parameters, are left alone)."""
    for key in list(data):
        if key not in skip:
            data[key] = _walk(data[key], key, data, mask)


def _walk(value: Any, key: str, parent: Any, mask: Fn) -> Any:
    if isinstance(value, str):
        if key in JSON_KEYS:
            return _mask_json_text(value, mask)
        if key in STRUCTURAL or (key == "data" and _type_of(parent) != "text"):
            return value
        return mask(value)
    if isinstance(value, list):
        for index, item in enumerate(value):
            value[index] = _walk(item, key, parent, mask)
        return value
    if isinstance(value, dict):
        if key in OPAQUE:
            return value
        if key in JSON_KEYS or (key == "input" and _type_of(parent) in TOOL_USE_TYPES):
            return mask_all(value, mask)
        by_value = key in SCHEMA_MAPS
        for child in list(value):
            value[child] = _walk(value[child], "" if by_value else str(child), value, mask)
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


def _mask_json_text(text: str, mask: Fn) -> str:
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


def unmask_object(value: Any, restore: Restore, key: str = "") -> Any:
    """Restore placeholders in place in dicts, lists and pydantic models; returns the value.
    `restore(text, json_string)` escapes what it restores inside JSON text (tool arguments)."""
    if isinstance(value, str):
        return restore(value, key in JSON_KEYS) if "[[" in value else value
    if isinstance(value, list):
        for index, item in enumerate(value):
            value[index] = unmask_object(item, restore, key)
    elif isinstance(value, dict):
        for child in list(value):
            value[child] = unmask_object(value[child], restore, str(child))
    elif hasattr(value, "__dict__") and not isinstance(value, type):
        _visit_fields(value, lambda item, name: unmask_object(item, restore, name))
    return value


def _visit_fields(obj: Any, visit: Callable[[Any, str], Any]) -> None:
    """Fields of a plain object or pydantic model, including extras (litellm keeps many
    response fields, e.g. tool calls, in `__pydantic_extra__`)."""
    extra = getattr(obj, "__pydantic_extra__", None) or {}
    for name, current in [*vars(obj).items(), *extra.items()]:
        if name.startswith("_"):
            continue
        updated = visit(current, name)
        if updated is not current:
            setattr(obj, name, updated)


# Leaves of a logging payload that hold no text: skipped without a call.
_SCALARS = frozenset({int, float, bool, type(None), bytes, datetime, date, time, timedelta})
_SEQUENCES = (list, tuple)


class Copier:
    """Masked copies of logging values, copy-on-write: what holds no term is shared with the
    original, everything on the way to a change is a new object, and the original is never
    mutated. Cycles (the proxy's call details have some) stay cycles. JSON text (tool
    arguments, a raw provider response) is decoded first, so escapes cannot hide a term. One
    copier serves one payload: objects met twice (a payload shares many) are copied once.

    The walk visits hundreds of values per request, most of them numbers and None: leaves are
    skipped inline, and containers are entered without a call per type check."""

    def __init__(self, mask: Fn) -> None:
        self._mask = mask
        # id -> the copy handed out when a node is met again while it is being copied (a cycle)
        self._open: dict[int, Any] = {}
        self._done: dict[int, Any] = {}

    def reset(self) -> None:
        """After a failed copy: forget the half-copied nodes."""
        self._open.clear()

    def copy(self, value: Any, key: Any) -> Any:
        kind = type(value)
        if kind is str:
            return value if key in LOG_IDENTIFIERS else _mask_text(value, self._mask, key)
        if kind in _SCALARS or key in LOG_IDENTIFIERS:
            return value
        return self._object(value, kind, key)

    def _object(self, value: Any, kind: type, key: Any) -> Any:
        """Any value but a str or a leaf: a container is copied (once per payload)."""
        if (kind is dict or kind is list or kind is tuple) and not value:
            return value  # empty: no text, and no cycle
        ident = id(value)
        done = self._done.get(ident)
        if done is not None:
            return done
        if ident in self._open:
            if self._open[ident] is None:
                self._open[ident] = _empty_like(value)
            return self._open[ident]
        if kind is dict or isinstance(value, dict):
            walk = self._dict
        elif kind is list or kind is tuple or isinstance(value, _SEQUENCES):
            walk = self._sequence
        elif isinstance(value, str):  # a str subclass (litellm has str enums)
            return _mask_text(value, self._mask, key)
        elif hasattr(value, "model_copy"):
            walk = self._model
        else:
            return value  # numbers, streams, coroutines, loggers: not text
        return self._node(value, ident, key, walk)

    def _node(self, value: Any, ident: int, key: Any, walk: Callable[[Any, Any], Any]) -> Any:
        self._open[ident] = None
        result = walk(value, key)
        handed = self._open.pop(ident)
        if handed is not None:  # a cycle points at the copy: fill it
            result = _fill(handed, value, result)
        self._done[ident] = result
        return result

    def _changes(self, items: Iterable[tuple[Any, Any]], fields: bool) -> dict[Any, Any]:
        """The masked copies of the values that change, by name. With `fields` (a model's),
        private names are left alone. Only changed values are collected: most of a logging
        payload holds no text."""
        changed: dict[Any, Any] = {}
        mask = self._mask
        for name, item in items:
            kind = type(item)
            if kind in _SCALARS or name in LOG_IDENTIFIERS or (fields and name[:1] == "_"):
                continue
            if kind is not str:
                new = self._object(item, kind, name)
            elif name in JSON_KEYS or item.startswith(_JSON_STARTS):
                new = _mask_json_text(item, mask)
            else:
                new = mask(item)
            if new is not item:
                changed[name] = new
        return changed

    def _dict(self, value: dict, key: Any = None) -> dict:
        changed = self._changes(value.items(), False)
        if not changed:
            return value
        copied = dict(value)
        copied.update(changed)
        return copied

    def _sequence(self, value: list | tuple, key: Any) -> list | tuple:
        items: list | None = None
        mask = self._mask
        snapshot = value if isinstance(value, tuple) else list(value)  # a list may grow meanwhile
        for index, item in enumerate(snapshot):
            kind = type(item)
            if kind in _SCALARS:
                continue
            new = _mask_text(item, mask, key) if kind is str else self._object(item, kind, key)
            if new is not item:
                if items is None:
                    items = list(snapshot)
                items[index] = new
        if items is None:
            return value
        return items if isinstance(value, list) else tuple(items)

    def _model(self, value: Any, key: Any = None) -> Any:
        """Pydantic models: a shallow copy with the changed fields replaced."""
        extra = getattr(value, "__pydantic_extra__", None) or {}
        updates = self._changes([*vars(value).items(), *extra.items()], True)
        if not updates:
            return value
        copied = value.model_copy()
        for name, new in updates.items():
            setattr(copied, name, new)
        return copied


def _empty_like(value: Any) -> Any:
    if isinstance(value, dict):
        return {}
    if isinstance(value, list):
        return []
    if isinstance(value, tuple):
        return []  # a tuple cannot be filled later: the cycle gets a list
    return value.model_copy()


def _fill(handed: Any, original: Any, result: Any) -> Any:
    """Make the copy a cycle already points at hold the masked result."""
    if isinstance(handed, dict):
        handed.update(result)
    elif isinstance(handed, list):
        handed.extend(result)
    elif result is not original:
        for name in (*vars(result), *(getattr(result, "__pydantic_extra__", None) or {})):
            if name[:1] != "_":
                setattr(handed, name, getattr(result, name))
    return handed


_JSON_STARTS = ("{", "[")


def _mask_text(text: str, mask: Fn, key: Any) -> str:
    if key in JSON_KEYS or text.startswith(_JSON_STARTS):
        return _mask_json_text(text, mask)
    return mask(text)
