"""Callback order: the guardrail re-masks shared failure payloads before loggers read them.

Failure logging has no logging hook: the proxy hands one shared dict to each failure callback in
list order (`async_log_failure_event`, `log_failure_event`), and to each callback's
`async_post_call_failure_hook`. Loggers from `litellm_settings.callbacks` are registered before
guardrails, so they would read the dict first. This moves the guardrail to the front of the
failure callback lists, and in `litellm.callbacks` the plain loggers that came before it to just
after it (guardrails keep their config order, which decides the pre-call order). It runs once,
from the event loop right after the proxy registers the guardrail, before any request.
"""

from __future__ import annotations

from typing import Any

FAILURE_LISTS = ("failure_callback", "_async_failure_callback")


def lead_callbacks(instance: Any) -> None:
    import litellm
    from litellm.integrations.custom_guardrail import CustomGuardrail

    callbacks = litellm.callbacks
    if instance in callbacks:
        position = callbacks.index(instance)
        before = callbacks[:position]
        guardrails = [c for c in before if isinstance(c, CustomGuardrail)]
        plain = [c for c in before if not isinstance(c, CustomGuardrail)]
        callbacks[: position + 1] = [*guardrails, instance, *plain]
    for name in FAILURE_LISTS:
        failure = getattr(litellm, name, None)
        if isinstance(failure, list) and failure[:1] != [instance]:
            if instance in failure:
                failure.remove(instance)
            failure.insert(0, instance)
