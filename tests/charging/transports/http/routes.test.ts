/**
 * The route table answers exactly the paths the prefix matcher before it answered: fixed paths
 * only as written, ids with any number of slashes, 405 only on known paths. Each row is
 * (method, path) → (status, code or "ok"), checked in-process.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { call, type Envelope, make } from "./harness.ts";

const CASES: [method: string, path: string, status: number, code: string][] = [
  ["GET", "/healthz", 200, "ok"],
  ["GET", "/healthz/", 404, "NOT_FOUND"],
  ["GET", "//healthz", 404, "NOT_FOUND"],
  ["GET", "/HEALTHZ", 404, "NOT_FOUND"],
  ["POST", "/healthz", 405, "METHOD_NOT_ALLOWED"],
  ["POST", "/healthz/", 404, "NOT_FOUND"],
  ["GET", "/api/v1/openapi.json", 200, "ok"],
  ["GET", "/api/v1/openapi.json/", 404, "NOT_FOUND"],
  ["GET", "/api/v1/openapiXjson", 404, "NOT_FOUND"],
  ["DELETE", "/api/v1/openapi.json", 405, "METHOD_NOT_ALLOWED"],
  ["GET", "/api/v1/sites", 200, "ok"],
  ["GET", "/api/v1/sites/", 200, "ok"],
  ["GET", "/api/v1/sites//", 404, "NOT_FOUND"],
  ["PUT", "/api/v1/sites/", 405, "METHOD_NOT_ALLOWED"],
  ["GET", "/api/v1/sites/ocm:1", 200, "ok"],
  ["GET", "/api/v1/sites/ocm%3A1", 200, "ok"],
  ["GET", "/api/v1/sites/osm:node/10", 200, "ok"],
  ["GET", "/api/v1/sites/osm%3Anode%2F10", 200, "ok"],
  ["GET", "/api/v1/sites/ocm:1/", 404, "NOT_FOUND"],
  ["GET", "/api/v1/sites/osm:node/10/x", 404, "NOT_FOUND"],
  ["PATCH", "/api/v1/sites/ocm:1", 405, "METHOD_NOT_ALLOWED"],
  ["POST", "/api/v1/sites/ocm:1/", 405, "METHOD_NOT_ALLOWED"],
  ["GET", "/api/v1/status/ocm:1", 200, "ok"],
  ["GET", "/api/v1/status/osm:node/10", 200, "ok"],
  ["GET", "/api/v1/status/", 404, "NOT_FOUND"],
  ["POST", "/api/v1/status/", 404, "NOT_FOUND"],
  ["GET", "/api/v1/status//", 404, "NOT_FOUND"],
  ["POST", "/api/v1/status/ocm:1", 405, "METHOD_NOT_ALLOWED"],
  ["GET", "/api/v1/statusx", 404, "NOT_FOUND"],
  ["GET", "/mcp/", 404, "NOT_FOUND"],
  ["POST", "/mcp/", 404, "NOT_FOUND"],
  ["GET", "/mcp?x=1", 405, "jsonrpc"],
  ["DELETE", "/", 404, "NOT_FOUND"],
];

test("every (method, path) gets the status and code the API has always answered", async () => {
  const handler = make();
  for (const [method, path, status, code] of CASES) {
    const { status: got, body, response } = await call(handler, path, { method });
    const where = `${method} ${path}`;
    assert.equal(got, status, where);
    if (code === "jsonrpc") assert.equal((body as { jsonrpc?: string }).jsonrpc, "2.0", where);
    else if (code !== "ok") assert.equal((body as Envelope).error.code, code, where);
    if (status === 405 && code !== "jsonrpc") assert.equal(response.headers.get("allow"), "GET, HEAD", where);
  }
});

test("HEAD answers every GET route with its headers", async () => {
  const handler = make();
  for (const path of ["/healthz", "/api/v1/openapi.json", "/api/v1/sites", "/api/v1/sites/ocm:1", "/api/v1/status/ocm:1"]) {
    const head = await handler(new Request(`http://api.test${path}`, { method: "HEAD" }), { clientAddress: "127.0.0.1" });
    assert.equal(head.status, 200, path);
    assert.match(head.headers.get("content-type") ?? "", /json/, path);
  }
});

test("the 404 message lists every route of the table", async () => {
  const { body } = await call(make(), "/nope");
  assert.equal(
    (body as Envelope).error.message,
    "No such route; the API has GET /healthz, /api/v1/sites, /api/v1/sites/:id, /api/v1/status/:id, /api/v1/route, /api/v1/reference, /api/v1/dataset, /api/v1/openapi.json and POST /api/v1/route, /mcp",
  );
});
