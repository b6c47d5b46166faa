"""Which scope a request asked for: `guard_scope` in the route's metadata or `x-guard-scope`.

Metadata locations: `metadata.requester_metadata` and `metadata` (chat completions and other
routes), `litellm_metadata` (+ its `requester_metadata`; /v1/messages, /v1/responses, batches,
files) and `proxy_metadata` (the spec's name). Headers come from the metadata's `headers` or
`proxy_server_request.headers` (lower-cased by the proxy). Two different values are an error.

An operator binds a scope to a virtual key, team or organization with `guard_scope` in its
metadata; a caller may then only ask for a scope that masks at least the same categories.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .errors import ScopeError, ScopeForbiddenError
from .inflight import proxy_metadata

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


def _metadata(data: dict[str, Any]) -> list[dict[str, Any]]:
    """The request's metadata dicts, in METADATA_KEYS order."""
    found = (data.get(key) for key in METADATA_KEYS)
    return [metadata for metadata in found if isinstance(metadata, dict)]


def _candidates(data: dict[str, Any]) -> list[Any]:
    values: list[Any] = []
    for metadata in _metadata(data):
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


OPERATOR_FIELDS = ("metadata", "team_metadata", "organization_metadata")


def operator_scopes(user_api_key_dict: Any) -> list[tuple[str, str]]:
    """The scopes an operator bound to the caller's virtual key, team or organization
    (`guard_scope` in their metadata), as (where, scope) pairs."""
    bound = []
    for field in OPERATOR_FIELDS:
        metadata = getattr(user_api_key_dict, field, None)
        value = metadata.get(FIELD) if isinstance(metadata, dict) else None
        if value is not None:
            bound.append((field.replace("metadata", "").strip("_") or "key", str(value).strip()))
    return bound


def effective_scope(
    requested: str | None,
    bound: list[tuple[str, str]],
    categories_for: Callable[[str | None], frozenset[str]],
) -> str | None:
    """The scope a request runs under: the caller's choice may narrow the operator's binding
    (mask more), never widen it (mask less); without a choice, the bound scope that covers every
    binding. Raises ScopeForbiddenError (or ScopeError for an undefined scope)."""
    if not bound:
        return requested
    required = frozenset().union(*(categories_for(scope) for _, scope in bound))
    if requested is not None:
        if not categories_for(requested) >= required:
            raise ScopeForbiddenError(_forbidden(requested, bound))
        return requested
    for _, scope in bound:
        if categories_for(scope) >= required:
            return scope
    raise ScopeForbiddenError(
        f"the guard scopes bound to this caller ({_where(bound)}) do not nest; the operator must "
        "bind scopes one of which masks everything the others do"
    )


def _where(bound: list[tuple[str, str]]) -> str:
    return ", ".join(f"{where}: {scope!r}" for where, scope in bound)


def _forbidden(requested: str, bound: list[tuple[str, str]]) -> str:
    return (
        f"guard scope {requested!r} masks less than the scope this caller is bound to "
        f"({_where(bound)}); ask for that scope or one that masks more, or leave the scope out"
    )


# The scope a request was masked under, kept in its proxy metadata for the logging hooks: with
# key_per_scope its log copies must use the same key domain as the provider's copy, and an
# operator-bound scope is not in the request itself.
MASKED_UNDER = "reversible_mask_scope"


def remember_scope(data: dict[str, Any], scope: str | None) -> None:
    """Any value a client put there is replaced (or removed when the default scope applies)."""
    for bucket in _metadata(data):
        bucket.pop(MASKED_UNDER, None)
    if scope is None:
        return
    bucket = proxy_metadata(data, create=True)
    if bucket is not None:
        bucket[MASKED_UNDER] = scope


def remembered_scope(data: dict[str, Any]) -> str | None:
    for bucket in _metadata(data):
        if isinstance(bucket.get(MASKED_UNDER), str):
            return bucket[MASKED_UNDER]
    return None
