import assert from "node:assert/strict";
import { test } from "node:test";
import { validate } from "@readme/openapi-parser";
import { v } from "../../../deps.ts";
import { ERROR_CODES } from "../../../src/shared/errors.ts";
import { ERROR_ENVELOPE_SCHEMA, openApiDocument } from "../../../src/shared/http/openapi.ts";
import { queryNumber } from "../../../src/shared/http/query.ts";

// The generated document is read loosely in assertions.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Loose = any;

const Query = v.strictObject({
  q: v.pipe(v.string(), v.minLength(1), v.maxLength(200), v.description("What to search for")),
  limit: v.optional(queryNumber(v.pipe(v.number(), v.integer(), v.minValue(1), v.metadata({ default: 20 })), "limit must be an integer", "digits")),
  code: v.optional(v.pipe(v.string(), v.regex(/^\d+$/), v.transform(Number))),
});
const Path = v.object({ id: v.pipe(v.string(), v.description("A site id")) });

const operations = [
  {
    method: "get",
    path: "/api/v1/things",
    operationId: "searchThings",
    summary: "Search things",
    query: Query,
    headers: { "x-provider-key": { description: "A provider key for this request only" } },
    responses: {
      "200": { description: "Matches", schema: { type: "object" }, headers: { etag: "Entity tag" } },
      "400": { description: "Bad query", schema: { $ref: "#/components/schemas/ErrorEnvelope" } },
    },
  },
  {
    method: "get",
    path: "/api/v1/things/{id}",
    operationId: "getThing",
    summary: "One thing",
    pathParams: Path,
    responses: { "200": { description: "The thing", schema: { type: "object" } }, "304": { description: "Unchanged" } },
  },
  {
    method: "get",
    path: "/healthz",
    operationId: "health",
    summary: "Liveness",
    secured: false,
    responses: { "200": { description: "ok", schema: { type: "object" } } },
  },
] as const;

test("openApiDocument() renders valibot query and path schemas as a client types them: text, or a number read from text", () => {
  const doc = openApiDocument({ title: "T", version: "1.0.0" }, operations) as Loose;
  assert.equal(doc.openapi, "3.1.0");
  const params = doc.paths["/api/v1/things"].get.parameters;
  assert.deepEqual(params[0], {
    name: "q",
    in: "query",
    required: true,
    description: "What to search for",
    schema: { type: "string", minLength: 1, maxLength: 200 },
  });
  // A number read from text is declared as the number its typed rule says; a bare transform leaves the text.
  assert.deepEqual(params[1], { name: "limit", in: "query", required: false, schema: { type: "integer", minimum: 1, default: 20 } });
  assert.deepEqual(params[2], { name: "code", in: "query", required: false, schema: { type: "string", pattern: "^\\d+$" } });
  assert.deepEqual(params[3], {
    name: "x-provider-key",
    in: "header",
    required: false,
    description: "A provider key for this request only",
    schema: { type: "string" },
  });
  assert.equal(doc.paths["/api/v1/things/{id}"].get.parameters[0].required, true);
  assert.equal(doc.paths["/api/v1/things/{id}"].get.responses["304"].content, undefined);
  assert.deepEqual(doc.components.schemas.ErrorEnvelope, ERROR_ENVELOPE_SCHEMA);
  assert.deepEqual(doc.components.schemas.ErrorEnvelope.properties.error.properties.code.enum, ERROR_CODES, "the registry's codes");
  assert.deepEqual(doc.security, [], "an open API requires nothing");
  assert.deepEqual(doc.servers, [{ url: "/", description: "The origin that serves this document" }]);
});

test("openApiDocument() output passes OpenAPI 3.1 validation, with and without a security scheme", async () => {
  for (const security of [
    undefined,
    { kind: "bearer", description: "GATEWAY_AUTH_TOKEN" },
    { kind: "apiKey", header: "x-api-key", description: "free key", bearerAlso: true },
  ] as const) {
    const doc = openApiDocument({ title: "T", version: "1.0.0", ...(security ? { security } : {}) }, operations);
    const result = await validate(structuredClone(doc) as never);
    assert.equal(result.valid, true, JSON.stringify(result));
    if (security) {
      assert.deepEqual((doc as Loose).paths["/healthz"].get.security, []);
      assert.equal((doc as Loose).paths["/api/v1/things"].get.security, undefined);
    }
  }
});

test("openApiDocument() fails validation on a broken operation (the validator is not a no-op)", async () => {
  const doc = openApiDocument({ title: "T", version: "1.0.0" }, operations) as Loose;
  delete doc.paths["/api/v1/things"].get.responses["200"].description;
  const result = await validate(doc);
  assert.equal(result.valid, false);
});
