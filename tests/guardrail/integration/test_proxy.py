"""The example config inside a real proxy: masking, restoring, streaming, scopes, embeddings,
and logging, against a fake upstream that records every byte it receives."""

from __future__ import annotations

import json
import time

import pytest

from conftest import start_proxy
from fake_upstream import FakeUpstream
from helpers import (
    ANTHROPIC_TOOLS,
    CHAT_TOOLS,
    PERSON,
    TEXT,
    TOOL_HISTORY,
    assert_clean,
    chat,
    messages,
    responses,
    sse_data,
)
from proxy import Proxy, example_config

ECHO = "ECHO: " + TEXT


@pytest.fixture(scope="module")
def proxy(request: pytest.FixtureRequest, version: str, upstream: FakeUpstream) -> Proxy:
    config = example_config()
    config["litellm_settings"]["callbacks"] = ["capture.capture_instance"]
    config["general_settings"]["store_prompts_in_spend_logs"] = True
    return start_proxy(request, version, config, upstream, "example")


@pytest.fixture(autouse=True)
def fresh(upstream: FakeUpstream) -> None:
    upstream.recorder.clear()


def ok(reply: tuple[int, bytes]) -> bytes:
    status, body = reply
    assert status == 200, body[:2000]
    return body


def test_chat_masks_request_and_restores_response(proxy: Proxy, upstream: FakeUpstream) -> None:
    body = json.loads(ok(proxy.post("/v1/chat/completions", chat(TEXT))))
    assert body["choices"][0]["message"]["content"] == ECHO
    sent = upstream.recorder.all_bytes()
    assert_clean(sent)
    assert b"[[CLIENTS_" in sent and b"[[PROJECTS_" in sent


def test_chat_content_parts_tools_and_tool_history(proxy: Proxy, upstream: FakeUpstream) -> None:
    request = chat([{"type": "text", "text": TEXT}], tools=CHAT_TOOLS)
    request["messages"][1:1] = TOOL_HISTORY
    body = json.loads(ok(proxy.post("/v1/chat/completions", request)))
    call = body["choices"][0]["message"]["tool_calls"][0]
    assert call["function"]["name"] == "lookup_client"
    assert json.loads(call["function"]["arguments"]) == {"echo": ECHO}
    sent = upstream.recorder.bodies("/chat/completions")[0]
    assert_clean(json.dumps(sent, ensure_ascii=False))
    assert sent["tools"][0]["function"]["name"] == "lookup_client"


def test_chat_stream_restores_placeholders_split_across_chunks(
    proxy: Proxy, upstream: FakeUpstream
) -> None:
    raw = ok(proxy.post("/v1/chat/completions", chat(TEXT, stream=True)))
    chunks = sse_data(raw)
    text = "".join(c["choices"][0]["delta"].get("content") or "" for c in chunks if c["choices"])
    assert text == ECHO
    assert b"[[" not in raw
    assert len(chunks) > 10
    assert_clean(upstream.recorder.all_bytes())


def test_chat_stream_tool_arguments(proxy: Proxy, upstream: FakeUpstream) -> None:
    raw = ok(proxy.post("/v1/chat/completions", chat(TEXT, stream=True, tools=CHAT_TOOLS)))
    arguments = ""
    for chunk in sse_data(raw):
        for choice in chunk["choices"]:
            for call in choice["delta"].get("tool_calls") or []:
                arguments += call["function"].get("arguments") or ""
    assert json.loads(arguments) == {"echo": ECHO}
    assert_clean(upstream.recorder.all_bytes())


def test_messages_json_with_tools(proxy: Proxy, upstream: FakeUpstream) -> None:
    body = json.loads(ok(proxy.post("/v1/messages", messages(TEXT, tools=ANTHROPIC_TOOLS))))
    texts = [b["text"] for b in body["content"] if b["type"] == "text"]
    inputs = [b["input"] for b in body["content"] if b["type"] == "tool_use"]
    assert texts == [ECHO] and inputs == [{"echo": ECHO}]
    assert_clean(upstream.recorder.all_bytes())
    assert upstream.recorder.bodies("/messages")


def test_messages_stream_reframes_sse(proxy: Proxy, upstream: FakeUpstream) -> None:
    raw = ok(proxy.post("/v1/messages", messages(TEXT, stream=True, tools=ANTHROPIC_TOOLS)))
    events = sse_data(raw)
    deltas = [e["delta"] for e in events if e.get("type") == "content_block_delta"]
    text = "".join(d.get("text", "") for d in deltas if d["type"] == "text_delta")
    partial = "".join(d["partial_json"] for d in deltas if d["type"] == "input_json_delta")
    assert text == ECHO
    assert json.loads(partial) == {"echo": ECHO}
    assert b"[[" not in raw
    assert_clean(upstream.recorder.all_bytes())


def test_responses_json(proxy: Proxy, upstream: FakeUpstream) -> None:
    body = json.loads(ok(proxy.post("/v1/responses", responses(TEXT))))
    assert body["output"][0]["content"][0]["text"] == ECHO
    sent = upstream.recorder.all_bytes()
    assert_clean(sent)
    assert b"[[CLIENTS_" in sent


def test_responses_stream(proxy: Proxy, upstream: FakeUpstream) -> None:
    raw = ok(proxy.post("/v1/responses", responses(TEXT, stream=True)))
    events = sse_data(raw)
    deltas = [e["delta"] for e in events if e["type"] == "response.output_text.delta"]
    done = [e["text"] for e in events if e["type"] == "response.output_text.done"]
    completed = [e["response"] for e in events if e["type"] == "response.completed"]
    assert "".join(deltas) == ECHO and done == [ECHO]
    assert completed[0]["output"][0]["content"][0]["text"] == ECHO
    assert b"[[" not in raw
    assert_clean(upstream.recorder.all_bytes())


def test_default_scope_leaves_people_unmasked(proxy: Proxy, upstream: FakeUpstream) -> None:
    ok(proxy.post("/v1/chat/completions", chat(f"{PERSON} works at Globex")))
    sent = upstream.recorder.all_bytes().decode()
    assert PERSON in sent and "Globex" not in sent


STRICT = {"guard_scope": "strict"}
HEADER = {"x-guard-scope": "strict"}
SAMPLE = f"{PERSON} at Globex"


@pytest.mark.parametrize(
    ("path", "body", "headers"),
    [
        ("/v1/chat/completions", chat(SAMPLE), HEADER),
        ("/v1/chat/completions", chat(SAMPLE, metadata=STRICT), {}),
        ("/v1/messages", messages(SAMPLE), HEADER),
        ("/v1/messages", messages(SAMPLE, litellm_metadata=STRICT), {}),
        ("/v1/responses", responses(SAMPLE), HEADER),
        ("/v1/responses", responses(SAMPLE, litellm_metadata=STRICT), {}),
    ],
    ids=[
        "chat-header",
        "chat-metadata",
        "messages-header",
        "messages-meta",
        "responses-header",
        "responses-meta",
    ],
)
def test_strict_scope_masks_people(
    proxy: Proxy, upstream: FakeUpstream, path: str, body: dict, headers: dict
) -> None:
    reply = ok(proxy.post(path, body, headers))
    assert PERSON in reply.decode()
    assert_clean(upstream.recorder.all_bytes(), ("müller", "globex"))


@pytest.mark.parametrize(
    ("body", "headers", "message"),
    [
        (chat(TEXT), {"x-guard-scope": "nonexistent"}, "unknown guard scope"),
        (
            chat(TEXT, metadata={"guard_scope": "strict"}),
            {"x-guard-scope": "standard"},
            "conflicting",
        ),
    ],
    ids=["unknown", "conflicting"],
)
def test_bad_scope_is_rejected_before_the_upstream(
    proxy: Proxy, upstream: FakeUpstream, body: dict, headers: dict, message: str
) -> None:
    status, reply = proxy.post("/v1/chat/completions", body, headers)
    assert status == 400
    assert message in reply.decode()
    assert upstream.recorder.all_bytes() == b""


def test_embeddings_pass_untouched(proxy: Proxy, upstream: FakeUpstream) -> None:
    body = json.loads(
        ok(proxy.post("/v1/embeddings", {"model": "text-embedding", "input": [TEXT]}))
    )
    assert body["data"][0]["embedding"] == [0.1, 0.2, 0.3]
    assert upstream.recorder.bodies("/embeddings")[0]["input"] == [TEXT]


def test_pattern_entries_are_masked_and_restored(proxy: Proxy, upstream: FakeUpstream) -> None:
    text = "Refund CUST-123456 and CUST-654321."
    body = json.loads(ok(proxy.post("/v1/chat/completions", chat(text))))
    assert body["choices"][0]["message"]["content"] == "ECHO: " + text
    sent = upstream.recorder.all_bytes()
    assert b"CUST-" not in sent and sent.count(b"[[CUSTOMERS_") == 2


def test_logging_callback_never_sees_an_original(proxy: Proxy) -> None:
    """Runs last in this module: every request above has been logged by now."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        captures = [c for c in proxy.captures() if c["kind"] == "async_success"]
        kinds = {c["call_type"] for c in captures}
        if len(captures) >= 16 and {"acompletion", "anthropic_messages", "aresponses"} <= kinds:
            break
        time.sleep(0.5)
    assert {"acompletion", "anthropic_messages", "aresponses"} <= kinds, kinds
    for capture in proxy.captures():
        assert "spend_log_error" not in capture, capture["spend_log_error"]
        assert_clean(json.dumps(capture, ensure_ascii=False), (*NEEDLES_AND_PERSON,))
    assert all(c["kwargs"]["standard_logging_object"] for c in captures)
    audits = [json.dumps(c["kwargs"]["standard_logging_object"]) for c in captures]
    assert any('"masked_entity_count": {"CLIENTS": ' in audit for audit in audits), audits[0]
    spend_requests = [c["spend_log"].get("proxy_server_request") for c in captures]
    assert any(r and r != "{}" for r in spend_requests), spend_requests


NEEDLES_AND_PERSON = ("acme", "globex", "bluebird", "skyhook", "initech", "müller", "cust-")
