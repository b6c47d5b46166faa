"""Which scope a request asked for: `guard_scope` in the route's metadata or `x-guard-scope`.

Metadata locations: `metadata.requester_metadata` and `metadata` (chat completions and other
routes), `litellm_metadata` (+ its `requester_metadata`; /v1/messages, /v1/responses, batches,
files) and `proxy_metadata` (the spec's name). Headers come from the metadata's `headers` or
`proxy_server_request.headers` (lower-cased by the proxy). Two different values are an error.
"""

from __future__ import annotations

from typing import Any

from .errors import ScopeError

METADATA_KEYS = ("metadata", "litellm_metadata", "proxy_metadata")
HEADER = "x-guard-scope"
FIELD = "guard_scope"


def requested_scope(data: dict[str, Any]) -> str | None:
    found = {value for value in _candidates(data) if value is not None}
    if len(found) > 1:
        raise ScopeError(f"conflicting guard scopes requested: {sorted(found)}")
    if not found:
        return None
    value = found.pop()
    if not isinstance(value, str) or not value.strip():
        raise ScopeError("guard_scope must be a non-empty string")
    return value.strip()


def _candidates(data: dict[str, Any]) -> list[Any]:
    values: list[Any] = []
    for key in METADATA_KEYS:
        metadata = data.get(key)
        if not isinstance(metadata, dict):
            continue
        values.append(metadata.get(FIELD))
        requester = metadata.get("requester_metadata")
        if isinstance(requester, dict):
            values.append(requester.get(FIELD))
        values.append(_header(metadata.get("headers")))
    request = data.get("proxy_server_request")
    if isinstance(request, dict):
        values.append(_header(request.get("headers")))
    return values


def _header(headers: Any) -> Any:
    if not isinstance(headers, dict):
        return None
    for name, value in headers.items():
        if isinstance(name, str) and name.lower() == HEADER:
            return value
    return None
