import assert from "node:assert/strict";
import { test } from "node:test";
import { createKeyGate, presentedKey } from "../../../src/shared/http/api-key.ts";

const req = (headers: Record<string, string>) => new Request("http://x/", { headers });

test("createKeyGate() with no keys lets every request through", async () => {
  const gate = createKeyGate([]);
  assert.equal(await gate(req({})), "ok");
});

test("createKeyGate() accepts any configured key in x-api-key or as a Bearer token", async () => {
  const gate = createKeyGate(["alpha-key", "beta-key"]);
  assert.equal(await gate(req({ "x-api-key": "alpha-key" })), "ok");
  assert.equal(await gate(req({ "x-api-key": "beta-key" })), "ok");
  assert.equal(await gate(req({ authorization: "Bearer beta-key" })), "ok");
  assert.equal(await gate(req({})), "missing");
  assert.equal(await gate(req({ authorization: "Basic YTpi" })), "missing");
  assert.equal(await gate(req({ "x-api-key": "alpha-ke" })), "invalid");
  assert.equal(await gate(req({ "x-api-key": "alpha-key-and-more" })), "invalid");
  assert.equal(await gate(new Request("http://x/?api_key=alpha-key")), "missing", "never from the query");
});

test("presentedKey() prefers x-api-key over Authorization", () => {
  assert.equal(presentedKey(req({ "x-api-key": " k1 ", authorization: "Bearer k2" })), "k1");
  assert.equal(presentedKey(req({ authorization: "bearer   k2" })), "k2");
});
