"""Masked copies of logging payloads: every string of a logging payload is masked, except a few
identifiers the proxy's own bookkeeping reads after the hook (call ids, model names, key
hashes). The original payload is never changed."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date, datetime, time, timedelta
from typing import Any

from .inflight import TICKET_KEY
from .memo import MIN_CHARS
from .payload import JSON_KEYS, JSON_STARTS, Fn, mask_json_text, mask_text

# Left as they are in log copies: identifiers the proxy's spend and logging code reads after
# the hook (not `id`: a client can write one, e.g. a tool call's, and a provider's never holds a
# term, so masking leaves it as it is), and blocks built only from the proxy's configuration
# (the model cost map entry, the deployment's model info, cost arithmetic, per-callback
# credentials). Not key settings: the
# key's auth object carries the client's end-user id, which is request text.
LOG_IDENTIFIERS = frozenset(
    {
        "litellm_call_id", "litellm_trace_id", "call_type", "model", "model_id",
        "model_group", "custom_llm_provider", "api_base", "user_api_key", "user_api_key_hash",
        "hashed_api_key", "api_key", "response_cost", "litellm_logging_obj",
        "model_map_information", "model_info", "cost_breakdown",
        "standard_callback_dynamic_params",
    }
)  # fmt: skip


TICKET_IN_LOGS = "(reversible_mask ticket)"

# Leaves of a logging payload that hold no text: skipped without a call.
_SCALARS = frozenset({int, float, bool, type(None), bytes, datetime, date, time, timedelta})
_SEQUENCES = (list, tuple)
_OPEN = object()  # a node being copied
# Names whose values are left as they are, and the ticket (replaced): one lookup for both.
_NAMED = LOG_IDENTIFIERS | {TICKET_KEY}
_JSON_FIRST = frozenset(JSON_STARTS)
_EMPTIABLE = frozenset({str, dict, list, tuple})


class Copier:
    """Masked copies of logging values, copy-on-write: what holds no term is shared with the
    original, everything on the way to a change is a new object, and the original is never
    mutated. Cycles (the proxy's call details have some) stay cycles. JSON text (tool
    arguments, a raw provider response) is decoded first, so escapes cannot hide a term. One
    copier serves one payload: objects met twice (a payload shares many) are copied once.

    The walk visits hundreds of values per request, most of them numbers and None: leaves are
    skipped inline, strings are masked inline, and a container costs one call besides its
    loop."""

    def __init__(self, mask: Fn) -> None:
        self._mask = mask
        # What a memoised mask (`Masker.log_mask`) answers from: read here, without a call.
        known = getattr(mask, "known", None)
        self._known: dict[str, str] = known if known is not None else {}
        self._shortest: int = getattr(mask, "shortest", 0)
        # id -> its copy, or _OPEN while it is being copied
        self._seen: dict[int, Any] = {}
        # id of a node being copied -> the copy handed out when a cycle met it again
        self._cycles: dict[int, Any] = {}

    def reset(self) -> None:
        """After a failed copy: forget the half-copied nodes."""
        self._seen = {ident: done for ident, done in self._seen.items() if done is not _OPEN}
        self._cycles.clear()

    def copy(self, value: Any, key: Any) -> Any:
        kind = type(value)
        if kind is str:
            return value if key in LOG_IDENTIFIERS else mask_text(value, self._mask, key)
        if kind in _SCALARS or key in LOG_IDENTIFIERS:
            return value
        return self._object(value, kind, key)

    def copy_fields(self, fields: dict) -> dict:
        """A new dict of the masked copies of every field (the top level of call details)."""
        copied = dict(fields)
        copied.update(self._changes(fields.items(), False))
        return copied

    def _object(self, value: Any, kind: type, key: Any) -> Any:
        """Any value but a str or a leaf: a container is copied (once per payload)."""
        if (kind is dict or kind is list or kind is tuple) and not value:
            return value  # empty: no text, and no cycle
        ident = id(value)
        seen = self._seen.get(ident)
        if seen is not None:
            return self._handed(ident, value) if seen is _OPEN else seen
        if kind is dict or isinstance(value, dict):
            walk = self._dict
        elif kind is list or kind is tuple or isinstance(value, _SEQUENCES):
            walk = self._sequence
        elif isinstance(value, str):  # a str subclass (litellm has str enums)
            return mask_text(value, self._mask, key)
        elif hasattr(value, "model_copy"):
            walk = self._model
        else:
            return value  # numbers, streams, coroutines, loggers: not text
        self._seen[ident] = _OPEN
        result = walk(value, key)
        if self._cycles and ident in self._cycles:  # a cycle points at the copy: fill it
            result = _fill(self._cycles.pop(ident), value, result)
        self._seen[ident] = result
        return result

    def _handed(self, ident: int, value: Any) -> Any:
        """A node met again while it is being copied (a cycle): an empty copy, filled later."""
        handed = self._cycles.get(ident)
        if handed is None:
            handed = self._cycles[ident] = _empty_like(value)
        return handed

    def _changes(self, items: Iterable[tuple[Any, Any]], fields: bool) -> dict[Any, Any]:
        """The masked copies of the values that change, by name. With `fields` (a model's),
        private names are left alone. Only changed values are collected: most of a logging
        payload holds no text."""
        changed: dict[Any, Any] = {}
        mask, known, shortest = self._mask, self._known, self._shortest
        for name, item in items:
            kind = type(item)
            if kind in _SCALARS:
                continue
            if name in _NAMED:
                if name == TICKET_KEY:  # a live ticket in a log could claim a request's registry
                    changed[name] = TICKET_IN_LOGS
                continue
            if (fields and name[:1] == "_") or (kind in _EMPTIABLE and not item):
                continue  # a private field, or an empty text or container: nothing to mask
            if kind is not str:
                new = self._object(item, kind, name)
            elif item[:1] in _JSON_FIRST or name in JSON_KEYS:
                new = mask_json_text(item, mask)
            elif len(item) < shortest and item.isascii():
                continue  # no term fits
            elif len(item) < MIN_CHARS and (found := known.get(item)) is not None:
                if found:
                    changed[name] = found
                continue
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
            new = mask_text(item, mask, key) if kind is str else self._object(item, kind, key)
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
