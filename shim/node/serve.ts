/**
 * Node adapter: carries a Fetch handler on `node:http`. Request bodies stream (with
 * `duplex: "half"`; a body the handler refuses unread is drained, not reset), the client's
 * disconnect aborts `request.signal`, JSON bodies built by
 * `json()` or `preparedJson()` are written without a stream round-trip (prepared ones as the
 * bytes they already are, their header lines read off a plain map: light-headers.ts), and
 * SIGINT/SIGTERM drain in-flight work (`closeOnSignals`).
 * A request must arrive whole (headers and body) within `requestTimeoutMs` (10 s), Node's own
 * `requestTimeout`, or it is answered REQUEST_TIMEOUT (408) and its connection closed: a body
 * dripped a byte at a time would otherwise hold a connection for Node's default 300 s.
 * Pipelined requests on one connection are handled one at a time, the next only once the
 * answer before it is handed to the socket and the socket wants more, and the socket is not
 * read meanwhile: a client that sends requests but never reads the answers costs one answer,
 * not one per request.
 * Requests node's parser keeps from the handler get the envelope too (raw-answers.ts).
 * Service-agnostic: the charging API and the SEO gateway both run on it.
 * @module
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { type Duplex, Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import { ApiError, errorResponse, toErrorResponse } from "../../src/shared/errors.ts";
import { linesOf } from "../../src/shared/http/light-headers.ts";
import { bodyOf, type FetchHandler } from "../../src/shared/http/respond.ts";
import { originOf, toRequest } from "./node-request.ts";
import { answerClientError, answerConnect, answerExpectation } from "./raw-answers.ts";

export interface ServeOptions {
  port?: number;
  hostname?: string;
  /** How the user chooses the port, named when it is taken (default: the PORT variable). */
  portSetting?: string;
  /** Milliseconds a request's headers and body get to arrive, whole (default 10 s). */
  requestTimeoutMs?: number;
}

/** Default deadline for a whole request: a 64 KiB body needs about 9 s at 56 kbit/s. */
export const REQUEST_TIMEOUT_MS = 10_000;

export interface Serving {
  server: Server;
  url: string;
  close(): Promise<void>;
}

/** Drops a handler's own content-length line: the adapter writes the length of the bytes it sends. */
function withoutLength(lines: string[]): void {
  for (let i = lines.length - 2; i >= 0; i -= 2) if ((lines[i] as string).toLowerCase() === "content-length") lines.splice(i, 2);
}

async function writeResponse(response: Response, res: ServerResponse, isHead: boolean): Promise<void> {
  // Header lines as a flat list, as the bare `writeHead` takes them: a prepared answer's are read off its plain map.
  const headers = linesOf(response.headers);
  const known = bodyOf(response);
  if (known !== undefined) {
    const bytes = typeof known === "string" ? Buffer.from(known) : known;
    if (response.headers.has("content-length")) withoutLength(headers);
    headers.push("content-length", String(bytes.byteLength));
    res.writeHead(response.status, headers);
    res.end(isHead ? undefined : bytes);
    return;
  }
  res.writeHead(response.status, headers);
  if (!response.body || isHead) {
    res.end();
    return;
  }
  // pipeline waits for the socket to drain, and cancels the body when the client goes.
  await pipeline(Readable.fromWeb(response.body as NodeReadableStream<Uint8Array>), res);
}

/**
 * One connection's requests, handled in turn: HTTP/1.1 answers go out in request order anyway,
 * and a handler run ahead for a client that is not reading would only pile answers in memory.
 */
interface Lane {
  busy: boolean;
  waiting: (() => void)[];
}

function laneOf(lanes: WeakMap<Socket, Lane>, socket: Socket): Lane {
  let lane = lanes.get(socket);
  if (!lane) {
    lane = { busy: false, waiting: [] };
    lanes.set(socket, lane);
  }
  return lane;
}

/** Runs `job` now, or after the connection's earlier answers, not reading the socket meanwhile. */
function inTurn(lanes: WeakMap<Socket, Lane>, socket: Socket, job: (done: () => void) => void): void {
  const lane = laneOf(lanes, socket);
  const next = () => {
    const waiting = lane.waiting.shift();
    if (waiting) waiting();
    else {
      lane.busy = false;
      socket.resume();
    }
  };
  const done = () => (socket.writableNeedDrain ? socket.once("drain", next) : next());
  const run = () => job(once(done));
  if (!lane.busy) {
    lane.busy = true;
    run();
    return;
  }
  socket.pause();
  lane.waiting.push(run);
}

function once(fn: () => void): () => void {
  let called = false;
  return () => {
    if (called) return;
    called = true;
    fn();
  };
}

/**
 * Sockets whose answer went out while the body was still arriving: the body is drained (so
 * the client reads its answer, no reset), and the deadline then just closes the connection.
 */
type AnsweredEarly = WeakSet<Socket>;

/** Answers one request with `handler`; `done` once the answer is out or the client has gone. */
function answer(
  context: { handler: FetchHandler; origin: string; answeredEarly: AnsweredEarly },
  req: IncomingMessage,
  res: ServerResponse,
  done: () => void,
): void {
  const { handler, origin, answeredEarly } = context;
  const controller = new AbortController();
  res.once("close", () => {
    if (!res.writableFinished) controller.abort();
    done();
  });
  res.once("finish", () => {
    if (!req.complete) {
      answeredEarly.add(req.socket);
      req.once("end", () => answeredEarly.delete(req.socket));
    }
    done();
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
}

/** Starts serving `handler`; resolves once the socket listens. */
export function serve(handler: FetchHandler, options: ServeOptions = {}): Promise<Serving> {
  const { port = 8787, hostname = "127.0.0.1", requestTimeoutMs = REQUEST_TIMEOUT_MS } = options;
  const origin = `http://${hostname.includes(":") ? `[${hostname}]` : hostname}:${port}`;
  const lanes = new WeakMap<Socket, Lane>();
  const answeredEarly: AnsweredEarly = new WeakSet();
  const context = { handler, origin, answeredEarly };
  const server = createServer(
    { requireHostHeader: false, connectionsCheckingInterval: Math.min(1000, requestTimeoutMs) },
    (req, res) => inTurn(lanes, req.socket, (done) => answer(context, req, res, done)),
  );
  server.on("clientError", (err: NodeJS.ErrnoException, socket: Duplex) => {
    if (answeredEarly.has(socket as Socket)) socket.destroy();
    else answerClientError(err, socket);
  });
  server.on("connect", answerConnect);
  server.on("checkExpectation", answerExpectation);
  server.keepAliveTimeout = 5000;
  server.requestTimeout = requestTimeoutMs;
  server.headersTimeout = requestTimeoutMs;
  return new Promise((resolve, reject) => {
    server.once("error", (err) => reject(listenFailure(err, hostname, port, options.portSetting ?? "PORT")));
    server.listen(port, hostname, () => {
      const address = server.address() as AddressInfo;
      const shownHost = address.family === "IPv6" ? `[${address.address}]` : address.address;
      resolve({ server, url: `http://${shownHost}:${address.port}`, close: () => drain(server) });
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

/** Milliseconds in-flight requests get to finish after a shutdown signal. */
const DRAIN_MS = 5000;

function drain(server: Server): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => server.closeAllConnections(), DRAIN_MS);
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
