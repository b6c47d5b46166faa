import assert from "node:assert/strict";
import { test } from "node:test";
import { STAGE } from "../../src/shared/build-info.ts";
import { createCors } from "../../src/shared/http/cors.ts";
import { createRateLimiter } from "../../src/shared/http/rate-limit.ts";
import type { Route } from "../../src/shared/http/route-table.ts";
import { createService, type ServiceOptions } from "../../src/shared/service.ts";

const KEY = "k-0123456789abcdef";
const peer = { clientAddress: "198.51.100.7" };

function service(extra: Partial<ServiceOptions> = {}) {
  const logs: string[] = [];
  const tables: string[][] = [];
  const handler = createService({
    name: "demo",
    noun: "the demo",
    operations: [
      { method: "GET", path: "/api/v1/things", required: "q", handle: () => new Response("things") },
      {
        method: "GET",
        path: "/api/v1/boom",
        handle: () => {
          throw new Error(`failed for ${KEY}`);
        },
      },
    ],
    pages: [{ method: "GET", path: "/", handle: () => new Response("page") }],
    mcp: async (request) => new Response(`mcp ${await request.text()}`),
    openApi: {
      open: true,
      answer: (routes) => {
        tables.push(routes.map((route) => `${route.method} ${route.path}`));
        return () => new Response("document");
      },
    },
    cors: createCors({ origins: "*" }),
    rate: { perMinute: 0 },
    log: (line) => logs.push(line),
    scrub: (message) => message.replaceAll(KEY, "[key]"),
    ...extra,
  });
  return { handler, logs, tables };
}

const text = async (response: Response) => [response.status, await response.text()] as const;
const errorOf = async (response: Response) => ((await response.json()) as { error: { code: string; message: string } }).error;

test("the table: liveness, the operations, the document, MCP, then the pages; the document is made from that whole table", async () => {
  const { handler, tables } = service();
  assert.deepEqual(tables, [["GET /healthz", "GET /api/v1/things", "GET /api/v1/boom", "GET /api/v1/openapi.json", "POST /mcp", "GET /"]]);
  const health = await handler(new Request("http://x/healthz"));
  assert.deepEqual(await health.json(), { ok: true, stage: STAGE });
  assert.equal(health.headers.get("cache-control"), "no-store");
  assert.deepEqual(await text(await handler(new Request("http://x/api/v1/things?q=a"))), [200, "things"]);
  assert.deepEqual(await text(await handler(new Request("http://x/api/v1/openapi.json"))), [200, "document"]);
  assert.deepEqual(await text(await handler(new Request("http://x/mcp", { method: "POST", body: "{}" }))), [200, "mcp {}"]);
  assert.deepEqual(await text(await handler(new Request("http://x/"))), [200, "page"]);
});

test("the 404 message names every row, a required parameter with it", async () => {
  const missing = await service().handler(new Request("http://x/nope"));
  assert.equal(missing.status, 404);
  assert.equal(
    (await errorOf(missing)).message,
    "No such route; the demo has GET /healthz, /api/v1/things?q=, /api/v1/boom, /api/v1/openapi.json, / and POST /mcp",
  );
});

test("MCP's failures answer as JSON-RPC errors, every method reaches it, other rows answer the envelope", async () => {
  const { handler } = service({ maxBodyBytes: 8 });
  const tooLarge = await handler(new Request("http://x/mcp", { method: "POST", body: "x".repeat(64) }));
  assert.equal(tooLarge.status, 413);
  assert.equal(((await tooLarge.json()) as { jsonrpc: string }).jsonrpc, "2.0");
  assert.deepEqual(await text(await handler(new Request("http://x/mcp", { method: "DELETE" }))), [200, "mcp "]);
  assert.equal((await errorOf(await handler(new Request("http://x/api/v1/things", { method: "POST" })))).code, "METHOD_NOT_ALLOWED");
});

test("an unexpected failure is INTERNAL to the client and logged once, named for the service and scrubbed", async () => {
  const { handler, logs } = service();
  const failed = await handler(new Request("http://x/api/v1/boom"));
  assert.equal(failed.status, 500);
  assert.doesNotMatch(await failed.text(), /failed for/);
  assert.deepEqual(logs, ["demo: unexpected failed for [key]"]);
});

test("the key gate spares liveness and an open document, not the operations, MCP or pages", async () => {
  const key = { keys: [KEY], realm: "demo", missing: "send a key", invalid: "wrong key" };
  const gated = service({ key });
  const statusOf = async (handler: typeof gated.handler, path: string, init?: RequestInit) => (await handler(new Request(`http://x${path}`, init))).status;
  assert.deepEqual(
    [await statusOf(gated.handler, "/healthz"), await statusOf(gated.handler, "/api/v1/openapi.json"), await statusOf(gated.handler, "/api/v1/things?q=a"), await statusOf(gated.handler, "/mcp", { method: "POST" }), await statusOf(gated.handler, "/")],
    [200, 200, 401, 401, 401],
  );
  const closed = service({ key, openApi: { open: false, answer: () => () => new Response("document") } });
  assert.equal(await statusOf(closed.handler, "/api/v1/openapi.json"), 401);
  assert.equal(await statusOf(closed.handler, "/api/v1/openapi.json", { headers: { "x-api-key": KEY } }), 200);
});

test("the rate: none at 0; in memory per client at its limit; a given limiter counts instead; liveness never counted", async () => {
  const unlimited = service();
  for (let i = 0; i < 3; i++) assert.equal((await unlimited.handler(new Request("http://x/api/v1/things?q=a"), peer)).headers.get("ratelimit"), null);

  const limited = service({ rate: { perMinute: 2 } });
  const statuses = [];
  for (let i = 0; i < 3; i++) statuses.push((await limited.handler(new Request("http://x/api/v1/things?q=a"), peer)).status);
  assert.deepEqual(statuses, [200, 200, 429]);
  assert.equal((await limited.handler(new Request("http://x/healthz"), peer)).status, 200);

  const shared = createRateLimiter({ limit: 1, windowMs: 60_000, maxClients: 10 });
  const first = service({ rate: { perMinute: 1, limiter: shared } });
  const second = service({ rate: { perMinute: 1, limiter: shared } });
  assert.equal((await first.handler(new Request("http://x/"), peer)).status, 200);
  const refused = await second.handler(new Request("http://x/"), peer);
  assert.equal(refused.status, 429, "one count across both handlers");
  assert.match((await errorOf(refused)).message, /Over 1 requests per minute/);
});

test("a row a service passes keeps its own flags (an unmetered operation is not counted)", async () => {
  const probe: Route<URL> = { method: "GET", path: "/probe", handle: () => new Response("ok"), unmetered: true };
  const { handler } = service({ operations: [probe], rate: { perMinute: 1 } });
  for (let i = 0; i < 3; i++) assert.equal((await handler(new Request("http://x/probe"), peer)).status, 200);
});
