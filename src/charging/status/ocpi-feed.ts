/**
 * A live status feed speaking OCPI 2.2.1 (Locations module, Sender interface):
 * `GET {baseUrl}/{location_id}` answers the OCPI envelope `{data: Location, status_code,
 * timestamp}`; the site status is aggregated over `data.evses[].status`. The deployer's feed
 * uses our site ids as `location_id` (URL-encoded, e.g. `ocm%3A4343`). Every request goes through
 * the egress guard with a timeout and a body size cap.
 * @module
 */
import { v } from "../../../deps.ts";
import { ApiError } from "../../shared/errors.ts";
import { type EgressPolicy, guardedFetch } from "../../shared/net/egress.ts";
import { readCapped } from "../../shared/stream/bytes.ts";
import type { Attribution } from "../data/model.ts";
import type { LiveFeed, LiveObservation } from "./service.ts";
import { aggregateStatus } from "./vocabulary.ts";

interface OcpiFeedConfig {
  /** The Locations endpoint, e.g. `https://feed.example/ocpi/2.2.1/locations`. */
  baseUrl: string;
  /** OCPI credentials token, sent as `Authorization: Token <token>`. */
  token?: string;
  timeoutMs?: number;
  policy: EgressPolicy;
  fetchImpl: typeof fetch;
  now(): Date;
}

const EVSE_STATUS = [
  "AVAILABLE",
  "BLOCKED",
  "CHARGING",
  "INOPERATIVE",
  "OUTOFORDER",
  "PLANNED",
  "REMOVED",
  "RESERVED",
  "UNKNOWN",
] as const;

const EnvelopeSchema = v.object({
  status_code: v.number(),
  data: v.optional(
    v.object({
      evses: v.optional(v.array(v.object({ uid: v.string(), status: v.picklist(EVSE_STATUS) })), []),
    }),
  ),
});

/** A status answer is a few KB; one this large is not an OCPI Location. */
const MAX_BYTES = 1_000_000;

function unavailable(message: string): ApiError {
  return new ApiError("UPSTREAM_UNAVAILABLE", `Live feed: ${message}`);
}

/** Reads at most `maxBytes` of the body, cancelling the stream beyond that. */
async function readCappedText(response: Response, maxBytes: number): Promise<string> {
  if (!response.body) return "";
  const bytes = await readCapped(response.body, maxBytes);
  if (bytes === "too-large") throw unavailable(`response larger than ${maxBytes} bytes`);
  return new TextDecoder().decode(bytes);
}

/** The observation an OCPI Location answer gives (undefined: the feed does not know the site). */
function observationOf(body: string, now: () => Date): LiveObservation | undefined {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    throw unavailable("answer is not JSON");
  }
  const parsed = v.safeParse(EnvelopeSchema, json);
  if (!parsed.success) throw unavailable("answer is not an OCPI 2.2.1 Location envelope");
  const { status_code: code, data } = parsed.output;
  if (code === 2003) return undefined; // OCPI "unknown location"
  if (code < 1000 || code > 1999 || !data) throw unavailable(`OCPI status_code ${code}`);
  const status = aggregateStatus(data.evses.map((e) => e.status).filter((s) => s !== "REMOVED"));
  return status ? { status, retrievedAt: now().toISOString() } : undefined;
}

export function createOcpiFeed(config: OcpiFeedConfig): LiveFeed {
  const base = config.baseUrl.replace(/\/+$/, "");
  const timeoutMs = config.timeoutMs ?? 3000;
  const attribution: Attribution = { text: "Live status: ocpi (OCPI 2.2.1)", url: base };

  async function lookup(id: string, signal?: AbortSignal): Promise<LiveObservation | undefined> {
    const timeout = AbortSignal.timeout(timeoutMs);
    const headers: Record<string, string> = { accept: "application/json" };
    if (config.token) headers.authorization = `Token ${config.token}`;
    const init = { headers, signal: signal ? AbortSignal.any([signal, timeout]) : timeout };
    // A failure of ours (the egress guard, the size cap) says what it is; any other one, what failed or the timeout.
    const failed = (err: unknown, what: string) =>
      err instanceof ApiError ? err : unavailable(timeout.aborted ? `no answer within ${timeoutMs} ms` : what);
    let response: Response;
    try {
      response = await guardedFetch(`${base}/${encodeURIComponent(id)}`, init, config.policy, config.fetchImpl);
    } catch (err) {
      throw failed(err, "request failed");
    }
    if (!response.ok) {
      await response.body?.cancel();
      if (response.status === 404) return undefined;
      throw unavailable(`HTTP ${response.status}`);
    }
    const body = await readCappedText(response, MAX_BYTES).catch((err: unknown) => {
      throw failed(err, "body read failed");
    });
    return observationOf(body, () => config.now());
  }

  return { label: "ocpi", attribution, lookup };
}
