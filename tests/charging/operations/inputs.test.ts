/**
 * The typed inputs hold every rule once: the bbox order, the ranges, strict names, the
 * connector's length in characters, real dates; a parsed search maps onto the store's query.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { v } from "../../../deps.ts";
import { IdInput, NearbyInput, SearchInput, SearchSitesInput, siteQueryOf } from "../../../src/charging/operations/inputs.ts";

const refusal = (schema: v.GenericSchema, value: unknown) => {
  const parsed = v.safeParse(schema, value);
  return parsed.success ? "accepted" : parsed.issues.map((issue) => issue.message).join("; ");
};

test("inputs: a bbox keeps minLat <= maxLat and WGS84 ranges; minLon > maxLon crosses the antimeridian", () => {
  const box = (minLon: number, minLat: number, maxLon: number, maxLat: number) => ({ bbox: { minLon, minLat, maxLon, maxLat } });
  assert.equal(refusal(SearchInput, box(177, -19, -179, -16)), "accepted");
  assert.match(refusal(SearchInput, box(0, 10, 1, 5)), /bbox minLat must not exceed maxLat/);
  assert.match(refusal(SearchInput, box(-181, 0, 1, 5)), /bbox longitudes must be within -180\.\.180/);
});

test("inputs: a misspelt argument is refused, not ignored", () => {
  assert.match(refusal(SearchInput, { minPower: 50 }), /unknown argument; use only the names in the input schema/);
  assert.match(refusal(SearchSitesInput, { near: { lat: 1, lon: 2 } }), /unknown argument/);
});

test("inputs: the connector counts characters, not UTF-16 units, and may not be blank", () => {
  assert.equal(refusal(SearchInput, { connector: "🔌".repeat(64) }), "accepted");
  assert.match(refusal(SearchInput, { connector: "🔌".repeat(65) }), /connector must be at most 64 characters/);
  assert.match(refusal(SearchInput, { connector: "  " }), /connector must not be blank/);
});

test("inputs: updatedSince is an ISO date or instant whose day exists", () => {
  assert.equal(refusal(SearchInput, { updatedSince: "2025-01-31T00:00:00Z" }), "accepted");
  assert.match(refusal(SearchInput, { updatedSince: "2025-02-30" }), /updatedSince must be a real date/);
  assert.match(refusal(SearchInput, { updatedSince: "yesterday" }), /updatedSince must be an ISO 8601 date/);
  assert.match(refusal(SearchInput, { cursor: "a b" }), /cursor is not one this API gave/);
});

test("inputs: the defaults of a search and of a nearby search", () => {
  assert.deepEqual(v.parse(SearchInput, {}), { limit: 20, offset: 0 });
  assert.deepEqual(v.parse(NearbyInput, { lat: 48.1, lon: 11.6 }), { lat: 48.1, lon: 11.6, radiusKm: 10, limit: 10 });
  assert.match(refusal(NearbyInput, { lat: 48.1, lon: 11.6, radiusKm: 0 }), /radiusKm must be more than 0 and at most 500/);
  assert.match(refusal(SearchInput, { limit: 101 }), /limit must be an integer from 1 to 100/);
  assert.match(refusal(SearchInput, { status: [] }), /status must list at least one value/);
  assert.match(refusal(IdInput, { id: "" }), /Invalid length/);
});

test("inputs: a parsed search maps onto the store query, absent filters left out", () => {
  const input = v.parse(SearchInput, {
    bbox: { minLon: 1, minLat: 2, maxLon: 3, maxLat: 4 },
    minPowerKw: 50,
    openOnly: false,
    connectorType: ["ccs2"],
    country: ["DE"],
    status: ["AVAILABLE"],
    updatedSince: "2025-01-01",
  });
  assert.deepEqual(siteQueryOf(input), {
    limit: 20,
    offset: 0,
    bbox: [1, 2, 3, 4],
    minPower: 50,
    openOnly: false,
    connectorTypes: ["ccs2"],
    countries: ["DE"],
    statuses: ["AVAILABLE"],
    updatedSince: "2025-01-01",
  });
});
