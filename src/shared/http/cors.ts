/**
 * CORS for browser maps. Written here rather than taken from itty-router because its 6.0.0
 * `corsify` turns a 404 into a 200; this one edits headers in place, so status, body and
 * every other header survive untouched.
 * @module
 */

interface CorsOptions {
  /** `"*"` or the exact origins allowed (scheme://host[:port]). */
  origins: "*" | readonly string[];
  allowMethods?: readonly string[];
  allowHeaders?: readonly string[];
  exposeHeaders?: readonly string[];
  maxAgeSeconds?: number;
}

export interface Cors {
  /** The answer to a preflight request, or undefined when `request` is not one. */
  preflight(request: Request): Response | undefined;
  /** `response` with CORS headers added for `request`'s origin. */
  apply(response: Response, request: Request): Response;
}

/** Whether a `vary` header value already names `field` (a preflight passes through `apply` too). */
const varies = (vary: string | null, field: string) =>
  vary !== null && vary.split(",").some((name) => name.trim().toLowerCase() === field);

/** `response` with `headers` set (a `vary` value added to the list), edited in place when it may be. */
export function withHeaders(response: Response, headers: Record<string, string>): Response {
  try {
    for (const [name, value] of Object.entries(headers)) {
      if (name !== "vary") response.headers.set(name, value);
      else if (!varies(response.headers.get("vary"), value)) response.headers.append(name, value);
    }
    return response;
  } catch {
    // Immutable headers (a fetched or Response.error() response): copy, keeping the status.
    const copy = new Response(response.body, response);
    return withHeaders(copy, headers);
  }
}

/** Creates the CORS policy. */
export function createCors(options: CorsOptions): Cors {
  const {
    origins,
    allowMethods = ["GET", "HEAD", "POST", "OPTIONS"],
    allowHeaders = ["content-type", "x-api-key", "authorization"],
    exposeHeaders = ["retry-after", "ratelimit", "ratelimit-policy"],
    maxAgeSeconds = 86400,
  } = options;
  const anyOrigin = origins === "*";
  const allowed = new Set(anyOrigin ? [] : origins);

  const originHeaders = (origin: string | null): Record<string, string> | undefined => {
    if (origin === null) return anyOrigin ? undefined : { vary: "origin" };
    if (anyOrigin) return { "access-control-allow-origin": "*" };
    if (!allowed.has(origin)) return { vary: "origin" };
    return { "access-control-allow-origin": origin, vary: "origin" };
  };

  return {
    preflight(request) {
      if (request.method !== "OPTIONS" || !request.headers.has("access-control-request-method")) return;
      const headers = originHeaders(request.headers.get("origin")) ?? {};
      if (headers["access-control-allow-origin"]) {
        headers["access-control-allow-methods"] = allowMethods.join(", ");
        headers["access-control-allow-headers"] = allowHeaders.join(", ");
        headers["access-control-max-age"] = String(maxAgeSeconds);
      }
      return new Response(null, { status: 204, headers });
    },
    apply(response, request) {
      const headers = originHeaders(request.headers.get("origin"));
      if (!headers) return response;
      if (headers["access-control-allow-origin"] && exposeHeaders.length > 0) {
        headers["access-control-expose-headers"] = exposeHeaders.join(", ");
      }
      return withHeaders(response, headers);
    },
  };
}
