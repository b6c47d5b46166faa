import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { createSeoHandler } from "../../src/seo/handler.ts";
import { loadConfig } from "../../src/seo/config.ts";
import { ERRORS, type ErrorCode } from "../../src/shared/errors.ts";

const TOKEN = "fuzz-token-0123456789abcdef";

/**
 * Every outbound request answers at once in-process: providers with their wire shapes, pages
 * with a small HTML document. So only the gateway itself can fail a request here.
 */
const network: typeof fetch = async (input) => {
  const url = new URL(String(input));
  if (url.pathname.includes("ranks/domain")) return Response.json({ domain: "x", ranks: [] });
  if (url.hostname.endsWith(".providers.test")) return Response.json(["q", ["idea one", "idea two"]]);
  return new Response("<html><head><title>t</title></head><body><h1>x</h1></body></html>", {
    headers: { "content-type": "text/html" },
  });
};

const config = loadConfig({
  env: {
    SEO_GOOGLE_AUTOCOMPLETE_ENDPOINT: "https://gac.providers.test/s",
    SEO_BING_AUTOCOMPLETE_ENDPOINT: "https://bac.providers.test/s",
    SEO_DDG_AUTOCOMPLETE_ENDPOINT: "https://dac.providers.test/s",
    SEO_TRANCO_ENDPOINT: "https://tranco.providers.test/api",
    SEO_TRANCO_INTERVAL_MS: "0",
  },
});

const handler = createSeoHandler({
  provider: { fetch: network, now: () => new Date(), sleep: async () => {} },
  config,
  // Every name resolves to a public address: a refusal can only come from the guard's own rules.
  egress: { resolve: async () => ["93.184.216.34"], connect: network },
  authToken: TOKEN,
  allowedOrigins: ["https://app.example"],
  ratePerMinute: 1_000_000,
});

const PATHS = ["/mcp", "/healthz", "/api/v1/page-report", "/api/v1/keyword-ideas", "/api/v1/openapi.json"];
const PARAMS = ["url", "q", "strategy", "response_format", "limit", "expand", "country", "language", "site"];
const text = fc.string({ unit: "grapheme", maxLength: 40 });
const headerValue = fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 60 });

const url = fc.oneof(
  fc.webUrl({ withQueryParameters: true, withFragments: true }),
  fc.constantFrom("http://127.1/", "http://[::1]/", "http://0x7f.1/", "http://localhost/", "ftp://x.example/", "https://shop.example/page"),
  text,
);

const queryValue = fc.oneof(url, url, fc.constantFrom("ev charging", "heat pump prices"), text, fc.integer({ min: -5, max: 5000 }).map(String), fc.constantFrom("true", "false", "mobile", "detailed", ""));

const query = fc
  .array(fc.tuple(fc.oneof(fc.constantFrom(...PARAMS), text), queryValue), { maxLength: 5 })
  .map((pairs) => new URLSearchParams(pairs).toString());

const path = fc.oneof(
  { weight: 5, arbitrary: fc.constantFrom(...PATHS) },
  { weight: 1, arbitrary: text.map((t) => `/${encodeURIComponent(t)}`) },
  { weight: 1, arbitrary: fc.constantFrom("/api/v1", "/api/v1/", "/MCP", "/mcp/", "//mcp", "/api/v1/page-report/x") },
);

const rpcArgs = fc.oneof(
  fc.record({ url }, { requiredKeys: [] }),
  fc.record({ query: text, expand: fc.constant(false), limit: fc.integer({ min: -1, max: 300 }) }, { requiredKeys: [] }),
  fc.record({ domains: fc.array(text, { maxLength: 3 }), keyword: text, domain: text }, { requiredKeys: [] }),
  fc.jsonValue({ maxDepth: 2 }),
);

const rpc = fc.record(
  {
    jsonrpc: fc.constantFrom("2.0", "2.0", "2.0", "1.0"),
    id: fc.oneof(fc.integer(), text, fc.constant(null)),
    method: fc.constantFrom("initialize", "tools/list", "tools/call", "ping", "notifications/initialized", "resources/list", "x"),
    params: fc.oneof(
      fc.record({
        name: fc.constantFrom("seo_page_report", "seo_keyword_ideas", "seo_rank_check", "seo_authority", "seo_audit_site", "nope"),
        arguments: rpcArgs,
        _meta: fc.option(fc.record({ progressToken: fc.oneof(fc.integer(), text) }), { nil: undefined }),
      }),
      fc.record({ protocolVersion: fc.constantFrom("2025-06-18", "2024-11-05", "1999"), capabilities: fc.constant({}), clientInfo: fc.constant({ name: "f", version: "1" }) }),
      fc.jsonValue({ maxDepth: 2 }),
    ),
  },
  { requiredKeys: ["method"] },
);

const body = fc.oneof(rpc.map((m) => JSON.stringify(m)), fc.array(rpc, { maxLength: 3 }).map((m) => JSON.stringify(m)), text, fc.jsonValue().map((j) => JSON.stringify(j)));

const extras = {
  origin: fc.option(fc.constantFrom("https://app.example", "https://evil.example", "null"), { nil: undefined }),
  preflight: fc.constant(false),
  byok: fc.option(fc.tuple(fc.constantFrom("x-seo-psi-key", "x-seo-opr-key", "x-seo-gsc-credentials", "x-seo-bing-key"), headerValue), { nil: undefined }),
};
const goodAuth = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom(`Bearer ${TOKEN}`, `bearer  ${TOKEN}`) },
  { weight: 1, arbitrary: fc.constantFrom("Bearer wrong", undefined) },
);

/** Anything at all: methods, paths and headers at random. */
const anyRequest = fc.record({
  method: fc.constantFrom("GET", "POST", "PUT", "DELETE", "OPTIONS", "HEAD", "PATCH"),
  path,
  query,
  body,
  auth: fc.constantFrom(`Bearer ${TOKEN}`, "Bearer wrong", TOKEN, undefined),
  accept: fc.constantFrom("application/json, text/event-stream", "application/json", "*/*", undefined),
  contentType: fc.constantFrom("application/json", "text/plain", undefined),
  ...extras,
  preflight: fc.boolean(),
});

/** REST calls a client would make, with values good and bad. */
const restCall = (route: string, param: string, value: fc.Arbitrary<string>) =>
  fc.record({
    method: fc.constant("GET"),
    path: fc.constant(route),
    query: fc
      .tuple(value, fc.option(query, { freq: 3, nil: "" }))
      .map(([v, more]) => `${new URLSearchParams([[param, v]]).toString()}${more ? `&${more}` : ""}`),
    body: fc.constant(""),
    auth: goodAuth,
    accept: fc.constant(undefined),
    contentType: fc.constant(undefined),
    ...extras,
  });

const restRequest = fc.oneof(
  restCall("/api/v1/page-report", "url", url),
  restCall("/api/v1/keyword-ideas", "q", fc.oneof(fc.constantFrom("ev charging", "heat pump prices"), text)),
);

/** MCP messages as a client sends them. */
const mcpRequest = fc.record({
  method: fc.constant("POST"),
  path: fc.constant("/mcp"),
  query: fc.constant(""),
  body: fc.oneof({ weight: 4, arbitrary: rpc.map((m) => JSON.stringify(m)) }, { weight: 1, arbitrary: body }),
  auth: goodAuth,
  accept: fc.constantFrom(...Array<string>(6).fill("application/json, text/event-stream"), "application/json"),
  contentType: fc.constantFrom(...Array<string>(6).fill("application/json"), "text/plain"),
  ...extras,
});

const request = fc.oneof(anyRequest, restRequest, mcpRequest);

type Sample = typeof request extends fc.Arbitrary<infer T> ? T : never;

function toRequest(sample: Sample): Request {
  const headers = new Headers();
  if (sample.auth) headers.set("authorization", sample.auth);
  if (sample.accept) headers.set("accept", sample.accept);
  if (sample.contentType) headers.set("content-type", sample.contentType);
  if (sample.origin) headers.set("origin", sample.origin);
  if (sample.preflight) headers.set("access-control-request-method", "POST");
  if (sample.byok) headers.set(sample.byok[0], sample.byok[1]);
  const hasBody = sample.method !== "GET" && sample.method !== "HEAD";
  return new Request(`http://gw.test${sample.path}${sample.query ? `?${sample.query}` : ""}`, {
    method: sample.method,
    headers,
    ...(hasBody ? { body: sample.body } : {}),
  });
}

async function checkAnswer(sample: Sample, response: Response): Promise<void> {
  const where = `${sample.method} ${sample.path}`;
  assert.ok(response.status < 500, `${where} answered ${response.status}: ${await response.clone().text()}`);
  if (response.status < 400 || sample.method === "HEAD") {
    await response.body?.cancel();
    return;
  }
  const answer = (await response.json()) as { jsonrpc?: string; error?: { code: unknown; message: unknown } };
  assert.equal(typeof answer.error?.message, "string", where);
  if (answer.jsonrpc === "2.0") {
    assert.equal(typeof answer.error?.code, "number", `${where}: a JSON-RPC error`);
    return;
  }
  const code = answer.error?.code as ErrorCode;
  assert.ok(Object.hasOwn(ERRORS, code), `${where}: ${String(code)} is in the registry`);
  assert.equal(response.status, ERRORS[code].status, `${where}: status of ${code}`);
}

test("fuzz: every gateway route answers any request with a typed error or a result, never a 5xx", async () => {
  await fc.assert(
    fc.asyncProperty(request, async (sample) => {
      const response = await handler(toRequest(sample), { clientAddress: "203.0.113.7" });
      await checkAnswer(sample, response);
    }),
    { numRuns: 500, interruptAfterTimeLimit: 30_000, seed: Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31) },
  );
});
