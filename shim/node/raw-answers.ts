/**
 * The JSON envelope for requests node's HTTP server answers without calling the handler:
 * parser errors, CONNECT and unsupported `expect` headers (serve.ts wires them in).
 * @module
 */
import { type IncomingMessage, STATUS_CODES, type ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import { envelope, type ErrorCode, statusOf } from "../../src/shared/errors.ts";

/**
 * A complete envelope answer written straight to a socket (for requests node keeps from the
 * handler), with the code's status unless HTTP names a more precise one (431, 417).
 */
function rawAnswer(code: ErrorCode, message: string, { status = statusOf(code), extra = "" } = {}): string {
  const body = JSON.stringify(envelope(code, message));
  return (
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\ncontent-type: application/json; charset=utf-8\r\n${extra}` +
    `content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`
  );
}

/** How long a client still sending after its answer is read and ignored before the socket closes. */
const LINGER_MS = 2000;

/**
 * Writes `answer` and half-closes, then reads and drops whatever the client still sends for a
 * moment (RFC 9112 9.6): closing with its bytes unread would reset the connection and lose the
 * answer on the client's side.
 */
function lingeringClose(socket: Duplex, answer: string): void {
  socket.on("error", () => socket.destroy());
  socket.end(answer);
  socket.on("data", () => {});
  socket.resume();
  socket.once("end", () => socket.destroy());
  setTimeout(() => socket.destroy(), LINGER_MS).unref();
}

/**
 * Requests node's parser refuses (garbage, bad headers, both content-length and chunked, a
 * 16 KiB header overflow) never reach the handler; they still get the JSON envelope.
 */
export function answerClientError(err: NodeJS.ErrnoException, socket: Duplex): void {
  if (err.code === "ECONNRESET" || !socket.writable) {
    socket.destroy();
    return;
  }
  if (err.code === "ERR_HTTP_REQUEST_TIMEOUT") {
    lingeringClose(socket, rawAnswer("REQUEST_TIMEOUT", "The request did not arrive whole within the server's deadline; send it at once"));
    return;
  }
  socket.end(
    err.code === "HPE_HEADER_OVERFLOW"
      ? rawAnswer("PAYLOAD_TOO_LARGE", "Request headers are over the 16 KiB limit", { status: 431 })
      : rawAnswer("INVALID_ARGUMENTS", "Malformed HTTP request"),
  );
}

/**
 * CONNECT never reaches the request handler (node emits "connect", and closes the socket when
 * nobody listens); it gets the envelope: this is no proxy.
 */
export function answerConnect(_req: IncomingMessage, socket: Duplex): void {
  socket.on("error", () => socket.destroy());
  socket.end(
    rawAnswer("METHOD_NOT_ALLOWED", "CONNECT is not supported: this server is not a proxy", {
      extra: "allow: GET, HEAD, POST, OPTIONS\r\n",
    }),
  );
}

/** An `expect` other than 100-continue (node would answer a bare 417). */
export function answerExpectation(_req: IncomingMessage, res: ServerResponse): void {
  const body = JSON.stringify(envelope("INVALID_ARGUMENTS", "Only the 100-continue expectation is supported"));
  res.writeHead(417, { "content-type": "application/json; charset=utf-8", "content-length": Buffer.byteLength(body), connection: "close" });
  res.end(body);
}
