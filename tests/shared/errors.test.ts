import assert from "node:assert/strict";
import { test } from "node:test";
import { ApiError, ERROR_STATUS, errorResponse, toErrorResponse } from "../../src/shared/errors.ts";

test("errorResponse() answers the envelope with the code's status", async () => {
  const res = errorResponse("RATE_LIMITED", "slow down", { "retry-after": "7" });
  assert.equal(res.status, 429);
  assert.equal(res.headers.get("retry-after"), "7");
  assert.deepEqual(await res.json(), { error: { code: "RATE_LIMITED", message: "slow down" } });
});

test("toErrorResponse() keeps ApiError details and hides anything else", async () => {
  const known = toErrorResponse(new ApiError("NOT_FOUND", "no such site"));
  assert.equal(known.status, 404);
  assert.deepEqual(await known.json(), { error: { code: "NOT_FOUND", message: "no such site" } });
  const unknown = toErrorResponse(new Error("secret token abc in stack"));
  assert.equal(unknown.status, 500);
  assert.doesNotMatch(await unknown.text(), /secret/);
});

test("every error code maps to a 4xx or 5xx status", () => {
  for (const status of Object.values(ERROR_STATUS)) assert.ok(status >= 400 && status < 600);
});
