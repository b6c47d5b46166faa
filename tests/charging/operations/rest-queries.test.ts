/**
 * The REST query strings are read for their syntax (decimals, comma lists, vocabularies in any
 * case), then mapped onto the typed search input, which holds the rules.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { v } from "../../../deps.ts";
import { SearchInput } from "../../../src/charging/operations/inputs.ts";
import { searchOfQuery, SiteByIdQuery, SitesQuery, StatusQuery } from "../../../src/charging/operations/rest-queries.ts";
import { parseQuery } from "../../../src/shared/http/query.ts";

const read = (query: string) => parseQuery(SitesQuery, new URLSearchParams(query));
const search = (query: string) => v.parse(SearchInput, searchOfQuery(read(query)));
const refusal = (run: () => unknown) => {
  try {
    run();
    return "accepted";
  } catch (err) {
    return (err as Error).message;
  }
};

test("rest queries: a sites query maps onto the typed search input", () => {
  assert.deepEqual(search("bbox=1,2,3,4&minPower=50&near=48.1,11.6&radiusKm=5&format=geojson"), {
    bbox: { minLon: 1, minLat: 2, maxLon: 3, maxLat: 4 },
    minPowerKw: 50,
    near: { lat: 48.1, lon: 11.6, radiusKm: 5 },
    limit: 20,
    offset: 0,
  });
  assert.deepEqual(search("near=48.1,11.6").near, { lat: 48.1, lon: 11.6, radiusKm: 10 });
  assert.deepEqual(search("limit=5&offset=10&openOnly=true"), { limit: 5, offset: 10, openOnly: true });
});

test("rest queries: comma lists take common names and any case, once each", () => {
  const input = search("connectorType=CCS2,ccs2,Type 2&current=dc&country=de,at&access=PUBLIC&status=available");
  assert.deepEqual(input.connectorType, ["ccs2", "type2"]);
  assert.equal(input.current, "DC");
  assert.deepEqual(input.country, ["DE", "AT"]);
  assert.deepEqual(input.access, ["public"]);
  assert.deepEqual(input.status, ["AVAILABLE"]);
});

test("rest queries: refusals name the parameter and the rule", () => {
  assert.match(refusal(() => read("bbox=1,2,3")), /bbox must be 4 comma-separated decimal numbers: minLon,minLat,maxLon,maxLat/);
  assert.match(refusal(() => read("minPower=lots")), /minPower must be a plain decimal number \(kW, at least 0, e\.g\. 50\)/);
  assert.match(refusal(() => read("limit=1.5")), /limit must be an integer from 1 to 100/);
  assert.match(refusal(() => read("status=open")), /status "open" is not one of AVAILABLE/);
  assert.match(refusal(() => read("country=DE,,AT")), /country must not have an empty item/);
  assert.match(refusal(() => read("format=xml")), /format must be json or geojson/);
  assert.match(refusal(() => search("radiusKm=5")), /radiusKm needs near=lat,lon/);
  assert.match(refusal(() => search("current=AC,DC")), /current must be one of AC, DC \(one value\)/);
  assert.match(refusal(() => search("bbox=0,10,1,5")), /bbox minLat must not exceed maxLat/);
});

test("rest queries: a site takes only format, a status nothing", () => {
  assert.deepEqual(parseQuery(SiteByIdQuery, new URLSearchParams("format=json")), { format: "json" });
  assert.match(refusal(() => parseQuery(StatusQuery, new URLSearchParams("format=json"))), /This route takes no query parameters/);
});

test("the mapped input names only what the query gave, none of it undefined", () => {
  assert.deepEqual(searchOfQuery(read("bbox=1,2,3,4")), { bbox: { minLon: 1, minLat: 2, maxLon: 3, maxLat: 4 } });
  const mapped = searchOfQuery(read("current=dc&near=48.1,11.5&minPower=50&country=de"));
  assert.deepEqual(Object.keys(mapped).sort(), ["country", "current", "minPowerKw", "near"]);
  assert.deepEqual(mapped, { country: ["DE"], current: "DC", minPowerKw: 50, near: { lat: 48.1, lon: 11.5 } });
});
