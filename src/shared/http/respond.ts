/**
 * Response helpers. JSON bodies are also remembered (as text, or as UTF-8 bytes when they
 * were prepared earlier) so that a runtime adapter can write them straight to the socket
 * instead of draining a stream (see shim/node/serve.ts).
 * @module
 */

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

/** A JSON value serialised once, as text (for readers of the Response) and UTF-8 bytes (for adapters). */
export interface PreparedJson {
  text: string;
  bytes: Uint8Array;
}

const encoder = new TextEncoder();

/** Serialises `data` once, to be answered many times with `preparedJson`. */
export function prepareJson(data: unknown): PreparedJson {
  return prepareText(JSON.stringify(data));
}

/** Prepares JSON text assembled by the caller (it must be valid JSON). */
export function prepareText(text: string): PreparedJson {
  return { text, bytes: encoder.encode(text) };
}

/**
 * Joins JSON fragments into one prepared answer. Prepared parts are copied as bytes, never
 * encoded again; plain strings (short punctuation, small values) are encoded here.
 */
export function joinPrepared(parts: readonly (string | PreparedJson)[]): PreparedJson {
  const prepared = parts.map((part) => (typeof part === "string" ? prepareText(part) : part));
  let size = 0;
  for (const part of prepared) size += part.bytes.byteLength;
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const part of prepared) {
    bytes.set(part.bytes, at);
    at += part.bytes.byteLength;
  }
  return { text: prepared.map((part) => part.text).join(""), bytes };
}

/**
 * A JSON response from a prepared value. The Response body is the text (undici encodes it
 * only if someone reads it in-process); adapters write the prepared bytes as they are.
 */
export function preparedJson(prepared: PreparedJson, init: ResponseInit = {}): Response {
  const response = new Response(prepared.text, withJsonType(init));
  bodies.set(response, prepared.bytes);
  return response;
}

/** The text or bytes a response was built from by `json` or `preparedJson`, if still unread. */
export function bodyOf(response: Response): string | Uint8Array | undefined {
  return response.bodyUsed ? undefined : bodies.get(response);
}

/** The text a response was built from by `json`, if it is still unread. */
export function bodyTextOf(response: Response): string | undefined {
  const body = bodyOf(response);
  return typeof body === "string" ? body : undefined;
}
