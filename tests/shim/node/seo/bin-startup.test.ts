import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { before, test } from "node:test";
import { memoryReportStore } from "../../../../src/seo/audit/report-store.ts";
import { loadConfig } from "../../../../src/seo/config.ts";
import { createSeoMcp } from "../../../../src/seo/server.ts";
import { recordingDeps } from "../../../seo/fakes/setup.ts";
import { ensureBundle, spawnServer } from "../../../seo/fakes/stdio.ts";

const CHUNKS = "dist/seo-chunks";

before(() => ensureBundle());

/** Every file `start` (under dist/) loads before its own code runs: its static imports, transitively. */
function staticClosure(start: string): Map<string, string> {
  const found = new Map<string, string>();
  const pending = [start];
  while (pending.length > 0) {
    const name = pending.pop() as string;
    if (found.has(name)) continue;
    const code = readFileSync(join("dist", name), "utf8");
    found.set(name, code);
    for (const m of code.matchAll(/^(?:import|export)\s[^;]*?["']\.\/([^"']+\.js)["']/gms)) pending.push(join(dirname(name), m[1] as string));
  }
  return found;
}

const chunk = (prefix: string) => {
  const name = readdirSync(CHUNKS).find((f) => f.startsWith(prefix));
  assert.ok(name, `a ${prefix} chunk`);
  return join("seo-chunks", name);
};

test("start-up of `mcp` loads neither the MCP SDK's server nor any tool code (both load on the first call)", () => {
  // The bin's entry, the command-line face it imports first, and the `mcp` command's own chunk.
  const code = ["seo.js", chunk("commands-"), chunk("stdio-")].flatMap((start) => [...staticClosure(start).values()]).join("\n");
  // esbuild heads each module's code with a `// <path>` line.
  const absent = {
    "the SDK's Server class": "// node_modules/@modelcontextprotocol/sdk/dist/esm/server/index.js",
    "the SDK's Streamable HTTP transport": "// node_modules/@modelcontextprotocol/sdk/dist/esm/server/webStandardStreamableHttp.js",
    zod: "// node_modules/zod/",
    "the tools": "// src/seo/tools/",
    "the crawler": "// src/seo/crawl/crawler.ts",
    "the audit": "// src/seo/audit/audit-request.ts",
    "node:https": '"node:https"',
  };
  const everything = readdirSync(CHUNKS)
    .map((name) => readFileSync(join(CHUNKS, name), "utf8"))
    .join("\n");
  for (const [what, marker] of Object.entries(absent)) {
    assert.ok(everything.includes(marker), `${what} is in the bundle (the marker still finds it)`);
    assert.ok(!code.includes(marker), `${what} is loaded at start-up`);
  }
  assert.ok(code.includes('"seo_audit_site"'), "the listing is embedded");
});

test("the listing embedded at build time is the one the tool definitions give", async () => {
  const server = await spawnServer({});
  let served: unknown;
  try {
    served = (await server.client.listTools()).tools;
  } finally {
    await server.close();
  }
  const computed = createSeoMcp({
    provider: recordingDeps(),
    config: loadConfig({ env: {} }),
    crawl: { fetch, reports: memoryReportStore() },
    log: () => {},
  }).listing;
  assert.deepEqual(served, JSON.parse(JSON.stringify(computed)));
  for (const tool of computed) {
    const properties = Object.values((tool.outputSchema?.properties ?? {}) as Record<string, Record<string, unknown>>);
    assert.ok(
      // A labelled value lists its two fields (strict JSON Schema compilers refuse a required field not listed).
      properties.every((p) => (p.properties === undefined || Object.keys(p.properties as object).join() === "value,provenance") && p.items === undefined && p.$ref === undefined),
      `${tool.name}: output schemas are listed as outlines`,
    );
  }
});
