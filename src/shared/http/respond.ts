/**
 * Response helpers. JSON bodies are also remembered (as text, or as UTF-8 bytes when they
 * were serialised earlier) so that a runtime adapter can write them straight to the socket
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

/** A JSON response from UTF-8 bytes serialised earlier (a cached answer); the bytes are not copied. */
export function jsonBytes(bytes: Uint8Array<ArrayBuffer>, init: ResponseInit = {}): Response {
  const response = new Response(bytes, withJsonType(init));
  bodies.set(response, bytes);
  return response;
}

/** The text or bytes a response was built from by `json` or `jsonBytes`, if still unread. */
export function bodyOf(response: Response): string | Uint8Array | undefined {
  return response.bodyUsed ? undefined : bodies.get(response);
}

/** The text a response was built from by `json`, if it is still unread. */
export function bodyTextOf(response: Response): string | undefined {
  const body = bodyOf(response);
  return typeof body === "string" ? body : undefined;
}
