/**
 * Workers adapter of the charging API (`dist/charging-worker.js`): the same Fetch handler
 * over the embedded real data (a snapshot converted at build time), configured from the
 * worker's bindings with the variables of the Node server. What differs from Node:
 * - the client address is `cf-connecting-ip` (set by Cloudflare in front of every worker);
 * - the rate limit counts per isolate, in memory (no Redis);
 * - no compression in the handler: Cloudflare compresses Worker answers at its edge for the
 *   client's real accept-encoding (the worker sees a normalised header);
 * - no live status feed: the egress guard must resolve a feed host before connecting, and
 *   Workers have no DNS API, so `CHARGING_LIVE_URL` is refused as a misconfiguration.
 * - the store opens and prepares when the isolate starts (charging-store.ts), the handler on
 *   the first request (the bindings arrive with it).
 * A bad binding answers every request 500 INTERNAL (the detail goes to the worker's log).
 * `PORT`, `HOST` and `CHARGING_DATA` mean nothing here and are ignored.
 * @module
 */
import { ApiError, bodyOf, createChargingHandler, createChargingServices, errorResponse, type FetchHandler, parseChargingEnv } from "../../src/charging/mod.ts";
import { store } from "./charging-store.ts";
import { mapAssets } from "../embedded/charging-map.ts";

type Env = Record<string, unknown>;

const IGNORED = new Set(["PORT", "HOST", "CHARGING_DATA"]);

function settings(env: Env): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) if (typeof value === "string" && !IGNORED.has(name)) out[name] = value;
  return out;
}

function build(env: Env): FetchHandler {
  const config = parseChargingEnv(settings(env));
  if (config.live) throw new ApiError("INVALID_CONFIG", "CHARGING_LIVE_URL is not supported by the Workers build (no DNS to check the feed's addresses)");
  if (config.redisUrl) throw new ApiError("INVALID_CONFIG", "CHARGING_REDIS_URL is not supported by the Workers build (the rate limit counts per isolate)");
  const services = createChargingServices(store, { now: () => new Date() });
  return createChargingHandler({ ...services, ...config, encodings: [], log: (line) => console.error(line), mapAssets: mapAssets() });
}

/**
 * Prepared answers keep their bytes beside the Response (the Node adapter writes them to the
 * socket); workerd sends the Response's own body, so they are handed over as a plain one.
 * Bytes the core already compressed go out as they are (`encodeBody: "manual"`): workerd
 * would otherwise encode the body again to match its content-encoding.
 */
function materialised(response: Response): Response {
  const body = bodyOf(response);
  if (body === undefined || typeof body === "string") return response;
  const { status, statusText, headers } = response;
  const manual = headers.has("content-encoding") ? { encodeBody: "manual" } : {};
  // As pairs: a prepared answer's headers are a LightHeaders, which workerd's Response would not read.
  return new Response(body as Uint8Array<ArrayBuffer>, { status, statusText, headers: [...headers], ...manual } as ResponseInit);
}

let handler: FetchHandler | undefined;
let failure: string | undefined;

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    if (!handler && !failure) {
      try {
        handler = build(env);
      } catch (err) {
        failure = err instanceof Error ? err.message : String(err);
      }
    }
    if (!handler) {
      console.error(`charging: misconfigured: ${failure}`);
      return errorResponse("INTERNAL", "The service is misconfigured; its operator can read why in the worker's log");
    }
    const response = await handler(request, { clientAddress: request.headers.get("cf-connecting-ip") ?? undefined });
    return materialised(response);
  },
};
