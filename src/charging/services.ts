/**
 * What the charging transports (REST routes, MCP tools, CLI) need from the data side.
 * @module
 */
import type { StatusService } from "./status/service.ts";
import type { Store } from "./store.ts";

export interface ChargingServices {
  store: Store;
  /** Throws ApiError NOT_FOUND (unknown or closed id) or UPSTREAM_BLOCKED (egress guard). */
  status: StatusService;
}
