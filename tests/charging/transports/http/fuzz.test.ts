/**
 * Bounded fast-check fuzz of every route and every MCP tool: whatever the method, path, query,
 * headers, body or tool arguments, the answer is never a 5xx, and every error is the typed
 * envelope (REST) or a JSON-RPC error / an `isError` result naming a registered code (MCP).
 * In-process for breadth, then raw requests through the built server's socket.
 */
import assert from "node:assert/strict";
import { connect } from "node:net";
import { after, before, test } from "node:test";
import fc from "fast-check";
import { SitesQuery } from "../../../../src/charging/operations/rest-queries.ts";
import { ERROR_CODES } from "../../../../src/shared/errors.ts";
import { startBuilt, stop } from "../../../../scripts/smoke.ts";
import { ensureBuilt } from "../../built.ts";
import { base, make } from "./harness.ts";

const SITES_PARAMS = Object.keys(SitesQuery.entries);

const CODES: readonly string[] = ERROR_CODES;
const PATHS = ["/healthz", "/api/v1/sites", "/api/v1/sites/", "/api/v1/status/", "/api/v1/openapi.json", "/mcp", "/", "/api/v1/", "/api/v2/sites"];
const IDS = ["ocm%3A1", "ocm:2", "osm%3Anode%2F10", "osm:way/20", "ocm%3A99999999999999999999", "%E0%A4%A", "..%2F..", "ocm:"];

const piece = fc.oneof(
  fc.constantFrom(...IDS),
  fc.string({ maxLength: 12 }),
  fc.stringMatching(/^(%[0-9A-Fa-f]{2}|[a-z0-9:/._~-]){0,12}$/),
);
const pathArb = fc.tuple(fc.constantFrom(...PATHS), fc.option(piece, { nil: "" })).map(([p, rest]) => p + rest);

const numberish = fc.oneof(
  fc.integer({ min: -1_000_000, max: 1_000_000 }).map(String),
  fc.double({ noNaN: false }).map(String),
  fc.constantFrom("NaN", "Infinity", "1e3", "0x10", "+5", " 5", "", "-0", "1.0", "180.0000001"),
  fc.array(fc.double({ min: -200, max: 200, noNaN: true }), { minLength: 1, maxLength: 5 }).map((xs) => xs.join(",")),
);
const queryArb = fc
  .array(
    fc.tuple(fc.oneof(fc.constantFrom(...SITES_PARAMS), fc.string({ maxLength: 8 })), fc.oneof(numberish, fc.string({ maxLength: 70 }), fc.constantFrom("true", "false", "geojson", "json", "ccs"))),
    { maxLength: 6 },
  )
  .map((pairs) => (pairs.length ? `?${new URLSearchParams(pairs).toString()}` : ""));

const headerArb = fc.record(
  {
    accept: fc.constantFrom("application/geo+json", "application/json", "*/*", "text/html", ""),
    "accept-encoding": fc.constantFrom("gzip", "br", "gzip;q=0", "identity", "*", "br;q=abc, gzip"),
    "if-none-match": fc.oneof(fc.constant("*"), fc.string({ maxLength: 30 }).map((t) => `"${t.replace(/["\r\n]/g, "")}"`)),
    "x-api-key": fc.string({ maxLength: 40 }).map((k) => k.replace(/[^\x21-\x7e]/g, "")),
    origin: fc.constantFrom("https://map.example", "null", "http://localhost:5173"),
    "content-type": fc.constantFrom("application/json", "text/plain", "application/x-www-form-urlencoded"),
  },
  { requiredKeys: [] },
);

const methodArb = fc.constantFrom("GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS");
const bodyArb = fc.oneof(fc.json(), fc.string({ maxLength: 200 }), fc.constant('{"jsonrpc":"2.0","id":1,"method":"tools/list"}'));

function assertEnvelope(status: number, text: string, where: string): void {
  const parsed = JSON.parse(text) as { error?: { code?: unknown; message?: unknown } };
  assert.deepEqual(Object.keys(parsed), ["error"], where);
  assert.deepEqual(Object.keys(parsed.error ?? {}), ["code", "message"], where);
  assert.ok(CODES.includes(parsed.error?.code as string), `${where}: code ${String(parsed.error?.code)}`);
  assert.equal(typeof parsed.error?.message, "string", where);
  assert.ok(status >= 400, where);
}

test("every route, any method, path, query, headers and body: never a 5xx, errors are the envelope (fast-check)", async () => {
  const handler = make({ ratePerMinute: 1_000_000_000, encodings: ["br", "gzip"] });
  await fc.assert(
    fc.asyncProperty(methodArb, pathArb, queryArb, headerArb, bodyArb, async (method, path, query, headers, body) => {
      let url: string;
      try {
        url = new URL(base + path + query).href;
      } catch {
        return;
      }
      const init: RequestInit = { method, headers };
      if (method !== "GET" && method !== "HEAD") init.body = body;
      const response = await handler(new Request(url, init), { clientAddress: "10.1.2.3" });
      const where = `${method} ${path}${query}`;
      assert.ok(response.status < 500, `${where} answered ${response.status}`);
      const encoded = response.headers.get("content-encoding");
      const text = method === "HEAD" || encoded ? "" : await response.text();
      if (new URL(url).pathname === "/mcp") {
        if (text) JSON.parse(text);
        return;
      }
      if (response.status >= 400 && text) assertEnvelope(response.status, text, where);
      if (response.status === 200 && text) JSON.parse(text);
    }),
    { numRuns: 600, interruptAfterTimeLimit: 20_000 },
  );
});

const argumentValue = fc.oneof(
  fc.double(),
  fc.integer(),
  fc.boolean(),
  fc.string({ maxLength: 80 }),
  fc.constant(null),
  fc.array(fc.double(), { maxLength: 5 }),
  fc.record({ minLon: fc.double(), minLat: fc.double(), maxLon: fc.double(), maxLat: fc.double() }, { requiredKeys: [] }),
);
const TOOL_KEYS = ["id", "bbox", "connector", "minPowerKw", "openOnly", "limit", "offset", "lat", "lon", "radiusKm", "minPower", "near"];
const argumentsArb = fc.oneof(
  fc.dictionary(fc.constantFrom(...TOOL_KEYS), argumentValue, { maxKeys: 6 }),
  fc.anything({ maxDepth: 2 }),
);

test("every MCP tool, any arguments: HTTP 200 with a JSON-RPC error or a result; isError texts start with a registered code (fast-check)", async () => {
  const handler = make({ ratePerMinute: 1_000_000_000 });
  await fc.assert(
    fc.asyncProperty(fc.constantFrom("search_sites", "find_nearby_sites", "get_site", "get_site_status", "no_such_tool"), argumentsArb, async (name, args) => {
      const body = JSON.stringify({ jsonrpc: "2.0", id: 7, method: "tools/call", params: { name, arguments: args } });
      const response = await handler(
        new Request(`${base}/mcp`, {
          method: "POST",
          headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
          body,
        }),
        { clientAddress: "10.1.2.3" },
      );
      assert.equal(response.status, 200, body);
      const answer = (await response.json()) as { result?: { isError?: boolean; content?: { text: string }[] }; error?: { code: number } };
      if (answer.error) {
        assert.equal(typeof answer.error.code, "number");
        return;
      }
      assert.ok(answer.result, body);
      if (answer.result.isError) {
        const code = answer.result.content?.[0]?.text.split(":")[0] ?? "";
        assert.ok(CODES.includes(code), `${body} -> ${answer.result.content?.[0]?.text}`);
      }
    }),
    { numRuns: 400, interruptAfterTimeLimit: 20_000 },
  );
});

let server: Awaited<ReturnType<typeof startBuilt>>;
before(async () => {
  ensureBuilt();
  server = await startBuilt({ CHARGING_RATE_LIMIT: "1000000000" });
});
after(() => stop(server.child));

/** The body of a raw HTTP/1.1 answer, chunked framing undone. */
function bodyOf(answer: string): string {
  const split = answer.indexOf("\r\n\r\n");
  const head = answer.slice(0, split);
  let body = answer.slice(split + 4);
  if (!/\r\ntransfer-encoding: chunked/i.test(head)) return body;
  let out = "";
  for (;;) {
    const line = body.indexOf("\r\n");
    const size = Number.parseInt(body.slice(0, line), 16);
    if (!(size > 0)) return out;
    out += body.slice(line + 2, line + 2 + size);
    body = body.slice(line + 2 + size + 2);
  }
}

function rawRequest(text: string): Promise<string> {
  const port = Number(new URL(server.url).port);
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () => socket.end(text));
    let out = "";
    socket.setTimeout(5000, () => socket.destroy(new Error(`no answer to ${JSON.stringify(text.slice(0, 80))}`)));
    socket.on("data", (chunk) => (out += chunk));
    socket.on("close", () => resolve(out));
    socket.on("error", reject);
  });
}

test("raw requests to dist/charging.js, odd methods and bytes included: an HTTP answer, never a 5xx, errors enveloped (fast-check)", async () => {
  const lineArb = fc.tuple(
    fc.constantFrom("GET", "HEAD", "POST", "CONNECT", "TRACE", "PROPFIND", "BREW", "get", "OPTIONS"),
    fc.oneof(pathArb, fc.constant("*"), fc.constant("example.com:443"), fc.string({ maxLength: 20 }).map((s) => `/${s.replace(/[\s]/g, "")}`)),
    queryArb,
  );
  await fc.assert(
    fc.asyncProperty(lineArb, fc.boolean(), async ([method, target, query], withHost) => {
      const request = `${method} ${target}${query} HTTP/1.1\r\n${withHost ? "Host: 127.0.0.1\r\n" : ""}Connection: close\r\n\r\n`;
      const answer = await rawRequest(request);
      const status = Number(/^HTTP\/1\.1 (\d{3}) /.exec(answer)?.[1]);
      assert.ok(status >= 200 && status < 500, `${JSON.stringify(request)} -> ${answer.slice(0, 120)}`);
      const body = bodyOf(answer);
      if (status >= 400 && body && !/^\/mcp/.test(target)) assertEnvelope(status, body, request);
    }),
    { numRuns: 150, interruptAfterTimeLimit: 20_000 },
  );
});
