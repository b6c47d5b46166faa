/**
 * Crawl bounds: documented defaults per host class and hard caps per front end. Inputs are
 * validated against the caps at the edge (tool, CLI); the crawl core trusts what it is given,
 * so the benchmark can go wider.
 *
 * Defaults depend on where the site runs: a site on the user's own machine or private network
 * (`isOwnMachine`) gets no politeness gap, more parallel requests and budgets that finish a
 * documentation-sized site; a remote site keeps the polite defaults. Caps depend on the front
 * end: an MCP tool call answers an agent within a client's timeout, the CLI may run for hours.
 * @module
 */
import { v } from "../../../deps.ts";

export interface CrawlBounds {
  /** HTML pages fetched (each URL requested counts once, redirects included). */
  maxPages: number;
  /** Clicks from the start URL; links found deeper are not followed. */
  maxDepth: number;
  /** Wall-clock budget for the whole crawl. */
  maxSeconds: number;
  /** Parallel requests per host. */
  concurrency: number;
  /** Minimum gap between request starts per host; raised to robots Crawl-delay (clamped). */
  minIntervalMs: number;
  timeoutMs: number;
  maxRedirects: number;
  /** Bytes of a page body read; beyond it the page is audited as truncated. */
  maxBytes: number;
  /** Retries after 429, 5xx or a network error, each waiting Retry-After (clamped). */
  retries: number;
  /** Subresources (images, scripts, stylesheets) checked for breakage; 0 turns it off. */
  maxResources: number;
  /** Discover URLs from sitemaps (robots.txt Sitemap: lines, conventional paths, link rel=sitemap). */
  sitemaps: boolean;
}

export type HostClass = "own-machine" | "remote";
export type FrontEnd = "tool" | "cli";

type Tunable = "maxPages" | "maxDepth" | "maxSeconds" | "concurrency" | "minIntervalMs" | "timeoutMs";

const REMOTE: Record<Tunable, number> = {
  maxPages: 100,
  maxDepth: 5,
  maxSeconds: 60,
  concurrency: 2,
  minIntervalMs: 500,
  timeoutMs: 15_000,
};

/** The user's own machine or network: no gap, 8 in parallel, a 1,000-page docs site within a minute. */
const OWN_MACHINE: Record<Tunable, number> = {
  maxPages: 1000,
  maxDepth: 10,
  maxSeconds: 60,
  concurrency: 8,
  minIntervalMs: 0,
  timeoutMs: 15_000,
};

/** Defaults per front end and host class: the CLI on the own machine goes to 10,000 pages in 10 minutes. */
export const DEFAULTS: Record<FrontEnd, Record<HostClass, Record<Tunable, number>>> = {
  tool: { remote: REMOTE, "own-machine": OWN_MACHINE },
  cli: { remote: REMOTE, "own-machine": { ...OWN_MACHINE, maxPages: 10_000, maxSeconds: 600 } },
};

/** Hard caps per front end. */
export const CAPS: Record<FrontEnd, Record<Tunable, number>> = {
  tool: {
    maxPages: 5000,
    maxDepth: 10,
    maxSeconds: 300,
    concurrency: 32,
    minIntervalMs: 10_000,
    timeoutMs: 30_000,
  },
  cli: {
    maxPages: 100_000,
    maxDepth: 100,
    maxSeconds: 86_400,
    concurrency: 32,
    minIntervalMs: 10_000,
    timeoutMs: 30_000,
  },
};

/** Politeness a remote site always gets, whatever the input asks. */
export const REMOTE_LIMITS = { maxConcurrency: 4, minIntervalMs: 100 } as const;

const MINIMUM: Record<Tunable, number> = {
  maxPages: 1,
  maxDepth: 0,
  maxSeconds: 5,
  concurrency: 1,
  minIntervalMs: 0,
  timeoutMs: 1000,
};

/** Remote defaults and tool caps, in the shape tool descriptions read them. */
export const LIMITS = Object.fromEntries(
  (Object.keys(REMOTE) as Tunable[]).map((key) => [
    key,
    { default: REMOTE[key], min: MINIMUM[key], cap: CAPS.tool[key] },
  ]),
) as Record<Tunable, { default: number; min: number; cap: number }>;

/** Fixed policy (not inputs). */
export const POLICY = {
  maxRedirects: 10,
  maxBytes: 5 * 1024 * 1024,
  retries: 1,
  retryAfterCapMs: 10_000,
  defaultBackoffMs: 1000,
  crawlDelayCapMs: 10_000,
  stopHostAfter: 5,
  maxSitemapFiles: 10,
  maxSitemapUrls: 50_000,
  sitemapBytes: 50 * 1024 * 1024,
  robotsRedirects: 5,
  /** Links followed per page; the rest of a page's links are counted as cut. */
  linksPerPage: 1000,
  /**
   * URLs remembered beyond the records the page budget needs, as 64-bit hashes (16 bytes
   * each): counting what was not crawled stays exact on infinite sites without keeping them.
   */
  seenPerPage: 20,
  seenCap: 2_000_000,
} as const;

export function defaultBounds(overrides: Partial<CrawlBounds> = {}): CrawlBounds {
  return {
    maxPages: REMOTE.maxPages,
    maxDepth: REMOTE.maxDepth,
    maxSeconds: REMOTE.maxSeconds,
    concurrency: REMOTE.concurrency,
    minIntervalMs: REMOTE.minIntervalMs,
    timeoutMs: REMOTE.timeoutMs,
    maxRedirects: POLICY.maxRedirects,
    maxBytes: POLICY.maxBytes,
    retries: POLICY.retries,
    maxResources: REMOTE.maxPages,
    sitemaps: true,
    ...overrides,
  };
}

const whole = (key: Tunable, front: FrontEnd, what: string) => {
  const remote = DEFAULTS[front].remote[key];
  const own = DEFAULTS[front]["own-machine"][key];
  const defaults = remote === own ? `default ${remote}` : `default ${remote}, ${own} on your own machine`;
  return v.optional(
    v.pipe(
      v.number(),
      v.integer(),
      v.minValue(MINIMUM[key]),
      v.maxValue(CAPS[front][key]),
      v.description(`${what} (${defaults}; ${MINIMUM[key]}–${CAPS[front][key]})`),
    ),
  );
};

const PRODUCTION_URL = v.optional(
  v.pipe(
    v.string(),
    v.maxLength(2000),
    v.regex(/^(none|[Hh][Tt][Tt][Pp][Ss]?:\/\/[^/].*)$/, 'an absolute http(s) URL, or "none"'),
    v.description(
      'The production URL of the start page, when auditing a staging or local copy: canonical, hreflang, link and sitemap URLs under it are read as the same paths on the audited site. Detected from the start page\'s canonical when not given; "none" turns that off',
    ),
  ),
);

function inputFor(front: FrontEnd) {
  return {
    max_pages: whole("maxPages", front, "HTML pages to fetch"),
    max_depth: whole("maxDepth", front, "clicks from the start URL to follow"),
    max_seconds: whole(
      "maxSeconds",
      front,
      "wall-clock budget in seconds; a partial report comes back when it runs out",
    ),
    concurrency: whole(
      "concurrency",
      front,
      `parallel requests per host (at most ${REMOTE_LIMITS.maxConcurrency} for remote sites)`,
    ),
    min_interval_ms: whole(
      "minIntervalMs",
      front,
      `minimum gap between requests per host in ms (at least ${REMOTE_LIMITS.minIntervalMs} for remote sites; raised to robots.txt Crawl-delay)`,
    ),
    timeout_ms: whole("timeoutMs", front, "per-request timeout in ms"),
    check_resources: v.optional(
      v.pipe(v.boolean(), v.description("check images, scripts and stylesheets for breakage (default true)")),
    ),
    use_sitemaps: v.optional(
      v.pipe(
        v.boolean(),
        v.description(
          "discover URLs from sitemaps: robots.txt Sitemap: lines, /sitemap.xml, /sitemap_index.xml, the start directory's sitemap.xml, <link rel=sitemap> (default true)",
        ),
      ),
    ),
    production_url: PRODUCTION_URL,
  };
}

/** Input fields of the MCP tool, snake_case, with the tool's caps. */
export const boundsInput = inputFor("tool");
/** The same fields with the CLI's caps. */
export const cliBoundsInput = inputFor("cli");

export interface BoundsInput {
  max_pages?: number | undefined;
  max_depth?: number | undefined;
  max_seconds?: number | undefined;
  concurrency?: number | undefined;
  min_interval_ms?: number | undefined;
  timeout_ms?: number | undefined;
  check_resources?: boolean | undefined;
  use_sitemaps?: boolean | undefined;
  production_url?: string | undefined;
}

/** Why validated input is still refused for this host class, or undefined. */
export function politenessProblem(input: BoundsInput, hosts: HostClass): string | undefined {
  if (hosts === "own-machine") return undefined;
  if (input.min_interval_ms !== undefined && input.min_interval_ms < REMOTE_LIMITS.minIntervalMs)
    return `min_interval_ms below ${REMOTE_LIMITS.minIntervalMs} is allowed only for sites on your own machine or network (localhost, private addresses, .local/.test/.internal names); use ${REMOTE_LIMITS.minIntervalMs} or more`;
  if (input.concurrency !== undefined && input.concurrency > REMOTE_LIMITS.maxConcurrency)
    return `concurrency above ${REMOTE_LIMITS.maxConcurrency} is allowed only for sites on your own machine or network; use ${REMOTE_LIMITS.maxConcurrency} or less`;
  return undefined;
}

/** Resolves validated input against the defaults for this host class and front end. */
export function boundsFrom(input: BoundsInput, hosts: HostClass, front: FrontEnd = "tool"): CrawlBounds {
  const d = DEFAULTS[front][hosts];
  const maxPages = input.max_pages ?? d.maxPages;
  return defaultBounds({
    maxPages,
    maxDepth: input.max_depth ?? d.maxDepth,
    maxSeconds: input.max_seconds ?? d.maxSeconds,
    concurrency: input.concurrency ?? d.concurrency,
    minIntervalMs: input.min_interval_ms ?? d.minIntervalMs,
    timeoutMs: input.timeout_ms ?? d.timeoutMs,
    maxResources: input.check_resources === false ? 0 : maxPages,
    sitemaps: input.use_sitemaps !== false,
  });
}

/** One sentence on the tool's bounds, for its description. */
export function describeToolBounds(): string {
  const r = DEFAULTS.tool.remote;
  const o = DEFAULTS.tool["own-machine"];
  const c = CAPS.tool;
  return `remote sites: ${r.maxPages} pages, depth ${r.maxDepth}, ${r.maxSeconds} s, ${r.concurrency} parallel requests ${r.minIntervalMs} ms apart; sites on your own machine or network (localhost, private addresses): ${o.maxPages} pages, depth ${o.maxDepth}, ${o.maxSeconds} s, ${o.concurrency} parallel, no gap; caps ${c.maxPages} pages, depth ${c.maxDepth}, ${c.maxSeconds} s (the seo-audit-mcp audit CLI goes to ${CAPS.cli.maxPages.toLocaleString("en")} pages)`;
}
