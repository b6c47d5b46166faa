import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { loadConfig } from "../../../src/seo/config.ts";
import { REST_ROUTES } from "../../../src/seo/http/paths.ts";
import { createSeoTools } from "../../../src/seo/tools/mod.ts";
import { recordingDeps } from "../fakes/setup.ts";
import { gatewayHandler, startWorld, type World } from "./harness.ts";

const BASE = "http://gw.test";
let world: World;

before(async () => {
  world = await startWorld();
});
after(() => world.close());

const errorOf = async (response: Response) => ((await response.json()) as { error: { code: string; message: string } }).error;

const REST_PATHS = Object.values(REST_ROUTES).map((route) => route.path);
const GET_PATHS = ["/healthz", ...REST_PATHS, "/api/v1/openapi.json"];

test("the route table: the tools' REST faces are the router's REST paths; the no-route message names every row", async () => {
  const tools = createSeoTools({ provider: recordingDeps(), config: loadConfig({ env: {} }), log: () => {} });
  const faces = tools.flatMap((tool) => (tool.rest ? [tool.rest.path] : []));
  assert.deepEqual(faces.toSorted(), REST_PATHS.toSorted());
  const handler = gatewayHandler(world);
  for (const path of faces) {
    const answer = await handler(new Request(`${BASE}${path}`));
    assert.equal(answer.status, 400, `${path} is a row: it asks for its parameter`);
  }
  const missing = await handler(new Request(`${BASE}/nope`));
  assert.equal(missing.status, 404);
  assert.equal(
    (await errorOf(missing)).message,
    "No such route; the gateway has GET /healthz, /api/v1/page-report?url=, /api/v1/keyword-ideas?q=, /api/v1/openapi.json and POST /mcp",
  );
});

test("every GET row refuses the methods it does not list with 405 and an allow header naming them", async () => {
  const handler = gatewayHandler(world);
  for (const path of GET_PATHS) {
    const answer = await handler(new Request(`${BASE}${path}`, { method: "DELETE" }));
    assert.equal(answer.status, 405, path);
    assert.equal(answer.headers.get("allow"), "GET, HEAD", path);
    assert.equal(answer.headers.get("access-control-allow-origin"), null, "no origin sent, none reflected");
    const error = await errorOf(answer);
    assert.equal(error.code, "METHOD_NOT_ALLOWED");
    assert.equal(error.message, "This route answers GET and HEAD only");
  }
});

test("paths are exact: a trailing slash or a longer path is no route, after the guards", async () => {
  const handler = gatewayHandler(world, { authToken: "gateway-token-0123456789abcdef" });
  for (const path of ["/healthz/", "/mcp/", "/api/v1/openapi.json/x", "/api/v1/page-report/"]) {
    const unauthorised = await handler(new Request(`${BASE}${path}`));
    assert.equal(unauthorised.status, 401, `${path} is guarded like any unknown path`);
    const answer = await handler(
      new Request(`${BASE}${path}`, { headers: { authorization: "Bearer gateway-token-0123456789abcdef" } }),
    );
    assert.equal(answer.status, 404, path);
    assert.equal((await errorOf(answer)).code, "NOT_FOUND");
  }
  const health = await handler(new Request(`${BASE}/healthz`, { method: "HEAD" }));
  assert.equal(health.status, 200, "/healthz is open, HEAD included");
});
