/**
 * The charging service's public entry for runtime adapters (the Node server and CLI, the
 * Workers entry, the build-time embedding of the real data): the handler and its
 * configuration, the data side it is built over, the CLI and import commands, and the shared
 * pieces an adapter wires around them. The charging-sites library entry
 * (packages/charging-sites/mod.ts) picks its public subset from here.
 * @module
 */
export { exitCodeOf, failureLine } from "../shared/cli/failure.ts";
export { ApiError, errorResponse, isApiError, messageOf } from "../shared/errors.ts";
export { createRateLimiter, createSharedRateLimiter, type RateLimiter, type RateLimitStore } from "../shared/http/rate-limit.ts";
export { bodyOf, type FetchHandler, type RequestContext } from "../shared/http/respond.ts";
export { createGuardedLookup, type GuardedLookup } from "../shared/net/lookup.ts";
export { once } from "../shared/once.ts";
export { runCli } from "./transports/cli/run.ts";
export { type ChargingConfig, parseChargingEnv } from "./config.ts";
export { parseDatasetFile } from "./data/dataset.ts";
export { type ChargingHandlerOptions, createChargingHandler } from "./handler.ts";
export type { Compressor, Encoding } from "./transports/http/compress.ts";
export type { MapAssets, MapFile } from "./transports/http/map-page.ts";
export { type ImportIo, runImport } from "./import/command.ts";
export { type DataFacts, type DownloadOptions, type RefreshIo, runRefresh } from "./import/refresh.ts";
export { chargingTools } from "./transports/mcp.ts";
export { type ChargingServices, createChargingServices } from "./services.ts";
export { createSwappableHandler, type SwappableHandler } from "./swap.ts";
export { isSnapshot } from "./snapshot/container.ts";
export { openSnapshot, openSnapshotPaced, type Snapshot } from "./snapshot/read.ts";
export { SnapshotBuilder, snapshotOf } from "./snapshot/write.ts";
export { createOcpiFeed } from "./status/ocpi-feed.ts";
export type { LiveFeed } from "./status/service.ts";
export { createStore, type SiteQuery, type Store, storeOfSites } from "./search/store.ts";
