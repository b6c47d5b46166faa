/**
 * The gateway's egress guard for the tools: a user-named URL (the page of a page report, and
 * every redirect hop after it) never reaches a loopback, private, link-local or metadata
 * address, and is refused with UPSTREAM_BLOCKED before any connection. The deployer's
 * provider endpoints (SEO_*_ENDPOINT) are trusted as configured. What differs per runtime is
 * injected: Node passes a DNS lookup and a fetch that re-checks addresses at connect time;
 * Workers offers code no resolver, so names are judged by name there.
 * @module
 */
import { ApiError, isApiError } from "../../shared/errors.ts";
import type { ToolDef } from "../../shared/mcp/tool.ts";
import { checkUrl, type EgressPolicy, egressFetch } from "../../shared/net/egress.ts";
import type { SeoConfig } from "../config.ts";

/** What the runtime adapter gives the guard. */
export interface GatewayEgress {
  /** Every A/AAAA answer for a name (Node: node:dns); absent where the runtime has none. */
  resolve?: (host: string) => Promise<string[]>;
  /** fetch for untrusted destinations (Node: one whose sockets re-check each address). */
  connect?: typeof fetch;
}

/** One request's guarded network: its fetch, and the refusal it ran into, if any. */
interface GuardedNetwork {
  fetch: typeof fetch;
  /** Throws UPSTREAM_BLOCKED when `url` may not be contacted. */
  check(url: string): Promise<void>;
  /** The last refusal, so a failure it caused can be reported as what it was. */
  refusal(): ApiError | undefined;
}

const originOf = (url: string) => URL.parse(url)?.origin;

/** The egress policy of a gateway over `config`'s provider endpoints. */
export function gatewayPolicy(config: SeoConfig, egress: GatewayEgress): EgressPolicy {
  const trustedOrigins = [...new Set(Object.values(config.endpoints).map(originOf))].filter(
    (o): o is string => o !== undefined,
  );
  return {
    allowHosts: "any",
    trustedOrigins,
    ...(egress.resolve ? { resolve: egress.resolve } : {}),
    maxRedirects: 10,
  };
}

/** A guarded network for one request; `base` is the fetch trusted endpoints are reached with. */
export function guardNetwork(policy: EgressPolicy, egress: GatewayEgress, base: typeof fetch): GuardedNetwork {
  const trusted = new Set(policy.trustedOrigins);
  const connect = egress.connect ?? base;
  const route: typeof fetch = (input, init) =>
    trusted.has(originOf(String(input)) ?? "") ? base(input, init) : connect(input, init);
  const guarded = egressFetch(policy, route);
  let refused: ApiError | undefined;
  const note = (err: unknown) => {
    if (isApiError(err, "UPSTREAM_BLOCKED")) refused = err;
    return err;
  };
  return {
    fetch: (input, init) =>
      guarded(input, init).catch((err: unknown) => {
        throw note(err);
      }),
    async check(url) {
      await checkUrl(url, policy).catch((err: unknown) => {
        throw note(err);
      });
    },
    refusal: () => refused,
  };
}

/** An absolute http(s) URL without credentials: the only kind a tool fetches (others it refuses itself). */
function fetchable(raw: unknown): string | undefined {
  if (typeof raw !== "string") return undefined;
  const url = URL.parse(raw.trim());
  const web = url?.protocol === "http:" || url?.protocol === "https:";
  return url && web && !url.username && !url.password ? url.href : undefined;
}

/**
 * `tool` (one taking a `url` it fetches) behind the guard: the URL is checked before the tool
 * runs, and a failure caused by a refused redirect hop is reported as UPSTREAM_BLOCKED.
 */
export function guardUrlTool(tool: ToolDef, network: GuardedNetwork): ToolDef {
  return {
    ...tool,
    async run(input, context) {
      const url = fetchable((input as { url?: unknown }).url);
      if (url !== undefined) await network.check(url);
      try {
        return await tool.run(input, context);
      } catch (err) {
        // The page "could not be fetched" because a redirect hop was refused: say which.
        const refused = network.refusal();
        if (refused && isApiError(err, "UPSTREAM_UNAVAILABLE")) {
          throw new ApiError("UPSTREAM_BLOCKED", `${refused.message} (reached through a redirect)`);
        }
        throw err;
      }
    },
  };
}
