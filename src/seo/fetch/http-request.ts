/**
 * The HTTP primitive a fetch runs on: status, a header reader and a body stream. `fetch` is
 * adapted to it here; the Node adapter passes a lighter one (`shim/node/seo/crawl-request.ts`).
 * @module
 */

/**
 * The one thing the crawl and the audit read of response headers. WHATWG `Headers` is one; the
 * Node adapter passes a lighter reader over the raw header list, so a crawl never loads undici.
 */
export interface ResponseHeaders {
  /** The value of `name` (any case), repeated fields joined with ", "; null when absent. */
  get(name: string): string | null;
}

/** Headers of a response that never came. */
export const NO_HEADERS: ResponseHeaders = { get: () => null };

/** The HTTP primitive the crawler needs; `fetch` is adapted to it, and a runtime may offer a lighter one. */
export interface HttpResponse {
  status: number;
  headers: ResponseHeaders;
  body: AsyncIterable<Uint8Array> | undefined;
  /** Drops the body unread (and its connection, if it cannot be reused). */
  cancel(): void;
  /**
   * Reads the body by callback, where the runtime has a cheaper way than async iteration (Node
   * stream events); `take` returning false stops reading and drops the rest.
   */
  readChunks?(take: (chunk: Uint8Array) => boolean): Promise<void>;
}

export type HttpRequest = (
  url: string,
  init: { headers: Record<string, string>; signal: AbortSignal },
) => Promise<HttpResponse>;

async function* chunksOf(stream: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
  const reader = stream.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
}

/** `fetch` as an `HttpRequest`, with redirects left to the caller. */
export function fetchAsHttpRequest(fetcher: typeof fetch): HttpRequest {
  return async (url, init) => {
    const response = await fetcher(url, { ...init, redirect: "manual" });
    const body = response.body;
    return {
      status: response.status,
      headers: response.headers,
      body: body ? chunksOf(body) : undefined,
      cancel: () => void body?.cancel().catch(() => {}),
    };
  };
}
