"""Request bodies and assertions shared by the integration tests."""

from __future__ import annotations

import json
from typing import Any

# Terms of shim/litellm/dictionary.yaml (lower-cased): none may reach the upstream or a log.
NEEDLES = ("acme", "globex", "bluebird", "skyhook", "initech")
PERSON = "Jane Müller"
TEXT = "Ask Acme Corporation and ACME CORP about Project Bluebird, Globex and Skyhook."


def assert_clean(blob: str | bytes, needles: tuple[str, ...] = NEEDLES) -> None:
    text = blob.decode("utf-8", "replace") if isinstance(blob, bytes) else blob
    lowered = text.lower()
    found = [needle for needle in needles if needle in lowered]
    assert not found, f"original terms {found} found in: {text[:2000]}"


def sse_data(raw: bytes) -> list[dict[str, Any]]:
    events = []
    for line in raw.decode("utf-8").splitlines():
        if line.startswith("data:") and line[5:].strip() not in ("", "[DONE]"):
            events.append(json.loads(line[5:]))
    return events


def chat(content: Any, **extra: Any) -> dict[str, Any]:
    return {
        "model": "gpt-4o-mini",
        "messages": [
            {"role": "system", "content": "You advise Initech Systems."},
            {"role": "user", "content": content},
        ],
        **extra,
    }


CHAT_TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "lookup_client",
            "description": "Look up a client such as Globex",
            "parameters": {
                "type": "object",
                "properties": {"company": {"type": "string", "enum": ["Acme Corp", "Skyhook"]}},
            },
        },
    }
]

TOOL_HISTORY = [
    {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {
                "id": "call_0",
                "type": "function",
                "function": {"name": "lookup_client", "arguments": '{"company": "Initech"}'},
            }
        ],
    },
    {"role": "tool", "tool_call_id": "call_0", "content": "Initech owns Skyhook"},
]

ANTHROPIC_TOOLS = [
    {
        "name": "lookup_client",
        "description": "Look up a client such as Globex",
        "input_schema": {"type": "object", "properties": {"company": {"type": "string"}}},
    }
]


def messages(content: Any, **extra: Any) -> dict[str, Any]:
    return {
        "model": "claude-sonnet",
        "max_tokens": 100,
        "system": "You advise Initech Systems.",
        "messages": [{"role": "user", "content": content}],
        **extra,
    }


def responses(text: str, **extra: Any) -> dict[str, Any]:
    return {"model": "gpt-4o-mini", "input": text, "instructions": "Advise Globex.", **extra}
