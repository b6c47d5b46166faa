/**
 * One HTTP exchange with a provider: a timeout, at most one retry (on 429, 5xx or a network
 * failure) that honours `Retry-After`, JSON parsing, and the mapping of every failure to an
 * `unavailable` code with a reason that says what to do. Secrets never reach the reason.
 * @module
 */
import { redact } from "../config.ts";
import { retryAfterMs } from "../crawl/host-gate.ts";
import type { ProviderId } from "../provenance.ts";
import { fail, ok, type ProviderDeps, type ProviderResult } from "./types.ts";

/** The longest Retry-After we wait out inside one tool call; longer means "quota, try later". */
export const MAX_RETRY_WAIT_MS = 10_000;
const DEFAULT_RETRY_WAIT_MS = 500;

interface ProviderRequest {
  source: ProviderId;
  /** Human name used in reasons, e.g. "PageSpeed Insights". */
  name: string;
  url: string;
  init?: RequestInit;
  timeoutMs: number;
  /** The variable whose key this request carries, named in key-related reasons. */
  keyVar?: string;
  /** Secrets to scrub from any provider text echoed in a reason. */
  secrets: readonly string[];
  /** Statuses that mean "the provider has nothing for this input" (e.g. CrUX 404). */
  noDataStatuses?: readonly number[];
  signal?: AbortSignal;
}

// The provider's own explanation, short and scrubbed of secrets.
function providerMessage(text: string, secrets: readonly string[]): string {
  let message = text;
  try {
    // Google: {"error":{"message"}}; OAuth: {"error","error_description"}; Bing: {"Message"}.
    const body = JSON.parse(text) as {
      error?: { message?: unknown } | string;
      error_description?: unknown;
      message?: unknown;
      Message?: unknown;
    };
    const found =
      typeof body.error === "string"
        ? (body.error_description ?? body.error)
        : (body.error?.message ?? body.message ?? body.Message);
    if (typeof found === "string") message = found;
  } catch {
    // not JSON: keep the raw text
  }
  const clean = redact(message.replace(/\s+/g, " ").trim(), secrets).slice(0, 200);
  return clean ? `: ${clean}` : "";
}

function describeStatus(req: ProviderRequest, status: number, detail: string): ProviderResult<never> {
  const { source, name, keyVar } = req;
  if (req.noDataStatuses?.includes(status)) {
    return fail(source, "no-data", `${name} has no data for this input (HTTP ${status})`);
  }
  if (status >= 300 && status < 400) {
    return fail(
      source,
      "provider-down",
      `${name} redirected the request (HTTP ${status}); keys are not sent on to another address, so check the provider's endpoint (SEO_*_ENDPOINT) and retry`,
    );
  }
  if (status === 429) {
    return fail(source, "quota", `${name} rate limit or quota exhausted (HTTP 429${detail}); retry later`);
  }
  if (status >= 500) {
    return fail(source, "provider-down", `${name} failed (HTTP ${status}${detail}); retry later`);
  }
  if (keyVar && (status === 400 || status === 401 || status === 403)) {
    return fail(
      source,
      "key-rejected",
      `${name} refused the request (HTTP ${status}${detail}); check that ${keyVar} is valid and allowed to use this API`,
    );
  }
  return fail(source, "provider-down", `${name} refused the request (HTTP ${status}${detail})`);
}

async function attempt(deps: ProviderDeps, req: ProviderRequest): Promise<Response | "timeout" | Error> {
  const timeout = AbortSignal.timeout(req.timeoutMs);
  const signal = req.signal ? AbortSignal.any([req.signal, timeout]) : timeout;
  try {
    // A keyed request is not followed to another address: its key (a header or the query) would go along.
    return await deps.fetch(req.url, { ...req.init, signal, redirect: req.keyVar ? "manual" : "follow" });
  } catch (err) {
    if (req.signal?.aborted) throw req.signal.reason;
    return timeout.aborted ? "timeout" : err instanceof Error ? err : new Error(String(err));
  }
}

const retryable = (outcome: Response | "timeout" | Error) =>
  !(outcome instanceof Response) || outcome.status === 429 || outcome.status >= 500;

/** Performs the request and answers the parsed JSON body or an `unavailable` reason. */
export async function requestJson(
  deps: ProviderDeps,
  req: ProviderRequest,
): Promise<ProviderResult<unknown>> {
  let outcome = await attempt(deps, req);
  if (retryable(outcome)) {
    const wait =
      outcome instanceof Response
        ? retryAfterMs(outcome.headers.get("retry-after"), deps.now().getTime(), DEFAULT_RETRY_WAIT_MS, Number.POSITIVE_INFINITY)
        : DEFAULT_RETRY_WAIT_MS;
    // A wait longer than we can afford is not retried: the caller hears "quota, retry later".
    if (wait <= MAX_RETRY_WAIT_MS) {
      if (outcome instanceof Response) await outcome.body?.cancel();
      await deps.sleep(wait, req.signal);
      outcome = await attempt(deps, req);
    }
  }
  if (outcome === "timeout") {
    return fail(
      req.source,
      "provider-down",
      `${req.name} did not answer within ${req.timeoutMs} ms; retry later`,
    );
  }
  if (outcome instanceof Error) {
    return fail(req.source, "provider-down", `${req.name} is unreachable (network error); retry later`);
  }
  const text = await outcome.text().catch(() => "");
  if (!outcome.ok) return describeStatus(req, outcome.status, providerMessage(text, req.secrets));
  try {
    return ok(req.source, JSON.parse(text) as unknown, deps.now().toISOString());
  } catch {
    return fail(
      req.source,
      "provider-down",
      `${req.name} answered with malformed JSON; the provider or a proxy in between may be failing, retry later`,
    );
  }
}
