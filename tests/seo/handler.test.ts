import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { validate } from "@readme/openapi-parser";
import { redoclyLint } from "../shared/http/openapi-contract.ts";
import { configFor } from "./fakes/setup.ts";
import { gatewayHandler, inProcess, mcpClient, refusedUrls, startWorld, type World } from "./http/harness.ts";

// Responses are read loosely in assertions.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Loose = any;

const TOKEN = "gateway-token-0123456789abcdef";
const BASE = "http://gw.test";
let world: World;

before(async () => {
  world = await startWorld();
});
after(() => world.close());

const get = (handler: ReturnType<typeof gatewayHandler>, path: string, headers: Record<string, string> = {}) =>
  handler(new Request(`${BASE}${path}`, { headers }), { clientAddress: "203.0.113.9" });

test("routes: /healthz, unknown routes, wrong methods and the 405 on /mcp", async () => {
  const handler = gatewayHandler(world);
  const health = await get(handler, "/healthz");
  assert.equal(health.status, 200);
  assert.deepEqual(await health.json(), { ok: true, stage: 5 });
  assert.equal(health.headers.get("cache-control"), "no-store", "a probe's answer is never cached");

  const missing = await get(handler, "/api/v2/page-report?url=x");
  assert.equal(missing.status, 404);
  const body = (await missing.json()) as Loose;
  assert.equal(body.error.code, "NOT_FOUND");
  assert.match(body.error.message, /GET \/healthz, \/api\/v1\/page-report\?url=.* and POST \/mcp$/);

  const garbled = await get(handler, "/api/v1/keyword-ideas?q=ev%zzcharging");
  assert.equal(garbled.status, 400, "malformed percent-encoding is no keyword");
  assert.equal(((await garbled.json()) as Loose).error.code, "INVALID_ARGUMENTS");

  const post = await handler(new Request(`${BASE}/api/v1/keyword-ideas?q=ev`, { method: "POST", body: "{}" }));
  assert.equal(post.status, 405);
  assert.equal(post.headers.get("allow"), "GET, HEAD");
  assert.equal(((await post.json()) as Loose).error.code, "METHOD_NOT_ALLOWED");

  for (const method of ["GET", "DELETE", "PUT"]) {
    const answer = await handler(new Request(`${BASE}/mcp`, { method }));
    assert.equal(answer.status, 405, method);
    assert.equal(answer.headers.get("allow"), "POST");
    const rpc = (await answer.json()) as Loose;
    assert.equal(rpc.jsonrpc, "2.0");
    assert.match(rpc.error.message, /use POST \/mcp/);
  }
});

test("MCP in-process: five tools, a keyless tool call against the fake providers, seo_audit_site LOCAL_ONLY", async () => {
  const handler = gatewayHandler(world);
  const session = await mcpClient(BASE, {}, inProcess(handler));
  try {
    const { tools } = await session.client.listTools();
    assert.deepEqual(
      tools.map((t) => t.name),
      ["seo_audit_site", "seo_page_report", "seo_keyword_ideas", "seo_rank_check", "seo_authority"],
    );
    // url (a crawl) or report_id (a stored report): neither is required by the schema alone
    assert.ok(tools[0]?.inputSchema.properties?.url && tools[0].inputSchema.properties.report_id, "the audit tool keeps its real schema");
    const ideas = await session.call("seo_keyword_ideas", { query: "ev charging", expand: false });
    assert.equal(ideas.isError, undefined, ideas.text);
    assert.ok((ideas.structured.totalIdeas as { value: number }).value >= 4);
    // rendering (render: true) is local-only like the crawl it rides on
    for (const args of [{ url: "https://example.com/" }, { url: "https://example.com/", render: true }, {}, { url: 42 }]) {
      const audit = await session.call("seo_audit_site", args);
      assert.equal(audit.isError, true);
      assert.match(audit.text, /^LOCAL_ONLY: .*seo-audit-mcp mcp.*seo-audit-mcp audit <url>.*npm run pack:npm/);
    }
  } finally {
    await session.close();
  }
});

test("MCP: the gateway declares no tasks and answers a task-augmented seo_audit_site call LOCAL_ONLY, as a plain one", async () => {
  const handler = gatewayHandler(world);
  const headers = { accept: "application/json, text/event-stream", "content-type": "application/json" };
  const rpc = async (body: unknown) =>
    (await (await handler(new Request(`${BASE}/mcp`, { method: "POST", headers, body: JSON.stringify(body) }))).json()) as {
      result: { capabilities?: Record<string, unknown>; isError?: boolean; content?: { text: string }[]; task?: unknown };
    };
  const clientInfo = { name: "c", version: "1" };
  const init = await rpc({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo } });
  assert.equal(init.result.capabilities?.tasks, undefined);
  const params = { name: "seo_audit_site", arguments: { url: "https://example.com/" }, task: { ttl: 60_000 } };
  const call = await rpc({ jsonrpc: "2.0", id: 2, method: "tools/call", params });
  assert.equal(call.result.task, undefined);
  assert.equal(call.result.isError, true);
  assert.match(call.result.content?.[0]?.text ?? "", /^LOCAL_ONLY: /);
});

test("MCP: a progress-tracked call streams its progress notifications, then the result", async () => {
  const handler = gatewayHandler(world);
  const session = await mcpClient(BASE, {}, inProcess(handler));
  const seen: number[] = [];
  try {
    const result = await session.client.callTool(
      { name: "seo_keyword_ideas", arguments: { query: "heat pump", expand: true } },
      undefined,
      { onprogress: (p) => seen.push(p.progress) },
    );
    assert.equal(result.isError, undefined);
    assert.ok(seen.length >= 5, `progress notifications: ${seen.length}`);
    assert.deepEqual([...seen].sort((a, b) => a - b), seen, "in order");
  } finally {
    await session.close();
  }
  const raw = await handler(
    new Request(`${BASE}/mcp`, {
      method: "POST",
      headers: { accept: "application/json, text/event-stream", "content-type": "application/json" },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 7,
        method: "tools/call",
        params: { name: "seo_keyword_ideas", arguments: { query: "solar", expand: false }, _meta: { progressToken: "p" } },
      }),
    }),
  );
  assert.equal(raw.headers.get("content-type"), "text/event-stream");
  assert.match(await raw.text(), /event: message\ndata: \{"result":.*"id":7\}/s);
});

test("auth: GATEWAY_AUTH_TOKEN guards every route but /healthz and preflight; 401 envelope or JSON-RPC error", async () => {
  const handler = gatewayHandler(world, { authToken: TOKEN });
  assert.equal((await get(handler, "/healthz")).status, 200);
  const preflight = await handler(
    new Request(`${BASE}/mcp`, {
      method: "OPTIONS",
      headers: { origin: "https://app.example", "access-control-request-method": "POST" },
    }),
  );
  assert.equal(preflight.status, 204);

  const refused: Record<string, string>[] = [
    {},
    { authorization: "Bearer wrong-token-0123456789" },
    { "x-api-key": TOKEN },
    { authorization: TOKEN },
  ];
  for (const headers of refused) {
    const rest = await get(handler, "/api/v1/keyword-ideas?q=ev", headers);
    assert.equal(rest.status, 401, JSON.stringify(headers));
    assert.match(rest.headers.get("www-authenticate") ?? "", /^Bearer/);
    assert.equal(((await rest.json()) as Loose).error.code, "UNAUTHORIZED");
    assert.equal((await get(handler, "/nowhere", headers)).status, 401, "unknown routes are not revealed");
  }
  const rpc = await handler(
    new Request(`${BASE}/mcp`, {
      method: "POST",
      headers: { accept: "application/json, text/event-stream", "content-type": "application/json" },
      body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
    }),
  );
  assert.equal(rpc.status, 401);
  const body = (await rpc.json()) as Loose;
  assert.equal(body.jsonrpc, "2.0");
  assert.match(body.error.message, /^UNAUTHORIZED: .*Authorization: Bearer/);
  await assert.rejects(mcpClient(BASE, {}, inProcess(handler)), /UNAUTHORIZED/);

  const session = await mcpClient(BASE, { authorization: `Bearer ${TOKEN}` }, inProcess(handler));
  assert.equal((await session.client.listTools()).tools.length, 5);
  await session.close();
  assert.equal((await get(handler, "/api/v1/openapi.json", { authorization: `bearer ${TOKEN}` })).status, 200);
});

test("CORS: * when unset, only listed origins otherwise; statuses and headers survive", async () => {
  const open = gatewayHandler(world);
  const any = await get(open, "/nowhere", { origin: "https://anyone.example" });
  assert.equal(any.status, 404);
  assert.equal(any.headers.get("access-control-allow-origin"), "*");

  const closed = gatewayHandler(world, { allowedOrigins: ["https://app.example"], authToken: TOKEN });
  const listed = await get(closed, "/api/v1/keyword-ideas?q=ev", { origin: "https://app.example" });
  assert.equal(listed.status, 401, "the 401 keeps its status under CORS");
  assert.equal(listed.headers.get("access-control-allow-origin"), "https://app.example");
  assert.match(listed.headers.get("access-control-expose-headers") ?? "", /www-authenticate/);
  const other = await get(closed, "/healthz", { origin: "https://evil.example" });
  assert.equal(other.status, 200);
  assert.equal(other.headers.get("access-control-allow-origin"), null);
  assert.match(other.headers.get("vary") ?? "", /origin/i);

  const preflight = await closed(
    new Request(`${BASE}/mcp`, {
      method: "OPTIONS",
      headers: {
        origin: "https://app.example",
        "access-control-request-method": "POST",
        "access-control-request-headers": "authorization, x-seo-psi-key",
      },
    }),
  );
  assert.equal(preflight.status, 204);
  const allowed = preflight.headers.get("access-control-allow-headers") ?? "";
  for (const name of ["authorization", "content-type", "mcp-protocol-version", "x-seo-psi-key", "x-seo-crux-key", "x-seo-opr-key", "x-seo-bing-key", "x-seo-gsc-credentials"]) {
    assert.ok(allowed.split(", ").includes(name), name);
  }
});

test("rate limit: per client address, 429 with retry-after (envelope on REST, JSON-RPC on /mcp); /healthz exempt", async () => {
  let now = 0;
  const handler = gatewayHandler(world, { ratePerMinute: 2, now: () => now });
  const from = (address: string, path: string) => handler(new Request(`${BASE}${path}`), { clientAddress: address });
  assert.equal((await from("198.51.100.1", "/api/v1/openapi.json")).status, 200);
  assert.equal((await from("198.51.100.1", "/api/v1/openapi.json")).status, 200);
  const limited = await from("198.51.100.1", "/api/v1/openapi.json");
  assert.equal(limited.status, 429);
  assert.equal(limited.headers.get("retry-after"), "60");
  assert.equal(((await limited.json()) as Loose).error.code, "RATE_LIMITED");
  const rpc = await from("198.51.100.1", "/mcp");
  assert.equal(rpc.status, 429);
  assert.match(((await rpc.json()) as Loose).error.message, /^RATE_LIMITED/);
  assert.equal((await from("198.51.100.2", "/api/v1/openapi.json")).status, 200, "another client is not limited");
  assert.equal((await from("198.51.100.1", "/healthz")).status, 200);
  now = 60_000;
  assert.equal((await from("198.51.100.1", "/api/v1/openapi.json")).status, 200, "a new window");
});

test("REST: keyword ideas and page report answer the tool's structured result; bad queries are 400", async () => {
  const handler = gatewayHandler(world);
  const ideas = await get(handler, "/api/v1/keyword-ideas?q=ev%20charging&expand=false&limit=3");
  assert.equal(ideas.status, 200);
  const body = (await ideas.json()) as Loose;
  assert.equal(body.query, "ev charging");
  assert.equal(body.ideas.length, 3);
  assert.equal(body.ideas[0].provenance.kind, "provider");

  const page = await get(handler, "/api/v1/page-report?url=https%3A%2F%2Fshop.example%2Fold&strategy=mobile");
  assert.equal(page.status, 200);
  const report = (await page.json()) as Loose;
  assert.equal(report.page.status.value, 200);
  assert.equal(report.page.finalUrl.value, "https://shop.example/page");
  assert.equal(report.pageSpeed.mobile.provenance.code, "no-key");

  const bad: [string, RegExp][] = [
    ["/api/v1/page-report", /url/],
    ["/api/v1/page-report?url=", /url must not be empty/],
    ["/api/v1/page-report?url=https://a.example/&url=https://b.example/", /at most once/],
    ["/api/v1/page-report?url=https://a.example/&verbose=1", /Unknown query parameter "verbose"/],
    ["/api/v1/page-report?url=ftp://a.example/", /not an absolute http\(s\) URL/],
    ["/api/v1/page-report?url=https://a.example/&strategy=tablet", /strategy/],
    ["/api/v1/keyword-ideas?q=ev&limit=0", /limit/],
    ["/api/v1/keyword-ideas?q=ev&limit=2000", /limit/],
    ["/api/v1/keyword-ideas?q=ev&expand=yes", /expand must be true or false/],
    ["/api/v1/keyword-ideas?q=x", /^q: needs at least two non-blank characters/],
  ];
  for (const [path, message] of bad) {
    const answer = await get(handler, path);
    assert.equal(answer.status, 400, path);
    const error = ((await answer.json()) as Loose).error;
    assert.equal(error.code, "INVALID_ARGUMENTS", path);
    assert.match(error.message, message, path);
  }
});

test("egress: page reports of loopback, private, link-local, metadata and local names are refused before any connection", async () => {
  const handler = gatewayHandler(world);
  const before = world.trap.requests.length;
  for (const url of refusedUrls(world.trap.url)) {
    const answer = await get(handler, `/api/v1/page-report?url=${encodeURIComponent(url)}`);
    const error = ((await answer.json()) as Loose).error;
    assert.equal(answer.status, 403, `${url}: ${error.message}`);
    assert.equal(error.code, "UPSTREAM_BLOCKED", url);
    assert.match(error.message, /^Outbound request refused/, url);
  }
  // After DNS: a public-looking name that resolves to a private address, or to one among public ones.
  for (const host of ["rebound.example", "mixed.example"]) {
    const answer = await get(handler, `/api/v1/page-report?url=http://${host}/`);
    assert.equal(answer.status, 403, host);
  }
  // Every redirect hop is checked again: a public page redirecting to loopback or metadata.
  for (const to of [`${world.trap.url}/`, "http://169.254.169.254/", "http://localhost/"]) {
    const answer = await get(handler, `/api/v1/page-report?url=${encodeURIComponent(`http://redirector.example/r?to=${to}`)}`);
    const error = ((await answer.json()) as Loose).error;
    assert.equal(answer.status, 403, `${to}: ${error.message}`);
    assert.match(error.message, /redirect/);
  }
  assert.deepEqual(
    world.trap.requests.slice(before).map((r) => r.split("?")[0]),
    ["/r", "/r", "/r"],
    "only the public redirector was contacted",
  );

  const session = await mcpClient(BASE, {}, inProcess(handler));
  const refused = await session.call("seo_page_report", { url: `${world.trap.url}/` });
  await session.close();
  assert.equal(refused.isError, true);
  assert.match(refused.text, /^UPSTREAM_BLOCKED: Outbound request refused: 127\.0\.0\.1 resolves to a loopback/);
});

test("egress open (the stdio adapter): the same handler fetches a local page", async () => {
  const handler = gatewayHandler(world, { egress: "open" });
  const answer = await get(handler, `/api/v1/page-report?url=${encodeURIComponent(`${world.trap.url}/`)}`);
  assert.equal(answer.status, 200);
  assert.equal(((await answer.json()) as Loose).page.title.value, "trap");
});

test("/api/v1/openapi.json is a valid OpenAPI 3.1 document generated from the route schemas", async () => {
  for (const authToken of [undefined, TOKEN]) {
    const handler = gatewayHandler(world, authToken ? { authToken } : {});
    const answer = await get(handler, "/api/v1/openapi.json", authToken ? { authorization: `Bearer ${authToken}` } : {});
    assert.equal(answer.status, 200);
    const doc = (await answer.json()) as Loose;
    await validate(structuredClone(doc));
    assert.equal(doc.openapi, "3.1.0");
    const page = doc.paths["/api/v1/page-report"].get;
    const url = page.parameters.find((p: Loose) => p.name === "url");
    assert.deepEqual([url.in, url.required, url.schema.maxLength], ["query", true, 2000]);
    assert.ok(page.parameters.some((p: Loose) => p.in === "header" && p.name === "x-seo-psi-key"));
    const limit = doc.paths["/api/v1/keyword-ideas"].get.parameters.find((p: Loose) => p.name === "limit");
    assert.deepEqual(limit.schema, { type: "integer", minimum: 1, maximum: 200 }, "a number, as a generated client types it");
    assert.equal(page.responses["200"].content["application/json"].schema.required.includes("pageSpeed"), true);
    assert.ok(doc.components.schemas.provenance, "the tools' $defs are hoisted");
    assert.equal(Boolean(page.responses["401"]), Boolean(authToken));
    const lint = await redoclyLint(doc);
    assert.equal(lint.code, 0, lint.output);
    assert.doesNotMatch(lint.output, /warning|NETWORK ATTEMPT/i, "Redocly's recommended lint passes without a warning, offline");
    assert.deepEqual(doc.paths["/healthz"].get.security ?? undefined, authToken ? [] : undefined);
  }
});

test("the deployer's keys are the fallback; a request's own key replaces them for that request only", async () => {
  const handler = gatewayHandler(world, { config: configFor(world.fakes, true) });
  const from = world.fakes.log.length;
  const authority = (headers: Record<string, string>) => mcpClient(BASE, headers, inProcess(handler));
  const deployer = await authority({});
  await deployer.call("seo_authority", { domains: ["fallback.example"] });
  await deployer.close();
  const own = await authority({ "x-seo-opr-key": "byok-opr-EEEE5555" });
  const rejected = await own.call("seo_authority", { domains: ["own.example"] });
  await own.close();
  assert.match(JSON.stringify(rejected.structured), /key-rejected/);
  assert.doesNotMatch(rejected.text, /byok-opr-EEEE5555/);
  const opr = world.fakes.log.slice(from).filter((e) => e.provider === "opr");
  assert.deepEqual(
    opr.map((e) => [e.url.includes("fallback") ? "fallback" : "own", e.headers["api-opr"]]),
    [
      ["fallback", "opr-key-CCCC3333"],
      ["own", "byok-opr-EEEE5555"],
    ],
  );
});
