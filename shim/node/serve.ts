/**
 * Node adapter: carries a Fetch handler on `node:http`. Request bodies stream (with
 * `duplex: "half"`; a body the handler refuses unread is drained, not reset), the client's
 * disconnect aborts `request.signal`, JSON bodies built by
 * `json()` or `preparedJson()` are written without a stream round-trip (prepared ones as the
 * bytes they already are), and SIGINT/SIGTERM drain in-flight work (`closeOnSignals`).
 * Requests node's parser keeps from the handler get the envelope too (raw-answers.ts).
 * Service-agnostic: the charging API and the SEO gateway both run on it.
 * @module
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { errorResponse, toErrorResponse } from "../../src/shared/errors.ts";
import { bodyOf, type FetchHandler } from "../../src/shared/http/respond.ts";
import { answerClientError, answerConnect, answerExpectation } from "./raw-answers.ts";

export interface ServeOptions {
  port?: number;
  hostname?: string;
  /** Milliseconds in-flight requests get to finish after a shutdown signal. */
  drainMs?: number;
}

export interface Serving {
  server: Server;
  url: string;
  close(): Promise<void>;
}

/** A body left unread past this is not worth draining: the connection is dropped instead. */
const DRAIN_LIMIT_BYTES = 1024 * 1024;

/**
 * Reads the rest of a body nobody wants (a cap refused it) and throws it away, so the answer
 * reaches the client: closing a socket with unread bytes in it sends a TCP reset, and the
 * client loses the 413 it was about to read. Past the drain limit the socket is dropped.
 */
function discard(req: IncomingMessage): void {
  let drained = 0;
  req.removeAllListeners("data");
  req.on("data", (chunk: Buffer) => {
    drained += chunk.byteLength;
    if (drained > DRAIN_LIMIT_BYTES) req.destroy();
  });
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

function toRequest(req: IncomingMessage, origin: string, signal: AbortSignal): Request {
  const headers = new Headers();
  const raw = req.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) headers.append(raw[i] as string, raw[i + 1] as string);
  const method = req.method ?? "GET";
  const init: RequestInit & { duplex?: "half" } = { method, headers };
  if (method !== "GET" && method !== "HEAD") {
    init.body = bodyStream(req);
    init.duplex = "half";
  }
  // RFC 9112 3.2: an HTTP/1.1 request without Host is answered 400 (node's own check would
  // answer without the JSON envelope, so it is off and this one applies).
  if (req.headers.host === undefined && req.httpVersion === "1.1") throw new Error("no Host header");
  const target = req.url ?? "/";
  // Absolute-form targets (`GET http://host/path`) keep their path; the origin stays ours.
  const path = target.startsWith("/") ? target : new URL(target).pathname + new URL(target).search;
  const request = new Request(origin + path, init);
  // `new Request(url, {signal})` makes undici follow the signal through listeners and a
  // finalization registry, the costliest step of the conversion (about a third of the
  // adapter's time). Handlers read `request.signal`, so it is set as an own property
  // instead; only a clone of the request would miss the disconnect.
  Object.defineProperty(request, "signal", { value: signal });
  return request;
}

const HOST = /^(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/** The request's own origin when its Host header is well-formed, else the listening one. */
function originOf(host: string | undefined, fallback: string): string {
  return host !== undefined && HOST.test(host) ? `http://${host}` : fallback;
}

function headersOf(response: Response): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  response.headers.forEach((value, key) => {
    if (key !== "set-cookie") out[key] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) out["set-cookie"] = cookies;
  return out;
}

async function writeResponse(response: Response, res: ServerResponse, isHead: boolean): Promise<void> {
  const headers = headersOf(response);
  const known = bodyOf(response);
  if (known !== undefined) {
    const bytes = typeof known === "string" ? Buffer.from(known) : known;
    headers["content-length"] = String(bytes.byteLength);
    res.writeHead(response.status, headers);
    res.end(isHead ? undefined : bytes);
    return;
  }
  res.writeHead(response.status, headers);
  if (!response.body || isHead) {
    res.end();
    return;
  }
  const reader = response.body.getReader();
  res.once("close", () => void reader.cancel().catch(() => {}));
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (!res.write(value)) await new Promise((resolve) => res.once("drain", resolve));
  }
  res.end();
}

/** Starts serving `handler`; resolves once the socket listens. */
export function serve(handler: FetchHandler, options: ServeOptions = {}): Promise<Serving> {
  const { port = 8787, hostname = "127.0.0.1", drainMs = 5000 } = options;
  const origin = `http://${hostname.includes(":") ? `[${hostname}]` : hostname}:${port}`;
  const server = createServer({ requireHostHeader: false }, (req, res) => {
    const controller = new AbortController();
    res.once("close", () => {
      if (!res.writableFinished) controller.abort();
    });
    let request: Request;
    try {
      request = toRequest(req, originOf(req.headers.host, origin), controller.signal);
    } catch {
      // A client-made Host or request target that is no URL must not take the process down.
      void writeResponse(errorResponse("INVALID_ARGUMENTS", "Malformed request target or Host header"), res, false);
      return;
    }
    handler(request, { clientAddress: req.socket.remoteAddress })
      .catch(toErrorResponse)
      .then((response) => writeResponse(response, res, req.method === "HEAD"))
      .catch(() => res.destroy());
  });
  server.on("clientError", answerClientError);
  server.on("connect", answerConnect);
  server.on("checkExpectation", answerExpectation);
  server.keepAliveTimeout = 5000;
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, hostname, () => {
      const address = server.address() as AddressInfo;
      const shownHost = address.family === "IPv6" ? `[${address.address}]` : address.address;
      resolve({
        server,
        url: `http://${shownHost}:${address.port}`,
        close: () => drain(server, drainMs),
      });
    });
  });
}

function drain(server: Server, drainMs: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => server.closeAllConnections(), drainMs);
    timer.unref();
    server.close(() => {
      clearTimeout(timer);
      resolve();
    });
    server.closeIdleConnections();
  });
}

/** Closes `serving` gracefully on the first SIGINT or SIGTERM, then exits. */
export function closeOnSignals(
  serving: Serving,
  log: (line: string) => void = (l) => process.stderr.write(`${l}\n`),
): void {
  const stop = (signal: string) => {
    log(`${signal}: draining connections`);
    serving.close().then(() => process.exit(0));
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}
