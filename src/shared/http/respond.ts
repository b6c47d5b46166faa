/**
 * Response helpers. JSON bodies are also remembered as text so that a runtime adapter can
 * write them straight to the socket instead of draining a stream (see shim/node/serve.ts).
 * @module
 */

const texts = new WeakMap<Response, string>();

/** Per-request context a runtime adapter passes beside the Request. */
export interface RequestContext {
  /** The peer address of the TCP connection, as the adapter saw it. */
  clientAddress?: string;
}

/** A service: one Fetch handler, whatever runtime carries it. */
export type FetchHandler = (request: Request, context?: RequestContext) => Promise<Response>;

/** A JSON response whose text stays readable by adapters without consuming the body. */
export function json(data: unknown, init: ResponseInit = {}): Response {
  const text = JSON.stringify(data);
  const headers = new Headers(init.headers);
  if (!headers.has("content-type")) headers.set("content-type", "application/json; charset=utf-8");
  const response = new Response(text, { ...init, headers });
  texts.set(response, text);
  return response;
}

/** The text a response was built from by `json`, if it is still unread. */
export function bodyTextOf(response: Response): string | undefined {
  return response.bodyUsed ? undefined : texts.get(response);
}
