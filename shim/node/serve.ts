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
import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { ApiError, errorResponse, toErrorResponse } from "../../src/shared/errors.ts";
import { bodyOf, type FetchHandler } from "../../src/shared/http/respond.ts";
import { originOf, toRequest } from "./node-request.ts";
import { answerClientError, answerConnect, answerExpectation } from "./raw-answers.ts";

export interface ServeOptions {
  port?: number;
  hostname?: string;
  /** Milliseconds in-flight requests get to finish after a shutdown signal. */
  drainMs?: number;
  /** How the user chooses the port, named when it is taken (default: the PORT variable). */
  portSetting?: string;
}

export interface Serving {
  server: Server;
  url: string;
  close(): Promise<void>;
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
    server.once("error", (err) => reject(listenFailure(err, hostname, port, options.portSetting ?? "PORT")));
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

/**
 * Why the socket could not listen, in one line with the fix: a taken port is the common case
 * (a second server, or the last one still running), and Node's text for it is a bare EADDRINUSE.
 */
function listenFailure(err: Error & { code?: string }, hostname: string, port: number, portSetting: string): Error {
  const where = `${hostname.includes(":") ? `[${hostname}]` : hostname}:${port}`;
  if (err.code === "EADDRINUSE")
    return new ApiError("INVALID_CONFIG", `${where} is already in use by another process; stop that process, or choose another port with ${portSetting} (0 = any free port)`, { cause: err });
  if (err.code === "EACCES")
    return new ApiError("INVALID_CONFIG", `${where} needs privileges this process does not have (ports below 1024 usually do); choose a port from 1024 up with ${portSetting}`, { cause: err });
  if (err.code === "EADDRNOTAVAIL")
    return new ApiError("INVALID_CONFIG", `${hostname} is not an address of this machine, so nothing can listen on it; bind 127.0.0.1, 0.0.0.0 or one of this machine's addresses`, { cause: err });
  return err;
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

/**
 * Exit codes after a signal: Ctrl-C is an interruption, 130 (128 + SIGINT) as shells report it;
 * SIGTERM is how supervisors (systemd, containers) stop a server on purpose, a clean 0.
 */
const EXIT_AFTER: Readonly<Record<string, number>> = { SIGINT: 130, SIGTERM: 0 };

/** Closes `serving` gracefully on the first SIGINT or SIGTERM, then exits. */
export function closeOnSignals(
  serving: Serving,
  log: (line: string) => void = (l) => process.stderr.write(`${l}\n`),
): void {
  const stop = (signal: string) => {
    const why = signal === "SIGINT" ? "interrupted (Ctrl-C), " : "";
    log(`${signal}: ${why}draining connections, then exiting with ${EXIT_AFTER[signal]}`);
    serving.close().then(() => process.exit(EXIT_AFTER[signal]));
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}
