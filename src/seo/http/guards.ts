/**
 * The gateway's guard policy for the shared pipeline (src/shared/http/pipeline.ts): how its
 * bearer gate refuses, and its CORS headers.
 * @module
 */
import { type Cors, createCors } from "../../shared/http/cors.ts";
import { BYOK_HEADER_NAMES } from "./byok.ts";

/** How the gateway's bearer gate refuses (the shared pipeline runs it). */
export const BEARER_REFUSALS = {
  realm: "seo-gateway",
  missing: "This gateway needs its access token: send Authorization: Bearer <token>",
  invalid: "The access token is not valid: check the Authorization: Bearer header",
};

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
    exposeHeaders: ["retry-after", "ratelimit", "ratelimit-policy", "www-authenticate", "mcp-protocol-version"],
  });
}
