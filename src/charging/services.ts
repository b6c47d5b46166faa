/**
 * What the charging transports (REST routes, MCP tools, CLI) need from the data side.
 * @module
 */
import type { DatasetHeader } from "./dataset.ts";
import type { Site } from "./model.ts";
import { createStatusService, type LiveFeed, type StatusService } from "./status/service.ts";
import { createStore, type Store } from "./store.ts";

export interface ChargingServices {
  store: Store;
  /** Throws ApiError NOT_FOUND (unknown or closed id) or UPSTREAM_BLOCKED (egress guard). */
  status: StatusService;
}

/** Builds the services over a parsed dataset file, with an optional live status feed. */
export function createChargingServices(
  dataset: { header: DatasetHeader; sites: readonly Site[] },
  deps: { now(): Date; live?: LiveFeed },
): ChargingServices {
  const store = createStore(dataset.sites);
  const status = createStatusService(store, { ...deps, importedAt: dataset.header.importedAt });
  return { store, status };
}
