/**
 * Library entry of the charging-sites package (built to dist/charging-lib.js with its
 * declarations): the charging Fetch handler, its configuration, services and MCP tools, the
 * store and the snapshot format, the embedded real data, and the shared building blocks. No side
 * effects on import.
 * @module
 */
export * from "../../src/shared/mod.ts";
export { type ChargingConfig, parseChargingEnv } from "../../src/charging/config.ts";
export { type ChargingHandlerOptions, createChargingHandler } from "../../src/charging/handler.ts";
export { chargingTools } from "../../src/charging/mcp-tools.ts";
export { type ChargingServices, createChargingServices } from "../../src/charging/services.ts";
export { isSnapshot, openSnapshot, type Snapshot } from "../../src/charging/snapshot/read.ts";
export { SnapshotBuilder, snapshotOf } from "../../src/charging/snapshot/write.ts";
export { createStore, type SiteQuery, type Store, storeOfSites } from "../../src/charging/store.ts";

/**
 * The embedded real data (Open Charge Map and OpenStreetMap sites, the data `charging serve`
 * answers with) as snapshot bytes for `openSnapshot`. Loaded on the first call, so importing
 * the library costs nothing for callers that bring their own data.
 */
export async function loadEmbeddedSnapshot(): Promise<Uint8Array> {
  return (await import("../../shim/embedded/charging-snapshot.ts")).embeddedSnapshot();
}
