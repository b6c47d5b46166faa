/**
 * The gateway's guards, run before any route but the open ones: the per-client rate limit and
 * the optional bearer token; and its CORS policy.
 * @module
 */
import { ApiError } from "../../shared/errors.ts";
import { bearerToken, createKeyGate, type KeyGate } from "../../shared/http/api-key.ts";
import { clientKey } from "../../shared/http/client-ip.ts";
import { type Cors, createCors } from "../../shared/http/cors.ts";
import { createRateLimiter } from "../../shared/http/rate-limit.ts";
import { BYOK_HEADER_NAMES } from "./byok.ts";

/** What the guards are configured with (the handler's options of the same names). */
export interface GuardOptions {
  authToken?: string | undefined;
  ratePerMinute?: number | undefined;
  trustedProxies?: number | undefined;
  now?: (() => number) | undefined;
}

/** The rate limit, then the bearer token: throws RATE_LIMITED or UNAUTHORIZED. */
export function createGuards(options: GuardOptions) {
  const { ratePerMinute = 0, trustedProxies = 0, now } = options;
  const limiter =
    ratePerMinute > 0
      ? createRateLimiter({ limit: ratePerMinute, windowMs: 60_000, maxClients: 50_000, ...(now ? { now } : {}) })
      : undefined;
  const gate: KeyGate | undefined = options.authToken ? createKeyGate([options.authToken], bearerToken) : undefined;

  return async (request: Request, peer: string | undefined): Promise<void> => {
    if (limiter) {
      const decision = await limiter.hit(clientKey(request, peer, trustedProxies));
      if (!decision.allowed) {
        const wait = String(decision.retryAfterSeconds);
        throw new ApiError("RATE_LIMITED", `Over ${ratePerMinute} requests per minute from your address; retry in ${wait} s`, {
          headers: { "retry-after": wait },
        });
      }
    }
    const verdict = gate ? await gate(request) : "ok";
    if (verdict !== "ok") {
      throw new ApiError(
        "UNAUTHORIZED",
        verdict === "missing"
          ? "This gateway needs its access token: send Authorization: Bearer <token>"
          : "The access token is not valid: check the Authorization: Bearer header",
        { headers: { "www-authenticate": 'Bearer realm="seo-gateway"' } },
      );
    }
  };
}

/** CORS for the gateway: its methods, the MCP and BYOK headers. */
export function gatewayCors(origins: "*" | readonly string[]): Cors {
  return createCors({
    origins,
    allowMethods: ["GET", "POST", "OPTIONS"],
    allowHeaders: [
      "content-type",
      "accept",
      "authorization",
      "mcp-protocol-version",
      "mcp-session-id",
      "last-event-id",
      ...BYOK_HEADER_NAMES,
    ],
    exposeHeaders: ["retry-after", "www-authenticate", "mcp-protocol-version"],
  });
}
