/**
 * Downloads for `charging refresh`: the answer streams to disk (never held in memory), an
 * attempt is abandoned when no byte arrived for `idleTimeoutMs` (a total deadline would cut a
 * slow but steady multi-GB export), and network errors, timeouts, 429 and 5xx answers are
 * retried with exponential backoff (a `retry-after` the server sends is honoured, up to
 * 10 minutes). Other answers fail at once. The last failure is one UPSTREAM_UNAVAILABLE line
 * naming the URL and what went wrong.
 * @module
 */
import { createWriteStream } from "node:fs";
import { Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import { ApiError, type DownloadOptions } from "../../../src/charging/mod.ts";

const RETRY_AFTER_MAX_MS = 600_000;

/** A failed attempt: why, whether another could succeed, and how long the server asked us to wait. */
interface Failure {
  why: string;
  retryable: boolean;
  waitMs?: number;
}

type Attempt = { bytes: number } | { failure: Failure };

/** An abort timer re-armed by every byte. */
function idleTimer(idleTimeoutMs: number) {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const arm = () => {
    clearTimeout(timer);
    timer = setTimeout(() => controller.abort(), idleTimeoutMs);
  };
  arm();
  return { signal: controller.signal, arm, stop: () => clearTimeout(timer) };
}

function retryAfterMs(value: string | null): number | undefined {
  if (!value) return undefined;
  const seconds = Number(value);
  const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(value) - Date.now();
  return Number.isFinite(ms) && ms >= 0 ? Math.min(ms, RETRY_AFTER_MAX_MS) : undefined;
}

/** An HTTP answer that is not 2xx: its status and the start of its body. */
async function refusal(response: Response): Promise<Failure> {
  const text = (await response.text().catch(() => "")).replace(/\s+/g, " ").trim().slice(0, 160);
  const status = response.status;
  const key = status === 401 || status === 403 ? "; the server wants a key or refuses this client (OCM: --ocm-key or OCM_API_KEY)" : "";
  const waitMs = retryAfterMs(response.headers.get("retry-after"));
  return { why: `HTTP ${status}${text ? ` (${text})` : ""}${key}`, retryable: status === 429 || status >= 500, ...(waitMs === undefined ? {} : { waitMs }) };
}

/** Why a fetch or the stream to disk failed, in a few words; every such failure may pass on a retry. */
function reasonOf(err: unknown, timedOut: boolean, idleTimeoutMs: number): Failure {
  if (timedOut) return { why: `no data for ${idleTimeoutMs / 1000} s`, retryable: true };
  const cause = (err as { cause?: { code?: string; message?: string } }).cause;
  return { why: cause?.code ?? cause?.message ?? (err as Error).message, retryable: true };
}

/** Streams the body of `response` into `to`, re-arming the idle timer with every chunk. */
async function save(response: Response, to: string, idle: ReturnType<typeof idleTimer>): Promise<number> {
  let bytes = 0;
  const count = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      bytes += chunk.byteLength;
      idle.arm();
      done(null, chunk);
    },
  });
  const body = Readable.fromWeb(response.body as NodeReadableStream<Uint8Array>);
  await pipeline(body, count, createWriteStream(to), { signal: idle.signal });
  return bytes;
}

async function attempt(url: string, to: string, options: DownloadOptions): Promise<Attempt> {
  const idle = idleTimer(options.idleTimeoutMs);
  try {
    const headers = { "user-agent": "charging-sites refresh", ...options.headers };
    const response = await fetch(url, { headers, signal: idle.signal });
    if (!response.ok || !response.body) return { failure: await refusal(response) };
    return { bytes: await save(response, to, idle) };
  } catch (err) {
    return { failure: reasonOf(err, idle.signal.aborted, options.idleTimeoutMs) };
  } finally {
    idle.stop();
  }
}

/** Downloads `url` into the file `to`; resolves to its byte count. */
export async function download(url: string, to: string, options: DownloadOptions & { log(line: string): void }): Promise<number> {
  for (let tried = 0; ; tried++) {
    const result = await attempt(url, to, options);
    if ("bytes" in result) return result.bytes;
    const { why, retryable, waitMs = options.backoffMs * 2 ** tried } = result.failure;
    if (!retryable || tried >= options.retries) {
      const times = tried > 0 ? ` ${tried + 1} times` : "";
      throw new ApiError("UPSTREAM_UNAVAILABLE", `GET ${url} failed${times}: ${why}; nothing was replaced: check the URL, or retry later`);
    }
    options.log(`refresh: GET ${url}: ${why}; retry ${tried + 1} of ${options.retries} in ${(waitMs / 1000).toFixed(1)} s`);
    await new Promise((resolve) => setTimeout(resolve, waitMs));
  }
}
