/**
 * The embedded real data set as snapshot bytes. Run from source (tests, tsx), it converts
 * `fixtures/charging/sites.json` at start-up; in a bundle, scripts/build.ts replaces this
 * module with the snapshot it converted at build time, so the built servers (Node and
 * Workers) map prebuilt bytes and parse no JSON.
 * @module
 */
import embedded from "../../fixtures/charging/sites.json" with { type: "json" };
import { once, parseDatasetFile, snapshotOf } from "../../src/charging/mod.ts";

export const embeddedSnapshot: () => Uint8Array = once(() => {
  const { header, sites } = parseDatasetFile(embedded);
  return snapshotOf(sites, header);
});
