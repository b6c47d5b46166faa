import assert from "node:assert/strict";
import { test } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { v } from "../../../deps.ts";
import { serve } from "../../../shim/node/serve.ts";
import { mcpHttpHandler } from "../../../src/shared/mcp/http.ts";
import { defineMcp } from "../../../src/shared/mcp/server.ts";
import { ApiError } from "../../../src/shared/errors.ts";
import { defineTool } from "../../../src/shared/mcp/tool.ts";

const echo = defineTool({
  name: "echo",
  title: "Echo",
  description: "Echoes a word; fails with an ApiError on 'fail' and crashes on 'crash'",
  input: v.object({
    word: v.pipe(v.string(), v.minLength(1)),
    times: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1)), 1),
  }),
  output: {
    type: "object",
    properties: { words: { type: "array", items: { type: "string" } } },
    required: ["words"],
  },
  annotations: { readOnlyHint: true, openWorldHint: false },
  async run({ word, times }) {
    if (word === "fail") throw new ApiError("NOT_FOUND", "no such word; try another");
    if (word === "crash") throw new Error("internal secret");
    const words = Array.from({ length: times }, () => word);
    return { structured: { words }, text: words.join(" ") };
  },
});

test("stateless MCP over real HTTP: list, call, typed failures, 405 on GET", async () => {
  const logged: string[] = [];
  const definition = defineMcp({ name: "t", version: "1" }, [echo], (l) => logged.push(l));
  const serving = await serve(mcpHttpHandler(definition), { port: 0 });
  const client = new Client({ name: "test", version: "1" });
  try {
    await client.connect(new StreamableHTTPClientTransport(new URL(`${serving.url}/mcp`)));
    const { tools } = await client.listTools();
    assert.equal(tools.length, 1);
    assert.equal(tools[0]?.inputSchema.type, "object");
    assert.deepEqual(tools[0]?.inputSchema.required, ["word"]);
    assert.equal(tools[0]?.annotations?.readOnlyHint, true);

    const ok = await client.callTool({ name: "echo", arguments: { word: "hi", times: 2 } });
    assert.deepEqual(ok.structuredContent, { words: ["hi", "hi"] });

    const bad = await client.callTool({ name: "echo", arguments: { word: "", times: 0 } });
    assert.equal(bad.isError, true);
    assert.match(JSON.stringify(bad.content), /INVALID_ARGUMENTS: word: .*times: /);

    const failed = await client.callTool({ name: "echo", arguments: { word: "fail" } });
    assert.equal(failed.isError, true);
    assert.match(JSON.stringify(failed.content), /NOT_FOUND: no such word/);

    const crashed = await client.callTool({ name: "echo", arguments: { word: "crash" } });
    assert.equal(crashed.isError, true);
    assert.doesNotMatch(JSON.stringify(crashed.content), /secret/);
    assert.match(logged.join("\n"), /internal secret/);

    await assert.rejects(client.callTool({ name: "nope", arguments: {} }), /Unknown tool "nope"/);

    const get = await fetch(`${serving.url}/mcp`);
    assert.equal(get.status, 405);
    const body = (await get.json()) as { error: { message: string } };
    assert.match(body.error.message, /use POST \/mcp/);
  } finally {
    await client.close();
    await serving.close();
  }
});
