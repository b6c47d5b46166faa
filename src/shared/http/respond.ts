/**
 * Response helpers. JSON bodies are also remembered (as text, or as UTF-8 bytes when they
 * were prepared earlier) so that a runtime adapter can write them straight to the socket
 * instead of draining a stream (see shim/node/serve.ts).
 * @module
 */

import { LightHeaders } from "./light-headers.ts";
import { forwardingPrototype } from "./light-prototype.ts";

const bodies = new WeakMap<Response, string | Uint8Array>();

/** Per-request context a runtime adapter passes beside the Request. */
export interface RequestContext {
  /** The peer address of the TCP connection, as the adapter saw it. */
  clientAddress?: string;
}

/** A service: one Fetch handler, whatever runtime carries it. */
export type FetchHandler = (request: Request, context?: RequestContext) => Promise<Response>;

const JSON_TYPE = "application/json; charset=utf-8";

function withJsonType(init: ResponseInit): ResponseInit {
  if (init.headers === undefined) return { ...init, headers: { "content-type": JSON_TYPE } };
  // A plain record is extended as it is: an intermediate Headers would validate every header twice.
  if (!(init.headers instanceof Headers) && !Array.isArray(init.headers)) {
    const record = init.headers as Record<string, string>;
    for (const name in record) if (name.toLowerCase() === "content-type") return init;
    return { ...init, headers: { "content-type": JSON_TYPE, ...record } };
  }
  const headers = new Headers(init.headers);
  if (!headers.has("content-type")) headers.set("content-type", JSON_TYPE);
  return { ...init, headers };
}

/** A JSON response whose text stays readable by adapters without consuming the body. */
export function json(data: unknown, init: ResponseInit = {}): Response {
  const text = JSON.stringify(data);
  const response = new Response(text, withJsonType(init));
  bodies.set(response, text);
  return response;
}

/** A JSON value serialised once to UTF-8 bytes, to be answered many times. */
export interface PreparedJson {
  bytes: Uint8Array<ArrayBuffer>;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Serialises `data` once, to be answered many times with `preparedJson`. */
export function prepareJson(data: unknown): PreparedJson {
  return prepareText(JSON.stringify(data));
}

/** Prepares JSON text assembled by the caller (it must be valid JSON). */
export function prepareText(text: string): PreparedJson {
  return { bytes: encoder.encode(text) };
}

/** The JSON text of a prepared value (for tests and logs). */
export function preparedText(prepared: PreparedJson): string {
  return decoder.decode(prepared.bytes);
}

/**
 * Joins JSON fragments into one prepared answer; prepared parts are copied, never re-encoded.
 * Strings are encoded straight into the answer (room for 3 bytes per UTF-16 unit, the most one
 * takes) and one-byte parts (a search page's commas) written as a byte: a distinct search page
 * joins some 40 parts, where a copy call per part cost more than its bytes.
 */
export function joinPrepared(parts: readonly (string | PreparedJson)[]): PreparedJson {
  let room = 0;
  for (const part of parts) room += typeof part === "string" ? 3 * part.length : part.bytes.byteLength;
  const bytes = new Uint8Array(room);
  let at = 0;
  for (const part of parts) {
    if (typeof part === "string") at += encoder.encodeInto(part, bytes.subarray(at)).written;
    else if (part.bytes.byteLength === 1) bytes[at++] = part.bytes[0] as number;
    else {
      bytes.set(part.bytes, at);
      at += part.bytes.byteLength;
    }
  }
  return { bytes: at === room ? bytes : bytes.subarray(0, at) };
}

const readable = new WeakMap<Response, Response>();

/** Where a prepared answer keeps its bytes (a field: a WeakMap entry per answer costs more). */
const BYTES = Symbol("prepared bytes");

interface Light {
  status: number;
  statusText: string;
  headers: Headers;
  [BYTES]: Uint8Array<ArrayBuffer>;
}

/**
 * The prepared answer as an ordinary Response, built on first use: constructing an undici
 * Response (its headers checked one by one, a ReadableStream for the body) costs about as
 * much as assembling a search answer, and the runtime adapter writes the prepared bytes and
 * header lines without one; only an in-process reader of the body (or of a member below that
 * is not the answer's own) gets it.
 */
function readableOf(response: Response): Response {
  let real = readable.get(response);
  if (real === undefined) {
    const { status, statusText, headers, [BYTES]: bytes } = response as unknown as Light;
    real = new Response(bytes, { status, statusText, headers: [...headers] });
    readable.set(response, real);
  }
  return real;
}

/**
 * Prepared answers: Responses (their prototype chain is Response's) that keep status,
 * headers (a LightHeaders) and body as plain data. Every other member of Response reads the
 * real one `readableOf` builds. Only this module makes them, so the adapter's `bodyOf` knows
 * their bytes.
 */
const OWN = new Set<string | symbol>(["constructor", "status", "statusText", "headers", "ok", "type", "url", "redirected", "bodyUsed", "clone"]);
const PREPARED = forwardingPrototype<Response>(Response.prototype, OWN, ["status", "statusText", "headers", BYTES], readableOf);
Object.defineProperties(PREPARED, {
  ok: { get(this: Light) { return this.status >= 200 && this.status <= 299; } },
  type: { value: "default" },
  url: { value: "" },
  redirected: { value: false },
  bodyUsed: { get(this: Response) { return readable.get(this)?.bodyUsed ?? false; } },
  clone: {
    value(this: Response) {
      if (this.bodyUsed) throw new TypeError("Response.clone: the body has already been read");
      const { status, statusText, headers, [BYTES]: bytes } = this as unknown as Light;
      return preparedOf(bytes, status, statusText, new LightHeaders(headers));
    },
    writable: true,
  },
});

function preparedOf(bytes: Uint8Array<ArrayBuffer>, status: number, statusText: string, headers: Headers): Response {
  const light = Object.create(PREPARED) as Light;
  light.status = status;
  light.statusText = statusText;
  light.headers = headers;
  light[BYTES] = bytes;
  return light as unknown as Response;
}

/**
 * A JSON response from a prepared value: adapters write its bytes and header lines as they
 * are, and an in-process reader gets them through the usual Response members.
 */
export function preparedJson(prepared: PreparedJson, init: ResponseInit = {}): Response {
  const { status = 200, statusText = "" } = init;
  if (status < 200 || status > 599) throw new RangeError(`init["status"] must be in the range of 200 to 599, inclusive.`);
  const headers = new LightHeaders(init.headers as ConstructorParameters<typeof LightHeaders>[0]);
  if (!headers.has("content-type")) headers.set("content-type", JSON_TYPE);
  return preparedOf(prepared.bytes, status, statusText, headers);
}

/** The text or bytes a response was built from by `json` or `preparedJson`, if still unread. */
export function bodyOf(response: Response): string | Uint8Array | undefined {
  return response.bodyUsed ? undefined : ((response as Partial<Light>)[BYTES] ?? bodies.get(response));
}

/** The text a response was built from by `json`, if it is still unread. */
export function bodyTextOf(response: Response): string | undefined {
  const body = bodyOf(response);
  return typeof body === "string" ? body : undefined;
}
