"""The route policy and the ASGI guard in front of the proxy, without a proxy."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reversible_mask.errors import UnmaskableFieldError
from reversible_mask.route_guard import MAX_BODY_BYTES, RouteGuard
from reversible_mask.routes import COUNTED, HOOKED, Decision, RoutePolicy

MODEL_ROUTES = ("/v1/", "/openai/", "/anthropic/", "/a2a/", "/mcp")


def is_model_route(path: str) -> bool:
    return path.startswith(MODEL_ROUTES)


POLICY = RoutePolicy(is_model_route, ["/openai", "/anthropic", "/my-llm/"])


@pytest.mark.parametrize("template", sorted(HOOKED))
def test_hooked_templates_are_forwarded(template: str) -> None:
    assert POLICY.decide("POST", template.replace("{model}", "m"), template) is Decision.FORWARD


@pytest.mark.parametrize("template", sorted(COUNTED))
def test_token_counting_is_masked(template: str) -> None:
    assert POLICY.decide("POST", template, template) is Decision.MASK


def test_a_hooked_looking_path_served_by_a_pass_through_is_refused() -> None:
    """The decision follows the template the proxy's router picked, not the path's look."""
    path = "/openai/v1/chat/completions"
    assert POLICY.decide("POST", path, "/openai/{endpoint}") is Decision.REFUSE
    assert POLICY.decide("POST", "/v1/chat/completions", "/v1/chat/completions") is Decision.FORWARD


def test_configured_pass_through_prefixes_and_unknown_model_routes_are_refused() -> None:
    assert POLICY.decide("POST", "/my-llm/generate", None) is Decision.REFUSE
    assert POLICY.decide("PUT", "/v1/threads/t1/messages", "/v1/threads/{id}/messages") is (
        Decision.REFUSE
    )
    assert POLICY.decide("WEBSOCKET", "/v1/realtime", "/v1/realtime") is Decision.REFUSE


def test_a_management_route_that_calls_a_model_is_refused() -> None:
    """/usage/ai/chat is no model route to the proxy, yet sends its messages to one."""
    assert not is_model_route("/usage/ai/chat")
    assert POLICY.decide("POST", "/usage/ai/chat", "/usage/ai/chat") is Decision.REFUSE


def test_mask_mode_masks_unguarded_routes_and_management_routes_pass() -> None:
    masking = RoutePolicy(is_model_route, ["/openai"], mode="mask")
    assert masking.decide("POST", "/openai/x", "/openai/{endpoint}") is Decision.MASK
    assert POLICY.decide("POST", "/key/generate", "/key/generate") is Decision.FORWARD
    assert POLICY.decide("GET", "/openai/v1/models", "/openai/{endpoint}") is Decision.FORWARD
    with pytest.raises(ValueError):
        RoutePolicy(is_model_route, mode="allow")


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="/abcv1_-{}.:", max_size=40), st.sampled_from(["POST", "PATCH", "PUT"]))
def test_no_model_route_outside_the_hooked_list_is_forwarded(path: str, method: str) -> None:
    decision = POLICY.decide(method, "/" + path, None)
    if POLICY._reaches_a_model("/" + path.strip("/")):  # noqa: SLF001
        assert decision is not Decision.FORWARD or "/" + path.strip("/") in HOOKED


class App:
    """Records what reached the app behind the guard."""

    def __init__(self) -> None:
        self.scopes: list[dict] = []
        self.bodies: list[bytes] = []

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        self.scopes.append(scope)
        message = await receive()
        self.bodies.append(message.get("body", b""))
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"ok"})


def mask_body(body: dict, scope: dict) -> None:
    if body.get("name") == "Globex":
        raise UnmaskableFieldError("name")
    body["input"] = body["input"].replace("Globex", "[[CLIENTS_x]]")


def call(path: str, body: bytes, template: str | None = None) -> tuple[App, list[dict]]:
    app, sent = App(), []
    guard = RouteGuard(app, POLICY, lambda scope: template or path, mask_body)
    chunks = [body[i : i + 7] for i in range(0, len(body), 7)] or [b""]
    messages = [
        {"type": "http.request", "body": c, "more_body": i < len(chunks) - 1}
        for i, c in enumerate(chunks)
    ]

    async def receive() -> dict:
        return messages.pop(0) if messages else {"type": "http.disconnect"}

    async def send(message: dict) -> None:
        sent.append(message)

    scope = {"type": "http", "method": "POST", "path": path, "headers": [(b"content-length", b"9")]}
    asyncio.run(guard(scope, receive, send))
    return app, sent


def test_a_counted_body_is_masked_with_its_length_adjusted() -> None:
    app, _ = call("/v1/messages/count_tokens", json.dumps({"input": "ask Globex"}).encode())
    body = app.bodies[0]
    assert json.loads(body) == {"input": "ask [[CLIENTS_x]]"}
    assert dict(app.scopes[0]["headers"])[b"content-length"] == str(len(body)).encode()


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        (b"not json", 415, "body_not_json"),
        (b"[1, 2]", 415, "body_not_json"),
        (json.dumps({"name": "Globex", "input": ""}).encode(), 400, "field_not_maskable"),
    ],
)
def test_bad_counted_bodies_get_a_typed_refusal(body: bytes, status: int, code: str) -> None:
    app, sent = call("/v1/messages/count_tokens", body)
    assert app.scopes == []
    assert sent[0]["status"] == status
    assert json.loads(sent[1]["body"])["error"]["code"] == code


def test_a_refused_route_reaches_nothing() -> None:
    app, sent = call("/openai/v1/chat/completions", b"{}", "/openai/{endpoint}")
    assert app.scopes == [] and sent[0]["status"] == 403
    error = json.loads(sent[1]["body"])["error"]
    assert error["type"] == "reversible_mask_refused" and "unguarded_routes" in error["message"]


def test_an_oversized_body_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("reversible_mask.route_guard.MAX_BODY_BYTES", 10)
    app, sent = call("/v1/messages/count_tokens", b'{"input": "0123456789"}')
    assert app.scopes == [] and sent[0]["status"] == 413
    assert MAX_BODY_BYTES > 10


def test_refusals_are_reported_by_code() -> None:
    codes: list[str] = []
    app, sent = App(), []
    guard = RouteGuard(app, POLICY, lambda scope: None, mask_body, codes.append)

    async def receive() -> dict:
        return {"type": "http.request", "body": b"{}", "more_body": False}

    async def send(message: dict) -> None:
        sent.append(message)

    scope = {"type": "http", "method": "POST", "path": "/openai/v1/chat/completions", "headers": []}
    asyncio.run(guard(scope, receive, send))
    assert codes == ["route_not_guarded"] and app.scopes == [] and sent[0]["status"] == 403
