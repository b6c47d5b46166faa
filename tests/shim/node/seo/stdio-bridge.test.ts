import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { type Fakes, startFakes } from "../../../seo/fakes/providers.ts";
import { envFor } from "../../../seo/fakes/setup.ts";
import { BUNDLE, ensureBundle, spawnServer } from "../../../seo/fakes/stdio.ts";

let fakes: Fakes;
let cache: string;
/** An autocomplete endpoint that never answers; it records when a request arrives and when its socket closes. */
let stall: { server: Server; url: string; events: string[] };

before(async () => {
  ensureBundle();
  cache = mkdtempSync(join(tmpdir(), "seo-bridge-"));
  fakes = await startFakes();
  const events: string[] = [];
  const server = createServer((req) => {
    events.push("request");
    req.socket.once("close", () => events.push("closed"));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  stall = { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/ac`, events };
});
after(async () => {
  stall.server.closeAllConnections();
  await Promise.all([fakes.close(), new Promise((resolve) => stall.server.close(resolve))]);
  rmSync(cache, { recursive: true, force: true });
});

const env = (extra: Record<string, string> = {}) => ({ ...envFor(fakes, false), SEO_CACHE_DIR: cache, ...extra });

const until = async (check: () => boolean, ms = 10_000) => {
  for (let waited = 0; !check(); waited += 20) {
    if (waited > ms) throw new Error("timed out waiting");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

test("stdio bridge: progress notifications reach the SDK client before the result; ping answers", async () => {
  const server = await spawnServer(env());
  try {
    await server.client.ping();
    const progress: { progress: number; total?: number }[] = [];
    const result = await server.client.callTool(
      { name: "seo_keyword_ideas", arguments: { query: "ev charging", expand: true } },
      undefined,
      { onprogress: (p) => progress.push(p) },
    );
    assert.equal(result.isError, undefined);
    assert.ok(progress.length >= 5, `got ${progress.length} progress notifications`);
    const done = progress.map((p) => p.progress);
    assert.deepEqual(done, [...done].sort((a, b) => a - b), "in order");
    assert.ok(progress.every((p) => p.total === 111), "37 queries to each of 3 sources");
  } finally {
    await server.close();
  }
  // The SDK client handles a notification one microtask after it reads it, but a response at
  // once: when the last progress and the result arrive in one read, it drops that progress
  // and reports an "unknown token". The server wrote them in order (the raw test below).
  assert.deepEqual(
    server.errors.filter((e) => !/progress notification for an unknown token/.test(e.message)),
    [],
  );
});

test("stdio bridge: a client cancellation aborts the running tool; the server keeps serving", async () => {
  const server = await spawnServer(
    env({
      SEO_GOOGLE_AUTOCOMPLETE_ENDPOINT: stall.url,
      SEO_BING_AUTOCOMPLETE_ENDPOINT: stall.url,
      SEO_DDG_AUTOCOMPLETE_ENDPOINT: stall.url,
      SEO_PROVIDER_TIMEOUT_MS: "60000",
    }),
  );
  const controller = new AbortController();
  try {
    const call = server.client.callTool(
      { name: "seo_keyword_ideas", arguments: { query: "slow topic", expand: false } },
      undefined,
      { signal: controller.signal, timeout: 60_000 },
    );
    await until(() => stall.events.filter((e) => e === "request").length >= 3);
    const started = Date.now();
    controller.abort("the user changed their mind");
    await assert.rejects(call, /changed their mind|abort/i);
    await until(() => stall.events.filter((e) => e === "closed").length >= 3);
    assert.ok(Date.now() - started < 5000, "the provider requests were dropped at once, not at their timeout");
    const { tools } = await server.client.listTools();
    assert.equal(tools.length, 5);
  } finally {
    await server.close();
  }
  assert.deepEqual(server.errors, []);
});

/** Writes raw lines to `dist/seo.js mcp` and collects the JSON lines it answers until `count` arrive. */
function raw(lines: string[], count: number): Promise<Record<string, unknown>[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BUNDLE, "mcp"], {
      env: { PATH: process.env.PATH ?? "", ...env() },
      stdio: ["pipe", "pipe", "ignore"],
    });
    let buffer = "";
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error(`no ${count} answers: ${buffer}`));
    }, 15_000);
    child.stdout.on("data", (chunk: Buffer) => {
      buffer += chunk.toString();
      const answers = buffer.split("\n").filter(Boolean);
      if (answers.length < count) return;
      clearTimeout(timer);
      child.stdin.end();
      resolve(answers.map((line) => JSON.parse(line) as Record<string, unknown>));
    });
    child.stdin.write(lines.map((l) => `${l}\n`).join(""));
  });
}

test("stdio bridge: progress notifications are written before the result they belong to", async () => {
  const call = {
    jsonrpc: "2.0",
    id: 2,
    method: "tools/call",
    params: { name: "seo_keyword_ideas", arguments: { query: "heat pump", expand: true }, _meta: { progressToken: "p" } },
  };
  const answers = await raw([JSON.stringify(call)], 13);
  const at = answers.findIndex((a) => a.id === 2);
  const progress = answers.slice(0, at).map((a) => (a.params as { progress: number }).progress);
  assert.deepEqual(progress, [10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 110, 111]);
  assert.equal(at, 12);
});

test("stdio bridge: garbage lines, malformed messages and refused batches each get JSON-RPC answers", async () => {
  const answers = await raw(
    [
      "this is not json",
      "",
      '{"jsonrpc":"2.0","id":5,"method":"tools/call","params":"not an object"}',
      '[{"jsonrpc":"2.0","id":"a","method":"ping"},{"jsonrpc":"2.0","id":"b","method":"tools/list"}]',
      '{"jsonrpc":"2.0","method":"notifications/initialized"}',
      '{"jsonrpc":"2.0","id":6,"method":"no/such/method"}',
    ],
    5,
  );
  const byId = new Map(answers.map((a) => [JSON.stringify(a.id), a]));
  assert.equal((byId.get("null")?.error as { code: number }).code, -32700);
  assert.ok(byId.get("5")?.error, "the malformed call is answered with its own id");
  // A batch (none in MCP 2025-06-18 and later) is refused whole, as over HTTP: each of its
  // requests gets the Invalid Request error, so the client waits for none of them; none runs.
  for (const id of ['"a"', '"b"']) {
    const error = byId.get(id)?.error as { code: number; message: string };
    assert.equal(error.code, -32600);
    assert.match(error.message, /batches are not supported/);
    assert.equal(byId.get(id)?.result, undefined);
  }
  assert.equal((byId.get("6")?.error as { code: number }).code, -32601);
});
