/**
 * A `fetch` for outbound calls whose sockets resolve host names through the egress guard's
 * connect-time lookup (`createGuardedLookup`). `guardedFetch` checks the addresses a host
 * resolves to before the request; Node's global fetch then resolves again when it connects,
 * and a DNS answer that changed in between (rebinding to 127.0.0.1 or 169.254.169.254) would
 * be used unchecked. This fetch connects only to addresses the same policy allows. It serves
 * what the live feed needs: one request, no redirect following (`guardedFetch` checks each
 * hop itself), the response body streamed. `resolveAll` is the node:dns resolver the guard
 * checks with, for both services.
 * @module
 */
import { lookup } from "node:dns/promises";
import { type IncomingMessage, request as httpRequest, type RequestOptions } from "node:http";
import { request as httpsRequest } from "node:https";
import { Readable } from "node:stream";
import type { GuardedLookup } from "../../src/shared/net/lookup.ts";

/** Every address node:dns gives for `host`: what the egress guard checks, before the request and at connect time. */
export async function resolveAll(host: string): Promise<string[]> {
  return (await lookup(host, { all: true, verbatim: true })).map((answer) => answer.address);
}

const NO_BODY = new Set([101, 103, 204, 205, 304]);

function responseOf(res: IncomingMessage, method: string): Response {
  const headers = new Headers();
  const raw = res.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) headers.append(raw[i] as string, raw[i + 1] as string);
  const status = res.statusCode ?? 502;
  if (NO_BODY.has(status) || method === "HEAD") {
    res.resume();
    return new Response(null, { status, headers });
  }
  return new Response(Readable.toWeb(res) as ReadableStream<Uint8Array>, { status, headers });
}

/** A fetch whose connections use `lookup`; request bodies are strings or bytes. */
export function pinnedFetch(lookup: GuardedLookup): typeof fetch {
  return (input, init = {}) =>
    new Promise<Response>((resolve, reject) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      const method = (init.method ?? "GET").toUpperCase();
      const signal = init.signal ?? undefined;
      if (signal?.aborted) {
        reject(signal.reason);
        return;
      }
      const options: RequestOptions = {
        method,
        headers: Object.fromEntries(new Headers(init.headers)),
        lookup: lookup as unknown as RequestOptions["lookup"],
        ...(signal ? { signal } : {}),
      };
      const send = url.protocol === "https:" ? httpsRequest : httpRequest;
      const req = send(url, options, (res) => resolve(responseOf(res, method)));
      // A refusal of the connect-time lookup arrives as the guard's own UPSTREAM_BLOCKED, the
      // same answer as the pre-request check.
      req.on("error", (err) => reject(signal?.aborted ? signal.reason : err));
      const body = init.body;
      if (typeof body === "string" || body instanceof Uint8Array) req.end(body);
      else if (body === undefined || body === null) req.end();
      else {
        req.destroy();
        reject(new TypeError("pinnedFetch sends string or byte bodies only"));
      }
    });
}
