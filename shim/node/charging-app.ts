/**
 * Node wiring of the charging service, shared by `dist/charging.js` and `charging serve`:
 * environment, dataset file (or the embedded real data), the live feed behind the egress
 * guard with node:dns, then the Fetch handler on the Node adapter.
 * @module
 */
import { lookup } from "node:dns/promises";
import { readFile } from "node:fs/promises";
import { type ChargingConfig, ConfigError, parseChargingEnv } from "../../src/charging/config.ts";
import { type DatasetHeader, parseDatasetFile } from "../../src/charging/dataset.ts";
import { createChargingHandler } from "../../src/charging/handler.ts";
import type { Site } from "../../src/charging/model.ts";
import { type ChargingServices, createChargingServices } from "../../src/charging/services.ts";
import { createOcpiFeed } from "../../src/charging/status/ocpi-feed.ts";
import type { LiveFeed } from "../../src/charging/status/service.ts";
import { createSharedRateLimiter, type RateLimiter } from "../../src/shared/http/rate-limit.ts";
import { createGuardedLookup } from "../../src/shared/net/lookup.ts";
import { pinnedFetch } from "./pinned-fetch.ts";
import { createRedisRateStore } from "./redis-rate-store.ts";
import { closeOnSignals, serve, type Serving } from "./serve.ts";

export type Dataset = { header: DatasetHeader; sites: Site[] };

/** Reads and validates a dataset file, or the embedded real data when `path` is undefined. */
export async function loadDataset(path?: string): Promise<Dataset> {
  if (path === undefined) {
    const embedded = await import("../../fixtures/charging/sites.json", { with: { type: "json" } });
    return parseDatasetFile(embedded.default);
  }
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (err) {
    throw new ConfigError(
      `CHARGING_DATA: cannot read ${path} (${(err as NodeJS.ErrnoException).code ?? "error"})`,
    );
  }
  try {
    return parseDatasetFile(JSON.parse(text));
  } catch (err) {
    throw new ConfigError(`CHARGING_DATA: ${path}: ${(err as Error).message}`);
  }
}

async function resolveAll(host: string): Promise<string[]> {
  return (await lookup(host, { all: true, verbatim: true })).map((answer) => answer.address);
}

function liveFeed(config: ChargingConfig): LiveFeed | undefined {
  const live = config.live;
  if (!live) return undefined;
  const policy = { allowHosts: live.allowHosts, allowAddresses: live.allowAddresses, resolve: resolveAll };
  return createOcpiFeed({
    baseUrl: live.baseUrl,
    ...(live.token ? { token: live.token } : {}),
    timeoutMs: live.timeoutMs,
    policy,
    // Connections resolve through the same policy, so a DNS answer that changes after the
    // check (rebinding to a private address) gets no connection.
    fetchImpl: pinnedFetch(createGuardedLookup(policy)),
    now: () => new Date(),
  });
}

/** The services over `dataset` with the live feed `config` asks for. */
export function servicesFor(dataset: Dataset, config: ChargingConfig): ChargingServices {
  const live = liveFeed(config);
  return createChargingServices(dataset, { now: () => new Date(), ...(live ? { live } : {}) });
}

/** Waiting for Redis at start-up is bounded: the server starts anyway, counting per instance. */
const REDIS_START_WAIT_MS = 1000;

/** The limiter shared through Redis, and how the start-up line describes it. */
async function sharedLimiter(
  config: ChargingConfig,
  log: (line: string) => void,
): Promise<{ limiter?: RateLimiter; note: string }> {
  if (!config.redisUrl) return { note: "" };
  const store = createRedisRateStore(config.redisUrl);
  const up = await store.ready(REDIS_START_WAIT_MS);
  const limiter = createSharedRateLimiter({
    limit: config.ratePerMinute,
    windowMs: 60_000,
    maxClients: 50_000,
    store,
    log,
  });
  const note = up ? `, rate limit shared via ${store.label}` : `, ${store.label} unreachable: rate limit per instance until it answers`;
  return { limiter, note };
}

/**
 * Validates `env`, loads the data and starts listening; drains and exits on SIGINT/SIGTERM.
 * The start-up line (URL and site count) is logged only once the signal handlers are in place.
 */
export async function startChargingServer(
  env: Readonly<Record<string, string | undefined>>,
  log: (line: string) => void,
): Promise<Serving> {
  const config = parseChargingEnv(env);
  const dataset = await loadDataset(config.dataPath);
  const services = servicesFor(dataset, config);
  const { limiter, note } = await sharedLimiter(config, log);
  const handler = createChargingHandler({ ...services, ...config, log, ...(limiter ? { rateLimiter: limiter } : {}) });
  const serving = await serve(handler, { port: config.port, hostname: config.host });
  closeOnSignals(serving, log);
  const gate = config.apiKeys.length > 0 ? `, key gate on (${config.apiKeys.length} keys)` : "";
  log(`charging: listening on ${serving.url} (${services.store.size} sites${gate}${note})`);
  return serving;
}
