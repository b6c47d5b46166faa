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

/** Joins JSON fragments into one prepared answer; prepared parts are copied, never re-encoded. */
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
  return { bytes };
}

const readable = new WeakMap<Response, Response>();

/**
 * The body of a prepared response as an ordinary Response, built on first use. A Response
 * constructed with a body builds a ReadableStream at once, the costliest part of it; the
 * runtime adapter writes the prepared bytes and never needs one, so it is made only when
 * someone reads the body in-process.
 */
function readableOf(response: Response): Response {
  let real = readable.get(response);
  if (real === undefined) {
    const bytes = bodies.get(response) as Uint8Array<ArrayBuffer>;
    const { status, statusText, headers } = response;
    real = new Response(bytes, { status, statusText, headers });
    readable.set(response, real);
  }
  return real;
}

class PreparedResponse extends Response {
  override arrayBuffer(): Promise<ArrayBuffer> {
    return readableOf(this).arrayBuffer();
  }
  override blob(): Promise<Blob> {
    return readableOf(this).blob();
  }
  override formData(): Promise<FormData> {
    return readableOf(this).formData();
  }
  override json(): Promise<unknown> {
    return readableOf(this).json();
  }
  override text(): Promise<string> {
    return readableOf(this).text();
  }
  override clone(): Response {
    if (this.bodyUsed) throw new TypeError("Response.clone: the body has already been read");
    const copy = new PreparedResponse(null, {
      status: this.status,
      statusText: this.statusText,
      headers: this.headers,
    });
    bodies.set(copy, bodies.get(this) as Uint8Array);
    return copy;
  }
}

// `body` and `bodyUsed` are accessors on Response.prototype; they are redefined the same way.
Object.defineProperties(PreparedResponse.prototype, {
  body: {
    get(this: Response) {
      return readableOf(this).body;
    },
  },
  bodyUsed: {
    get(this: Response) {
      return readable.get(this)?.bodyUsed ?? false;
    },
  },
  bytes: {
    value(this: Response) {
      return readableOf(this)
        .arrayBuffer()
        .then((buffer) => new Uint8Array(buffer));
    },
  },
});

/**
 * A JSON response from a prepared value: adapters write its bytes as they are, and an
 * in-process reader gets them through the usual body methods.
 */
export function preparedJson(prepared: PreparedJson, init: ResponseInit = {}): Response {
  const response = new PreparedResponse(null, withJsonType(init));
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
