"""Response bodies in the OpenAI chat, OpenAI Responses and Anthropic Messages wire formats."""

from __future__ import annotations

import json
from typing import Any

PIECE = 3


def _text_of(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return " ".join(
            _text_of(part.get("text", "")) for part in content if isinstance(part, dict)
        )
    return ""


SHORT_REPLY = 200  # characters echoed for a model named "short-..." (a realistic answer size)


def echo_text(body: dict[str, Any]) -> str:
    """The last user text of a chat, messages or responses request (its first 200 characters
    for a model whose name starts with "short")."""
    if isinstance(body.get("input"), str):
        text = body["input"]
    else:
        items = body.get("messages") or body.get("input") or []
        users = [m for m in items if isinstance(m, dict) and m.get("role") == "user"]
        text = _text_of(users[-1].get("content")) if users else ""
    if str(body.get("model", "")).startswith("short"):
        text = text[:SHORT_REPLY]
    return "ECHO: " + text


def pieces(text: str, size: int = PIECE) -> list[str]:
    return [text[i : i + size] for i in range(0, len(text), size)] or [""]


USAGE = {"prompt_tokens": 5, "completion_tokens": 5, "total_tokens": 10}


def _tool_name(body: dict[str, Any]) -> str | None:
    tools = body.get("tools") or []
    if not tools:
        return None
    tool = tools[0]
    return tool.get("name") or (tool.get("function") or {}).get("name")


def _arguments(text: str) -> str:
    return json.dumps({"echo": text})


def chat_json(body: dict[str, Any]) -> dict[str, Any]:
    text, tool = echo_text(body), _tool_name(body)
    message: dict[str, Any] = {"role": "assistant", "content": None if tool else text}
    if tool:
        message["tool_calls"] = [
            {
                "id": "call_1",
                "type": "function",
                "function": {"name": tool, "arguments": _arguments(text)},
            }
        ]
    return {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "created": 1,
        "model": body["model"],
        "choices": [
            {"index": 0, "message": message, "finish_reason": "tool_calls" if tool else "stop"}
        ],
        "usage": USAGE,
    }


def _chat_chunk(body: dict[str, Any], delta: dict[str, Any], finish: str | None = None) -> bytes:
    chunk = {
        "id": "chatcmpl-1",
        "object": "chat.completion.chunk",
        "created": 1,
        "model": body["model"],
        "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
    }
    return f"data: {json.dumps(chunk)}\n\n".encode()


def chat_sse(body: dict[str, Any], piece: int = PIECE) -> bytes:
    text, tool = echo_text(body), _tool_name(body)
    out = [_chat_chunk(body, {"role": "assistant", "content": ""})]
    if tool:
        out.append(
            _chat_chunk(
                body,
                {
                    "tool_calls": [
                        {
                            "index": 0,
                            "id": "call_1",
                            "type": "function",
                            "function": {"name": tool, "arguments": ""},
                        }
                    ]
                },
            )
        )
        for part in pieces(_arguments(text), piece):
            out.append(
                _chat_chunk(body, {"tool_calls": [{"index": 0, "function": {"arguments": part}}]})
            )
    else:
        out.extend(_chat_chunk(body, {"content": part}) for part in pieces(text, piece))
    out.append(_chat_chunk(body, {}, "tool_calls" if tool else "stop"))
    out.append(b"data: [DONE]\n\n")
    return b"".join(out)


def _response(body: dict[str, Any], text: str, status: str = "completed") -> dict[str, Any]:
    return {
        "id": "resp_1",
        "object": "response",
        "created_at": 1,
        "status": status,
        "model": body["model"],
        "output": [
            {
                "type": "message",
                "id": "msg_1",
                "status": "completed",
                "role": "assistant",
                "content": [{"type": "output_text", "text": text, "annotations": []}],
            }
        ],
        "usage": {"input_tokens": 5, "output_tokens": 5, "total_tokens": 10},
    }


def responses_json(body: dict[str, Any]) -> dict[str, Any]:
    return _response(body, echo_text(body))


def _event(event: dict[str, Any]) -> bytes:
    return f"event: {event['type']}\ndata: {json.dumps(event)}\n\n".encode()


def responses_sse(body: dict[str, Any], piece: int = PIECE) -> bytes:
    text = echo_text(body)
    partial = _response(body, "", "in_progress")
    partial["output"] = []
    item = {
        "type": "message",
        "id": "msg_1",
        "status": "in_progress",
        "role": "assistant",
        "content": [],
    }
    events: list[dict[str, Any]] = [
        {"type": "response.created", "sequence_number": 0, "response": partial},
        {
            "type": "response.output_item.added",
            "sequence_number": 1,
            "output_index": 0,
            "item": item,
        },
        {
            "type": "response.content_part.added",
            "sequence_number": 2,
            "item_id": "msg_1",
            "output_index": 0,
            "content_index": 0,
            "part": {"type": "output_text", "text": "", "annotations": []},
        },
    ]
    for part in pieces(text, piece):
        events.append(
            {
                "type": "response.output_text.delta",
                "sequence_number": len(events),
                "item_id": "msg_1",
                "output_index": 0,
                "content_index": 0,
                "delta": part,
            }
        )
    done = _response(body, text)
    events += [
        {
            "type": "response.output_text.done",
            "sequence_number": len(events),
            "item_id": "msg_1",
            "output_index": 0,
            "content_index": 0,
            "text": text,
        },
        {"type": "response.completed", "sequence_number": len(events) + 1, "response": done},
    ]
    return b"".join(_event(e) for e in events)


def messages_json(body: dict[str, Any]) -> dict[str, Any]:
    text, tool = echo_text(body), _tool_name(body)
    content: list[dict[str, Any]] = [{"type": "text", "text": text}]
    if tool:
        content.append({"type": "tool_use", "id": "toolu_1", "name": tool, "input": {"echo": text}})
    return {
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "model": body["model"],
        "content": content,
        "stop_reason": "tool_use" if tool else "end_turn",
        "stop_sequence": None,
        "usage": {"input_tokens": 5, "output_tokens": 5},
    }


def messages_sse(body: dict[str, Any], piece: int = PIECE) -> bytes:
    text, tool = echo_text(body), _tool_name(body)
    start = messages_json(body) | {"content": [], "stop_reason": None}
    events: list[dict[str, Any]] = [
        {"type": "message_start", "message": start},
        {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}},
    ]
    events += [
        {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": p}}
        for p in pieces(text, piece)
    ]
    events.append({"type": "content_block_stop", "index": 0})
    if tool:
        events.append(
            {
                "type": "content_block_start",
                "index": 1,
                "content_block": {"type": "tool_use", "id": "toolu_1", "name": tool, "input": {}},
            }
        )
        events += [
            {
                "type": "content_block_delta",
                "index": 1,
                "delta": {"type": "input_json_delta", "partial_json": p},
            }
            for p in pieces(_arguments(text), piece)
        ]
        events.append({"type": "content_block_stop", "index": 1})
    events += [
        {
            "type": "message_delta",
            "delta": {"stop_reason": "tool_use" if tool else "end_turn", "stop_sequence": None},
            "usage": {"output_tokens": 5},
        },
        {"type": "message_stop"},
    ]
    return b"".join(_event(e) for e in events)
