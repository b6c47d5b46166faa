import assert from "node:assert/strict";
import { test } from "node:test";
import * as sdkTypes from "@modelcontextprotocol/sdk/types.js";
import { v } from "../../../deps.ts";
import { mcpHttpHandler } from "../../../src/shared/mcp/http.ts";
import { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from "../../../src/shared/mcp/protocol.ts";
import { serveWithSdk } from "../../../src/shared/mcp/sdk-http.ts";
import { defineMcp } from "../../../src/shared/mcp/server.ts";
import { defineTool } from "../../../src/shared/mcp/tool.ts";

const definition = defineMcp({ name: "t", version: "1.2.3", instructions: "Use the echo tool." }, [
  defineTool({
    name: "echo",
    title: "Echo",
    description: "Echoes a word",
    input: v.object({ word: v.string() }),
    output: { type: "object", properties: { word: { type: "string" } }, required: ["word"] },
    async run({ word }) {
      return { structured: { word }, text: word };
    },
  }),
]);

const HEADERS = { accept: "application/json, text/event-stream", "content-type": "application/json" };

function post(body: unknown, headers: Record<string, string> = HEADERS): Request {
  return new Request("http://t.test/mcp", {
    method: "POST",
    headers,
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

async function outcome(response: Response): Promise<{ status: number; body: unknown }> {
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

/** The same message answered by the handler (description first) and by the SDK server alone. */
async function both(body: unknown, headers?: Record<string, string>) {
  const handler = mcpHttpHandler(definition);
  const quick = await outcome(await handler(post(body, headers)));
  const sdk = await outcome(await serveWithSdk(definition, post(body, headers), body, undefined));
  return { quick, sdk };
}

test("the protocol versions answered without the SDK are the SDK's own", () => {
  assert.equal(LATEST_PROTOCOL_VERSION, sdkTypes.LATEST_PROTOCOL_VERSION);
  assert.deepEqual([...SUPPORTED_PROTOCOL_VERSIONS], sdkTypes.SUPPORTED_PROTOCOL_VERSIONS);
});

test("initialize, ping, tools/list and notifications answered from the description equal the SDK server's answers", async () => {
  const clientInfo = { name: "c", version: "1" };
  const messages: unknown[] = [
    { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo } },
    { jsonrpc: "2.0", id: "s", method: "initialize", params: { protocolVersion: "2024-11-05", capabilities: { roots: {} }, clientInfo } },
    { jsonrpc: "2.0", id: 2, method: "initialize", params: { protocolVersion: "1999-01-01", capabilities: {}, clientInfo } },
    { jsonrpc: "2.0", id: 3, method: "ping" },
    { jsonrpc: "2.0", id: 4, method: "tools/list" },
    { jsonrpc: "2.0", id: 5, method: "tools/list", params: { cursor: "x" } },
    { jsonrpc: "2.0", method: "notifications/initialized" },
    { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 9 } },
  ];
  for (const message of messages) {
    const { quick, sdk } = await both(message);
    assert.deepEqual(quick, sdk, JSON.stringify(message));
  }
});

test("anything the description cannot answer goes to the SDK, which answers its usual errors", async () => {
  const cases: [unknown, Record<string, string> | undefined, number][] = [
    [{ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18" } }, undefined, 200],
    [{ jsonrpc: "2.0", id: 1, method: "tools/list" }, { ...HEADERS, accept: "application/json" }, 406],
    [{ jsonrpc: "2.0", id: 1, method: "tools/list" }, { ...HEADERS, "content-type": "text/plain" }, 415],
    [{ jsonrpc: "2.0", id: 1, method: "tools/list" }, { ...HEADERS, "mcp-protocol-version": "1999-01-01" }, 400],
    [{ jsonrpc: "1.0", id: 1, method: "ping" }, undefined, 400],
    [{ jsonrpc: "2.0", id: 1, method: "resources/list" }, undefined, 200],
    [{ jsonrpc: "2.0", method: "notifications/initialized", params: 5 }, undefined, 400],
    [{ jsonrpc: "2.0", id: 1, method: "ping", params: "x" }, undefined, 400],
  ];
  for (const [message, headers, status] of cases) {
    const { quick, sdk } = await both(message, headers);
    assert.deepEqual(quick, sdk, JSON.stringify(message));
    assert.equal(quick.status, status, JSON.stringify(message));
  }
  const handler = mcpHttpHandler(definition);
  const notJson = await handler(post("{nope"));
  assert.equal(notJson.status, 400);
  assert.equal(((await notJson.json()) as { error: { code: number } }).error.code, -32700);
  const call = await outcome(await handler(post({ jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "echo", arguments: { word: "hi" } } })));
  assert.deepEqual((call.body as { result: { structuredContent: unknown } }).result.structuredContent, { word: "hi" });
});

test("a JSON-RPC batch is refused whole: none of its 100 tool calls runs, one Invalid Request answers", async () => {
  let runs = 0;
  const counted = defineMcp({ name: "t", version: "1" }, [
    defineTool({
      name: "echo",
      title: "Echo",
      description: "Echoes a word",
      input: v.object({ word: v.string() }),
      output: { type: "object", properties: { word: { type: "string" } }, required: ["word"] },
      async run({ word }) {
        runs++;
        return { structured: { word }, text: word };
      },
    }),
  ]);
  const call = (id: number) => ({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "echo", arguments: { word: "w" } } });
  const handler = mcpHttpHandler(counted);
  const batches = [Array.from({ length: 100 }, (_, i) => call(i)), [{ jsonrpc: "2.0", id: 1, method: "ping" }], []];
  for (const batch of batches) {
    const { status, body } = await outcome(await handler(post(batch, { ...HEADERS, "mcp-protocol-version": "2025-06-18" })));
    assert.equal(status, 400);
    assert.equal((body as { error: { code: number; message: string } }).error.code, -32600);
    assert.match((body as { error: { message: string } }).error.message, /^Invalid Request: JSON-RPC batches are not supported/);
  }
  assert.equal(runs, 0);
});
