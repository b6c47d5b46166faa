"""What loggers and the spend log read, re-masked: the logging hook's call details, failure
payloads rewritten in place, and the copies of a request the proxy keeps for its logs. Pure
(no LiteLLM); each field fails open, as the spec asks."""

from __future__ import annotations

import copy
import logging
from collections.abc import Callable, Collection
from typing import Any

from .log_copier import Copier

log = logging.getLogger("reversible_mask")
Fn = Callable[[str], str]


def fail_open(name: Any, value: Any, copier: Copier) -> Any:
    """A masked copy of one field; the field as it was (with a warning) if masking raised."""
    try:
        return copier.copy(value, str(name))
    except Exception:  # noqa: BLE001 - the spec's fail-open rule: never break the call
        copier.reset()
        log.warning("reversible_mask: could not re-mask logging field %s", name, exc_info=True)
        return value


def masked_call_details(kwargs: dict, mask: Fn, copier: Copier) -> RemaskingDict:
    """Masked copies of every field. Pass the copier of the whole payload: objects the fields
    (and the response object) share are copied once. All fields in one pass; field by field,
    each failing open on its own, only if that pass raised."""
    try:
        fields = copier.copy_fields(kwargs)
    except Exception:  # noqa: BLE001 - see fail_open
        copier.reset()
        fields = {key: fail_open(key, value, copier) for key, value in kwargs.items()}
    return RemaskingDict(mask, fields)


def remask_in_place(data: Any, mask: Fn) -> None:
    """Failure callbacks share one dict: replace each of its fields by a masked copy."""
    if not isinstance(data, dict):
        return
    copier = Copier(mask)
    for key in list(data):
        data[key] = fail_open(key, data[key], copier)


def mask_kept_request(data: dict, skip: Collection[str], mask: Fn) -> None:
    """The proxy keeps a shallow copy of the raw body (`proxy_server_request.body`) and a
    deep copy of the client's metadata (`requester_metadata`) for logs, including failure
    logs built before any logging hook: point them at masked values. `data` is the request,
    already masked in place except its `skip` keys."""
    copier = Copier(mask)
    request = data.get("proxy_server_request")
    body = request.get("body") if isinstance(request, dict) else None
    if isinstance(body, dict):
        for key in list(body):
            if key in data and key not in skip:
                body[key] = data[key]  # masked in place already
            elif body[key] is not data.get(key):  # the proxy's own objects: logged later
                body[key] = copier.copy(body[key], str(key))
    for key in ("metadata", "litellm_metadata"):
        metadata = data.get(key)
        if isinstance(metadata, dict) and "requester_metadata" in metadata:
            requester = metadata["requester_metadata"]
            metadata["requester_metadata"] = copier.copy(requester, "requester_metadata")


class RemaskingDict(dict):
    """The call details handed back by the logging hook. The proxy may still write into them
    afterwards: 1.80.x finishes a stream with a sync success handler in a worker thread, which
    stores a freshly built (unmasked) standard logging payload into the same dict while the
    async loggers read it. Every value written in, now or later, is stored as a masked copy."""

    def __init__(self, mask: Fn, masked: dict) -> None:
        super().__init__(masked)  # already masked
        self._mask = mask

    def __setitem__(self, key: Any, value: Any) -> None:
        super().__setitem__(key, fail_open(key, value, Copier(self._mask)))

    def update(self, *args: Any, **kwargs: Any) -> None:
        for key, value in dict(*args, **kwargs).items():
            self[key] = value

    def setdefault(self, key: Any, default: Any = None) -> Any:
        if key not in self:
            self[key] = default
        return self[key]

    def __copy__(self) -> dict:  # a plain dict: its values are masked already
        return dict(self)

    def __deepcopy__(self, memo: dict) -> dict:
        return copy.deepcopy(dict(self), memo)

    def __reduce__(self) -> tuple:
        return dict, (dict(self),)
