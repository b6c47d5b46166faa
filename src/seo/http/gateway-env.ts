/**
 * The gateway's hardening settings from its environment (Node: process.env; Workers: vars
 * and secrets). Every variable is optional; a bad value is INVALID_CONFIG naming it.
 * @module
 */
import { ApiError } from "../../shared/errors.ts";

export interface GatewaySettings {
  /** Bearer token every route but /healthz and CORS preflight requires (GATEWAY_AUTH_TOKEN). */
  authToken?: string;
  /** Origins CORS reflects (GATEWAY_ALLOWED_ORIGINS); `*` when unset. */
  allowedOrigins: "*" | string[];
  /** Requests per minute per client (GATEWAY_RATE_LIMIT, default 60). */
  ratePerMinute: number;
  /** Reverse proxies whose x-forwarded-for entry is trusted (GATEWAY_TRUST_PROXY, Node only). */
  trustedProxies: number;
}

const DEFAULT_GATEWAY_RATE = 60;
/** Shorter tokens are guessable; `openssl rand -hex 32` gives 64 characters. */
const MIN_TOKEN_LENGTH = 16;

type Env = Readonly<Record<string, string | undefined>>;

function origins(raw: string | undefined): GatewaySettings["allowedOrigins"] {
  const text = raw?.trim();
  if (!text || text === "*") return "*";
  return text.split(",").map((entry) => {
    const origin = entry.trim();
    const url = URL.parse(origin);
    if (!url || (url.protocol !== "http:" && url.protocol !== "https:") || url.origin !== origin) {
      throw new ApiError(
        "INVALID_CONFIG",
        `GATEWAY_ALLOWED_ORIGINS: "${origin.slice(0, 100)}" is not an origin; list entries like https://app.example.com, comma-separated`,
      );
    }
    return origin;
  });
}

function wholeNumber(name: string, raw: string | undefined, fallback: number, max: number): number {
  const text = raw?.trim();
  if (!text) return fallback;
  if (!/^\d{1,9}$/.test(text) || Number(text) > max) {
    throw new ApiError("INVALID_CONFIG", `${name} must be a whole number from 0 to ${max}; got "${text.slice(0, 40)}"`);
  }
  return Number(text);
}

function token(raw: string | undefined): string | undefined {
  const text = raw?.trim();
  if (!text) return undefined;
  if (text.length < MIN_TOKEN_LENGTH || /\s/.test(text)) {
    throw new ApiError(
      "INVALID_CONFIG",
      `GATEWAY_AUTH_TOKEN must be at least ${MIN_TOKEN_LENGTH} characters without spaces (e.g. the output of openssl rand -hex 32)`,
    );
  }
  return text;
}

/** Reads the gateway settings; throws INVALID_CONFIG on a bad value. */
export function parseGatewayEnv(env: Env): GatewaySettings {
  const authToken = token(env.GATEWAY_AUTH_TOKEN);
  return {
    ...(authToken ? { authToken } : {}),
    allowedOrigins: origins(env.GATEWAY_ALLOWED_ORIGINS),
    ratePerMinute: wholeNumber("GATEWAY_RATE_LIMIT", env.GATEWAY_RATE_LIMIT, DEFAULT_GATEWAY_RATE, 1_000_000),
    trustedProxies: wholeNumber("GATEWAY_TRUST_PROXY", env.GATEWAY_TRUST_PROXY, 0, 10),
  };
}
