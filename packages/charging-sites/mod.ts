/**
 * Library entry of the charging-sites package (built to dist/charging-lib.js with its
 * declarations): the charging Fetch handler, its configuration, services and MCP tools, the
 * store and the snapshot format, the embedded real data, and the shared building blocks. No side
 * effects on import.
 * @module
 */
export * from "../../src/shared/mod.ts";
export {
  type ChargingConfig,
  type ChargingHandlerOptions,
  type ChargingServices,
  chargingTools,
  createChargingHandler,
  createChargingServices,
  createStore,
  isSnapshot,
  openSnapshot,
  parseChargingEnv,
  type SiteQuery,
  type Snapshot,
  SnapshotBuilder,
  type Store,
  snapshotOf,
  storeOfSites,
} from "../../src/charging/mod.ts";

/**
 * The embedded real data (Open Charge Map and OpenStreetMap sites, the data `charging serve`
 * answers with) as snapshot bytes for `openSnapshot`. Loaded on the first call, so importing
 * the library costs nothing for callers that bring their own data.
 */
export async function loadEmbeddedSnapshot(): Promise<Uint8Array> {
  return (await import("../../shim/embedded/charging-snapshot.ts")).embeddedSnapshot();
}
