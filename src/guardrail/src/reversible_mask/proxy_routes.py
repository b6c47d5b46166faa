"""Puts the route guard (route_guard.py) in front of the running proxy's ASGI app, with the
proxy's own route table: its model-route check, its pass-through prefixes and the route
templates its router matches. The one place that knows how LiteLLM's app is built."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from .route_guard import RouteGuard, Scope
from .routes import RoutePolicy

CACHE_ENTRIES = 4096


def install_route_guard(
    mode: str,
    mask_body: Callable[[dict[str, Any], Scope], None],
    refused: Callable[[str], None] = lambda code: None,
) -> bool:
    """False when no proxy app is running in this process (a script, a unit test). `refused` is
    told the code of every refusal (the metrics)."""
    try:
        from litellm.proxy.auth.route_checks import RouteChecks
        from litellm.proxy.proxy_server import app
    except Exception:  # noqa: BLE001 - LiteLLM without its proxy extra
        return False
    policy = RoutePolicy(RouteChecks.is_llm_api_route, pass_through_prefixes(), mode)
    resolve = template_resolver(app)
    stack = getattr(app, "middleware_stack", None)
    if isinstance(stack, RouteGuard):  # a second guardrail instance: the newest settings win
        stack.policy, stack.resolve, stack.mask_body = policy, resolve, mask_body
        stack.refused = refused
    elif stack is not None:  # built already (guardrails load during start-up): wrap it
        app.middleware_stack = RouteGuard(stack, policy, resolve, mask_body, refused)
    else:
        build = app.build_middleware_stack
        guard = (policy, resolve, mask_body, refused)
        app.build_middleware_stack = lambda: RouteGuard(build(), *guard)
    return True


def pass_through_prefixes() -> list[str]:
    from litellm.proxy._types import LiteLLMRoutes

    mapped = getattr(LiteLLMRoutes, "mapped_pass_through_routes", None)
    prefixes = list(mapped.value) if mapped is not None else []
    try:
        from litellm.proxy.proxy_server import general_settings

        configured = general_settings.get("pass_through_endpoints") or []
    except Exception:  # noqa: BLE001 - no loaded config
        configured = []
    prefixes += [e["path"] for e in configured if isinstance(e, dict) and e.get("path")]
    return prefixes


def template_resolver(app: Any) -> Callable[[Scope], str | None]:
    """The template of the route the proxy's router would pick for a request, memoised."""
    cache: OrderedDict[tuple[str, str, str], str | None] = OrderedDict()

    def resolve(scope: Scope) -> str | None:
        key = (str(scope.get("type")), str(scope.get("method", "")), str(scope.get("path")))
        if key not in cache:
            cache[key] = _template(app, scope)
            if len(cache) > CACHE_ENTRIES:
                cache.popitem(last=False)
        return cache[key]

    return resolve


def _template(app: Any, scope: Scope) -> str | None:
    from starlette.routing import Match

    partial = None
    for route in app.router.routes:
        try:
            match, _ = route.matches(scope)
        except Exception:  # noqa: BLE001, S112 - a route type that cannot judge this scope
            continue
        if match == Match.FULL:
            return getattr(route, "path", None)
        if match == Match.PARTIAL and partial is None:
            partial = getattr(route, "path", None)
    return partial
