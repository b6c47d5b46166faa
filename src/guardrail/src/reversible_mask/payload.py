"""Walk request and response payloads of the three protected routes.

Requests (masking) are walked by key: a string is masked when the nearest enclosing mapping key
is a text key (`content`, `text`, `description`, `arguments`, ...); lists are transparent.
That covers chat `messages` (string and content-part lists), `tools`/`functions` (descriptions,
JSON-schema descriptions and enums), tool-call `arguments`, Anthropic `system` and tool_use
`input`, and Responses `input`/`instructions`, while ids, roles, tool names, model names and
binary parts (image/audio/file data) are never touched.

Responses (unmasking) are walked completely: only valid placeholders change, so every string of
the response object (dicts, lists and pydantic models) is restored in place.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from .engine import Masker

REQUEST_KEYS = ("messages", "system", "tools", "functions", "input", "instructions", "prompt")
TEXT_KEYS = frozenset(
    {
        "content", "text", "description", "arguments", "input", "instructions", "system",
        "prompt", "output", "title", "enum", "examples", "default", "const", "thinking",
        "summary", "refusal", "partial_json", "query", "reasoning_content",
    }
)  # fmt: skip
# Tool arguments (JSON text or objects): every string inside is a user value.
JSON_KEYS = frozenset({"arguments", "partial_json"})

Fn = Callable[[str], str]


def mask_request(data: dict[str, Any], mask: Fn) -> None:
    """Mask in place everything the provider would read in a request body."""
    for key in REQUEST_KEYS:
        if key in data:
            data[key] = _walk(data[key], key, mask)


def _walk(value: Any, key: str, mask: Fn) -> Any:
    if isinstance(value, str):
        if key in JSON_KEYS:
            return _mask_json_text(value, mask)
        return mask(value) if key in TEXT_KEYS else value
    if isinstance(value, list):
        for index, item in enumerate(value):
            value[index] = _walk(item, key, mask)
        return value
    if isinstance(value, dict):
        if key in JSON_KEYS or _is_tool_input(key, value):
            return _mask_all(value, mask)
        for child in list(value):
            value[child] = _walk(value[child], child, mask)
    return value


def _is_tool_input(key: str, value: dict[str, Any]) -> bool:
    """Anthropic tool_use `input` is an object of arguments (Responses `input` is text/items)."""
    return key == "input" and not ({"role", "type", "content"} & set(value))


def _mask_all(value: Any, mask: Fn, *, objects: bool = False) -> Any:
    """Masks every string inside JSON-shaped data; with `objects`, inside object attributes too."""
    if isinstance(value, str):
        return mask(value)
    if isinstance(value, list):
        for index, item in enumerate(value):
            value[index] = _mask_all(item, mask, objects=objects)
    elif isinstance(value, dict):
        for child in list(value):
            value[child] = _mask_all(value[child], mask, objects=objects)
    elif objects and hasattr(value, "__dict__") and not isinstance(value, type):
        _mask_attributes(value, mask)
    return value


def _mask_json_text(text: str, mask: Fn) -> str:
    """Tool arguments are JSON text: mask the decoded values so escapes cannot hide a term."""
    try:
        decoded = json.loads(text)
    except ValueError:
        return mask(text)
    changed = False

    def tracked(value: str) -> str:
        nonlocal changed
        result = mask(value)
        changed = changed or result != value
        return result

    masked = _mask_all(decoded, tracked)
    return json.dumps(masked, ensure_ascii=False) if changed else text


def unmask_object(value: Any, masker: Masker, key: str = "") -> Any:
    """Restore placeholders in place in dicts, lists and pydantic models; returns the value."""
    if isinstance(value, str):
        return masker.unmask(value, json_string=key in JSON_KEYS) if "[[" in value else value
    if isinstance(value, list):
        for index, item in enumerate(value):
            value[index] = unmask_object(item, masker, key)
    elif isinstance(value, dict):
        for child in list(value):
            value[child] = unmask_object(value[child], masker, str(child))
    elif hasattr(value, "__dict__") and not isinstance(value, type):
        _unmask_attributes(value, masker)
    return value


def _unmask_attributes(obj: Any, masker: Masker) -> None:
    _visit_fields(obj, lambda value, name: unmask_object(value, masker, name))


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


def mask_copy(value: Any, mask: Fn) -> Any:
    """A masked deep copy of a logging value; the original object is left untouched."""
    if isinstance(value, str):
        return mask(value)
    if isinstance(value, (list, tuple)):
        return [mask_copy(item, mask) for item in value]
    if isinstance(value, dict):
        return {key: mask_copy(item, mask) for key, item in value.items()}
    if callable(getattr(value, "model_copy", None)):
        return _mask_all(value.model_copy(deep=True), mask, objects=True)
    return value  # streams, coroutines and other non-data objects are not log content


def _mask_attributes(obj: Any, mask: Fn) -> None:
    _visit_fields(obj, lambda value, _name: _mask_all(value, mask, objects=True))
