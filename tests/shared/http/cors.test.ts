import assert from "node:assert/strict";
import { test } from "node:test";
import { errorResponse } from "../../../src/shared/errors.ts";
import { createCors } from "../../../src/shared/http/cors.ts";
import { bodyTextOf, json } from "../../../src/shared/http/respond.ts";

const from = (origin?: string, init: RequestInit = {}) =>
  new Request("http://api/x", {
    ...init,
    headers: { ...(origin ? { origin } : {}), ...(init.headers ?? {}) },
  });

test("cors.apply() keeps 404, 400 and 429 statuses, bodies and headers", async () => {
  const cors = createCors({ origins: "*" });
  for (const [code, status] of [
    ["NOT_FOUND", 404],
    ["INVALID_ARGUMENTS", 400],
    ["RATE_LIMITED", 429],
  ] as const) {
    const res = cors.apply(errorResponse(code, "m", { "retry-after": "7" }), from("https://map.example"));
    assert.equal(res.status, status);
    assert.equal(res.headers.get("access-control-allow-origin"), "*");
    assert.equal(res.headers.get("access-control-expose-headers"), "retry-after, ratelimit, ratelimit-policy");
    assert.equal(res.headers.get("retry-after"), "7");
    assert.equal(((await res.json()) as { error: { code: string } }).error.code, code);
  }
});

test("cors.apply() keeps the json() text fast path and copies immutable responses", async () => {
  const cors = createCors({ origins: "*" });
  const res = json({ a: 1 }, { status: 201 });
  assert.equal(cors.apply(res, from("https://m")), res);
  assert.equal(bodyTextOf(res), '{"a":1}');
  const immutable = Response.redirect("http://elsewhere/", 302);
  const copied = cors.apply(immutable, from("https://m"));
  assert.equal(copied.status, 302);
  assert.equal(copied.headers.get("location"), "http://elsewhere/");
  assert.equal(copied.headers.get("access-control-allow-origin"), "*");
});

test("cors with an origin list echoes allowed origins only, and always varies on origin", () => {
  const cors = createCors({ origins: ["https://map.example"] });
  const ok = cors.apply(new Response("x", { status: 404 }), from("https://map.example"));
  assert.equal(ok.status, 404);
  assert.equal(ok.headers.get("access-control-allow-origin"), "https://map.example");
  assert.equal(ok.headers.get("vary"), "origin");
  const other = cors.apply(new Response("x"), from("https://evil.example"));
  assert.equal(other.headers.get("access-control-allow-origin"), null);
  assert.equal(other.headers.get("vary"), "origin");
  const none = cors.apply(new Response("x"), from());
  assert.equal(none.headers.get("vary"), "origin");
});

test("cors.preflight() answers 204 with methods and headers, only to preflights", () => {
  const cors = createCors({ origins: ["https://map.example"] });
  assert.equal(cors.preflight(from("https://map.example")), undefined);
  assert.equal(cors.preflight(from("https://map.example", { method: "OPTIONS" })), undefined);
  const pre = cors.preflight(
    from("https://map.example", { method: "OPTIONS", headers: { "access-control-request-method": "GET" } }),
  );
  assert.equal(pre?.status, 204);
  assert.equal(pre?.headers.get("access-control-allow-origin"), "https://map.example");
  assert.match(pre?.headers.get("access-control-allow-methods") ?? "", /GET/);
  assert.match(pre?.headers.get("access-control-allow-headers") ?? "", /x-api-key/);
  const refused = cors.preflight(
    from("https://evil.example", { method: "OPTIONS", headers: { "access-control-request-method": "GET" } }),
  );
  assert.equal(refused?.status, 204);
  assert.equal(refused?.headers.get("access-control-allow-origin"), null);
  const anyCors = createCors({ origins: "*" });
  const bare = anyCors.preflight(
    new Request("http://api/x", { method: "OPTIONS", headers: { "access-control-request-method": "GET" } }),
  );
  assert.equal(bare?.status, 204);
});

test("a preflight passed through apply() names origin in vary once", () => {
  const cors = createCors({ origins: ["https://map.example"] });
  for (const origin of ["https://map.example", "https://evil.example"]) {
    const request = from(origin, { method: "OPTIONS", headers: { "access-control-request-method": "GET" } });
    const res = cors.apply(cors.preflight(request) as Response, request);
    assert.equal(res.headers.get("vary"), "origin");
  }
  const res = cors.apply(json({}, { headers: { vary: "Accept-Encoding" } }), from("https://map.example"));
  assert.equal(res.headers.get("vary"), "Accept-Encoding, origin");
});
