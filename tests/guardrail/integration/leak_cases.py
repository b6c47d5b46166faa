"""Generated requests for the leak suite, and an independent detector of originals.

A case is a route (chat completions, Anthropic messages, Responses), streaming or not, accepted
or refused (unknown scope, or an unknown key: refused before the guardrail runs), with dictionary terms written as variants (case, full width,
whitespace runs, invisible characters) in every request field that carries text, and now and
then placeholder-shaped text typed by the client.

The detector does not use the guardrail's code: it removes format characters (Unicode Cf),
applies NFKC and case folding, collapses whitespace, and looks for each term's folded form in
every string of a payload (JSON-looking strings are decoded and searched too).
"""

from __future__ import annotations

import json
import re
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

from fake_wire import echo_text
from helpers import sse_data

LEAK_DICTIONARY = Path(__file__).with_name("leak_dictionary.yaml")
TERMS = [
    "Acme Corporation",
    "Acme Corp",
    "Globex",
    "Initech Systems",
    "Initech",
    "Project Bluebird",
    "Skyhook",
    "Jane Müller",
    "Jürgen Straße",
    "东京分公司",
]
INVISIBLE = ["\u200b", "\u200c", "\u200d", "\u00ad", "\u2060", "\ufeff", "\u200e"]
SPACES = [" ", "  ", "\n", "\t", "\r\n", "\u00a0", "\u3000", " \u200b ", "\n\n  "]
FILLER = ["please", "review", "the", "report", "for", "our", "client", "today", "über", "报告"]
TYPED = ["[[CLIENTS_abcdefghij]]", "[[LITERAL_aaaaaaaaaa]]", "[[X_bbbbbbbbbb_cccccccc]]"]


def fold(text: str) -> str:
    text = "".join(c for c in text if unicodedata.category(c) != "Cf")
    text = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", text).casefold())
    return re.sub(r"\s+", " ", text)


NEEDLES = sorted({fold(term) for term in TERMS})


def _strings(value: Any, depth: int = 0) -> list[str]:
    if depth > 60:
        return []
    if isinstance(value, str):
        found = [value]
        if value[:1] in "{[" and len(value) > 1:
            try:
                found += _strings(json.loads(value), depth + 1)
            except ValueError:
                pass
        return found
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in [str(k), *_strings(v, depth + 1)]]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v, depth + 1)]
    return []


def originals_in(payload: Any) -> list[str]:
    """Folded terms found anywhere in a payload (a parsed JSON value, or text)."""
    folded = fold("\n".join(_strings(payload)))
    return [needle for needle in NEEDLES if needle in folded]


@st.composite
def variant(draw: st.DrawFn) -> str:
    """A term as a client might type it: another case, full-width letters, other
    whitespace between its words, invisible characters anywhere inside."""
    term = draw(st.sampled_from(TERMS))
    out: list[str] = []
    for char in term:
        if char == " ":
            out.append(draw(st.sampled_from(SPACES)))
            continue
        kind = draw(st.integers(0, 9))
        if kind == 0:
            char = char.swapcase()
        elif kind == 1 and char.isascii() and char.isalpha():
            char = chr(ord(char) + 0xFEE0)  # full width
        out.append(char)
        if draw(st.integers(0, 5)) == 0:
            out.append(draw(st.sampled_from(INVISIBLE)))
    return "".join(out)


@st.composite
def prose(draw: st.DrawFn) -> str:
    words = draw(
        st.lists(
            st.one_of(variant(), st.sampled_from(FILLER), st.sampled_from(TYPED)),
            min_size=1,
            max_size=8,
        )
    )
    return draw(st.sampled_from([" ", ", ", ". "])).join(words)


@dataclass
class Case:
    route: str
    stream: bool
    refused: str  # "" (accepted), "scope" (by the guardrail) or "auth" (by the proxy, before it)
    tools: bool
    texts: list[str] = field(default_factory=list)  # one per text field of the route

    @property
    def path(self) -> str:
        return {"chat": "/v1/chat/completions", "messages": "/v1/messages"}.get(
            self.route, "/v1/responses"
        )


@st.composite
def cases(draw: st.DrawFn) -> Case:
    route = draw(st.sampled_from(["chat", "messages", "responses"]))
    refused = draw(st.sampled_from(["", "", "", "", "", "", "scope", "auth"]))
    case = Case(route, draw(st.booleans()), refused, draw(st.booleans()))
    case.texts = draw(st.lists(prose(), min_size=12, max_size=12))
    return case


def body(case: Case) -> dict[str, Any]:
    build = {"chat": _chat, "messages": _messages, "responses": _responses}[case.route]
    request = build(case.texts, case.tools)
    if case.stream:
        request["stream"] = True
    return request


def _chat(t: list[str], tools: bool) -> dict[str, Any]:
    request: dict[str, Any] = {
        "model": "gpt-4o-mini",
        "messages": [
            {"role": "system", "content": t[0]},
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {
                        "id": "call_0",
                        "type": "function",
                        "function": {"name": "lookup", "arguments": json.dumps({"q": t[1]})},
                    }
                ],
            },
            {"role": "tool", "tool_call_id": "call_0", "content": t[2]},
            {"role": "user", "content": [{"type": "text", "text": t[3]}]},
        ],
        "response_format": {
            "type": "json_schema",
            "json_schema": {
                "name": "answer",
                "description": t[4],
                "schema": {
                    "type": "object",
                    "properties": {"who": {"type": "string", "description": t[5]}},
                },
            },
        },
        "stop": [t[6]],
        "user": t[7],
        "prediction": {"type": "content", "content": t[8]},
        "metadata": {"note": t[9]},
    }
    if tools:
        request["tools"] = [_chat_tool(t[10], t[11])]
    return request


def _chat_tool(description: str, enum: str) -> dict[str, Any]:
    return {
        "type": "function",
        "function": {
            "name": "lookup",
            "description": description,
            "parameters": {
                "type": "object",
                "properties": {"q": {"type": "string", "enum": [enum, "other"]}},
            },
        },
    }


def _messages(t: list[str], tools: bool) -> dict[str, Any]:
    request: dict[str, Any] = {
        "model": "claude-sonnet",
        "max_tokens": 100,
        "system": t[0],
        "messages": [
            {
                "role": "user",
                "content": [
                    {
                        "type": "document",
                        "title": t[1],
                        "source": {"type": "text", "media_type": "text/plain", "data": t[2]},
                    },
                    {"type": "text", "text": "see the document"},
                ],
            },
            {
                "role": "assistant",
                "content": [
                    {"type": "tool_use", "id": "toolu_0", "name": "lookup", "input": {"q": t[3]}}
                ],
            },
            {
                "role": "user",
                "content": [
                    {"type": "tool_result", "tool_use_id": "toolu_0", "content": t[4]},
                    {"type": "text", "text": t[5]},
                ],
            },
        ],
        "stop_sequences": [t[6]],
        "metadata": {"user_id": t[7]},
    }
    tool = {"name": "lookup", "description": t[8], "input_schema": {"type": "object"}}
    request["tools"] = [tool] if tools else None
    if not tools:
        del request["tools"]
    return request


def _responses(t: list[str], tools: bool) -> dict[str, Any]:
    request: dict[str, Any] = {
        "model": "gpt-4o-mini",
        "instructions": t[0],
        "input": [
            {
                "type": "function_call",
                "call_id": "c0",
                "name": "lookup",
                "arguments": json.dumps({"q": t[1]}),
            },
            {"type": "function_call_output", "call_id": "c0", "output": t[2]},
            {"role": "user", "content": [{"type": "input_text", "text": t[3]}]},
        ],
        "text": {
            "format": {
                "type": "json_schema",
                "name": "answer",
                "schema": {
                    "type": "object",
                    "properties": {"who": {"type": "string", "description": t[4]}},
                },
            }
        },
        "metadata": {"note": t[5]},
    }
    if tools:
        request["tools"] = [
            {"type": "function", "name": "lookup", "description": t[6], "parameters": {}}
        ]
    return request


def expected_echo(request: dict[str, Any]) -> str:
    return echo_text(request)


def client_texts(case: Case, raw: bytes) -> list[str]:
    """Every text the client received (message text and tool arguments' echo)."""
    if case.stream:
        return _streamed(case, sse_data(raw))
    reply = json.loads(raw)
    if case.route == "chat":
        message = reply["choices"][0]["message"]
        texts = [message["content"]] if message.get("content") else []
        for call in message.get("tool_calls") or []:
            texts.append(json.loads(call["function"]["arguments"])["echo"])
        return texts
    if case.route == "messages":
        return [
            block["text"] if block["type"] == "text" else block["input"]["echo"]
            for block in reply["content"]
        ]
    return [part["text"] for item in reply["output"] for part in item.get("content") or []]


def _streamed(case: Case, events: list[dict[str, Any]]) -> list[str]:
    if case.route == "chat":
        text, arguments = "", ""
        for event in events:
            for choice in event.get("choices") or []:
                delta = choice.get("delta") or {}
                text += delta.get("content") or ""
                for call in delta.get("tool_calls") or []:
                    arguments += (call.get("function") or {}).get("arguments") or ""
        return ([text] if text or not arguments else []) + (
            [json.loads(arguments)["echo"]] if arguments else []
        )
    if case.route == "messages":
        deltas = [e["delta"] for e in events if e.get("type") == "content_block_delta"]
        text = "".join(d.get("text", "") for d in deltas if d["type"] == "text_delta")
        partial = "".join(d["partial_json"] for d in deltas if d["type"] == "input_json_delta")
        return [text] + ([json.loads(partial)["echo"]] if partial else [])
    deltas = [e["delta"] for e in events if e.get("type") == "response.output_text.delta"]
    return ["".join(deltas)]
