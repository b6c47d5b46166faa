/**
 * Service-account OAuth for Google APIs without a client library: an RS256 JWT signed with
 * WebCrypto, exchanged at the token endpoint (RFC 7523 JWT bearer grant) for an access token.
 * https://developers.google.com/identity/protocols/oauth2/service-account
 * @module
 */
import type { SeoConfig, ServiceAccount } from "../config.ts";
import { TtlCache } from "./cache.ts";
import { requestJson } from "./request.ts";
import { fail, ok, type ProviderDeps, type ProviderResult } from "./types.ts";

const GSC_SCOPE = "https://www.googleapis.com/auth/webmasters.readonly";
const DEFAULT_AUDIENCE = "https://oauth2.googleapis.com/token";
const tokens = new TtlCache<string>(10);

const base64url = (bytes: Uint8Array) =>
  btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
const encodeJson = (value: unknown) => base64url(new TextEncoder().encode(JSON.stringify(value)));

function pkcs8(pem: string): Uint8Array<ArrayBuffer> {
  const body = pem.replace(/-----[A-Z ]+-----/g, "").replace(/\s+/g, "");
  return Uint8Array.from(atob(body), (c) => c.charCodeAt(0));
}

/** Signs the JWT assertion for `account` (valid one hour from `now`). */
async function signAssertion(account: ServiceAccount, scope: string, now: Date): Promise<string> {
  const key = await crypto.subtle.importKey(
    "pkcs8",
    pkcs8(account.private_key),
    { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const iat = Math.floor(now.getTime() / 1000);
  const header = {
    alg: "RS256",
    typ: "JWT",
    ...(account.private_key_id ? { kid: account.private_key_id } : {}),
  };
  const claims = {
    iss: account.client_email,
    scope,
    aud: account.token_uri ?? DEFAULT_AUDIENCE,
    iat,
    exp: iat + 3600,
  };
  const unsigned = `${encodeJson(header)}.${encodeJson(claims)}`;
  const signature = await crypto.subtle.sign("RSASSA-PKCS1-v1_5", key, new TextEncoder().encode(unsigned));
  return `${unsigned}.${base64url(new Uint8Array(signature))}`;
}

/** An access token for Search Console, cached until shortly before it expires. */
export async function gscAccessToken(
  deps: ProviderDeps,
  config: SeoConfig,
  signal?: AbortSignal,
): Promise<ProviderResult<string>> {
  const gsc = config.gsc;
  if (!gsc || "problem" in gsc) return noAccount(gsc);
  const tokenUrl = config.endpoints.SEO_GSC_TOKEN_ENDPOINT;
  // Keyed by the private key itself, so only the holder of the key gets its token.
  const cacheKey = `${tokenUrl} ${gsc.account.private_key}`;
  const hit = tokens.get(cacheKey);
  if (hit) return ok("search-console", hit, deps.now().toISOString());
  const granted = await grant(deps, config, gsc.account, signal);
  if (!granted.ok) return granted;
  const { token, lifetimeS } = granted.value;
  tokens.set(cacheKey, token, Math.max(0, lifetimeS - 60) * 1000);
  return ok("search-console", token, granted.at);
}

/** Why there is no service account: none configured, or the configured one is unusable. */
function noAccount(gsc: { problem: string } | undefined): ProviderResult<never> {
  if (gsc) return fail("search-console", "no-key", gsc.problem);
  return fail(
    "search-console",
    "no-key",
    "Search Console needs SEO_GSC_CREDENTIALS (a service-account JSON key, path or inline, whose client_email is added as a user of your Search Console property)",
  );
}

/** The JWT bearer grant: a signed assertion exchanged at the token endpoint for a token and its lifetime in seconds. */
async function grant(
  deps: ProviderDeps,
  config: SeoConfig,
  account: ServiceAccount,
  signal?: AbortSignal,
): Promise<ProviderResult<{ token: string; lifetimeS: number }>> {
  let assertion: string;
  try {
    assertion = await signAssertion(account, GSC_SCOPE, deps.now());
  } catch {
    return fail(
      "search-console",
      "key-rejected",
      "SEO_GSC_CREDENTIALS has a private_key that is not a PKCS#8 RSA key",
    );
  }
  const answer = await requestJson(deps, {
    source: "search-console",
    name: "Google OAuth",
    url: config.endpoints.SEO_GSC_TOKEN_ENDPOINT,
    init: {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        grant_type: "urn:ietf:params:oauth:grant-type:jwt-bearer",
        assertion,
      }).toString(),
    },
    timeoutMs: config.timeoutMs ?? 15_000,
    keyVar: "SEO_GSC_CREDENTIALS",
    // The assertion grants a token for an hour: it never appears in an error message either.
    secrets: [...config.secrets, assertion],
    signal,
  });
  if (!answer.ok) return answer;
  const body = answer.value as { access_token?: unknown; expires_in?: unknown };
  if (typeof body?.access_token !== "string") {
    return fail("search-console", "provider-down", "Google OAuth answered without an access token");
  }
  const lifetimeS = typeof body.expires_in === "number" ? body.expires_in : 3600;
  return ok("search-console", { token: body.access_token, lifetimeS }, answer.at);
}
