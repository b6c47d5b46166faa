/**
 * The SEO stdio server (`seo-audit-mcp mcp`, from source) passes the checks MCP Inspector
 * applies to a server's tools (tests/shared/mcp/portability.ts): the listing parses with the
 * specification's schema, every name follows the SEP-986 rules without a warning, and every
 * input and output schema is an object schema Ajv compiles in strict mode.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { listingProblems } from "../../../shared/mcp/portability.ts";

test("the stdio server's tools are portable: spec schema, SEP-986 names, object schemas Ajv compiles strictly", async () => {
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
