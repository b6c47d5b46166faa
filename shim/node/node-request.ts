/**
 * A node:http request as a Fetch `Request`: headers as sent, the body as a web stream read on
 * demand (`duplex: "half"`; a body the handler refuses unread is drained, not reset), and the
 * connection's abort signal.
 * @module
 */
import type { IncomingMessage } from "node:http";
import { LightHeaders } from "../../src/shared/http/light-headers.ts";
import { forwardingPrototype } from "../../src/shared/http/light-prototype.ts";

/**
 * Reads the rest of a body nobody wants (a cap refused it) and throws it away, so the answer
 * reaches the client: closing a socket with unread bytes in it sends a TCP reset, and the
 * client loses the 413 it was about to read (a 5 MB upload did, past the 1 MiB once drained).
 * However long the body, the server's request deadline (serve.ts) ends the draining.
 */
function discard(req: IncomingMessage): void {
  req.removeAllListeners("data");
  req.on("data", () => {});
  req.resume();
}

/** The request body as a web stream that reads on demand, and drains (not resets) when cancelled. */
function bodyStream(req: IncomingMessage): ReadableStream<Uint8Array> {
  let cancelled = false;
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        req.pause();
        req.on("data", (chunk: Buffer) => {
          if (cancelled) return;
          controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
          if ((controller.desiredSize ?? 0) <= 0) req.pause();
        });
        req.once("end", () => {
          if (!cancelled) controller.close();
        });
        req.once("error", (err) => {
          if (!cancelled) controller.error(err);
        });
      },
      pull() {
        req.resume();
      },
      cancel() {
        cancelled = true;
        discard(req);
      },
    },
    { highWaterMark: 1 },
  );
}

/** The undici Request a light one stands for, once built. */
const REAL = Symbol("undici Request");

interface LightRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: Headers;
  readonly signal: AbortSignal;
  [REAL]?: Request;
}

function realOf(light: LightRequest): Request {
  let real = light[REAL];
  if (real === undefined) {
    real = new Request(light.url, { method: light.method, headers: [...light.headers] });
    Object.defineProperty(real, "signal", { value: light.signal });
    light[REAL] = real;
  }
  return real;
}

/**
 * A bodiless request (GET, HEAD) that is a `Request` (its prototype chain is Request's) but
 * keeps its method, URL, headers (a LightHeaders), signal and (null) body as plain fields: constructing an undici Request
 * costs about as much as a cached answer does, and a handler answering a GET reads only
 * these. Anything else (`clone()`, the body readers, `cache`, ...) is answered by an undici
 * Request built on first use. Handlers pass on `request.url` and an init, never the request
 * itself: undici's `new Request(request)` and `fetch(request)` accept only its own objects.
 * (A bodiless request's body is null, never used.)
 */
const OWN_FIELDS = new Set<string | symbol>(["constructor", "method", "url", "headers", "signal", "body", "bodyUsed"]);
const LIGHT = forwardingPrototype<LightRequest>(Request.prototype, OWN_FIELDS, [...OWN_FIELDS].filter((key) => key !== "constructor"), realOf);

function lightRequest(method: string, url: string, headers: Headers, signal: AbortSignal): Request {
  const light = Object.create(LIGHT) as { -readonly [K in keyof LightRequest]: LightRequest[K] } & { body: null; bodyUsed: boolean };
  light.method = method;
  light.url = url;
  light.headers = headers;
  light.signal = signal;
  light.body = null;
  light.bodyUsed = false;
  return light as unknown as Request;
}

export function toRequest(req: IncomingMessage, origin: string, signal: AbortSignal): Request {
  // Plain headers (undici's own are copied from them when a real Request is built).
  const headers = new LightHeaders();
  const raw = req.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) headers.append(raw[i] as string, raw[i + 1] as string);
  const method = req.method ?? "GET";
  // RFC 9112 3.2: an HTTP/1.1 request without Host is answered 400 (node's own check would
  // answer without the JSON envelope, so it is off and this one applies).
  if (req.headers.host === undefined && req.httpVersion === "1.1") throw new Error("no Host header");
  const target = req.url ?? "/";
  // Absolute-form targets (`GET http://host/path`) keep their path; the origin stays ours.
  const path = target.startsWith("/") ? target : new URL(target).pathname + new URL(target).search;
  // A well-formed URL, as the Request constructor would insist (and canonical, as its `url` is).
  const url = new URL(origin + path).href;
  if (method === "GET" || method === "HEAD") return lightRequest(method, url, headers, signal);
  const init: RequestInit & { duplex?: "half" } = { method, headers, body: bodyStream(req), duplex: "half" };
  const request = new Request(url, init);
  // `new Request(url, {signal})` makes undici follow the signal through listeners and a
  // finalization registry, the costliest step of the conversion (about a third of the
  // adapter's time). Handlers read `request.signal`, so it is set as an own property
  // instead; only a clone of the request would miss the disconnect.
  Object.defineProperty(request, "signal", { value: signal });
  return request;
}

const HOST = /^(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/** The request's own origin when its Host header is well-formed, else the listening one. */
export function originOf(host: string | undefined, fallback: string): string {
  return host !== undefined && HOST.test(host) ? `http://${host}` : fallback;
}
