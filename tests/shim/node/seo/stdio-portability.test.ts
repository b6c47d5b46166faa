/**
 * The SEO stdio server (`seo-audit-mcp mcp`, from source) passes the checks MCP Inspector
 * applies to a server's tools (tests/shared/mcp/portability.ts): its `--strict` schema
 * portability rules find nothing, the listing parses with the specification's schema, every name
 * follows the SEP-986 rules without a warning, and every input and output schema is an object
 * schema Ajv compiles in strict mode.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { listingProblems, schemaFindings } from "../../../shared/mcp/portability.ts";

test("the stdio server's tools pass MCP Inspector's checks: --strict schema rules, spec schema, SEP-986 names, Ajv strict", async () => {
  const client = new Client({ name: "portability", version: "1" });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ["--import", "tsx", "shim/node/seo/bin.ts", "mcp"],
    env: { PATH: process.env.PATH ?? "" },
    stderr: "ignore",
  });
  await client.connect(transport);
  try {
    const listing = await client.listTools();
    assert.ok(listing.tools.length >= 5, listing.tools.map((t) => t.name).join());
    assert.deepEqual(listingProblems(listing), []);
  } finally {
    await client.close();
  }
});

test("the portability rules catch what MCP Inspector's --strict reports", () => {
  const schema = {
    type: "object",
    properties: { any: {}, union: { type: ["string", "null"] }, bare: true, remote: { $ref: "https://example.org/s.json" } },
    additionalProperties: false,
  };
  assert.deepEqual(schemaFindings(schema, "outputSchema"), [
    "warning outputSchema.properties.any: untyped-schema",
    'warning outputSchema.properties.union: type-union ["string","null"]',
    "error outputSchema.properties.bare: boolean-schema",
    "warning outputSchema.properties.remote: remote-ref https://example.org/s.json",
  ]);
  assert.deepEqual(listingProblems({ tools: [{ name: "two words", inputSchema: { type: "object", properties: { a: {} } } }] }), [
    "two words: invalid name",
    "two words: Tool name contains spaces, which may cause parsing issues",
    'two words: Tool name contains invalid characters: " "',
    "two words: Allowed characters are: A-Z, a-z, 0-9, underscore (_), dash (-), and dot (.)",
    "two words: warning inputSchema.properties.a: untyped-schema",
  ]);
});
