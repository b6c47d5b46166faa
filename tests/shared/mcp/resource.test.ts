/** MCP resources: templates listed, URIs read, a missing one refused with -32002, links in a tool's answer. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { v } from "../../../deps.ts";
import { ApiError } from "../../../src/shared/errors.ts";
import { serve } from "../../../shim/node/serve.ts";
import { mcpHttpHandler } from "../../../src/shared/mcp/http.ts";
import { serveWithSdk } from "../../../src/shared/mcp/sdk-http.ts";
import { defineMcp } from "../../../src/shared/mcp/server.ts";
import { defineTool } from "../../../src/shared/mcp/tool.ts";

const NOTES: Record<string, string> = { a: "first note", b: "second note" };

const note = defineTool({
  name: "note",
  title: "Note",
  description: "Names a note and links to it",
  input: v.object({ id: v.string() }),
  async run({ id }) {
    return { structured: { id }, text: `note ${id}`, links: [{ uri: `note://${id}`, name: `note ${id}`, mimeType: "text/plain" }] };
  },
});

const info = {
  name: "notes",
  version: "1",
  resourceTemplates: [{ uriTemplate: "note://{id}", name: "note", mimeType: "text/plain" }],
};
const read = async (uri: string) => {
  if (uri === "note://bad") throw new ApiError("INVALID_ARGUMENTS", "no such part; read note://{id}");
  if (uri === "note://crash") throw new Error("internal secret");
  const text = NOTES[uri.replace("note://", "")];
  return text === undefined ? undefined : { uri, mimeType: "text/plain", text };
};

test("resources: templates listed, a linked URI read, an unknown one refused with -32002", async () => {
  const logged: string[] = [];
  const serving = await serve(mcpHttpHandler(defineMcp(info, [note], (line) => logged.push(line), undefined, read)), { port: 0 });
  const client = new Client({ name: "test", version: "1" });
  try {
    await client.connect(new StreamableHTTPClientTransport(new URL(`${serving.url}/mcp`)));
    assert.deepEqual(client.getServerCapabilities()?.resources, {});
    const { resourceTemplates } = await client.listResourceTemplates();
    assert.deepEqual(resourceTemplates, info.resourceTemplates);
    assert.deepEqual((await client.listResources()).resources, []);

    const called = await client.callTool({ name: "note", arguments: { id: "b" } });
    const link = (called.content as { type: string; uri?: string }[]).find((c) => c.type === "resource_link");
    assert.equal(link?.uri, "note://b");
    const { contents } = await client.readResource({ uri: link.uri });
    assert.deepEqual(contents, [{ uri: "note://b", mimeType: "text/plain", text: "second note" }]);

    await assert.rejects(client.readResource({ uri: "note://zzz" }), (err: { code?: number; message: string }) => {
      assert.equal(err.code, -32002);
      assert.match(err.message, /No resource at note:\/\/zzz; this server reads note:\/\/\{id\}/);
      return true;
    });
    await assert.rejects(client.readResource({ uri: "note://bad" }), (err: { code?: number; message: string }) => {
      assert.equal(err.code, -32602);
      assert.match(err.message, /INVALID_ARGUMENTS: no such part; read note:\/\/\{id\}/);
      return true;
    });
    await assert.rejects(client.readResource({ uri: "note://crash" }), (err: { code?: number; message: string }) => {
      assert.equal(err.code, -32603);
      assert.doesNotMatch(err.message, /secret/);
      return true;
    });
    assert.match(logged.join("\n"), /resource note:\/\/crash failed: internal secret/);
  } finally {
    await client.close();
    await serving.close();
  }
});

test("resources: initialize answered without the SDK declares them as the SDK server does; a server without them declares none", async () => {
  const body = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "c", version: "1" } } };
  const post = () =>
    new Request("http://t.test/mcp", {
      method: "POST",
      headers: { accept: "application/json, text/event-stream", "content-type": "application/json" },
      body: JSON.stringify(body),
    });
  for (const [definition, resources] of [[defineMcp(info, [note]), {}], [defineMcp({ name: "n", version: "1" }, [note]), undefined]] as const) {
    const quick = (await (await mcpHttpHandler(definition)(post())).json()) as { result: { capabilities: Record<string, unknown> } };
    const sdk = (await (await serveWithSdk(definition, post(), body, undefined)).json()) as typeof quick;
    assert.deepEqual(quick, sdk);
    assert.deepEqual(quick.result.capabilities.resources, resources);
  }
});
