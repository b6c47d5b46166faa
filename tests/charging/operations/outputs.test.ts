/**
 * The published OpenAPI document describes the answers the API really gives: every field of
 * a site (JSON and GeoJSON), a page, a status record, checked with a JSON Schema validator
 * against real answers, and with every property required by the site model present.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
// ajv comes with the MCP SDK and the OpenAPI parser (both dev dependencies); 2020-12 is the dialect OpenAPI 3.1 uses.
import { Ajv2020 } from "ajv/dist/2020.js";
import { base, make } from "../transports/http/harness.ts";

// The generated document is read loosely.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Loose = any;

const handler = make({ ratePerMinute: 1000 });
const get = (path: string, accept = "application/json") =>
  handler(new Request(base + path, { headers: { accept } }), { clientAddress: "127.0.0.1" });

async function validatorOf(): Promise<(schema: unknown, value: unknown) => string | undefined> {
  const doc = (await (await get("/api/v1/openapi.json")).json()) as Loose;
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  ajv.addSchema({ $id: "doc", components: doc.components }, "doc");
  return (schema, value) => {
    const rewritten = JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"doc#/components/'));
    const check = ajv.compile(rewritten);
    return check(value) ? undefined : ajv.errorsText(check.errors);
  };
}

const responseSchema = (doc: Loose, path: string, type: string) => doc.paths[path].get.responses["200"].content[type].schema;

test("real answers validate against the published document, JSON and GeoJSON", async () => {
  const doc = (await (await get("/api/v1/openapi.json")).json()) as Loose;
  const validate = await validatorOf();
  const cases: [string, string, string][] = [
    ["/api/v1/sites", "/api/v1/sites?bbox=-180,-90,180,90&limit=100", "application/json"],
    ["/api/v1/sites", "/api/v1/sites?near=52.5,13.4&radiusKm=500", "application/json"],
    ["/api/v1/sites", "/api/v1/sites?limit=100", "application/geo+json"],
    ["/api/v1/sites/{id}", "/api/v1/sites/ocm%3A1", "application/json"],
    ["/api/v1/sites/{id}", "/api/v1/sites/ocm%3A1", "application/geo+json"],
    ["/api/v1/status/{id}", "/api/v1/status/ocm%3A1", "application/json"],
  ];
  for (const [path, url, type] of cases) {
    const response = await get(url, type);
    assert.equal(response.status, 200, url);
    const problem = validate(responseSchema(doc, path, type), await response.json());
    assert.equal(problem, undefined, `${url} (${type})`);
  }
});

test("the site schema lists every field a site answer carries, and an answer missing one fails it", async () => {
  const doc = (await (await get("/api/v1/openapi.json")).json()) as Loose;
  const validate = await validatorOf();
  const siteSchema = responseSchema(doc, "/api/v1/sites/{id}", "application/json").properties.data;
  const { data } = (await (await get("/api/v1/sites/ocm%3A1")).json()) as Loose;
  for (const field of Object.keys(data)) assert.ok(field in siteSchema.properties, `${field} is documented`);
  const { address: _gone, ...without } = data;
  assert.notEqual(validate(siteSchema, without), undefined, "address is required");
});
