/**
 * What the charging transports (REST routes, MCP tools, CLI) need from the data side.
 * @module
 */
import { createStatusService, type LiveFeed, type StatusService } from "./status/service.ts";
import type { Store } from "./search/store.ts";

export interface ChargingServices {
  store: Store;
  /** Throws ApiError NOT_FOUND (unknown or closed id) or UPSTREAM_BLOCKED (egress guard). */
  status: StatusService;
}

/** Builds the services over a store, with an optional live status feed. */
export function createChargingServices(store: Store, deps: { now(): Date; live?: LiveFeed }): ChargingServices {
  const status = createStatusService(store, { ...deps, importedAt: store.header.importedAt });
  return { store, status };
}
