"""An ASGI wrapper in front of the proxy's app that applies the route policy (routes.py) to
every request before any route, dependency or hook of the proxy sees it.

A refused request gets a typed error in the OpenAI error envelope and reaches nothing; a
masked one has its JSON body rewritten (Content-Length adjusted) and is then passed on."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from typing import Any

from .errors import GuardError
from .inflight import request_scope
from .routes import Decision, RoutePolicy

Scope = dict[str, Any]
Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]
App = Callable[[Scope, Receive, Send], Awaitable[None]]

MAX_BODY_BYTES = 64 * 1024 * 1024
POLICY_VIOLATION = 1008  # WebSocket close code

# code -> (HTTP status, message); the one table of this wrapper's refusals
REFUSALS = {
    "route_not_guarded": (
        403,
        "reversible_mask: {path} sends text to a model provider without the guardrail's hooks, "
        "so it is refused (a dictionary term would reach the provider); use /v1/chat/completions, "
        "/v1/messages or /v1/responses, or ask the operator to set unguarded_routes: mask",
    ),
    "body_not_json": (
        415,
        "reversible_mask: {path} is masked as text and takes a JSON object body; send "
        "application/json",
    ),
    "body_too_large": (413, "reversible_mask: the body sent to {path} exceeds 64 MiB"),
    "field_not_maskable": (400, "reversible_mask: {path}: {detail}"),
}


class RouteGuard:
    def __init__(
        self,
        app: App,
        policy: RoutePolicy,
        resolve: Callable[[Scope], str | None],
        mask_body: Callable[[dict[str, Any], Scope], None],
        refused: Callable[[str], None] = lambda code: None,
    ) -> None:
        self.app, self.policy, self.resolve, self.mask_body = app, policy, resolve, mask_body
        self.refused = refused

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope.get("type")
        if kind not in ("http", "websocket"):
            return await self.app(scope, receive, send)
        method = "WEBSOCKET" if kind == "websocket" else str(scope.get("method", "GET"))
        path = _route_path(scope)
        decision = self.policy.decide(method, path, self.resolve(scope))
        if decision is Decision.REFUSE:
            return await self._refuse(scope, send, "route_not_guarded", path)
        with request_scope():  # registries the request's hooks did not close, closed at its end
            if decision is Decision.FORWARD:
                return await self.app(scope, receive, send)
            return await self._masked(scope, receive, send, path)

    async def _masked(self, scope: Scope, receive: Receive, send: Send, path: str) -> None:
        raw = await _read_body(receive)
        if raw is None:
            return await self._refuse(scope, send, "body_too_large", path)
        try:
            document = json.loads(raw or b"null")
        except ValueError:
            document = None
        if not isinstance(document, dict):
            return await self._refuse(scope, send, "body_not_json", path)
        try:
            self.mask_body(document, scope)
        except GuardError as error:
            return await self._refuse(scope, send, "field_not_maskable", path, str(error))
        body = json.dumps(document, ensure_ascii=False).encode("utf-8")
        await self.app(_with_length(scope, len(body)), _replay(body, receive), send)

    async def _refuse(
        self, scope: Scope, send: Send, code: str, path: str, detail: str = ""
    ) -> None:
        self.refused(code)
        await _answer_refusal(scope, send, code, path, detail)


def _route_path(scope: Scope) -> str:
    path, root = str(scope.get("path", "/")), str(scope.get("root_path", ""))
    return path[len(root) :] if root and path.startswith(root) else path


async def _read_body(receive: Receive) -> bytes | None:
    parts, size = [], 0
    while True:
        message = await receive()
        if message["type"] != "http.request":
            return b"".join(parts)  # the client went away: what came is all there is
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > MAX_BODY_BYTES:
            return None
        parts.append(chunk)
        if not message.get("more_body", False):
            return b"".join(parts)


def _with_length(scope: Scope, length: int) -> Scope:
    headers = [(k, v) for k, v in scope.get("headers", []) if k.lower() != b"content-length"]
    headers.append((b"content-length", str(length).encode("ascii")))
    return {**scope, "headers": headers}


def _replay(body: bytes, receive: Receive) -> Receive:
    sent = False

    async def replayed() -> dict[str, Any]:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()  # later calls wait for the client's disconnect

    return replayed


async def _answer_refusal(scope: Scope, send: Send, code: str, path: str, detail: str = "") -> None:
    status, template = REFUSALS[code]
    message = template.format(path=path, detail=detail)
    if scope.get("type") == "websocket":
        await send({"type": "websocket.close", "code": POLICY_VIOLATION, "reason": message[:120]})
        return
    body = json.dumps(
        {"error": {"message": message, "type": "reversible_mask_refused", "code": code}}
    ).encode("utf-8")
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
