/**
 * Environment -> validated SEO configuration: the optional provider keys and the base URL of
 * every provider (each overridable by `SEO_<PROVIDER>_ENDPOINT`, for proxies and tests).
 * Keys live only here and in the provider that owns them.
 * @module
 */
import { v } from "../../deps.ts";
import { ApiError } from "../shared/errors.ts";

/** Default base URL per provider endpoint variable; each provider appends its documented path. */
export const DEFAULT_ENDPOINTS = {
  SEO_PSI_ENDPOINT: "https://www.googleapis.com/pagespeedonline/v5",
  SEO_CRUX_ENDPOINT: "https://chromeuxreport.googleapis.com/v1",
  SEO_OPR_ENDPOINT: "https://openpagerank.com/api/v1.0",
  SEO_TRANCO_ENDPOINT: "https://tranco-list.eu/api",
  SEO_GSC_ENDPOINT: "https://searchconsole.googleapis.com/webmasters/v3",
  SEO_GSC_TOKEN_ENDPOINT: "https://oauth2.googleapis.com/token",
  SEO_BING_ENDPOINT: "https://ssl.bing.com/webmaster/api.svc/json",
  SEO_GOOGLE_AUTOCOMPLETE_ENDPOINT: "https://suggestqueries.google.com/complete/search",
  SEO_BING_AUTOCOMPLETE_ENDPOINT: "https://api.bing.com/osjson.aspx",
  SEO_DDG_AUTOCOMPLETE_ENDPOINT: "https://duckduckgo.com/ac/",
} as const;
export type EndpointVar = keyof typeof DEFAULT_ENDPOINTS;

/** A Google service-account key file, reduced to the fields the JWT bearer flow needs. */
export const ServiceAccount = v.object({
  type: v.optional(v.literal("service_account")),
  client_email: v.pipe(v.string(), v.email()),
  private_key: v.pipe(v.string(), v.includes("PRIVATE KEY")),
  private_key_id: v.optional(v.string()),
  token_uri: v.optional(v.pipe(v.string(), v.url())),
});
export type ServiceAccount = v.InferOutput<typeof ServiceAccount>;

export interface SeoConfig {
  keys: { psi?: string; crux?: string; opr?: string; bing?: string };
  /** Parsed credentials, or why SEO_GSC_CREDENTIALS could not be used. */
  gsc?: { account: ServiceAccount } | { problem: string };
  endpoints: Record<EndpointVar, string>;
  /** Overrides every provider's own timeout (SEO_PROVIDER_TIMEOUT_MS). */
  timeoutMs?: number;
  /** Minimum gap between Tranco API requests (SEO_TRANCO_INTERVAL_MS; default 1000, its free limit). */
  trancoIntervalMs: number;
  /** Every secret value, so any text leaving the server can be scrubbed of them. */
  secrets: string[];
}

interface ConfigSources {
  env: Record<string, string | undefined>;
  /** Reads a credentials file when SEO_GSC_CREDENTIALS is a path; injected by the shim. */
  readText?: (path: string) => string;
  /** Warnings that do not stop the server (unexpanded placeholders, unusable credentials). */
  warn?: (line: string) => void;
}

// Clients that cannot expand a variable pass the placeholder through verbatim (Claude Code
// `${VAR}`, MCPB `${user_config.x}`); an empty string is how MCPB passes an unset option.
function keyValue(name: string, sources: ConfigSources): string | undefined {
  const raw = sources.env[name]?.trim();
  if (!raw) return undefined;
  if (/^\$\{[^}]*\}$/.test(raw)) {
    sources.warn?.(`${name} holds an unexpanded placeholder; treated as unset`);
    return undefined;
  }
  return raw;
}

function endpoint(name: EndpointVar, env: ConfigSources["env"]): string {
  const raw = env[name]?.trim();
  if (!raw) return DEFAULT_ENDPOINTS[name];
  const url = URL.parse(raw);
  if (!url) throw new ApiError("INVALID_CONFIG", `${name} must be an absolute http(s) URL; got "${raw}"`);
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new ApiError("INVALID_CONFIG", `${name} must be an http(s) URL; got "${raw}"`);
  }
  return raw.replace(/\/+$/, "");
}

function nonNegativeInt(name: string, env: ConfigSources["env"]): number | undefined {
  const raw = env[name]?.trim();
  if (!raw) return undefined;
  if (!/^\d{1,7}$/.test(raw)) throw new ApiError("INVALID_CONFIG", `${name} must be a whole number of milliseconds`);
  return Number(raw);
}

function parseAccount(text: string, name: string): SeoConfig["gsc"] {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { problem: `${name} is not valid JSON; give a service-account key file (path or JSON)` };
  }
  const parsed = v.safeParse(ServiceAccount, json);
  if (!parsed.success) {
    return {
      problem: `${name} is not a service-account key (needs client_email and private_key); create a JSON key in Google Cloud`,
    };
  }
  return { account: parsed.output };
}

function serviceAccount(raw: string, sources: ConfigSources): SeoConfig["gsc"] {
  let text = raw;
  if (!raw.startsWith("{")) {
    try {
      text = sources.readText ? sources.readText(raw) : "";
    } catch {
      return {
        problem: "SEO_GSC_CREDENTIALS names a file that cannot be read; give a readable path or the JSON",
      };
    }
  }
  return parseAccount(text, "SEO_GSC_CREDENTIALS");
}

const secretsOf = (keys: SeoConfig["keys"], gsc: SeoConfig["gsc"]): string[] => [
  ...Object.values(keys).filter((k): k is string => Boolean(k)),
  ...(gsc && "account" in gsc ? [gsc.account.private_key] : []),
];

/** Reads and validates the configuration; throws INVALID_CONFIG on an unusable endpoint or number. */
export function loadConfig(sources: ConfigSources): SeoConfig {
  const { env } = sources;
  const endpoints = Object.fromEntries(
    (Object.keys(DEFAULT_ENDPOINTS) as EndpointVar[]).map((name) => [name, endpoint(name, env)]),
  ) as Record<EndpointVar, string>;
  const keys = {
    psi: keyValue("SEO_PSI_KEY", sources),
    crux: keyValue("SEO_CRUX_KEY", sources),
    opr: keyValue("SEO_OPR_KEY", sources),
    bing: keyValue("SEO_BING_KEY", sources),
  };
  const gscRaw = keyValue("SEO_GSC_CREDENTIALS", sources);
  const gsc = gscRaw ? serviceAccount(gscRaw, sources) : undefined;
  if (gsc && "problem" in gsc) sources.warn?.(gsc.problem);
  const secrets = secretsOf(keys, gsc);
  const timeoutMs = nonNegativeInt("SEO_PROVIDER_TIMEOUT_MS", env);
  return {
    keys: Object.fromEntries(Object.entries(keys).filter(([, k]) => k)) as SeoConfig["keys"],
    ...(gsc ? { gsc } : {}),
    endpoints,
    ...(timeoutMs ? { timeoutMs } : {}),
    trancoIntervalMs: nonNegativeInt("SEO_TRANCO_INTERVAL_MS", env) ?? 1000,
    secrets,
  };
}

/** Keys one request brings (a gateway's BYOK headers); each replaces the deployer's own. */
export interface RequestKeys extends Partial<SeoConfig["keys"]> {
  /** Service-account JSON, as is or base64-encoded (a header holds no line breaks either way). */
  gsc?: string;
  /** Names the GSC source in a problem report (the header it came in). */
  gscName?: string;
}

function decodeAccount(raw: string): string {
  if (raw.startsWith("{")) return raw;
  try {
    return new TextDecoder().decode(Uint8Array.from(atob(raw), (c) => c.charCodeAt(0)));
  } catch {
    return raw;
  }
}

/**
 * `base` with a request's own keys in place of the deployer's; every key either side holds
 * stays in `secrets`, so neither can leave through an error text or a log line.
 */
export function withRequestKeys(base: SeoConfig, request: RequestKeys): SeoConfig {
  const { gsc: gscRaw, gscName = "the credentials", ...given } = request;
  const own = Object.fromEntries(Object.entries(given).filter(([, k]) => k)) as SeoConfig["keys"];
  if (Object.keys(own).length === 0 && !gscRaw) return base;
  const keys = { ...base.keys, ...own };
  const gsc = gscRaw ? parseAccount(decodeAccount(gscRaw), gscName) : base.gsc;
  return {
    ...base,
    keys,
    ...(gsc ? { gsc } : {}),
    secrets: [...new Set([...base.secrets, ...secretsOf(keys, gsc)])],
  };
}

/** Replaces every secret in `text`, so no key can leave through an error or a log line. */
export function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) if (secret.length >= 4) out = out.split(secret).join("[redacted]");
  return out;
}
